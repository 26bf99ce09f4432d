"""`watch` under churn: what it prints on stderr, and symlinked skills that come and go."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Workspace
from tests.conftest import Tree, skill_text, write
from tests.engine.reload.churn import Churn, LinkChurn
from tests.engine.reload.test_watch import Recorder, equal_to_cold_load

ROOT = Path(__file__).parents[3]


def test_watch_under_churn_prints_no_warning_reprs(tree: Tree) -> None:
    """watchdog warns when a folder comes and goes while its watch is added or removed, and each
    warning printed the repr of a whole watch group: 131 warnings, 440 KB on stderr in 20 s of
    churn. They go to the log as one short line each; stderr stays quiet."""
    tree.skill("alpha", skill_text(name="alpha", description="start"))
    (tree.root / "home").mkdir()
    args = ["watch", "--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed)]
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tui.cli.main import main; sys.exit(main(sys.argv[1:]))", *args],
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


def test_a_symlinked_skills_target_removed_between_the_read_and_its_watch(tree: Tree) -> None:
    """The race behind a symlinked skill that stayed in the watched catalog: a link to a folder
    outside every tier is read by a reload whose watches were planned before the link existed,
    so its target is watched only from the next plan on; the target goes in between. Here the
    target is removed right after the read that found the link, every time."""
    outside = tree.root / "outside" / "ext"
    tree.skill("alpha", skill_text(name="alpha", description="start"))
    rec = Recorder()
    handle = Workspace(tree.locations()).watch(rec)
    try:
        load = handle.loader.load

        def load_then_remove_the_target(*args, **kw):  # type: ignore[no-untyped-def]
            catalog = load(*args, **kw)
            if "ext-link" in catalog.skills and outside.exists():
                shutil.rmtree(outside)
            return catalog

        handle.loader.load = load_then_remove_the_target  # type: ignore[method-assign]
        write(outside / "SKILL.md", skill_text(name="ext", description="outside"))
        (tree.skills() / "ext-link").symlink_to(outside)
        rec.wait(lambda catalog: any("ext-link" in str(d.path) for d in catalog.diagnostics))
        equal_to_cold_load(tree, rec, handle, "a target removed after the read")
    finally:
        handle.stop()


# watchdog's reader thread may die mid-churn, and it warns when a folder churns away under a new
# watch (pytest records warnings itself, past the watcher's routing of them to the log).
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", [13, 21, 1, 7])
def test_symlinked_skills_made_and_removed_under_churn_end_equal_to_a_cold_load(tree: Tree, seed: int) -> None:
    """Links to skills in every tier and outside, made and removed, their targets made, removed
    and renamed: once the disk is quiet the watched catalog is a cold load's (one link stayed in
    one of four runs before)."""
    tree.skill("alpha", skill_text(name="alpha", description="start"))
    (tree.root / "outside").mkdir()
    rec = Recorder()
    handle = Workspace(tree.locations()).watch(rec)
    try:
        churn = LinkChurn(tree.project, tree.user, tree.managed, seed)
        churn.outside = tree.root / "outside"
        for _ in range(300):
            churn.step()
        equal_to_cold_load(tree, rec, handle, f"seed {seed}")
    finally:
        handle.stop()
