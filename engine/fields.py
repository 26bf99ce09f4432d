"""Turn parsed frontmatter into skill fields, as Claude Code reads them, and say what is off.

Claude Code ignores unknown keys and coerces odd values without a word; here each such case
becomes a diagnostic with the key's line, so a typo like `allowed_tools` is visible.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from pathlib import Path
from typing import Any

from .diagnostics import Sink
from .frontmatter import Parsed

KNOWN_FIELDS = frozenset(
    {
        "name", "description", "when_to_use", "argument-hint", "arguments",
        "disable-model-invocation", "user-invocable", "allowed-tools", "disallowed-tools",
        "model", "effort", "context", "agent", "background", "hooks", "paths", "shell",
        "license", "compatibility", "metadata", "version",
    }
)  # fmt: skip
SPEC_FIELDS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
# Keys people write for a field under another name (agent files use `tools`, for instance).
_ALIASES = {
    "tools": "allowed-tools",
    "allowed": "allowed-tools",
    "args": "arguments",
    "hint": "argument-hint",
    "when": "when_to_use",
    "desc": "description",
    "title": "name",
    "globs": "paths",
    "model-invocable": "disable-model-invocation",
}
_NORMALISED = {k.replace("_", "-").lower(): k for k in KNOWN_FIELDS}
# Frontmatter key -> (Skill attribute, how to read it).
_READERS: dict[str, tuple[str, str]] = {
    "when_to_use": ("when_to_use", "text"),
    "argument-hint": ("argument_hint", "text"),
    "arguments": ("arguments", "words"),
    "disable-model-invocation": ("disable_model_invocation", "flag"),
    "user-invocable": ("user_invocable", "flag"),
    "allowed-tools": ("allowed_tools", "tools"),
    "disallowed-tools": ("disallowed_tools", "tools"),
    "model": ("model", "model"),
    "effort": ("effort", "text"),
    "context": ("context", "context"),
    "agent": ("agent", "text"),
    "background": ("background", "flag"),
    "hooks": ("hooks", "raw"),
    "paths": ("paths", "words"),
    "shell": ("shell", "text"),
    "license": ("license", "text"),
    "compatibility": ("compatibility", "text"),
    "metadata": ("metadata", "raw"),
    "version": ("version", "text"),
}
_FLAG_DEFAULTS = {"disable-model-invocation": False, "user-invocable": True, "background": False}
_SPEC_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

LIMITS = {"name": 64, "description": 1024, "when_to_use": 1024, "argument-hint": 256}
BODY_LIMIT = 15_000
SPEC_NAME_MAX = 64
SPEC_COMPATIBILITY_MAX = 500

# Past this many unknown keys in one file, the rest are counted in one diagnostic: a file of
# thousands of keys must not cost thousands of fuzzy matches and bury every other finding.
MAX_UNKNOWN_REPORTED = 20

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def suggest_field(key: str) -> str | None:
    norm = key.replace("_", "-").lower()
    if norm in _NORMALISED:
        return _NORMALISED[norm]
    if norm in _ALIASES:
        return _ALIASES[norm]
    close = difflib.get_close_matches(norm, list(_NORMALISED), n=1, cutoff=0.75)
    return _NORMALISED[close[0]] if close else None


def as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return None


_TOOL = re.compile(r"(?:[^\s,()]+|\([^()]*\))+")


def split_tools(value: str) -> list[str]:
    """Split on spaces or commas, never inside parentheses: `Read, Bash(git add:*)`."""
    # One compiled pattern covers tool names with one level of parentheses; nested
    # parentheses (rare) take the character loop below.
    tokens = _TOOL.findall(value)
    if value.count("(") == value.count(")") == sum(t.count("(") for t in tokens):
        return tokens
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(value):
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif depth == 0 and (ch == "," or ch.isspace()):
            if i > start:
                out.append(value[start:i])
            start = i + 1
    if start < len(value):
        out.append(value[start:])
    return out


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        # As JavaScript's String() writes them, which is what Claude Code shows.
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return str(value)


class FieldReader:
    """Reads one file's frontmatter into the keyword arguments of `Skill`."""

    def __init__(self, parsed: Parsed, path: Path, sink: Sink, skill: str) -> None:
        self.data = parsed.data
        self.parsed = parsed
        self.path = path
        self.sink = sink
        self.skill = skill

    def _at(self, key: str) -> dict[str, Any]:
        pos = self.parsed.position(key)
        out: dict[str, Any] = {"skill": self.skill}
        if pos:
            out["line"], out["column"] = pos
        return out

    def _bad(self, key: str, message: str, hint: str) -> None:
        self.sink.warning("invalid-value", self.path, message, hint, **self._at(key))

    def text(self, key: str) -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, (list, dict)):
            # `argument-hint: [file]` is a YAML list; Claude Code shows what was written.
            if key == "argument-hint":
                return self.parsed.value_text(key)
            self._bad(
                key,
                f"{key} should be text but is a YAML {type(value).__name__}; it is ignored",
                f'quote the value: {key}: "..."',
            )
            return None
        return _scalar_text(value)

    def flag(self, key: str, default: bool) -> bool:
        if key not in self.data or self.data[key] is None:
            return default
        value = as_bool(self.data[key])
        if value is None:
            self._bad(
                key,
                f"{key}: {self.data[key]!r} is not a boolean; read as false",
                f"write {key}: true or {key}: false",
            )
            return False
        return value

    def tools(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            return tuple(split_tools(value))
        if isinstance(value, list):
            items = [str(v).strip() for v in value if isinstance(v, (str, int, float))]
            if len(items) != len(value):
                self._bad(key, f"{key} holds items that are not tool names; they are dropped", "list tool names as text")
            return tuple(i for i in items if i)
        self._bad(key, f"{key} must be a string or a list of tool names", f"{key}: Read, Grep, Bash(git *)")
        return ()

    def words(self, key: str, sep: str | None = None) -> tuple[str, ...]:
        value = self.data.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            parts = value.split(sep) if sep else value.split()
            return tuple(p.strip() for p in parts if p.strip())
        if isinstance(value, list):
            return tuple(_scalar_text(v) for v in value if v is not None)
        self._bad(key, f"{key} must be a string or a list", f"{key}: [a, b]")
        return ()

    def read(self) -> dict[str, Any]:
        """Keyword arguments for `Skill` from the keys present (absent keys keep the defaults),
        warning about keys Claude Code does not know. `name` and `description` are read by the
        caller because they decide the command's name and the listing."""
        out: dict[str, Any] = {}
        unknown: list[str] = []
        for key, value in self.data.items():
            spec = _READERS.get(key)
            if spec is None:
                if key not in KNOWN_FIELDS:
                    unknown.append(key)
                    if len(unknown) <= MAX_UNKNOWN_REPORTED:
                        self._unknown(key)
                continue
            attr, kind = spec
            if kind == "text":
                result: Any = self.text(key)
            elif kind == "flag":
                result = self.flag(key, _FLAG_DEFAULTS[key])
            elif kind == "tools":
                result = self.tools(key)
            elif kind == "words":
                result = self.words(key, "," if key == "paths" else None)
            elif kind == "model":
                result = self.text(key)
                result = None if result == "inherit" else result
            elif kind == "context":
                result = self.text(key)
                if result is not None and result not in ("fork", "inline"):
                    self._bad(
                        key, f"context: {result!r} is not `fork`; the skill runs inline", "write context: fork, or remove it"
                    )
                result = "fork" if result == "fork" else "inline"
            else:
                result = value
            if result is not None:
                out[attr] = result
        if len(unknown) > MAX_UNKNOWN_REPORTED:
            rest = unknown[MAX_UNKNOWN_REPORTED:]
            self.sink.warning(
                "unknown-field",
                self.path,
                f"{len(rest):,} more unknown frontmatter keys (`{rest[0][:60]}` ...): Claude Code ignores them",
                "remove them, or see the list of frontmatter fields",
                **self._at(rest[0]),
            )
        return out

    def _unknown(self, key: str) -> None:
        guess = suggest_field(key)
        hint = f"did you mean `{guess}`?" if guess else "remove it, or see the list of frontmatter fields"
        self.sink.warning(
            "unknown-field", self.path, f"unknown frontmatter key `{key}`: Claude Code ignores it", hint, **self._at(key)
        )

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
            and desc.strip()
            and not spec_name_problems(name)
            and "compatibility" not in data
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
                "Claude Code understands them, other clients and claude.ai upload may reject them",
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
        comp = self.data.get("compatibility")
        if comp is not None and (not isinstance(comp, str) or len(comp) > SPEC_COMPATIBILITY_MAX):
            self.sink.warning(
                "spec-compatibility",
                self.path,
                f"compatibility must be text of at most {SPEC_COMPATIBILITY_MAX} characters",
                "shorten it",
                **self._at("compatibility"),
            )


def spec_name_problems(name: str) -> list[str]:
    if len(name) <= SPEC_NAME_MAX and _SPEC_NAME.fullmatch(name):
        return []
    name = unicodedata.normalize("NFKC", name.strip())
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
