"""The skill listing as a role "system" message inside `messages`, where Claude Code 2.1.328 sends
it (recorded in every invoke case: tests/oracle/recordings/invoke, the `own: listing` marker), put
there by `with_listing` and sent on the wire as is by the pinned SDK (its SystemMessageParam)."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.llm import Error, Request, TextDelta, listing_in_messages, listing_message, with_listing
from engine.llm.anthropic_api import AnthropicBackend
from tests.llm_server import MessagesServer, Reply, shape_problem

LISTING = "The following skills are available for use with the Skill tool:\n\n- fix: Fixes things."


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def test_the_listing_follows_the_first_user_messages_and_stays_there() -> None:
    # A first request: after the user message(s), last (recorded: typed_args, typed_at_file).
    assert with_listing([user("hi")], LISTING) == [user("hi"), listing_message(LISTING)]
    assert with_listing([user("@a"), user("/refs")], LISTING)[2] == listing_message(LISTING)
    # Later requests and a resumed conversation: still after the first user message (recorded: run_*).
    later = with_listing([user("hi"), assistant("call"), user("result"), assistant("more"), user("again")], LISTING)
    assert [m["role"] for m in later] == ["user", "system", "assistant", "user", "assistant", "user"]
    assert listing_in_messages(later) == (1, LISTING)
    # Nothing to list: no message at all.
    assert with_listing([user("hi")], "") == [user("hi")]
    assert listing_in_messages([user("hi")]) is None
    assert listing_message(LISTING) == {"role": "system", "content": [{"type": "text", "text": LISTING}]}


def _send(server: MessagesServer, messages: list[dict[str, Any]]) -> list[Any]:
    backend = AnthropicBackend({"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"})
    request = Request("claude-opus-5-5", "system prompt", messages, effort="medium")

    async def collect() -> list[Any]:
        return [event async for event in backend.stream(request)]

    return asyncio.run(collect())


def test_the_pinned_sdk_sends_the_system_message_as_built_and_the_local_server_accepts_it() -> None:
    messages = with_listing([user("hi")], LISTING)
    with MessagesServer() as server:
        server.script(Reply(text="ok"))
        events = _send(server, messages)
        assert [e.text for e in events if isinstance(e, TextDelta)] == ["ok"]
        assert server.requests[0]["messages"] == messages, "on the wire exactly as built: role, place, blocks"


def test_the_local_server_refuses_a_role_the_api_does_not_know() -> None:
    """So that its accepting the listing's system message means something."""
    assert shape_problem({"messages": with_listing([user("hi")], LISTING)}) == ""
    assert "unexpected role 'developer'" in shape_problem({"messages": [user("hi"), {"role": "developer", "content": "x"}]})
    assert "text blocks only" in shape_problem({"messages": [{"role": "system", "content": [{"type": "image"}]}]})
    with MessagesServer() as server:
        server.script(Reply(text="never"))
        events = _send(server, [user("hi"), {"role": "developer", "content": [{"type": "text", "text": LISTING}]}])
        errors = [e for e in events if isinstance(e, Error)]
        assert [e.kind for e in errors] == ["bad-request"] and "unexpected role" in errors[0].message
        assert server.replies == [Reply(text="never")], "the script is kept for the next request"
