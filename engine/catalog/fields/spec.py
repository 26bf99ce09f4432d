"""The Agent Skills specification's checks of one file's frontmatter, and the length limits."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from ..diagnostics import Sink, Where
from ..frontmatter import Parsed
from .names import KNOWN_FIELDS, SPEC_FIELDS

_SPEC_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

LIMITS = {"name": 64, "description": 1024, "when_to_use": 1024, "argument-hint": 256}
BODY_LIMIT = 15_000
SPEC_NAME_MAX = 64
SPEC_COMPATIBILITY_MAX = 500


class SpecChecks:
    """The spec and limit checks of `FieldReader`, kept apart from reading the fields; `_at` is
    where a key's diagnostics point, for both."""

    data: dict[str, Any]
    parsed: Parsed
    path: Path
    sink: Sink
    skill: str

    def _at(self, key: str) -> Where:
        pos = self.parsed.position(key)
        out: Where = {"skill": self.skill}
        if pos:
            out["line"], out["column"] = pos
        return out

    def limits(self, values: dict[str, str | None], body_chars: int) -> None:
        for key, limit in LIMITS.items():
            value = values.get(key)
            if value is not None and len(value) > limit:
                self.sink.warning(
                    "limit-exceeded",
                    self.path,
                    f"{key} is {len(value):,} characters, over the {limit:,} limit; the skill "
                    "still loads with all of it, but the Agent Skills spec and claude.ai reject it",
                    f"shorten {key} to {limit:,} characters or fewer",
                    **self._at(key),
                )
        if body_chars > BODY_LIMIT:
            self.sink.warning(
                "limit-exceeded",
                self.path,
                f"the body is {body_chars:,} characters, over the {BODY_LIMIT:,} limit; the skill "
                "still loads and every run sends all of it",
                "move detail into references/ files the skill reads when it needs them",
                skill=self.skill,
            )

    def spec(self, dir_name: str) -> None:
        """The Agent Skills specification's rules, as the reference validator applies them."""
        data = self.data
        name, desc = data.get("name"), data.get("description")
        if (
            data.keys() <= SPEC_FIELDS
            and isinstance(name, str)
            and isinstance(desc, str)
            and desc
            and not desc.isspace()  # desc.strip(), without copying it
            and not spec_name_problems(name)
            and "compatibility" not in data
            and "metadata" not in data
            and not isinstance(data.get("allowed-tools"), list)
        ):
            return
        # Claude Code's own keys are fine in a Claude Code skill, so they are only noted here;
        # `validate --strict` promotes every spec-* diagnostic to an error. Keys nobody knows
        # already have an unknown-field warning.
        extra = [k for k in self.data if k not in SPEC_FIELDS and k in KNOWN_FIELDS]
        if extra:
            self.sink.info(
                "spec-field",
                self.path,
                f"the Agent Skills spec does not allow {', '.join(f'`{k}`' for k in extra)}; "
                f"Claude Code understands {'it' if len(extra) == 1 else 'them'}, other clients and claude.ai upload "
                f"may reject {'it' if len(extra) == 1 else 'them'}",
                "keep them if the skill is meant for Claude Code",
                **self._at(extra[0]),
            )
        name = self.data.get("name")
        if not isinstance(name, str) or not name.strip():
            self.sink.warning(
                "spec-name",
                self.path,
                "the Agent Skills spec requires a non-empty `name`",
                f"add name: {dir_name}",
                **self._at("name"),
            )
        else:
            problems = spec_name_problems(name)
            if problems:
                self.sink.warning(
                    "spec-name",
                    self.path,
                    f"name `{name}` breaks the Agent Skills spec: {'; '.join(problems)}",
                    "use 1-64 lower-case letters, digits and single hyphens",
                    **self._at("name"),
                )
        desc = self.data.get("description")
        if not isinstance(desc, str) or not desc.strip():
            self.sink.warning(
                "spec-description",
                self.path,
                "the Agent Skills spec requires a non-empty `description`",
                "add a description: what the skill does and when to use it",
                **self._at("description"),
            )
        if "compatibility" in self.data:
            comp = self.data["compatibility"]
            if not isinstance(comp, str) or not 1 <= len(comp) <= SPEC_COMPATIBILITY_MAX:
                empty = comp is None or comp == ""
                self.sink.warning(
                    "spec-compatibility",
                    self.path,
                    f"compatibility must be text of 1 to {SPEC_COMPATIBILITY_MAX} characters when present"
                    + ("; here it is empty" if empty else ""),
                    "remove the key, or say which products or packages the skill needs" if empty else "shorten it",
                    **self._at("compatibility"),
                )
        if "metadata" in self.data:
            meta = self.data["metadata"]
            if not isinstance(meta, dict):
                problem = f"is a YAML {'list' if isinstance(meta, list) else 'scalar'}, not a map"
            else:
                nested = [str(k) for k, v in meta.items() if isinstance(v, (dict, list)) or v is None]
                problem = f"nests a map or list (or null) under {', '.join(f'`{k}`' for k in nested[:5])}" if nested else ""
            if problem:
                self.sink.info(
                    "spec-metadata",
                    self.path,
                    f"metadata {problem}: the Agent Skills spec allows only a map of text values; "
                    "Claude Code does not mind, other clients and claude.ai upload may reject it",
                    'metadata:\n  author: me\n  version: "1.0"',
                    **self._at("metadata"),
                )
        if isinstance(self.data.get("allowed-tools"), list):
            self.sink.info(
                "spec-allowed-tools",
                self.path,
                "allowed-tools is a YAML list; the Agent Skills spec wants one space-separated string (Claude Code takes either)",
                "allowed-tools: Read Grep Bash(git:*)",
                **self._at("allowed-tools"),
            )

    def spec_missing(self) -> None:
        """A SKILL.md with no frontmatter Claude Code reads: the spec's required `---` block with
        name and description is missing."""
        self.sink.info(
            "spec-frontmatter",
            self.path,
            "the file does not start with a frontmatter; the Agent Skills spec requires one, on line 1, "
            "with name and description",
            "start the file with ---, name: and description: lines, and ---",
            line=1,
            skill=self.skill,
        )


def spec_name_problems(name: str) -> list[str]:
    if len(name) <= SPEC_NAME_MAX and _SPEC_NAME.fullmatch(name):
        return []
    name = unicodedata.normalize("NFKC", name.strip())
    if not name:
        # `name: ""` passed every rule below; the spec wants 1 to 64 characters.
        return [f"empty (the spec wants 1 to {SPEC_NAME_MAX} characters)"]
    problems = []
    if len(name) > SPEC_NAME_MAX:
        problems.append(f"longer than {SPEC_NAME_MAX} characters")
    if name != name.lower():
        problems.append("not lower-case")
    if name.startswith("-") or name.endswith("-"):
        problems.append("starts or ends with a hyphen")
    if "--" in name:
        problems.append("contains a double hyphen")
    if not all(c.isalnum() or c == "-" for c in name):
        problems.append("contains characters other than letters, digits and hyphens")
    return problems
