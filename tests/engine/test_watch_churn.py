"""`watch` under churn: what it prints on stderr, and symlinked skills that come and go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import Tree, skill_text
from tests.engine.churn import Churn

ROOT = Path(__file__).parents[2]


def test_watch_under_churn_prints_no_warning_reprs(tree: Tree) -> None:
    """watchdog warns when a folder comes and goes while its watch is added or removed, and each
    warning printed the repr of a whole watch group: 131 warnings, 440 KB on stderr in 20 s of
    churn. They go to the log as one short line each; stderr stays quiet."""
    tree.skill("alpha", skill_text(name="alpha", description="start"))
    (tree.root / "home").mkdir()
    args = ["watch", "--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed)]
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main(sys.argv[1:]))", *args],
        cwd=ROOT,
        env={**os.environ, "HOME": str(tree.root / "home"), "NO_COLOR": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The first line, on stderr, once the first load is done.
        assert proc.stderr is not None and proc.stderr.readline().startswith("watching")
        churn = Churn(tree.project, tree.user, tree.managed, seed=1)
        for _ in range(6000):
            churn.step()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    assert "Warning" not in err and all(len(line) < 300 for line in err.splitlines()), err[:2000]
