"""Messages of a run and the transcript on disk.

A message is visible (shown to the user) or meta (sent to the model, hidden by default), as in
Claude Code's two-message pattern for a skill. The transcript is a JSON-lines file under
`$XDG_STATE_HOME/skilldeck/sessions/` (or `~/.local/state/skilldeck/sessions/`), appended and
flushed as each message completes, so a crash loses nothing; it can be loaded back to resume.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Block:
    type: str  # "text" | "tool_use" | "tool_result"
    text: str = ""
    id: str = ""
    name: str = ""
    input: dict[str, Any] = field(default_factory=dict)
    tool_use_id: str = ""
    is_error: bool = False

    def to_api(self) -> dict[str, Any]:
        if self.type == "text":
            return {"type": "text", "text": self.text}
        if self.type == "tool_use":
            return {"type": "tool_use", "id": self.id, "name": self.name, "input": self.input}
        out: dict[str, Any] = {"type": "tool_result", "tool_use_id": self.tool_use_id, "content": self.text}
        if self.is_error:
            out["is_error"] = True
        return out


@dataclass
class Message:
    role: str  # "user" | "assistant"
    blocks: list[Block]
    meta: bool = False
    # What produced it: "command" (the visible /name line), "skill" (the rendered skill),
    # "text", "fork-result", "tool".
    kind: str = "text"
    # What the user typed, where the model receives something else (a fork they started gets its
    # result): kept so that a resumed conversation shows the command, never sent.
    command: str = ""

    @property
    def visible(self) -> bool:
        return not self.meta

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks if b.type == "text")

    @classmethod
    def user(cls, text: str, meta: bool = False, kind: str = "text", command: str = "") -> Message:
        return cls("user", [Block("text", text)], meta, kind, command)

    def to_api(self) -> dict[str, Any]:
        return {"role": self.role, "content": [b.to_api() for b in self.blocks]}

    def to_dict(self) -> dict[str, Any]:
        out = {"role": self.role, "meta": self.meta, "kind": self.kind, "blocks": [asdict(b) for b in self.blocks]}
        return out | {"command": self.command} if self.command else out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        blocks = [Block(**b) for b in data["blocks"]]
        return cls(data["role"], blocks, bool(data.get("meta")), data.get("kind", "text"), str(data.get("command", "")))


def command_message(name: str, args: str) -> Message:
    """The visible half of a skill invocation (BEHAVIOR.md §5)."""
    text = f'<command-message>The "{name}" skill is loading</command-message>\n<command-name>/{name}</command-name>'
    if args:
        text += f"\n<command-args>{args}</command-args>"
    return Message.user(text, kind="command")


def fork_result_message(name: str, result: str) -> str:
    return f'Skill "{name}" completed (forked execution).\n{result}'


def parse_fork_result(text: str) -> tuple[str, str] | None:
    """The skill's name and the fork's answer, from a `fork_result_message`; None if it is not one."""
    first, _, answer = text.partition("\n")
    found = re.fullmatch(r'Skill "(.+)" completed \(forked execution\)\.', first)
    return (found.group(1), answer) if found else None


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "skilldeck"


def new_session_id() -> str:
    return str(uuid.uuid4())


class Transcript:
    """Appends each finished message to `<state>/sessions/<session>.jsonl`."""

    def __init__(self, path: Path, session_id: str) -> None:
        self.path = path
        self.session_id = session_id

    @classmethod
    def create(cls, session_id: str | None = None, environ: Mapping[str, str] | None = None) -> Transcript:
        session_id = session_id or new_session_id()
        folder = state_dir(environ) / "sessions"
        folder.mkdir(parents=True, exist_ok=True)
        return cls(folder / f"{session_id}.jsonl", session_id)

    def append(self, message: Message, **extra: Any) -> None:
        record = {"session": self.session_id, **message.to_dict(), **extra}
        # Written and flushed to the kernel at once: a crash of skilldeck loses nothing. (An fsync
        # per message would also survive a power cut, at several milliseconds per agent turn.)
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")

    @staticmethod
    def load(path: Path) -> list[Message]:
        """Messages of a transcript; a torn last line (a crash mid-write) is ignored."""
        out = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(Message.from_dict(json.loads(line)))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
        return out


def latest_session(environ: Mapping[str, str] | None = None) -> Path | None:
    """The most recently written main transcript (forks' own transcripts are not sessions)."""
    folder = state_dir(environ) / "sessions"
    if not folder.is_dir():
        return None
    sessions = [p for p in folder.glob("*.jsonl") if "-fork" not in p.stem]
    return max(sessions, key=lambda p: p.stat().st_mtime, default=None)


def session_path(session: str, environ: Mapping[str, str] | None = None) -> Path:
    return state_dir(environ) / "sessions" / f"{session}.jsonl"
