"""Telling allow, ask and deny apart in print mode, without reading Claude Code's wording.

In print mode nobody can answer a prompt, so a call that would be asked is refused, and so is a
call a deny rule forbids; both come back as an error tool_result and both are listed in the
final `permission_denials` of the stream-json result. What separates them is the permission
request: Claude Code runs the PermissionRequest hooks only when it would show the prompt. The
recorder installs one such hook (in the private user settings, returning no decision, so it
changes nothing) that notes each request, and checks between calls whether it fired.
"""

from __future__ import annotations

from typing import Any


def hook_settings(log: str) -> dict[str, Any]:
    """The user settings entry that notes every permission request Claude Code would show."""
    command = f"cat >> '{log}'; echo >> '{log}'"
    return {"PermissionRequest": [{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]}


def classify(tool: str, offered: bool, refused: bool, asked: bool, is_error: bool, effect: bool | None) -> dict[str, Any]:
    """One call's outcome: the decision, a reason in our own words, and what we saw happen.

    Two outcomes decide nothing: a tool this version does not offer (2.1.328 has no Glob or
    Grep tool), and a file tool that failed without being refused (its input is checked before
    its permission, so the error says nothing about the permission)."""
    if not offered:
        return {"decision": "unavailable", "reason": "this version offers no such tool"}
    if not refused and is_error and tool != "Bash":
        return {"decision": "undecided", "reason": "the tool rejected its input before any permission check"}
    if not refused:
        out: dict[str, Any] = {"decision": "allow", "reason": "ran" + (" (the tool reported an error)" if is_error else "")}
    elif asked:
        out = {"decision": "ask", "reason": "refused after a permission request (the prompt it would show)"}
    else:
        out = {"decision": "deny", "reason": "refused with no permission request (a deny rule or a hard block)"}
    if effect is not None:
        out["side_effect"] = effect
    return out
