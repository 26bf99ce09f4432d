"""A model's tool call: checked against the tool's input schema before anything runs, its
result bounded, the rule an "allow always" answer writes for it, its one-line summary.

A model (or a hostile server) may send any JSON: a missing required key, a number where a
path goes, a key the tool does not take. Each tool would raise on it (`tool_input["command"]`),
so the runner checks the call first and answers a bad one with an error result that says what
to fix, as Claude Code answers with an input validation error; the model can then call again.
"""

from __future__ import annotations

from typing import Any

from .rules import format_rule

# The last bound on what the model receives from one tool call (characters), behind each tool's
# own cap: about 25,000 tokens, Claude Code's bound on a file read.
RESULT_CAP = 100_000
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def _matches(value: Any, kind: str) -> bool:
    if kind in ("number", "integer") and isinstance(value, bool):
        return False  # JSON true is not a number, though Python's bool is an int
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES.get(kind, (object,)))


def check_input(tool: str, tool_input: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """None when `tool_input` fits `schema` (the flat object schemas our tools use), else the message."""
    problems: list[str] = []
    properties: dict[str, Any] = schema.get("properties") or {}
    for key in schema.get("required") or ():
        if key not in tool_input:
            problems.append(f"The required parameter `{key}` is missing")
    for key, value in tool_input.items():
        spec = properties.get(key)
        if spec is None:
            if schema.get("additionalProperties") is False:
                problems.append(f"An unexpected parameter `{key}` was provided")
            continue
        kind = spec.get("type")
        if isinstance(kind, str) and not _matches(value, kind):
            problems.append(f"The parameter `{key}` type is expected as `{kind}` but provided as `{_json_type(value)}`")
        elif "enum" in spec and value not in spec["enum"]:
            problems.append(f"The parameter `{key}` must be one of {', '.join(map(str, spec['enum']))}")
    if not problems:
        return None
    issues = "issue" if len(problems) == 1 else "issues"
    return f"InputValidationError: {tool} failed due to the following {issues}:\n" + "\n".join(problems)


_JSON_TYPES: dict[type[Any], str] = {str: "string", list: "array", dict: "object"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return _JSON_TYPES.get(type(value), type(value).__name__)


SKILL_SCHEMA = {
    "type": "object",
    "properties": {
        "skill": {"type": "string", "description": 'The skill name, e.g. "pdf" or "plugin:skill"'},
        "args": {"type": "string", "description": "Optional arguments for the skill"},
    },
    "required": ["skill"],
    "additionalProperties": False,
}


def suggested_rule(tool: str, tool_input: dict[str, Any]) -> str:
    """The rule an "allow always" answer writes (as Claude Code suggests, into settings.local.json)."""
    if tool == "Bash":
        return format_rule("Bash", str(tool_input.get("command", "")).strip())
    if tool == "Skill":
        return format_rule("Skill", str(tool_input.get("skill", "")).strip().removeprefix("/"))
    path = tool_input.get("file_path") or tool_input.get("path")
    if tool in ("Read", "Edit", "Write") and isinstance(path, str):
        # `//` marks an absolute path in a rule; a bare path is relative to the working folder.
        return format_rule("Edit" if tool == "Write" else tool, "/" + path if path.startswith("/") else path)
    return tool


def bounded(text: str, cap: int = RESULT_CAP) -> str:
    """The safety net behind every tool's own cap: no result reaches the model longer than `cap`."""
    if len(text) <= cap:
        return text
    return text[:cap] + f"\n\n[result cut at {cap:,} characters: {len(text) - cap:,} more were not sent]"


def summary(tool_input: dict[str, Any], width: int = 60) -> str:
    first = next(iter(tool_input.values()), "") if tool_input else ""
    text = " ".join(str(first).split())
    return text if len(text) <= width else text[: width - 1] + "…"
