"""Runs against a hostile or broken model (issue 14, "Runs"): malformed tool calls, stalls, pings,
malformed events, empty answers, calls cut by max_tokens, the turn bound, an unsaved rule. Each
becomes a clear error or notice, and the conversation stays one the API accepts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from engine.llm import Error
from engine.runner.loop import Failed, Fork, Notice, Result, Runner
from engine.runner.tools.base import ToolContext, ToolResult, schema
from tests.conftest import Tree, skill_text, write
from tests.engine.runner.test_runner import _runner
from tests.llm_server import MessagesServer, Reply


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def assert_sendable(messages: list[dict[str, Any]]) -> None:
    """The Messages API's rules for a conversation, checked independently of the code under test."""
    assert messages and messages[0]["role"] == "user", messages
    pending: set[str] = set()
    for message in messages:
        content = message["content"]
        assert content, f"an empty message: {message}"
        assert all(b["text"].strip() for b in content if b["type"] == "text"), f"an empty text block: {message}"
        if message["role"] == "user":
            results = [b["tool_use_id"] for b in content if b["type"] == "tool_result"]
            assert all(b["type"] == "tool_result" for b in content[: len(results)]), "results come first"
            assert set(results) == pending, f"calls {pending} answered by {results}"
            pending = set()
        else:
            assert not pending, f"calls {pending} left without results"
            pending = {b["id"] for b in content if b["type"] == "tool_use"}
    assert not pending, f"calls {pending} left without results"


def _failures(events: list[Any]) -> list[Error]:
    return [e.error for e in events if isinstance(e, Failed)]


def _env_runner(tree: Tree, server: MessagesServer, **env: str) -> tuple[Runner, list[Any]]:
    runner, events = _runner(tree, server, answers=["once"] * 10)
    runner.backend.environ = {**runner.backend.environ, **env}  # type: ignore[attr-defined]
    return runner, events


async def test_malformed_tool_calls_become_error_results_never_exceptions(tree: Tree, server: MessagesServer) -> None:
    server.script(
        Reply(tool_uses=[{"id": "json", "name": "Bash", "raw": '{"command": "ls" oops'},
                         {"id": "list", "name": "Bash", "raw": '["ls"]'},
                         {"id": "who", "name": "Teleport", "input": {"to": "mars"}},
                         {"id": "missing", "name": "Bash", "input": {}},
                         {"id": "type", "name": "Read", "input": {"file_path": 5}},
                         {"id": "extra", "name": "Read", "input": {"file_path": "x", "rm": True}},
                         {"id": "skill", "name": "Skill", "input": {"skill": ["x"]}}]),
        Reply(text="Sorry."),
    )  # fmt: skip
    runner, events = _runner(tree, server)
    await runner.send("go")
    assert not _failures(events) and not [e for e in events if isinstance(e, tuple)], "nothing was asked or run"
    results = {b["tool_use_id"]: b for b in server.requests[1]["messages"][-1]["content"]}
    assert all(r["is_error"] for r in results.values())
    assert "not valid JSON" in results["json"]["content"]
    assert "must be a JSON object, not list" in results["list"]["content"]
    assert results["who"]["content"] == "<tool_use_error>Error: No such tool available: Teleport</tool_use_error>"
    assert "The required parameter `command` is missing" in results["missing"]["content"]
    assert "`file_path` type is expected as `string` but provided as `number`" in results["type"]["content"]
    assert "An unexpected parameter `rm` was provided" in results["extra"]["content"]
    assert "`skill` type is expected as `string`" in results["skill"]["content"]
    assert_sendable(server.requests[1]["messages"])


class _Huge:
    name = "Huge"
    description = "Answers with far too much."
    input_schema = schema([])

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult("x" * 1_000_000)


class _Raises:
    name = "Raises"
    description = "Fails inside."
    input_schema = schema([])

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        raise RuntimeError("broken tool")


async def test_every_tool_result_is_bounded_and_a_tool_that_raises_is_an_error(tree: Tree, server: MessagesServer) -> None:
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"allow": ["Huge", "Raises"]}}))
    server.script(Reply(tool_uses=[{"id": "h", "name": "Huge", "input": {}}, {"id": "r", "name": "Raises", "input": {}}]))
    runner, events = _runner(tree, server, tools={"Huge": _Huge(), "Raises": _Raises()})
    await runner.send("go")
    results = {b["tool_use_id"]: b["content"] for b in server.requests[1]["messages"][-1]["content"]}
    assert len(results["h"]) < 100_200 and results["h"].endswith("[result cut at 100,000 characters: 900,000 more were not sent]")
    assert results["r"] == "The Raises tool failed: RuntimeError: broken tool"
    assert next(len(e.text) for e in events if isinstance(e, Result)) == len(results["h"]), "the pane sees what was sent"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Reply(text="a partial answer that stops", stall_after=5), "stalled"),
        (Reply(text="then pings for ever", pings_after=4), "stalled"),
        (Reply(text="x" * 30, corrupt=(4, b"event: content_block_delta\ndata: {not json\n\n")), "malformed"),
        (Reply(), "empty"),
        (Reply(text="   \n"), "empty"),
    ],
)
async def test_a_broken_answer_stops_the_run_and_the_conversation_goes_on(
    tree: Tree, server: MessagesServer, reply: Reply, kind: str
) -> None:
    server.script(reply, Reply(text="Back again."))
    runner, events = _env_runner(tree, server, SKILLDECK_STREAM_IDLE="0.5")
    await runner.send("hello")
    assert [(e.kind, e.retryable) for e in _failures(events)] == [(kind, True)]
    assert runner.stopped is not None and runner.stopped.kind == kind
    await runner.send("are you there?")
    assert_sendable(server.requests[1]["messages"])
    # No answer was kept, so the two user messages go as one, joined as Claude Code joins them.
    assert server.requests[1]["messages"][-1]["content"][-1] == {"type": "text", "text": "are you there?"}
    assert runner.messages[-1].text == "Back again." and runner.stopped is None


async def test_a_tool_call_cut_by_max_tokens_never_runs(tree: Tree, server: MessagesServer) -> None:
    marker = tree.project / "ran"
    cut = {"id": "cut", "name": "Bash", "raw": json.dumps({"command": f"touch {marker}; rm -rf /tmp/nothing"})[:30]}
    server.script(Reply(text="Deleting.", tool_uses=[cut], stop_reason="max_tokens"), Reply(text="Done."))
    runner, events = _runner(tree, server, answers=["once"])
    await runner.send("clean up")
    assert not marker.exists() and not [e for e in events if isinstance(e, tuple)], "never asked, never run"
    assert [e.kind for e in _failures(events)] == ["max-tokens"]
    assert "was not run" in _failures(events)[0].message
    await runner.proceed()
    sent = server.requests[1]["messages"]
    assert_sendable(sent)
    assert sent[-1]["content"][0]["tool_use_id"] == "cut" and "cut off by max_tokens" in sent[-1]["content"][0]["content"]


async def test_the_turn_bound_says_so_and_the_user_can_continue(tree: Tree, server: MessagesServer) -> None:
    glob = {"name": "Read", "input": {"file_path": "README.md"}}
    server.script(*[Reply(tool_uses=[{"id": f"g{n}", **glob}]) for n in range(3)], Reply(text="Finished."))
    runner, events = _runner(tree, server, max_turns=2)
    await runner.send("look around")
    assert len(server.requests) == 2
    [stop] = _failures(events)
    assert stop.kind == "turn-limit" and stop.message.startswith("Stopped after 2 turns") and "continue" in stop.message
    await runner.proceed()
    assert runner.messages[-1].text == "Finished." and len(server.requests) == 4
    for request in server.requests:
        assert_sendable(request["messages"])


async def test_allow_always_with_an_unparsable_local_settings_file_runs_once_and_says_why(
    tree: Tree, server: MessagesServer
) -> None:
    local = write(tree.project / ".claude" / "settings.local.json", "{ this is not json")
    server.script(Reply(tool_uses=[{"id": "p", "name": "Bash", "input": {"command": "env printf approved"}}]), Reply(text="Ok."))
    runner, events = _runner(tree, server, answers=["always"])
    await runner.send("go")
    results = server.requests[1]["messages"][-1]["content"]
    assert results[0]["content"] == "approved", "the user approved it: it ran"
    [notice] = [e for e in events if isinstance(e, Notice)]
    assert notice.kind == "rule-not-saved" and "Bash(env printf approved)" in notice.message and str(local) in notice.message
    assert local.read_text() == "{ this is not json", "the file is left as it was"
    assert runner.messages[-1].text == "Ok."


async def test_a_fan_out_of_forked_skills_is_bounded(tree: Tree, server: MessagesServer) -> None:
    """A model that calls a forked skill 64 times in one answer, whose forks each call another
    forked skill 64 times, whose forks call tools for ever (2,349 requests in 120 s before): the
    forks one answer starts, the forks of a run and the requests of a run are bounded, every call
    past a bound gets a result that says so, and the conversation stays one the API accepts."""
    from engine.runner.forks import MAX_FORKS_PER_ANSWER, MAX_FORKS_PER_RUN, MAX_REQUESTS_PER_RUN

    tree.skill("dig", skill_text(body="Dig.\n", name="dig", description="Digs.", context="fork"))
    tree.skill("deeper", skill_text(body="Deeper.\n", name="deeper", description="Goes deeper.", context="fork"))

    def calls(skill: str) -> Reply:
        return Reply(tool_uses=[{"id": f"{skill}{n}", "name": "Skill", "input": {"skill": skill}} for n in range(64)])

    def choose(body: dict[str, Any]) -> Reply:
        if len(server.requests) > 3 * MAX_REQUESTS_PER_RUN:
            return Reply(text="Done.")  # the bound did not hold: end, and let the asserts say so
        system = str(body.get("system", ""))
        if "/deeper" in system:
            return Reply(tool_uses=[{"id": "t", "name": "Teleport", "input": {}}])
        return calls("deeper") if "/dig" in system else calls("dig")

    server.choose = choose
    runner, events = _runner(tree, server)
    await runner.send("go")
    assert len(server.requests) <= MAX_REQUESTS_PER_RUN
    starts = [e for e in events if isinstance(e, Fork) and e.phase == "start"]
    assert 0 < len(starts) <= MAX_FORKS_PER_RUN
    refused = [e.text for e in events if isinstance(e, Result) and "Not started" in e.text]
    assert refused and all("forked skill" in text for text in refused)
    results = next(m for m in runner.messages if m.kind == "tool").blocks
    assert len(results) == 64 and sum("Not started" not in b.text for b in results) <= MAX_FORKS_PER_ANSWER
    assert runner.stopped is not None and runner.stopped.kind == "request-limit" and runner.stopped.retryable
    assert_sendable([m for m in runner.request().messages if m["role"] != "system"])
    # The next message starts a new run with the whole budget again.
    server.choose = None
    server.script(Reply(text="Fresh."))
    await runner.send("next")
    assert runner.messages[-1].text == "Fresh."
