"""A reading command run as the process's own command ends at once (tui/cli/main._end_now),
skipping Python's exit: what the exit would still have done must not be lost (the demo's folder
removed by its exit handler), and a stream that was never open must not crash the ending."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Tree
from tests.tui.test_cli_escapes import EXE


@pytest.mark.parametrize("argv", [("list",), ("list", "--json"), ("validate",), ("agents", "--json")])
def test_a_demo_reading_command_leaves_no_folder_behind(tmp_path: Path, argv: tuple[str, ...]) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "TMPDIR": str(temp)}
    done = subprocess.run([str(EXE), "--demo", *argv], env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert done.stdout, "the demo was read"
    assert list(temp.iterdir()) == [], "the demo's temporary folder is removed at the end"


@pytest.mark.parametrize(
    ("closed", "argv"), [(1, ("list",)), (1, ("validate",)), (2, ("list",)), (2, ("validate",)), (2, ("listing", "--json"))]
)
def test_a_closed_stream_is_no_crash_at_the_end(tree: Tree, closed: int, argv: tuple[str, ...]) -> None:
    """`skilldeck list >&-` or `2>&-`: Python starts with that stream as None; the command's
    answer is the same as with the stream open. (With stdout closed the tree has no skill: a
    command that has a line for stdout fails writing it, before the end.)"""
    if closed == 2:
        tree.skill("deploy", description="Ship it.")
    where = ["--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed), "--no-bundled"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tree.root), "XDG_STATE_HOME": str(tree.root / "state")}
    opened = subprocess.run([str(EXE), *argv, *where], env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    done = subprocess.run(
        [str(EXE), *argv, *where],
        env=env,
        stdout=subprocess.DEVNULL if closed == 2 else None,
        stderr=subprocess.PIPE if closed == 1 else subprocess.DEVNULL,
        timeout=60,
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(closed),
    )
    assert done.returncode == opened.returncode, done.stderr
