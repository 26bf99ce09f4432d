"""The Bash tool with real processes: timeouts end the whole group, output is capped as it streams."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from engine.runner.tools.base import ToolContext
from engine.runner.tools.shell import OUTPUT_CAP, BashTool


def _gone(pid: int) -> bool:
    """True when the process no longer runs (absent, or a zombie waiting for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


async def _wait_for(condition, seconds: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


async def test_a_background_child_holding_the_pipe_does_not_hold_the_call(tmp_path: Path) -> None:
    started = time.monotonic()
    result = await BashTool().run({"command": "sleep 100 & echo $! > pid; echo hi"}, ToolContext(tmp_path))
    assert time.monotonic() - started < 5, "returned when bash exited, not when the child closed the pipe"
    assert result.text.startswith("hi") and not result.is_error
    assert await _wait_for(lambda: _gone(int((tmp_path / "pid").read_text())))


async def test_the_timeout_ends_the_whole_process_group(tmp_path: Path) -> None:
    started = time.monotonic()
    command = "sleep 100 & echo $! > pid; trap '' TERM; sleep 100"
    result = await BashTool().run({"command": command, "timeout": 500}, ToolContext(tmp_path))
    assert time.monotonic() - started < 5
    assert result.is_error and "timed out after 0.5 s" in result.text
    assert await _wait_for(lambda: _gone(int((tmp_path / "pid").read_text())))


async def test_yes_is_capped_while_it_streams_and_returns_at_the_timeout(tmp_path: Path) -> None:
    started = time.monotonic()
    result = await BashTool().run({"command": "yes", "timeout": 2000}, ToolContext(tmp_path))
    assert time.monotonic() - started < 6
    assert result.is_error and "timed out" in result.text
    assert len(result.text) < OUTPUT_CAP + 300, "never more than the cap plus the note"
    assert "[output cut at 30,000 bytes:" in result.text and "more bytes were not kept]" in result.text


async def test_a_large_output_that_ends_is_cut_and_says_how_much(tmp_path: Path) -> None:
    result = await BashTool(output_cap=100).run({"command": "head -c 5000 /dev/zero | tr '\\0' a"}, ToolContext(tmp_path))
    assert not result.is_error
    assert result.text == "a" * 100 + "\n[output cut at 100 bytes: 4,900 more bytes were not kept]"


async def test_cancelling_kills_the_group(tmp_path: Path) -> None:
    tool = BashTool()
    task = asyncio.create_task(tool.run({"command": "sleep 100 & echo $! > pid; sleep 100"}, ToolContext(tmp_path)))
    assert await _wait_for(lambda: (tmp_path / "pid").is_file() and (tmp_path / "pid").read_text().strip() != "")
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    else:  # pragma: no cover - the cancel must propagate
        raise AssertionError("the cancel was swallowed")
    assert await _wait_for(lambda: _gone(int((tmp_path / "pid").read_text())))


async def test_exit_codes_and_bad_inputs(tmp_path: Path) -> None:
    # Claude Code's layout (recorded: run_tool_results): the exit code first; grep's 1 is no failure.
    assert (await BashTool().run({"command": "echo out; exit 3"}, ToolContext(tmp_path))).text == "Exit code 3\nout"
    quiet = await BashTool().run({"command": "echo x | grep nomatch"}, ToolContext(tmp_path))
    assert (quiet.text, quiet.is_error) == ("(Bash completed with no output)", False)
    broken = await BashTool().run({"command": "grep x /nonexistent"}, ToolContext(tmp_path))
    assert broken.is_error and broken.text.startswith("Exit code 2\ngrep:")
    missing = await BashTool().run({}, ToolContext(tmp_path))
    assert missing.is_error and "command" in missing.text
    odd = await BashTool().run({"command": "echo ok", "timeout": "soon"}, ToolContext(tmp_path))
    assert odd.text == "ok"
