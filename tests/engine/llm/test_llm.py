"""The backends against a local Messages API server, through the real anthropic SDK."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
import zlib
from collections.abc import Iterator

import pytest

from engine.llm import Error, Request, Stop, TextDelta, ToolUse, Usage, backend_for, resolve_model
from engine.llm.offline import OfflineBackend
from tests.llm_server import MessagesServer, Reply


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def _env(server: MessagesServer, **extra: str) -> dict[str, str]:
    return {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key", **extra}


REQUEST = Request("claude-sonnet-5-5", "You are testing.", [{"role": "user", "content": [{"type": "text", "text": "hi"}]}])


async def _collect(backend, request: Request = REQUEST) -> list:  # type: ignore[no-untyped-def]
    return [event async for event in backend.stream(request)]


async def test_streamed_text_and_tool_calls_arrive_in_order(server: MessagesServer) -> None:
    server.script(
        Reply(text="Hello there, streaming world.", tool_uses=[{"id": "toolu_a", "name": "Read", "input": {"file_path": "/x"}}])
    )
    events = await _collect(backend_for("anthropic", _env(server)))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Hello there, streaming world."
    assert len([e for e in events if isinstance(e, TextDelta)]) > 1, "delivered as it streams"
    assert [e for e in events if isinstance(e, ToolUse)] == [ToolUse("toolu_a", "Read", {"file_path": "/x"})]
    assert events[-2:] == [Usage(11, 7), Stop("tool_use")]
    sent = server.requests[0]
    assert sent["stream"] is True and sent["model"] == "claude-sonnet-5-5" and sent["system"] == "You are testing."
    assert sent["messages"] == REQUEST.messages
    # This SDK sends the key as a bearer token; older ones used x-api-key.
    assert "test-key" in server.headers[0].get("x-api-key", "") + server.headers[0].get("authorization", "")


async def test_effort_is_sent_as_output_config(server: MessagesServer) -> None:
    """Claude Code sends its effort level with every request as output_config.effort; without
    one, no output_config at all."""
    server.script(Reply(text="ok"), Reply(text="ok"))
    backend = backend_for("anthropic", _env(server))
    await _collect(backend, Request(REQUEST.model, REQUEST.system, REQUEST.messages, effort="high"))
    await _collect(backend)
    assert server.requests[0]["output_config"] == {"effort": "high"}
    assert "output_config" not in server.requests[1]


async def test_auth_token_is_a_bearer(server: MessagesServer) -> None:
    server.script(Reply(text="ok"))
    env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_AUTH_TOKEN": "tok"}
    await _collect(backend_for(None, env))
    assert server.headers[0]["authorization"] == "Bearer tok"


@pytest.mark.parametrize(
    ("reply", "kind", "retryable"),
    [
        (Reply(status=401), "auth", False),
        (Reply(status=403), "forbidden", False),
        (Reply(status=429), "rate-limit", True),
        (Reply(status=500), "server", True),
        (Reply(status=529), "overloaded", True),
        (Reply(text="partial answer that stops", drop_after=4), "connection", True),
        (Reply(text="overloaded mid-stream", stream_error="overloaded_error"), "overloaded", True),
    ],
)
async def test_each_failure_is_one_clear_error(server: MessagesServer, reply: Reply, kind: str, retryable: bool) -> None:
    server.script(reply)
    events = await _collect(backend_for("anthropic", _env(server)))
    errors = [e for e in events if isinstance(e, Error)]
    assert len(errors) == 1 and errors[0].kind == kind and errors[0].retryable is retryable
    assert errors[0].message, "says what to do"
    assert not any(isinstance(e, Stop) for e in events)


async def test_a_server_that_never_answers_times_out(server: MessagesServer) -> None:
    server.script(Reply(hang=True))
    events = await _collect(backend_for("anthropic", _env(server, SKILLDECK_API_TIMEOUT="0.5")))
    assert [(e.kind, e.retryable) for e in events if isinstance(e, Error)] == [("timeout", True)]


async def test_no_key_is_an_error_not_a_call(server: MessagesServer) -> None:
    events = await _collect(backend_for("anthropic", {"ANTHROPIC_BASE_URL": server.url}))
    assert [e.kind for e in events if isinstance(e, Error)] == ["no-key"]
    assert server.requests == []


async def test_offline_answers_with_the_request() -> None:
    assert isinstance(backend_for(None, {}), OfflineBackend)
    events = await _collect(backend_for(None, {}))
    text = events[0].text
    body = json.loads(text.split("```json\n", 1)[1].rsplit("\n```", 1)[0])
    assert body == REQUEST.to_dict()
    assert "ANTHROPIC_API_KEY" in text


def test_aliases() -> None:
    assert resolve_model("opus", {}) == "claude-opus-5-5"
    assert resolve_model(None, {"ANTHROPIC_MODEL": "haiku"}) == "claude-haiku-5-5"
    assert resolve_model("claude-x", {}) == "claude-x"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply(text="a stream that stops sending", stall_after=4), "stalled"),
        (Reply(text="then only pings", pings_after=3), "stalled"),
        (Reply(text="x", corrupt=(3, b"event: content_block_delta\ndata: {not json\n\n")), "malformed"),
        (Reply(text="x", corrupt=(3, b"event: content_block_delta\ndata: \xff\xfe\n\n")), "malformed"),
    ],
)
async def test_stalls_pings_and_malformed_events_end_in_one_clear_error(server: MessagesServer, reply: Reply, kind: str) -> None:
    server.script(reply)
    events = await asyncio.wait_for(_collect(backend_for("anthropic", _env(server, SKILLDECK_STREAM_IDLE="0.5"))), 10)
    errors = [e for e in events if isinstance(e, Error)]
    assert [(e.kind, e.retryable) for e in errors] == [(kind, True)], events
    assert errors[0].message and not any(isinstance(e, Stop) for e in events)


async def test_the_total_timeout_bounds_a_stream_that_keeps_pinging(server: MessagesServer) -> None:
    server.script(Reply(text="x", pings_after=3))
    env = _env(server, SKILLDECK_STREAM_IDLE="30", SKILLDECK_API_TIMEOUT="0.7")
    events = await asyncio.wait_for(_collect(backend_for("anthropic", env)), 10)
    assert [e.kind for e in events if isinstance(e, Error)] == ["timeout"]


async def test_a_tool_call_whose_input_is_not_a_json_object_arrives_marked_not_raised(server: MessagesServer) -> None:
    server.script(
        Reply(tool_uses=[{"id": "bad", "name": "Bash", "raw": '{"command": "ls" oops'},
                         {"id": "list", "name": "Bash", "raw": "[1, 2]"},
                         {"id": "ok", "name": "Bash", "input": {"command": "ls"}}])
    )  # fmt: skip
    events = await _collect(backend_for("anthropic", _env(server)))
    uses = {e.id: e for e in events if isinstance(e, ToolUse)}
    assert uses["bad"].input == {} and "not valid JSON" in uses["bad"].error
    assert uses["list"].input == {} and "must be a JSON object, not list" in uses["list"].error
    assert uses["ok"] == ToolUse("ok", "Bash", {"command": "ls"})
    assert events[-1] == Stop("tool_use")


async def test_a_tool_call_cut_by_max_tokens_comes_with_its_stop_reason(server: MessagesServer) -> None:
    server.script(Reply(tool_uses=[{"id": "cut", "name": "Bash", "raw": '{"command": "rm -rf /tmp/x'}], stop_reason="max_tokens"))
    events = await _collect(backend_for("anthropic", _env(server)))
    assert [e.id for e in events if isinstance(e, ToolUse)] == ["cut"]
    assert events[-1] == Stop("max_tokens")


async def test_a_response_that_never_ends_its_line_is_cut_at_the_byte_bound(server: MessagesServer) -> None:
    from engine.llm.anthropic_api import AnthropicBackend

    server.script(Reply(text="x", flood_after=3))
    started = time.monotonic()
    events = await asyncio.wait_for(_collect(AnthropicBackend(_env(server), max_response_bytes=2_000_000)), 20)
    assert [e.kind for e in events if isinstance(e, Error)] == ["too-large"]
    assert "passed 2,000,000 bytes" in next(e.message for e in events if isinstance(e, Error))
    assert time.monotonic() - started < 10


async def test_a_cancel_while_text_streams_always_stops_the_stream(server: MessagesServer) -> None:
    """`escape` cancels the run's task while deltas arrive back to back: the cancel must never be
    swallowed by the read's timeout (asyncio.wait_for on Python 3.11 could lose it when the awaited
    delta completed at the same moment, and the answer went on)."""
    rounds = 25
    server.script(*[Reply(text="word " * 4000, chunk=1) for _ in range(rounds)])
    backend = backend_for("anthropic", _env(server))
    for _ in range(rounds):
        seen = asyncio.Event()

        async def read(seen: asyncio.Event) -> int:
            count = 0
            async for event in backend.stream(REQUEST):
                count += isinstance(event, TextDelta)
                if count == 50:
                    seen.set()
            return count

        task = asyncio.create_task(read(seen))
        await asyncio.wait_for(seen.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


# A line that never ends, compressed: 8 MB of it is 8 KB on the wire.
BOMB = b"event: content_block_delta\ndata: " + b"x" * 8_000_000


@pytest.mark.parametrize(
    ("reply", "bound"),
    [
        (Reply(encoded=("gzip", gzip.compress(BOMB))), "decoded"),
        (Reply(encoded=("deflate", zlib.compress(BOMB))), "decoded"),
        (Reply(encoded=("gzip, gzip", gzip.compress(gzip.compress(BOMB)))), "decoded"),
        (Reply(status=404, encoded=("gzip", gzip.compress(b'{"error": "' + b"x" * 8_000_000 + b'"}'))), "decoded"),
        (Reply(encoded=("br", b"\x00" * 100)), "br"),
    ],
)
async def test_a_compressed_response_is_held_to_the_byte_bound_once_decoded(
    server: MessagesServer, reply: Reply, bound: str
) -> None:
    """A hostile base URL sends a small compressed body that decodes to far more than the bound:
    the decoded bytes count (the wire's bytes too), and an encoding skilldeck cannot bound is
    refused, never handed to a decoder without a cap."""
    from engine.llm.anthropic_api import AnthropicBackend

    server.script(reply)
    events = await asyncio.wait_for(_collect(AnthropicBackend(_env(server), max_response_bytes=2_000_000)), 30)
    errors = [e for e in events if isinstance(e, Error)]
    assert len(errors) == 1, events
    if bound == "decoded":
        assert errors[0].kind == "too-large" and "passed 2,000,000 bytes" in errors[0].message
    else:
        assert errors[0].kind == "malformed" and "br" in errors[0].message


async def test_a_gzip_encoded_answer_that_fits_is_read(server: MessagesServer) -> None:
    reply = Reply(text="small and compressed")
    body = b"".join(f"event: {n}\ndata: {json.dumps(d)}\n\n".encode() for n, d in reply.events("m"))
    server.script(Reply(encoded=("gzip", gzip.compress(body))))
    events = await _collect(backend_for("anthropic", _env(server)))
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "small and compressed"
    assert events[-1] == Stop("end_turn")


async def test_a_server_silent_before_its_headers_is_a_stall_at_the_idle_bound(server: MessagesServer) -> None:
    """The time without content counts from the request, not from the response's headers: a
    server that accepts the request and says nothing ends at the idle bound, not the total one."""
    server.script(Reply(hang=True))
    events = await asyncio.wait_for(_collect(backend_for("anthropic", _env(server, SKILLDECK_STREAM_IDLE="0.5"))), 30)
    errors = [e for e in events if isinstance(e, Error)]
    assert [(e.kind, e.retryable) for e in errors] == [("stalled", True)]
    assert "0.5 s" in errors[0].message


@pytest.mark.parametrize(
    ("status", "kind", "label"),
    [
        (404, "not-found", "(404)"),
        (413, "request-too-large", "(413)"),
        (502, "server", "(502)"),
        (418, "refused", "(418)"),
        (500, "server", "(500)"),
    ],
)
async def test_each_http_status_is_labelled_as_it_is_with_the_apis_own_message(
    server: MessagesServer, status: int, kind: str, label: str
) -> None:
    server.script(Reply(status=status, message=f"the server's own words for {status}"))
    events = await _collect(backend_for("anthropic", _env(server)))
    errors = [e for e in events if isinstance(e, Error)]
    assert [e.kind for e in errors] == [kind]
    assert label in errors[0].message and f"the server's own words for {status}" in errors[0].message
    assert status == 500 or "(500)" not in errors[0].message
