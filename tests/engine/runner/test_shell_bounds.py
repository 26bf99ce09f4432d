"""A skill's `!` command runs with a bound: its whole process group ends with the call, its output
is capped while it is read, and it cannot read the terminal (issue 14, Runs)."""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

import pytest

from engine.catalog.model import LoadedFrom, Skill, Source, SourceKind
from engine.runner.expand import ExpansionError, expand
from engine.runner.shell import AFTER_EXIT_S, OUTPUT_CAP, run_bounded

SOURCE = Source(SourceKind.PROJECT, Path("/p/.claude/skills"), "project")


def _dead(pid: int) -> bool:
    """The process ends within 5 s (a SIGKILL is delivered asynchronously): its pidfd becomes
    readable when it exits, zombie or reaped."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], 5)[0])
    finally:
        os.close(fd)


def test_a_background_child_holding_the_pipe_does_not_hold_the_call(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_bounded("sleep 600 & echo $!", tmp_path, timeout=60)
    elapsed = time.monotonic() - started
    assert elapsed < AFTER_EXIT_S + 5, "the call ended soon after the command did, not at the timeout"
    assert (result.exit_code, result.ok) == (0, True)
    assert _dead(int(result.output)), "the background child was killed with its group"


def test_the_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_bounded("sleep 600 & echo $! > child; exec sleep 601", tmp_path, timeout=1)
    assert time.monotonic() - started < 10
    assert (result.timed_out, result.exit_code, result.ok) == (True, None, False)
    assert _dead(int((tmp_path / "child").read_text()))


def test_output_is_capped_while_it_is_read(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_bounded("yes", tmp_path, timeout=60)
    assert time.monotonic() - started < 10, "a command that never ends is stopped at the cap"
    assert result.cut and result.ok
    assert result.output == "y\n" * (OUTPUT_CAP // 2) + f"\n[output cut at {OUTPUT_CAP:,} characters]"


def test_stdin_is_dev_null(tmp_path: Path) -> None:
    result = run_bounded("cat; echo done", tmp_path, timeout=30)
    assert (result.output, result.exit_code) == ("done", 0)


def _skill() -> Skill:
    return Skill("s", "s", "d", "frontmatter", SOURCE, LoadedFrom.SKILLS, SOURCE.root / "s" / "SKILL.md")


def test_a_command_past_its_timeout_fails_the_invocation(tmp_path: Path) -> None:
    with pytest.raises(ExpansionError, match=r'^Shell command failed for pattern "!`sleep 600`" \(no answer in 1 s: stopped\)$'):
        expand(
            _skill(), "", session_id="x", project_dir=tmp_path, check=lambda c: ("allow", ""), body="!`sleep 600`",
            shell="execute", timeout=1,
        )  # fmt: skip


def test_a_cut_output_says_so_in_the_prompt(tmp_path: Path) -> None:
    expansion = expand(
        _skill(), "", session_id="x", project_dir=tmp_path, check=lambda c: ("allow", ""), body="A !`yes` B", shell="execute"
    )
    assert expansion.text.endswith(f"y\n\n[output cut at {OUTPUT_CAP:,} characters] B")
    assert expansion.shell[0].cut
