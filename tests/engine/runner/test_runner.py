"""The agent loop against the local Messages API server, through the real SDK: exact requests."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import Transcript, Workspace, parse_fork_result
from engine.listing.build import HEADER
from engine.llm import Usage, backend_for, listing_in_messages
from engine.runner.conversation import LOCAL_COMMAND_CAVEAT
from engine.runner.loop import SKILL_DESCRIPTION, Added, Call, Failed, Fork, Runner
from tests.conftest import Tree, skill_text, write
from tests.llm_server import MessagesServer, Reply


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def _runner(tree: Tree, server: MessagesServer, answers: list[str] | None = None, **kw: Any) -> tuple[Runner, list[Any]]:
    env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(tree.root / "state")}
    locations = tree.locations(environ=env)
    workspace = Workspace(locations)
    events: list[Any] = []
    pending = list(answers or [])

    async def ask(tool: str, tool_input: dict[str, Any], decision: Any) -> str:
        events.append(("asked", tool, tool_input))
        return pending.pop(0)

    runner = Runner(
        locations=locations, catalog=workspace.load(), backend=backend_for("anthropic", env), permissions=workspace.permissions(),
        transcript=Transcript.create("t1", env), ask=ask, emit=events.append, **kw,
    )  # fmt: skip
    return runner, events


def _conversation(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The request's user and assistant messages: the listing's system message left out."""
    return [m for m in request["messages"] if m["role"] != "system"]


def _texts(request: dict[str, Any]) -> list[str]:
    return ["".join(b.get("text", "") for b in m["content"]) for m in _conversation(request)]


def _text_blocks(request: dict[str, Any]) -> list[str]:
    """Every text block sent, in order, however the user messages were joined."""
    return [b["text"] for m in _conversation(request) for b in m["content"] if b.get("type") == "text"]


def _results(request: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every tool result sent, by the call it answers."""
    return {b["tool_use_id"]: b for m in request["messages"] for b in m["content"] if b.get("type") == "tool_result"}


async def test_inline_skill_sends_two_messages_then_its_model_and_effort_until_the_next_user_message(
    tree: Tree, server: MessagesServer
) -> None:
    tree.skill("fix", skill_text(body="Fix $ARGUMENTS.\n", name="fix", description="Fixes things.", model="haiku", effort="high"))
    server.script(Reply(text="Fixed."), Reply(text="Hello."))
    runner, _ = _runner(tree, server)
    await runner.invoke("fix", "bug 7")
    first = server.requests[0]
    # The command block's exact form is recorded and tested in test_oracle_invoke.
    texts = _text_blocks(first)
    assert texts[0].startswith("<command-message>") and "<command-args>bug 7</command-args>" in texts[0]
    assert texts[-1] == f"Base directory for this skill: {tree.skills() / 'fix'}\n\nFix bug 7.\n"
    assert first["model"] == "claude-haiku-5-5" and first["output_config"] == {"effort": "high"}
    names = [t["name"] for t in first["tools"]]
    # Claude Code 2.1.328's own tools of skilldeck's kind: no Glob or Grep next to Bash.
    assert names == ["Bash", "Edit", "Read", "Write", "Skill"]
    skill_tool = first["tools"][-1]
    assert skill_tool["description"] == SKILL_DESCRIPTION, "skilldeck's own words, no listing in the tool"
    assert skill_tool["input_schema"]["required"] == ["skill"]
    # The listing: a system message after the first user message, where Claude Code 2.1.328 sends it.
    listing = {"role": "system", "content": [{"type": "text", "text": f"{HEADER}\n\n- fix: Fixes things."}]}
    assert [m["role"] for m in first["messages"]] == ["user", "system"] and first["messages"][1] == listing
    await runner.send("thanks")
    # It stays there, after the first user message, for the rest of the conversation.
    assert [m["role"] for m in server.requests[1]["messages"]] == ["user", "system", "assistant", "user"]
    assert server.requests[1]["messages"][1] == listing
    assert server.requests[1]["model"] == "claude-opus-5-5", "the skill's model ends with the next user message"
    # Claude Code's session effort with its default model (recorded: every case's "medium").
    assert server.requests[1]["output_config"] == {"effort": "medium"}, "and so does its effort"
    assert [m.text for m in runner.messages if m.meta] == [texts[-1]], "the skill's text is the one meta message"
    assert [m.text for m in runner.messages][-3:] == ["Fixed.", "thanks", "Hello."]
    assert len(Transcript.load(runner.transcript.path)) == 5


async def test_no_skill_tool_or_no_skill_sends_no_listing_message(tree: Tree, server: MessagesServer) -> None:
    """A bare deny rule takes the Skill tool away and its listing with it (recorded: run_deny_skill_tool);
    an empty catalog lists nothing, so no system message is sent."""
    server.script(Reply(text="One."), Reply(text="Two."))
    runner, _ = _runner(tree, server)
    await runner.send("hello")
    assert [m["role"] for m in server.requests[0]["messages"]] == ["user"]
    tree.skill("fix", skill_text(name="fix", description="Fixes things."))
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"deny": ["Skill"]}}))
    runner, _ = _runner(tree, server)
    await runner.send("hello")
    assert "Skill" not in [t["name"] for t in server.requests[1]["tools"]]
    assert [m["role"] for m in server.requests[1]["messages"]] == ["user"]


async def test_tool_calls_after_allow_deny_and_ask(tree: Tree, server: MessagesServer) -> None:
    tree.skill("ship", skill_text(body="Ship.\n", name="ship", description="d", allowed__tools="Bash(echo *)"))
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"deny": ["Bash(rm *)"]}}))
    server.script(
        Reply(tool_uses=[{"id": "a", "name": "Bash", "input": {"command": "echo hi"}},
                         {"id": "b", "name": "Bash", "input": {"command": "rm -rf x"}},
                         {"id": "c", "name": "Bash", "input": {"command": "env printf once"}},
                         {"id": "d", "name": "Bash", "input": {"command": "env printf never"}},
                         {"id": "e", "name": "Bash", "input": {"command": "env printf always"}}]),
        Reply(text="Done."),
    )  # fmt: skip
    runner, events = _runner(tree, server, answers=["once", "deny", "always"])
    await runner.invoke("ship")
    results = _results(server.requests[1])
    assert results["a"]["content"] == "hi" and "is_error" not in results["a"]
    assert results["b"]["is_error"] and "denied" in results["b"]["content"]
    assert results["c"]["content"] == "once"
    assert results["d"]["is_error"] and "rejected" in results["d"]["content"]
    assert results["e"]["content"] == "always"
    assert [e[1:] for e in events if isinstance(e, tuple)] == [
        ("Bash", {"command": c}) for c in ("env printf once", "env printf never", "env printf always")
    ]
    local = json.loads((tree.project / ".claude" / "settings.local.json").read_text())
    assert local["permissions"]["allow"] == ["Bash(env printf always)"]
    assert [e.decision for e in events if isinstance(e, Call)] == ["allow", "deny", "ask", "ask", "ask"]


async def test_the_models_skill_tool(tree: Tree, server: MessagesServer) -> None:
    tree.skill("helper", skill_text(body="Help with $ARGUMENTS.\n", name="helper", description="Helps."))
    tree.skill("manual", skill_text(name="manual", description="Only by hand.", disable__model__invocation="true"))
    server.script(
        Reply(tool_uses=[{"id": "s1", "name": "Skill", "input": {"skill": "/helper", "args": "tests"}},
                         {"id": "s2", "name": "Skill", "input": {"skill": "nope"}},
                         {"id": "s3", "name": "Skill", "input": {"skill": "manual"}}]),
        Reply(text="Ok."),
    )  # fmt: skip
    runner, events = _runner(tree, server)
    await runner.send("please help")
    assert not [e for e in events if isinstance(e, tuple)], "no rule, no allowed-tools or hooks: Claude Code runs it unasked"
    results = {i: b["content"] for i, b in _results(server.requests[1]).items()}
    assert results == {
        "s1": "Launching skill: helper",
        "s2": "<tool_use_error>Unknown skill: nope</tool_use_error>",
        "s3": "<tool_use_error>Skill manual cannot be used with Skill tool due to disable-model-invocation. Ask the user to "
        "run /manual themselves \u2014 it cannot be invoked via the Skill tool. Do not replicate this skill's workflow by "
        "other means \u2014 it is reserved for explicit user invocation.</tool_use_error>",
    }
    assert (
        _text_blocks(server.requests[1])[-1] == f"Base directory for this skill: {tree.skills() / 'helper'}\n\nHelp with tests.\n"
    )
    listed = listing_in_messages(server.requests[0]["messages"])
    assert listed is not None and "- helper: Helps." in listed[1] and "manual" not in listed[1]


async def test_a_skill_that_widens_what_runs_is_asked_and_always_writes_its_rule(tree: Tree, server: MessagesServer) -> None:
    tree.skill("ship", skill_text(name="ship", description="Ships.", allowed__tools="Bash(echo *)"))
    tree.skill("hooked", skill_text(name="hooked", description="Hooks.", hooks="{}"))
    call = {"id": "s1", "name": "Skill", "input": {"skill": "ship"}}
    server.script(Reply(tool_uses=[call, {"id": "s2", "name": "Skill", "input": {"skill": "hooked"}}]), Reply(text="Ok."))
    runner, events = _runner(tree, server, answers=["always"])
    await runner.send("ship it")
    assert [e[1:] for e in events if isinstance(e, tuple)] == [("Skill", {"skill": "ship"})], "an empty hooks map widens nothing"
    local = json.loads((tree.project / ".claude" / "settings.local.json").read_text())
    assert local["permissions"]["allow"] == ["Skill(ship)"]


async def test_a_fork_cannot_call_the_skill_it_runs(tree: Tree, server: MessagesServer) -> None:
    tree.skill("loop", skill_text(body="Go.\n", name="loop", description="Loops.", context="fork"))
    again = {"id": "x", "name": "Skill", "input": {"skill": "loop"}}
    server.script(Reply(tool_uses=[again]), Reply(text="Done."))
    runner, _ = _runner(tree, server)
    await runner.invoke("loop")
    result = server.requests[1]["messages"][-1]["content"][0]
    assert result["is_error"] and result["content"].startswith("<tool_use_error>Skill loop is the skill this subagent is running")


async def test_fork_runs_a_fresh_subagent_and_returns_only_its_answer(tree: Tree, server: MessagesServer) -> None:
    tree.skill("look", skill_text(body="Find $ARGUMENTS.\n", name="look", description="Looks.", context="fork", agent="Explore"))
    read = {"id": "g", "name": "Read", "input": {"file_path": str(tree.project / "main.py")}}
    server.script(Reply(text="Hi."), Reply(tool_uses=[read]), Reply(text="It is in main.py."))
    write(tree.project / "main.py", "print()\n")
    runner, events = _runner(tree, server)
    await runner.send("hello")
    await runner.invoke("look", "the entry point")
    sub = server.requests[1]
    assert _texts(sub) == [f"Base directory for this skill: {tree.skills() / 'look'}\n\nFind the entry point.\n"], "no history"
    assert [t["name"] for t in sub["tools"]] == ["Bash", "Read", "Skill"], "Explore: no tool that writes (recorded: run_forks)"
    # A fork offered the Skill tool gets the listing as its own system message too (recorded: run_forks).
    assert [m["role"] for m in sub["messages"]] == ["user", "system"] and listing_in_messages(sub["messages"]) == (
        1,
        f"{HEADER}\n\n- look: Looks.",
    )
    assert "subagent" in sub["system"] and "/look" in sub["system"] and "subagent" not in server.requests[0]["system"]
    assert server.requests[2]["messages"][-1]["content"][0]["content"] == "1\tprint()\n2\t"
    assert runner.messages[-1].text == 'Skill "look" completed (forked execution).\nIt is in main.py.'
    saved = Transcript.load(runner.transcript.path)[-1]
    assert saved.command == "/look the entry point" and "command" not in saved.to_api(), "kept, never sent"
    assert parse_fork_result(saved.text) == ("look", "It is in main.py.")
    fork = [e for e in events if isinstance(e, Fork)]
    assert [f.phase for f in fork] == ["start", "step", "end"] and fork[2].transcript is not None
    assert fork[1].result.startswith("Read ") and fork[1].result.endswith(" · allow")
    assert Transcript.load(fork[2].transcript)[0].text.endswith("Find the entry point.\n")
    assert len([e for e in events if isinstance(e, Usage)]) == 3, "the fork's tokens count too"
    assert not [e for e in events if isinstance(e, Call)], "the fork's calls are steps, not the main conversation's"


async def test_a_typed_fork_is_sent_next_turn_as_claude_code_sends_it(tree: Tree, server: MessagesServer) -> None:
    """Recorded: run_typed_fork_resumed (the oracle case compares it byte for byte)."""
    tree.skill("look", skill_text(body="Find $ARGUMENTS.\n", name="look", description="Looks.", context="fork"))
    server.script(Reply(text="Hi."), Reply(text="In main.py."), Reply(text="Ok."), Reply(text="Ok again."))
    runner, _ = _runner(tree, server)
    await runner.send("hello")
    await runner.invoke("look", "the entry point")
    await runner.send("next")
    caveat, typed, stdout = (
        LOCAL_COMMAND_CAVEAT + "\n",
        "/look the entry point\n",
        "<local-command-stdout>In main.py.</local-command-stdout>\n",
    )
    assert _conversation(server.requests[2])[-1]["content"] == [
        {"type": "text", "text": t} for t in (caveat, typed, stdout, "next")
    ], "three user messages joined with the next one, as Claude Code sends them"
    saved = Transcript.load(runner.transcript.path)
    assert saved[2].kind == "fork-result" and parse_fork_result(saved[2].text) == ("look", "In main.py."), "saved as before"
    # A session saved by an older skilldeck (no command typed kept) loads and is sent as it was saved.
    old = runner.transcript.path.with_name("old.jsonl")
    old.write_text(
        "".join(json.dumps({k: v for k, v in m.to_dict().items() if k != "command"} | {"session": "old"}) + "\n" for m in saved)
    )
    resumed, _ = _runner(tree, server)
    resumed.resume(old)
    await resumed.send("again")
    assert _text_blocks(server.requests[3])[2:4] == ['Skill "look" completed (forked execution).\nIn main.py.\n', "next"]


async def test_cancel_mid_run_leaves_a_valid_conversation(tree: Tree, server: MessagesServer) -> None:
    server.script(Reply(tool_uses=[{"id": "slow", "name": "Bash", "input": {"command": "sleep 30"}}]))
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"allow": ["Bash(sleep *)"]}}))
    runner, events = _runner(tree, server)
    task = asyncio.create_task(runner.send("wait"))
    for _ in range(500):
        if any(isinstance(e, Call) for e in events):
            break
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    last = runner.messages[-1]
    assert last.role == "user" and last.blocks[0].tool_use_id == "slow" and last.blocks[0].is_error
    assert Transcript.load(runner.transcript.path)[-1].to_api() == last.to_api()


async def test_api_error_is_reported(tree: Tree, server: MessagesServer) -> None:
    server.script(Reply(status=529))
    runner, events = _runner(tree, server)
    await runner.send("hi")
    assert [e.error.kind for e in events if isinstance(e, Failed)] == ["overloaded"]
    assert [type(e).__name__ for e in events] == ["Added", "Sending", "Failed"]
    assert isinstance(events[0], Added)


def test_transcripts_live_under_xdg_state(tmp_path: Path) -> None:
    transcript = Transcript.create("x", {"XDG_STATE_HOME": str(tmp_path)})
    assert transcript.path.parent == tmp_path / "skilldeck" / "sessions"


async def test_resume_from_a_transcript(tree: Tree, server: MessagesServer) -> None:
    server.script(Reply(text="First."), Reply(text="Second."))
    runner, _ = _runner(tree, server)
    await runner.send("one")
    again, _ = _runner(tree, server)
    again.resume(runner.transcript.path)
    await again.send("two")
    assert _texts(server.requests[1]) == ["one", "First.", "two"]


async def test_a_skills_shell_command_runs_off_the_event_loop(tree: Tree, server: MessagesServer) -> None:
    """The `!` command reads a FIFO that only a coroutine on the same loop writes: when the
    command blocked the loop, that coroutine never ran and the command gave up after 10 s."""
    fifo = tree.project / "go"
    os.mkfifo(fifo)
    tree.skill("wait", skill_text(body="Ready: !`timeout 10 cat go`\n", name="wait", description="Waits.", allowed__tools="Bash"))
    server.script(Reply(text="Done."))
    runner, events = _runner(tree, server)
    run = asyncio.create_task(runner.invoke("wait"))
    while not run.done():
        try:  # succeeds once `cat` has the FIFO open for reading
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        os.write(fd, b"written by the loop")
        os.close(fd)
        break
    await run
    assert "Ready: written by the loop" in "".join(_texts(server.requests[0])), events


def _running_in(folder: Path) -> list[int]:
    """The processes whose working folder is `folder` (a skill's `!` commands run in the project)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if Path(os.readlink(entry / "cwd")) == folder:
                    found.append(int(entry.name))
            except OSError:
                continue  # gone, or not ours to read
    return found


async def _until(condition: Any, what: str, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def test_cancelling_a_run_kills_a_skill_command_that_is_still_running(tree: Tree, server: MessagesServer) -> None:
    """`escape` cancels the run's task: a `!` command of 30 s (run in a worker thread, so the loop
    never waits on it) is killed with its process group, and no model request is made."""
    tree.skill("slow", skill_text(body="A: !`touch started && sleep 30`\n", description="d", allowed__tools="Bash"))
    runner, _ = _runner(tree, server)
    project = Path(os.path.realpath(tree.project))
    task = asyncio.create_task(runner.invoke("slow"))
    await _until(lambda: (project / "started").exists() and _running_in(project), "the command to start")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await _until(lambda: not _running_in(project), "the command to be killed", timeout=5.0)
    assert server.requests == []


async def test_a_workspace_session_runs_and_resumes(tree: Tree, server: MessagesServer) -> None:
    """The engine's face for a run: Workspace.session puts it together (as the app and the CLI
    do); a second session resumes the first from its transcript."""
    env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(tree.root / "state")}
    workspace = Workspace(tree.locations(environ=env))
    events: list[Any] = []

    async def ask(tool: str, tool_input: dict[str, Any], decision: Any) -> str:
        return "deny"

    server.script(Reply(text="Hello."), Reply(text="Again."))
    first = workspace.session(workspace.load(), backend=workspace.backend(), ask=ask, emit=events.append)
    await first.send("hi")
    assert workspace.latest_session() == first.transcript.path
    second = workspace.session(
        workspace.load(), backend=workspace.backend(), ask=ask, emit=events.append, resume=first.transcript.path
    )
    assert [m.text for m in second.messages] == ["hi", "Hello."] and second.skipped == 0
    await second.send("more")
    assert _texts(server.requests[1]) == ["hi", "Hello.", "more"]
