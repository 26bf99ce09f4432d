"""What the transcript readers make: one `Use` per attempt, and how far a file was read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class Use:
    """One attempt to use a skill."""

    name: str
    kind: str  # "typed" | "model"
    at: float  # seconds since the epoch (0 when the record had no readable time)
    session: str
    project: str
    uuid: str
    failed: str | None = None


@dataclass
class Progress:
    """How far a file was read, and what the reader was waiting for there."""

    offset: int = 0
    uses: list[Use] = field(default_factory=list)
    # The model's Skill calls whose result has not been read yet: tool_use id -> index in uses.
    pending: dict[str, int] = field(default_factory=dict)
    # The prompt id of the last `<local-command-caveat>` record (a typed fork follows it).
    caveat: str = ""
    # A Codex session's id and folder (its records do not repeat them): engine/usage/codex.py.
    session: str = ""
    cwd: str = ""


def when(record: dict[str, Any]) -> float:
    stamp = record.get("timestamp")
    if not isinstance(stamp, str):
        return 0.0
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def make_use(record: dict[str, Any], name: str, kind: str, uuid: str = "") -> Use:
    return Use(
        name=name[:200],
        kind=kind,
        at=when(record),
        session=str(record.get("sessionId", ""))[:100],
        project=str(record.get("cwd", ""))[:4096],
        uuid=uuid or str(record.get("uuid", ""))[:100],
    )
