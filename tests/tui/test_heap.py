"""The app's process moves its long-lived objects out of the collector's sight; a process that
never ran the app as the command does (this test suite) freezes nothing. In a child process, so
that this suite's own collector is left as it is."""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import gc
from tui import heap
kept = [[] for _ in range(1000)]
heap.settle_warm()
assert gc.get_freeze_count() == 0, "froze without settle_imports"
heap.settle_imports()
before = gc.get_freeze_count()
assert before > 0
sdk = [[] for _ in range(1000)]  # what warming the backend imports and makes
heap.settle_warm()
assert gc.get_freeze_count() >= before + 1000, (before, gc.get_freeze_count())
print("ok")
"""


def test_settle_freezes_only_in_the_apps_own_process() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
