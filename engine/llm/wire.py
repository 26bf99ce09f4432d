"""The wire between the runner and a model: requests, the events a stream yields, model names and
the environment a run reads. Imports nothing of the engine: every backend (anthropic_api,
offline) and the runner build on it."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

# The one place aliases become model ids (ANTHROPIC_MODEL may also name one).
ALIASES = {
    "haiku": "claude-haiku-5-5",
    "sonnet": "claude-sonnet-5-5",
    "opus": "claude-opus-5-5",
}
# Claude Code 2.1.328's own default with an API key (every recording's session model): a run
# sends what the same run in Claude Code would, unless --model, a skill or ANTHROPIC_MODEL says.
DEFAULT_MODEL = "opus"
DEFAULT_MODEL_ID = ALIASES[DEFAULT_MODEL]
MAX_TOKENS = 8192


# What running against a model reads from the environment; the demo workspace passes only these on,
# so that a user's Claude Code settings never leak into it but their API key still works.
RUN_ENVIRON = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_MODEL",
    "SKILLDECK_API_TIMEOUT",
    "SKILLDECK_STREAM_IDLE",
    "XDG_STATE_HOME",
)


def run_environ(environ: Mapping[str, str], base_url: str | None = None) -> dict[str, str]:
    """The run-related part of `environ`, with `--base-url` over ANTHROPIC_BASE_URL."""
    out = {k: environ[k] for k in RUN_ENVIRON if environ.get(k)}
    if base_url:
        out["ANTHROPIC_BASE_URL"] = base_url
    return out


def has_key(environ: Mapping[str, str]) -> bool:
    return bool(environ.get("ANTHROPIC_API_KEY") or environ.get("ANTHROPIC_AUTH_TOKEN"))


def resolve_model(name: str | None, environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    chosen = name or env.get("ANTHROPIC_MODEL") or DEFAULT_MODEL
    return ALIASES.get(chosen, chosen)


def listing_message(listing: str) -> dict[str, Any]:
    """The skill listing as Claude Code 2.1.328 sends it: a message with role "system" inside
    `messages` (the SDK's SystemMessageParam), not in the Skill tool's description."""
    return {"role": "system", "content": [{"type": "text", "text": listing}]}


def with_listing(messages: list[dict[str, Any]], listing: str) -> list[dict[str, Any]]:
    """`messages` with the listing's system message where Claude Code puts it: after the user
    message(s) the conversation starts with, before the first assistant message (at the end while
    there is none), and there for the rest of the conversation (recorded in every main request
    and every forked subagent's that offers the Skill tool). No listing, no message."""
    if not listing:
        return messages
    at = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), len(messages))
    return [*messages[:at], listing_message(listing), *messages[at:]]


def listing_in_messages(messages: list[dict[str, Any]]) -> tuple[int, str] | None:
    """(index, text) of the listing's system message in a request's messages, or None."""
    for index, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) and message.get("role") == "system" else None
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if isinstance(blocks, list):
            text = "".join(b.get("text", "") for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str))
            return index, text
    return None


@dataclass
class Request:
    model: str
    system: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    max_tokens: int = MAX_TOKENS
    # Sent as `output_config.effort`, as Claude Code 2.1.328 sends it with every request (recorded:
    # typed_effort, run_skill_model); None sends no output_config.
    effort: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": self.system,
            "tools": self.tools,
            "messages": self.messages,
        }
        if self.effort:
            out["output_config"] = {"effort": self.effort}
        return out


@dataclass
class TextDelta:
    text: str


@dataclass
class ToolUse:
    id: str
    name: str
    input: dict[str, Any]
    # What was wrong with the input as streamed (not JSON, not an object): the call is answered
    # with an error result instead of being run.
    error: str = ""


@dataclass
class Usage:
    input_tokens: int
    output_tokens: int


@dataclass
class Stop:
    reason: str  # "end_turn" | "tool_use" | "max_tokens" | ...


@dataclass
class Error:
    kind: (
        str  # "no-key" | "auth" | "forbidden" | "rate-limit" | "server" | "overloaded" | "connection" | "timeout" | "bad-request"
        # | "stalled" | "malformed" | "too-large" (the stream), "empty" | "max-tokens" | "turn-limit" (the runner)
        # | "refusal" | "pause-turn" | "context-full" (a stop reason: `unfinished`)
    )
    message: str
    retryable: bool


Event = TextDelta | ToolUse | Usage | Stop | Error


# Stop reasons after which the answer is not complete, and what the user is told (the kind is an
# `Error` kind; pause-turn may go on, as the API asks the client to send the turn back).
UNFINISHED = {
    "refusal": ("refusal", "The model declined to go on (stop reason: refusal); the answer above is all there is. "
                "Rephrase the request, or start a new conversation.", False),
    "pause_turn": ("pause-turn", "The API paused this turn before the model was done (stop reason: pause_turn). "
                   "Send 'continue' to let it go on.", True),
    "model_context_window_exceeded": ("context-full", "The answer was cut off: the conversation filled the model's "
                                      "context window (stop reason: model_context_window_exceeded). Start a new "
                                      "conversation, or send less.", False),
}  # fmt: skip


def unfinished(stop: str) -> Error | None:
    """The error a stop reason means when the answer is not complete, else None."""
    known = UNFINISHED.get(stop)
    return Error(*known) if known else None


class Backend(Protocol):
    name: str

    def stream(self, request: Request) -> AsyncIterator[Event]: ...

    def warm(self) -> None:
        """Get ready for a first request (imports, clients) without sending anything."""
