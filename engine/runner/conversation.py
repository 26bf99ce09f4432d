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
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular_text
from ..base.state import state_dir
from ..catalog.model import Skill

# A transcript longer than this is not loaded (a year of daily sessions is far less).
TRANSCRIPT_CAP = 256 * 1024 * 1024


@dataclass
class Block:
    type: str  # "text" | "tool_use" | "tool_result"
    text: str = ""
    id: str = ""
    name: str = ""
    input: dict[str, Any] = field(default_factory=dict)
    tool_use_id: str = ""
    is_error: bool = False
    # A tool_result's verdict, kept so that a resumed conversation shows it as it was: the
    # decision and its reason, and the user's answer to an ask ("once", "always", "deny").
    # Never sent to the model.
    decided: dict[str, str] = field(default_factory=dict)

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
    # What the user typed when it is not in the blocks (a fork they started, whose message holds
    # its result): a resumed conversation shows the command, and the model gets it as Claude Code
    # sends a typed fork (`as_sent`).
    command: str = ""

    @property
    def visible(self) -> bool:
        return not self.meta

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks if b.type == "text")

    @property
    def sent_texts(self) -> list[str]:
        """The texts the model gets for it, one per message sent (a typed fork's three, as Claude
        Code sends them: `as_sent`)."""
        return [m.text for m in as_sent(self)]

    @classmethod
    def user(cls, text: str, meta: bool = False, kind: str = "text", command: str = "") -> Message:
        return cls("user", [Block("text", text)], meta, kind, command)

    def to_api(self) -> dict[str, Any]:
        return {"role": self.role, "content": [b.to_api() for b in self.blocks]}

    def to_dict(self) -> dict[str, Any]:
        blocks = [{k: v for k, v in asdict(b).items() if k != "decided" or v} for b in self.blocks]
        out = {"role": self.role, "meta": self.meta, "kind": self.kind, "blocks": blocks}
        return out | {"command": self.command} if self.command else out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        """A message from its saved form; ValueError (or KeyError, TypeError) when it is not one."""
        role = data["role"]
        if role not in ("user", "assistant") or not isinstance(data["blocks"], list):
            raise ValueError("not a message")
        blocks = [_block(b) for b in data["blocks"]]
        return cls(role, blocks, bool(data.get("meta")), str(data.get("kind", "text")), str(data.get("command", "")))


_BLOCK_FIELDS = {
    "type": str, "text": str, "id": str, "name": str, "input": dict, "tool_use_id": str, "is_error": bool, "decided": dict,
}  # fmt: skip


def _block(data: Any) -> Block:
    """A saved block, each field of the type the API needs (a hand-edited or torn file may say anything)."""
    if not isinstance(data, dict) or data.get("type") not in ("text", "tool_use", "tool_result"):
        raise ValueError("not a block")
    for key, value in data.items():
        if key not in _BLOCK_FIELDS or not isinstance(value, _BLOCK_FIELDS[key]):
            raise ValueError(f"bad block field {key!r}")
    decided = data.get("decided", {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in decided.items()):
        raise ValueError("bad block field 'decided'")
    return Block(**data)


def closing_results(messages: list[Message], text: str) -> Message | None:
    """Error results for the tool calls of the last message when it is an assistant message
    whose calls have no results yet (a crash or a kill mid-tool): the API refuses a tool_use
    without its tool_result, so a conversation left so could never be sent again."""
    last = messages[-1] if messages else None
    if last is None or last.role != "assistant":
        return None
    pending = [b for b in last.blocks if b.type == "tool_use"]
    if not pending:
        return None
    return Message("user", [Block("tool_result", text, tool_use_id=b.id, is_error=True) for b in pending], kind="tool")


def api_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """The conversation as the Messages API accepts it, whatever state a run or a transcript
    left it in: no empty or blank text blocks and no empty messages; every tool_use answered
    by a tool_result at the start of the next user message (an error result when it was never
    answered); no result without its call; a user message first; no trailing whitespace at the
    end of a final assistant message. Neighbouring user messages are sent as one, as Claude Code
    sends them (a typed skill's command block and its prompt; a Skill call's result and the
    skill's text): their blocks in order, tool results first, and a text block followed by
    another text block gets a newline at its end. A fork the user typed is sent as Claude Code
    sends it (`as_sent`)."""
    out: list[dict[str, Any]] = []
    asked: list[str] = []
    opened_by_attachment = False
    previous = ""
    for message in (sent for each in messages for sent in as_sent(each)):
        blocks = [b for b in message.blocks if _fits(b, message.role)]
        if message.role == "user":
            answered = {b.tool_use_id: b for b in blocks if b.type == "tool_result" and b.tool_use_id in asked}
            results = [answered.get(i) or Block("tool_result", UNANSWERED, tool_use_id=i, is_error=True) for i in asked]
            blocks, asked = results + [b for b in blocks if b.type != "tool_result"], []
        elif out:
            asked += [b.id for b in blocks if b.type == "tool_use"]
        else:
            continue  # the conversation must open with a user message
        if not blocks:
            continue
        content = [b.to_api() for b in blocks]
        # As recorded (typed_at_file): a conversation that opens with `@file` attachments sends the
        # first on its own, and the typed command joins the attachments without a newline between.
        alone = len(out) == 1 and opened_by_attachment
        if message.role == "user" and out and out[-1]["role"] == "user" and not alone:
            _join(out[-1]["content"], content, newline=not (message.kind == "command" and previous == "attachment"))
        else:
            out.append({"role": message.role, "content": content})
            opened_by_attachment = not out[:-1] and message.kind == "attachment"
        previous = message.kind
    if asked:
        closing = [_unanswered(i) for i in asked]
        if out and out[-1]["role"] == "user":
            _join(out[-1]["content"], closing)
        else:
            out.append({"role": "user", "content": closing})
    elif out and out[-1]["role"] == "assistant":
        last = out[-1]["content"][-1]
        if last["type"] == "text":
            last["text"] = last["text"].rstrip()
    return out


def _join(into: list[dict[str, Any]], more: list[dict[str, Any]], newline: bool = True) -> None:
    """Claude Code's joining of two user messages: tool results first, then the other blocks in
    order; a text block that meets another text block ends with a newline (unless `newline` is
    False)."""
    if newline and into and more and into[-1]["type"] == "text" and more[0]["type"] == "text":
        into[-1] = {**into[-1], "text": into[-1]["text"] + "\n"}
    joined = into + more
    into[:] = [b for b in joined if b["type"] == "tool_result"] + [b for b in joined if b["type"] != "tool_result"]


UNANSWERED = "This tool call was never answered (the run was stopped before it finished); it did not run."


def _unanswered(tool_use_id: str) -> dict[str, Any]:
    return Block("tool_result", UNANSWERED, tool_use_id=tool_use_id, is_error=True).to_api()


def _fits(block: Block, role: str) -> bool:
    if block.type == "text":
        return bool(block.text.strip())
    return block.type == ("tool_use" if role == "assistant" else "tool_result")


def command_text(name: str, args: str) -> str:
    """The command block of a typed `/name args`, as Claude Code writes it."""
    text = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>"
    return text + f"\n<command-args>{args}</command-args>" if args else text


def skill_format_text(name: str) -> str:
    """The command block Claude Code records for a skill only the model may invoke."""
    return f"<command-message>{name}</command-message>\n<command-name>{name}</command-name>\n<skill-format>true</skill-format>"


def command_message(skill: Skill, args: str) -> Message:
    """The visible half of a skill invocation: for a skill a user may type (or a command file),
    the /name block with its arguments; for a skill folder only the model may invoke, the
    skill-format block."""
    if not skill.user_invocable and skill.path.name == "SKILL.md" and skill.loaded_from.value in ("skills", "plugin"):
        return Message.user(skill_format_text(skill.name), kind="command")
    return Message.user(command_text(skill.name, args), kind="command")


def fork_result_message(name: str, result: str) -> str:
    return f'Skill "{name}" completed (forked execution).\n{result}'


# Claude Code's words before a command it ran itself, whose output went to the user (recorded:
# run_typed_fork_resumed); the model reads them, so they are sent as Claude Code sends them.
LOCAL_COMMAND_CAVEAT = (
    "<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request, and its "
    "output goes straight to the user. It's recorded here as context for later messages.</local-command-caveat>"
)


def as_sent(message: Message) -> list[Message]:
    """What the model gets for a message. A fork the user typed is saved as one message (its
    result, and the command typed, which a resumed conversation shows again), and sent as Claude
    Code records and sends a typed fork (recorded: run_typed_fork_resumed): three user messages,
    the local-command caveat, the typed text and the fork's answer in `<local-command-stdout>`,
    which api_messages joins as it joins any. Every other message (a fork result saved without
    the command typed, by an older skilldeck) is sent as it is."""
    fork = parse_fork_result(message.text) if message.kind == "fork-result" and message.command else None
    if fork is None:
        return [message]
    stdout = f"<local-command-stdout>{fork[1]}</local-command-stdout>"
    return [Message.user(text, kind="fork-result") for text in (LOCAL_COMMAND_CAVEAT, message.command, stdout)]


def parse_fork_result(text: str) -> tuple[str, str] | None:
    """The skill's name and the fork's answer, from a `fork_result_message`; None if it is not one."""
    first, _, answer = text.partition("\n")
    found = re.fullmatch(r'Skill "(.+)" completed \(forked execution\)\.', first)
    return (found.group(1), answer) if found else None


def _unsaved(folder: Path, exc: OSError) -> str:
    return (
        f"The conversation is not being saved: {folder} cannot be used ({exc.strerror or exc}). It goes on "
        "unsaved; point XDG_STATE_HOME at a folder you can write to keep transcripts."
    )


def new_session_id() -> str:
    import uuid  # here: `skilldeck list` reads state_dir only, and uuid brings in platform

    return str(uuid.uuid4())


class Transcript:
    """Appends each finished message to `<state>/sessions/<session>.jsonl`. A state folder that
    cannot be made or written (XDG_STATE_HOME names a file, a full disk, no permission) never stops
    a conversation: it goes on unsaved, and `problem` says why."""

    def __init__(self, path: Path, session_id: str, problem: str = "") -> None:
        self.path = path
        self.session_id = session_id
        self.problem = problem
        self.told = False

    @classmethod
    def create(cls, session_id: str | None = None, environ: Mapping[str, str] | None = None) -> Transcript:
        session_id = session_id or new_session_id()
        folder = state_dir(environ) / "sessions"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return cls(folder / f"{session_id}.jsonl", session_id, _unsaved(folder, exc))
        return cls(folder / f"{session_id}.jsonl", session_id)

    def append(self, message: Message, **extra: Any) -> str:
        """Save `message`; the first time saving fails, what to tell the user (else "")."""
        if not self.problem:
            try:
                self._write(message, extra)
            except OSError as exc:
                self.problem = _unsaved(self.path.parent, exc)
        if self.problem and not self.told:
            self.told = True
            return self.problem
        return ""

    def _write(self, message: Message, extra: dict[str, Any]) -> None:
        record = {"session": self.session_id, **message.to_dict(), **extra}
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        # Written and flushed to the kernel at once: a crash of skilldeck loses nothing. (An fsync
        # per message would also survive a power cut, at several milliseconds per agent turn.)
        with open(self.path, "a+b") as fh:
            # A crash mid-write leaves a torn last line with no newline: the next record would be
            # glued to it and both lost on load. End the torn line first.
            if fh.seek(0, os.SEEK_END) > 0:
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    line = b"\n" + line
            fh.write(line)

    @staticmethod
    def load(path: Path) -> list[Message]:
        """Messages of a transcript; a torn or broken line (a crash mid-write, a hand edit) is skipped."""
        return Transcript.read(path)[0]

    @staticmethod
    def read(path: Path) -> tuple[list[Message], int]:
        """Messages of a transcript and how many lines were skipped. Read through safeio: the
        path may come from the command line, and the file is never trusted to be small."""
        text = read_regular_text(path, TRANSCRIPT_CAP, errors="replace")
        out, skipped = [], 0
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                out.append(Message.from_dict(json.loads(line)))
            except (ValueError, KeyError, TypeError, RecursionError):
                skipped += 1
        return out, skipped


def latest_session(environ: Mapping[str, str] | None = None) -> Path | None:
    """The most recently written main transcript (forks' own transcripts are not sessions)."""
    folder = state_dir(environ) / "sessions"
    if not folder.is_dir():
        return None
    sessions = [p for p in folder.glob("*.jsonl") if "-fork" not in p.stem]
    return max(sessions, key=lambda p: p.stat().st_mtime, default=None)


def session_path(session: str, environ: Mapping[str, str] | None = None) -> Path:
    return state_dir(environ) / "sessions" / f"{session}.jsonl"
