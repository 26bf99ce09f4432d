"""The eval file formats: requests a user makes, each with the skill it should trigger (or none).

Read, never trusted: a file may be huge, binary, nested a thousand levels, an alias bomb, or of
the wrong shape anywhere. Every such case becomes an `EvalProblem` naming the file, the line
(YAML; a JSON item by its number) and what to do; nothing a file holds raises out of here.

skilldeck's own format (`.claude/skill-evals.yaml`, or `evals.yaml` beside a SKILL.md, where
`expect` defaults to that skill)::

    requests:
      - request: deploy the app to staging
        expect: deploy            # the skill the model should call
      - request: what is 2 + 2?
        expect: none              # no skill at all
      - request: write a haiku about deploys
        avoid: deploy             # anything but this skill

skill-creator's trigger sets (`evals/evals.json` beside a SKILL.md): a list of
`{"query": ..., "should_trigger": true|false}`, or `{"skill_name": ..., "evals": [{"prompt": ...}]}`
(`should_trigger` defaults to true there); `should_trigger: false` reads as `avoid: <skill>`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..base.bounds import json_too_deep, yaml_problem

# Far above any real eval set (skill-creator's are 20 queries); small enough to parse in a blink.
MAX_EVAL_BYTES = 256 * 1024
MAX_CASES_PER_FILE = 2_000
# A routing request is what a user types: longer than this is a mistake (or a hostile file).
MAX_REQUEST_CHARS = 20_000
NONE = "none"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TEXT_KEYS = ("request", "prompt", "query")
_KNOWN = {*_TEXT_KEYS, "expect", "avoid", "should_trigger", "skill", "id"}
# skill-creator's output-quality fields: present in its evals.json, meaningless for routing.
_IGNORED = {"expected_output", "files", "expectations", "eval_name", "name", "notes"}


@dataclass(frozen=True, slots=True)
class EvalProblem:
    path: Path
    line: int | None
    message: str
    hint: str = ""
    # "error": the file (or item) is not used; "warning": used, but it may not measure what you mean.
    severity: str = "error"

    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}" + (f" ({self.hint})" if self.hint else "")

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "line": self.line, "message": self.message, "hint": self.hint, "severity": self.severity}


@dataclass(frozen=True, slots=True)
class EvalCase:
    """One request and what should take it: `expect` a skill's name, or None for no skill; or,
    with `avoid`, anything but that skill."""

    request: str
    expect: str | None
    path: Path
    line: int | None = None
    avoid: str | None = None
    id: str = ""

    @property
    def target(self) -> str | None:
        """The skill this case is about (expected or avoided), None for a no-skill case."""
        return self.avoid or self.expect

    @property
    def expected_label(self) -> str:
        if self.avoid:
            return f"not {self.avoid}"
        return self.expect or NONE

    def met(self, chosen: str | None) -> bool:
        if self.avoid:
            return chosen != self.avoid
        return chosen == self.expect

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "request": self.request,
            "expect": self.expect,
            "avoid": self.avoid,
            "path": str(self.path),
            "line": self.line,
        }


class _Reader:
    """Walks one parsed file's nodes into cases, noting each problem where it is."""

    def __init__(self, path: Path, skill: str | None) -> None:
        self.path = path
        self.skill = skill
        self.cases: list[EvalCase] = []
        self.problems: list[EvalProblem] = []

    def problem(self, node: Any, message: str, hint: str = "", severity: str = "error") -> None:
        self.problems.append(EvalProblem(self.path, _line(node), message, hint, severity))

    def top(self, node: yaml.Node) -> None:
        items: yaml.Node | None = node
        if isinstance(node, yaml.MappingNode):
            table = self.mapping(node)
            if "skill_name" in table:
                name = _scalar(table["skill_name"])
                if name is None:
                    self.problem(table["skill_name"], "skill_name is not a text", "write the skill's name")
                else:
                    self.skill = name
            items = table.get("requests") or table.get("evals")
            for key in table:
                if key not in ("requests", "evals", "skill_name", "version"):
                    self.problem(table[key], f"unknown key `{key}`; it is ignored", "the keys are requests (or evals)", "warning")
            if items is None:
                self.problem(node, "no `requests:` list", "add requests: with one item per request")
                return
        if not isinstance(items, yaml.SequenceNode):
            self.problem(items, "the requests are not a list", "write one `- request: ...` item per request")
            return
        if len(items.value) > MAX_CASES_PER_FILE:
            self.problem(
                items,
                f"{len(items.value):,} requests, over the {MAX_CASES_PER_FILE:,} one file may hold; the rest are ignored",
                "split the file",
                "warning",
            )
        for number, item in enumerate(items.value[:MAX_CASES_PER_FILE], 1):
            self.item(item, number)

    def mapping(self, node: yaml.MappingNode) -> dict[str, yaml.Node]:
        out: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            key = _scalar(key_node)
            if key is None:
                self.problem(key_node, "a key that is not a text; it is ignored", "keys are plain words", "warning")
                continue
            if key in out:
                self.problem(key_node, f"`{key}` appears twice; the last one counts", "keep one", "warning")
            out[key] = value
        return out

    def item(self, node: yaml.Node, number: int) -> None:
        where = f"request {number}"
        if isinstance(node, yaml.ScalarNode):
            table: dict[str, yaml.Node] = {"request": node}
        elif isinstance(node, yaml.MappingNode):
            table = self.mapping(node)
        else:
            self.problem(node, f"{where} is a list, not a request", "write `- request: ...` with expect: or avoid:")
            return
        for key in table:
            if key not in _KNOWN and key not in _IGNORED:
                self.problem(
                    table[key],
                    f"{where}: unknown key `{key}`; it is ignored",
                    "the keys are request, expect, avoid, should_trigger, id",
                    "warning",
                )
        text_key = next((k for k in _TEXT_KEYS if k in table), None)
        if text_key is None:
            self.problem(node, f"{where} has no request text", "add request: with what the user types")
            return
        text = _scalar(table[text_key])
        if text is None or not text.strip():
            self.problem(table[text_key], f"{where}: the request is empty or not a text", "write what the user types")
            return
        if len(text) > MAX_REQUEST_CHARS:
            self.problem(
                table[text_key],
                f"{where}: the request is {len(text):,} characters, over {MAX_REQUEST_CHARS:,}",
                "a routing request is what a user types: shorten it",
            )
            return
        expect, avoid = self.expectation(table, node, where)
        if expect is False:
            return
        ident = _scalar(table["id"]) if "id" in table else None
        line = _line(node)
        name = self.path.name
        self.cases.append(EvalCase(text, expect or None, self.path, line, avoid, ident or f"{name}:{line or number}"))

    def expectation(self, table: dict[str, yaml.Node], node: yaml.Node, where: str) -> tuple[Any, str | None]:
        """(expect, avoid); expect is False when the item cannot be used (the problem is noted)."""
        if "expect" in table and "avoid" in table:
            self.problem(node, f"{where} has both expect: and avoid:", "keep one")
            return False, None
        named = _scalar(table["skill"]) if "skill" in table else self.skill
        if "avoid" in table:
            avoid = _scalar(table["avoid"])
            if not avoid or avoid == NONE:
                self.problem(table["avoid"], f"{where}: avoid: needs a skill's name", "use expect: none for no skill")
                return False, None
            return None, avoid
        if "expect" in table:
            expect = _scalar(table["expect"])
            if expect is None or not expect.strip():
                self.problem(table["expect"], f"{where}: expect: is empty", "name a skill, or write expect: none")
                return False, None
            return ("" if expect.strip() == NONE else expect.strip()), None
        if "should_trigger" in table:
            flag = table["should_trigger"]
            value = _scalar(flag)
            if value not in ("true", "false", "True", "False"):
                self.problem(flag, f"{where}: should_trigger is not true or false", "write true or false")
                return False, None
            if named is None:
                self.problem(
                    node,
                    f"{where}: should_trigger needs to know which skill",
                    "put the file beside the skill's SKILL.md, or add skill_name:",
                )
                return False, None
            return (named, None) if value.lower() == "true" else (None, named)
        if named is None:
            self.problem(node, f"{where} says no skill", "add expect: <skill> (or expect: none)")
            return False, None
        return named, None


def _line(node: Any) -> int | None:
    mark = getattr(node, "start_mark", None)
    return mark.line + 1 if mark is not None else None


def _scalar(node: yaml.Node) -> str | None:
    """A scalar's text (numbers and booleans as written), "" for null, None for a list or mapping."""
    if not isinstance(node, yaml.ScalarNode):
        return None
    return "" if node.tag.endswith(":null") else str(node.value)


def _as_node(value: Any) -> yaml.Node:
    """A JSON value as YAML nodes without positions (when the YAML composer cannot read the JSON)."""
    if isinstance(value, dict):
        return yaml.MappingNode("tag:yaml.org,2002:map", [(_as_node(str(k)), _as_node(v)) for k, v in value.items()])
    if isinstance(value, list):
        return yaml.SequenceNode("tag:yaml.org,2002:seq", [_as_node(v) for v in value])
    if value is None:
        return yaml.ScalarNode("tag:yaml.org,2002:null", "null")
    return yaml.ScalarNode("tag:yaml.org,2002:str", json.dumps(value) if isinstance(value, bool) else str(value))


def parse_evals(text: str, path: Path, skill: str | None = None) -> tuple[list[EvalCase], list[EvalProblem]]:
    """The cases in one file's text; `skill`: the skill the file sits beside (the default
    `expect`, and what should_trigger is about). JSON when the name ends in .json, else YAML."""
    reader = _Reader(path, skill)
    if len(text) > MAX_EVAL_BYTES:
        reader.problem(None, f"the file is {len(text):,} characters, over {MAX_EVAL_BYTES:,}", "split it into smaller files")
        return [], reader.problems
    node = _json_node(text, reader) if path.suffix.lower() == ".json" else _yaml_node(text, reader)
    if node is not None:
        reader.top(node)
    return reader.cases, reader.problems


def _yaml_node(text: str, reader: _Reader) -> yaml.Node | None:
    why = yaml_problem(text)
    if why:
        reader.problem(None, f"not read: {why}", "a real eval file is a flat list of requests")
        return None
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        reader.problems.append(EvalProblem(reader.path, line, f"not valid YAML: {exc.problem}", "fix the YAML at that line"))
        return None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        reader.problem(None, f"not valid YAML: {str(exc)[:200]}", "fix the YAML")
        return None
    if node is None:
        reader.problem(None, "the file is empty", "add requests: with one item per request", "warning")
    return node


def _json_node(text: str, reader: _Reader) -> yaml.Node | None:
    if json_too_deep(text):
        reader.problem(None, "not read: it nests too deep", "a real eval set is a flat list")
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        reader.problems.append(EvalProblem(reader.path, exc.lineno, f"not valid JSON: {exc.msg}", "fix the JSON at that line"))
        return None
    except (ValueError, RecursionError) as exc:
        reader.problem(None, f"not valid JSON: {str(exc)[:200]}", "fix the JSON")
        return None
    try:
        # The YAML composer reads JSON with positions, so each problem can name its line.
        node = yaml.compose(text, Loader=_LOADER)
        if node is not None:
            return node
    except (yaml.YAMLError, ValueError, RecursionError):
        pass
    return _as_node(value)
