"""Codex CLI's session files, read for skill use (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`).

Recorded from Codex CLI 0.169.0 (tests/oracle/recordings/usage/codex_skill_use.json): a session
starts with a `session_meta` record (its id and folder); when the user names a skill (`$alpha`),
Codex adds a user message to the conversation that holds `<skill>` `<name>alpha</name>`
`<path>…/SKILL.md</path>` and the skill's text. That message is a use, counted as typed. A
skill the model opens on its own is a file read through the shell, which the session does not
mark as a skill's: it is not counted (the README says so).
"""

from __future__ import annotations

import re
from typing import Any

from .records import Progress, make_use

# What a line of a Codex session must hold to be read at all (searched over whole pieces).
MARKERS = (b'"session_meta"', b"<skill>")
_SKILL = re.compile(r"<skill>\s*<name>([^<\s]{1,200})</name>")


def codex_record(record: dict[str, Any], state: Progress) -> None:
    """One record of a Codex session into `state`."""
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return
    if record.get("type") == "session_meta":
        state.session = str(payload.get("id", ""))[:100]
        state.cwd = str(payload.get("cwd", ""))[:4096]
        return
    if payload.get("type") != "message" or payload.get("role") != "user":
        return
    content = payload.get("content")
    for block in content if isinstance(content, list) else ():
        text = block.get("text") if isinstance(block, dict) else None
        found = _SKILL.search(text) if isinstance(text, str) else None
        if found:
            made = make_use({**record, "sessionId": state.session, "cwd": state.cwd}, found.group(1), "typed")
            made.uuid = str(payload.get("id", ""))[:100] or made.uuid
            state.uses.append(made)
