"""What a run tells its caller (the app, the CLI) as it goes: one dataclass per kind of event."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..llm import Error, Request, Usage
from ..permissions.decide import Decision
from .conversation import Message


@dataclass
class Added:
    message: Message


@dataclass
class Streamed:
    """A piece of the model's answer as it streams."""

    delta: str


@dataclass
class Call:
    id: str
    name: str
    input: dict[str, Any]
    decision: str
    reason: str


@dataclass
class Result:
    id: str
    text: str
    is_error: bool


@dataclass
class Fork:
    skill: str
    phase: str  # "start" | "step" (a tool call inside, in `result`) | "end"
    result: str = ""
    transcript: Path | None = None
    # Who started it: the user typed `/skill args` (shown as the user's line), or the model called
    # the Skill tool (shown as that tool call).
    by: str = "model"
    args: str = ""


@dataclass
class Preparing:
    """A skill is being made ready to send: its file read again and its `!` commands run, which
    may take up to their timeout before anything else happens."""

    skill: str
    args: str = ""


@dataclass
class Failed:
    error: Error


@dataclass
class Sending:
    """A request is about to leave: what the model will receive (system, tools, the listing)."""

    request: Request


@dataclass
class Notice:
    """Something the user should know that does not stop the run: "rule-not-saved" (an "allow
    always" answer whose rule could not be written; the call ran once), "cut" (an answer cut at
    max_tokens)."""

    kind: str
    message: str


RunEvent = Added | Streamed | Call | Result | Fork | Failed | Usage | Sending | Notice | Preparing
Emit = Callable[[RunEvent], None]
# Answer "once", "always" or "deny" for a tool call no rule allows.
Ask = Callable[[str, dict[str, Any], Decision], Awaitable[str]]
# True to run a skill's `!` commands (its name, the commands the rules would run) in a project the
# user has not trusted: a cloned repository's skill runs code on the user's machine.
ConfirmShell = Callable[[str, list[str]], Awaitable[bool]]
