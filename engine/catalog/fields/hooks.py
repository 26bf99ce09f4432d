"""Claude Code's reading of `hooks:`, and the trap of a PreToolUse/PermissionRequest hook written
outside it: either way a hook it cannot load drops the skill's hooks and allowed-tools."""

from __future__ import annotations

from typing import Any

# Claude Code's hook events; PreToolUse and PermissionRequest hooks may guard permissions.
HOOK_EVENTS = frozenset(
    (
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "StopFailure",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "PreModelSwitch",
        "PostModelSwitch",
        "PermissionRequest",
        "PermissionDenied",
        "Setup",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Elicitation",
        "ElicitationResult",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "DirectoryAdded",
        "MessageDisplay",
    )
)
GUARD_EVENTS = ("PreToolUse", "PermissionRequest")
HOOK_TYPES = frozenset(("command", "prompt", "agent", "http", "mcp_tool"))
# Top-level keys Claude Code does not search for misplaced hooks.
_UNSCANNED = frozenset(("metadata", "mcpServers", "lspServers"))


def _js_truthy(value: Any) -> bool:
    """JavaScript's truthiness: an empty list or mapping is true, 0, "" and null are not."""
    if value is None or value is False or value == "":
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == value and value != 0  # NaN is false too
    return True


def _holds_guard(value: Any) -> bool:
    """A mapping with a PreToolUse or PermissionRequest key set to anything but null or []."""
    return isinstance(value, dict) and any(
        k in GUARD_EVENTS and v is not None and not (isinstance(v, list) and not v) for k, v in value.items()
    )


def _is_matcher(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if "matcher" not in value and any(k in HOOK_EVENTS for k in value):
        return False
    hooks = value.get("hooks")
    if isinstance(hooks, list):
        return bool(hooks)
    return isinstance(hooks, dict) and ("matcher" in value or isinstance(hooks.get("type"), str))


def _hides_guard(value: Any, depth: int = 3, matchers: bool = True, unscanned: frozenset[str] = frozenset(),
                 in_hooks_list: bool = False) -> bool:  # fmt: skip
    """Whether a PreToolUse/PermissionRequest hook (or a hook matcher) sits somewhere in `value`,
    three levels down at most, as Claude Code searches for one."""
    if _holds_guard(value) or (matchers and _is_matcher(value)):
        return True
    if depth == 0 or not isinstance(value, (dict, list)):
        return False
    if isinstance(value, list):
        return any(_hides_guard(v, depth - 1, matchers, unscanned, in_hooks_list) for v in value)
    if in_hooks_list and isinstance(value.get("type"), str):
        return False
    return any(
        k not in unscanned
        and _hides_guard(v, depth - 1, matchers and k not in HOOK_EVENTS, unscanned, k == "hooks" and isinstance(v, list))
        for k, v in value.items()
    )


def guard_outside_hooks(data: dict[str, Any]) -> str | None:
    """The first top-level key (other than `hooks`) through which Claude Code finds a hook it
    cannot load: the skill then loads without its hooks and its allowed-tools."""
    for key in GUARD_EVENTS:
        if key in data and _holds_guard({key: data[key]}):
            return key
    for key, value in data.items():
        # Only a mapping or a list can hold a hook: the common text values cost one check.
        if (
            isinstance(value, (dict, list))
            and key != "hooks"
            and key not in _UNSCANNED
            and _hides_guard(value, 3, key not in HOOK_EVENTS, _UNSCANNED)
        ):
            return key
    return None


def hooks_problems(hooks: Any) -> list[str]:
    """Why Claude Code would not load `hooks:` (it then drops the skill's allowed-tools too)."""
    return hooks_review(hooks)[0]


def hooks_review(hooks: Any) -> tuple[list[str], list[str]]:
    """(what makes Claude Code drop the hooks and allowed-tools, the entries it ignores)."""
    if _is_matcher(hooks) or (isinstance(hooks, list) and any(_is_matcher(h) for h in hooks)):
        return ["hooks: is a matcher, not a mapping of hook events to matcher lists"], []
    if not isinstance(hooks, dict):
        return [f"hooks: is {'a list' if isinstance(hooks, list) else 'not a mapping'}"], []
    problems: list[str] = []
    ignored: list[str] = []
    for event, matchers in hooks.items():
        if event not in HOOK_EVENTS:
            if _hides_guard(matchers, 3, not isinstance(matchers, list)):
                problems.append(f"hooks.{event} is not a hook event but holds PreToolUse/PermissionRequest hooks")
            else:
                ignored.append(f"hooks.{event} is not a hook event")
            continue
        if not isinstance(matchers, list):
            if (event in GUARD_EVENTS and matchers is not None) or _hides_guard(matchers, 3, False):
                problems.append(f"hooks.{event} must be a list of matchers")
            else:
                ignored.append(f"hooks.{event} must be a list of matchers")
            continue
        for index, matcher in enumerate(matchers):
            where = f"hooks.{event}[{index}]"
            problem = _matcher_problem(matcher, where)
            if problem is None:
                continue
            (problems if event in GUARD_EVENTS else ignored).append(problem)
    return problems, ignored


def _matcher_problem(matcher: Any, where: str) -> str | None:
    if not isinstance(matcher, dict):
        return f"{where} is not a matcher mapping"
    if not isinstance(matcher.get("matcher", ""), str):
        return f"{where}.matcher must be text"
    entries = matcher.get("hooks")
    if not isinstance(entries, list):
        return f"{where}.hooks must be a list of hooks"
    for number, entry in enumerate(entries):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind not in HOOK_TYPES or (kind == "command" and not isinstance(entry.get("command"), str)):
            return f"{where}.hooks[{number}] is not a hook Claude Code can load (a type: command needs a command:)"
    return None
