"""Resuming after a crash (issue 14): a kill -9 mid-tool and a torn last line leave a transcript
that resumes into a conversation the API accepts, and no later message is lost."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Transcript
from tests.conftest import Tree
from tests.engine.runner.test_run_faults import assert_sendable
from tests.engine.runner.test_runner import _runner
from tests.llm_server import MessagesServer, Reply

ROOT = Path(__file__).resolve().parents[3]

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from engine import Transcript, Workspace, Locations
    from engine.llm import backend_for
    from engine.runner.loop import Runner

    project, user, state, url = sys.argv[1:5]
    env = {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": state}
    locations = Locations(project=project, user_dir=user, managed_dir=user + "/managed", bundled=False, environ=env)
    workspace = Workspace(locations)

    async def ask(tool, tool_input, decision):
        return "once"

    runner = Runner(locations=locations, catalog=workspace.load(), backend=backend_for("anthropic", env),
                    permissions=workspace.permissions(), transcript=Transcript.create("killed", env), ask=ask,
                    emit=lambda event: None)
    asyncio.run(runner.send("run the slow thing"))
    """
)


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def _read_fifo(path: Path, seconds: float = 30.0) -> str:
    """What the first writer of the FIFO at `path` writes, waiting at most `seconds` for it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        ready, _, _ = select.select([fd], [], [], seconds)
        assert ready, f"nothing was written to {path} in {seconds} s"
        return os.read(fd, 100).decode()
    finally:
        os.close(fd)


async def test_kill_9_during_a_tool_resumes_into_a_valid_conversation(tree: Tree, server: MessagesServer) -> None:
    started = tree.root / "started"
    os.mkfifo(started)
    slow = {"id": "slow", "name": "Bash", "input": {"command": f"echo $$ > {started}; sleep 60"}}
    server.script(Reply(text="Running it.", tool_uses=[slow]))
    state = tree.root / "state"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tree.project), str(tree.user), str(state), server.url],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    bash = 0
    try:
        bash = int(_read_fifo(started))  # the tool is running: kill skilldeck now
        child.kill()
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
        if bash:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(bash, signal.SIGKILL)  # the command outlives a kill -9 of skilldeck: end it here
    path = state / "skilldeck" / "sessions" / "killed.jsonl"
    assert Transcript.load(path)[-1].blocks[-1].type == "tool_use", "the kill left a call without a result"

    server.script(Reply(text="Picking up."))
    runner, _ = _runner(tree, server)
    runner.transcript = Transcript(path, path.stem)
    assert runner.resume(path) == 0
    await runner.send("what happened?")
    sent = server.requests[1]["messages"]
    assert_sendable(sent)
    assert sent[2]["content"][0]["tool_use_id"] == "slow" and sent[2]["content"][0]["is_error"]
    # The closing result and the new question share one user message, as Claude Code joins them.
    assert sent[-1]["content"][-1] == {"type": "text", "text": "what happened?"}
    saved = [m.to_api() for m in Transcript.load(path)]
    assert_sendable(saved)
    assert saved[-1]["content"] == [{"type": "text", "text": "Picking up."}], "the repair and the rest are on disk"


async def test_a_torn_last_line_never_swallows_the_next_message(tree: Tree, server: MessagesServer) -> None:
    server.script(Reply(text="First answer."), Reply(text="Second answer."))
    runner, _ = _runner(tree, server)
    await runner.send("one")
    path = runner.transcript.path
    data = path.read_bytes()
    with open(path, "r+b") as fh:  # a crash in the middle of writing the answer's line
        fh.truncate(len(data) - 15)
    again, _ = _runner(tree, server)
    again.transcript = Transcript(path, path.stem)
    assert again.resume(path) == 1, "the torn line is skipped and counted"
    await again.send("two")
    assert [m.text for m in Transcript.load(path)] == ["one", "two", "Second answer."]
    assert_sendable(server.requests[1]["messages"])


def test_broken_records_are_skipped_not_sent(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    good = '{"role": "user", "blocks": [{"type": "text", "text": "hi"}]}'
    path.write_text(
        "\n".join([good, '{"role": "system", "blocks": []}', '{"role": "user", "blocks": [{"type": "tool_use", "input": []}]}',
                   '{"role": "user", "blocks": [{"type": "text", "text": 5}]}', "[1, 2", good]) + "\n"
    )  # fmt: skip
    messages, skipped = Transcript.read(path)
    assert [m.text for m in messages] == ["hi", "hi"] and skipped == 4
    os.mkfifo(tmp_path / "fifo.jsonl")
    with pytest.raises(OSError, match="not a regular file"):
        Transcript.read(tmp_path / "fifo.jsonl")
