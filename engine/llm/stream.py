"""Reading one streamed answer from the Messages API, with every bound a hostile server needs.

The SDK's own stream helper parses each tool call's JSON as it arrives and raises on the first
bad byte, which would lose the whole turn; so this reads the raw events and builds the answer
itself: a tool call whose input is not a JSON object becomes a `ToolUse` with an `error` that
the runner answers as an error result (the conversation stays valid and the model can retry).

Bounds: the whole request (SKILLDECK_API_TIMEOUT, default 600 s); the time without any event
(SKILLDECK_STREAM_IDLE, default 90 s): the SDK drops keep-alive `ping` events, so a server that
sends nothing and one that sends only pings both end here; the size of one answer (text and
tool inputs together), the bytes of the whole response, on the wire and decoded (capped.py, below the SDK),
and the number of tool calls in one answer. The time without content starts at the request: a
server silent before its headers is as stalled as one silent after them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from .wire import Event, Stop, TextDelta, ToolUse, Usage

DEFAULT_TOTAL = 600.0
DEFAULT_IDLE = 90.0
# Far above what max_tokens lets a real model write in one turn (8,192 tokens is about 40 KB).
MAX_ANSWER_CHARS = 4_000_000
MAX_TOOL_CALLS = 64
# The bytes of one response. The SDK joins an event's bytes until a blank line, so a server that
# never sends one would grow a single buffer (copied whole at each chunk) until the idle bound;
# 16 MB is ten times the events of the longest answer max_tokens allows.
MAX_RESPONSE_BYTES = 16 * 1024 * 1024


class StreamFault(Exception):
    """The stream broke a bound or made no sense; `kind` is an `Error` kind."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def _seconds(environ: Mapping[str, str], key: str, default: float) -> float:
    try:
        value = float(environ.get(key) or default)
    except ValueError:
        return default
    return value if value > 0 and value == value else default


@dataclass(frozen=True)
class Bounds:
    total: float = DEFAULT_TOTAL
    idle: float = DEFAULT_IDLE
    max_chars: int = MAX_ANSWER_CHARS
    max_calls: int = MAX_TOOL_CALLS

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Bounds:
        return cls(
            _seconds(environ, "SKILLDECK_API_TIMEOUT", DEFAULT_TOTAL), _seconds(environ, "SKILLDECK_STREAM_IDLE", DEFAULT_IDLE)
        )


def tool_input(raw: str) -> tuple[dict[str, Any], str]:
    """A tool call's input from its streamed JSON, and what is wrong with it ("" when nothing)."""
    if not raw.strip():
        return {}, ""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return {}, f"its input is not valid JSON ({exc})"
    if not isinstance(value, dict):
        return {}, f"its input must be a JSON object, not {type(value).__name__}"
    return value, ""


class _Answer:
    """What has arrived so far: open tool calls by block index, sizes, the stop reason."""

    def __init__(self, bounds: Bounds) -> None:
        self.bounds = bounds
        self.calls: dict[int, tuple[str, str, list[str]]] = {}
        self.chars = 0
        self.count = 0
        self.stop = ""
        self.input_tokens = 0
        self.output_tokens = 0
        self.finished = False

    def grow(self, n: int) -> None:
        self.chars += n
        if self.chars > self.bounds.max_chars:
            raise StreamFault("too-large", f"more than {self.bounds.max_chars:,} characters")

    def take(self, event: Any) -> Event | None:
        kind = getattr(event, "type", "")
        if kind == "message_start":
            usage = getattr(event.message, "usage", None)
            self.input_tokens = int(getattr(usage, "input_tokens", 0) or 0)
        elif kind == "content_block_start":
            block = event.content_block
            if getattr(block, "type", "") == "tool_use":
                self.count += 1
                if self.count > self.bounds.max_calls:
                    raise StreamFault("too-large", f"more than {self.bounds.max_calls} tool calls in one answer")
                self.calls[event.index] = (str(block.id), str(block.name), [])
        elif kind == "content_block_delta":
            delta = event.delta
            if getattr(delta, "type", "") == "text_delta":
                text = str(delta.text or "")
                self.grow(len(text))
                return TextDelta(text) if text else None
            if getattr(delta, "type", "") == "input_json_delta" and event.index in self.calls:
                part = str(delta.partial_json or "")
                self.grow(len(part))
                self.calls[event.index][2].append(part)
        elif kind == "content_block_stop" and event.index in self.calls:
            call_id, name, parts = self.calls.pop(event.index)
            value, problem = tool_input("".join(parts))
            return ToolUse(call_id, name, value, problem)
        elif kind == "message_delta":
            self.stop = str(getattr(event.delta, "stop_reason", "") or self.stop)
            usage = getattr(event, "usage", None)
            self.output_tokens = int(getattr(usage, "output_tokens", 0) or 0)
        elif kind == "message_stop":
            self.finished = True
        return None


async def read_stream(client: Any, params: dict[str, Any], bounds: Bounds) -> AsyncIterator[Event]:
    """The events of one answer; SDK errors propagate, bounds and nonsense raise `StreamFault`."""
    deadline = time.monotonic() + bounds.total

    def left(limit: float) -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise StreamFault("timeout", f"no complete answer within {bounds.total:g} s")
        return min(remaining, limit)

    # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancel that arrives as the
    # awaited step completes, and then `escape` would not stop the run. The time without content
    # counts from the request: a server that takes the request and sends no headers is silent too.
    wait = left(bounds.idle)
    try:
        async with asyncio.timeout(wait):
            stream = await client.messages.create(**params, stream=True)
    except TimeoutError:
        if wait < bounds.idle:
            raise StreamFault("timeout", f"no answer within {bounds.total:g} s") from None
        raise StreamFault("stalled", f"nothing for {bounds.idle:g} s after the request") from None
    answer = _Answer(bounds)
    events = stream.__aiter__()
    try:
        while True:
            wait = left(bounds.idle)
            try:
                async with asyncio.timeout(wait):
                    event = await events.__anext__()
            except StopAsyncIteration:
                break
            except TimeoutError:
                if wait < bounds.idle:
                    raise StreamFault("timeout", f"no complete answer within {bounds.total:g} s") from None
                raise StreamFault("stalled", f"nothing for {bounds.idle:g} s") from None
            out = answer.take(event)
            if out is not None:
                yield out
    finally:
        await stream.close()
    if not answer.finished:
        # The server closed the stream before message_stop: the answer is cut off.
        raise StreamFault("connection", "the stream ended before the message did")
    yield Usage(answer.input_tokens, answer.output_tokens)
    yield Stop(answer.stop or "end_turn")


__all__ = ["Bounds", "StreamFault", "read_stream", "tool_input"]
