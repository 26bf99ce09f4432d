"""The first load of a large catalog: snapshots on the way, and the watcher's read-then-watch
order losing nothing that is written in between. Real files and real inotify; nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.catalog.assembly as catalog_module
import engine.reload.watchsince as watchsince
from engine import Catalog, Workspace
from tests.conftest import Tree, skill_text, write
from tests.engine.reload.test_watch import Recorder

COUNT = 250


@pytest.fixture
def many(tree: Tree) -> Tree:
    for i in range(COUNT):
        tree.skill(f"s{i:03d}", skill_text(description=f"skill {i}"))
    return tree


@pytest.fixture
def snapshots_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A snapshot at every 100th file, whatever the machine's speed.
    monkeypatch.setattr(catalog_module, "PARTIAL_FIRST_S", 0.0)
    monkeypatch.setattr(catalog_module, "PARTIAL_FIRST_FILES", 0)
    monkeypatch.setattr(catalog_module, "PARTIAL_EVERY_S", 0.0)


@pytest.mark.parametrize("how", ["load", "watch"])
def test_snapshots_show_the_skills_read_so_far(many: Tree, snapshots_at_once: None, how: str) -> None:
    seen: list[Catalog] = []
    workspace = Workspace(many.locations())
    if how == "load":
        final = workspace.load(partial=seen.append)
    else:
        handle = workspace.watch(Recorder(), partial=seen.append)
        handle.stop()
        assert handle.catalog is not None
        final = handle.catalog
    # The watcher also hands over the whole catalog, before it adds its watches.
    assert [s.reading for s in seen] == [(99, COUNT), (199, COUNT)] + ([None] if how == "watch" else [])
    if how == "watch":
        assert dict(seen[-1].skills) == dict(final.skills)
    for snapshot in seen[:2]:
        assert snapshot.reading is not None
        # The first skills, in listing order, and only those.
        assert list(snapshot.skills) == list(final.skills)[: snapshot.reading[0]]
        assert snapshot.stats.files_read == snapshot.reading[0]
    assert final.reading is None
    assert len(final.skills) == COUNT


def test_a_short_load_sends_no_snapshot(many: Tree) -> None:
    seen: list[Catalog] = []
    Workspace(many.locations()).load(partial=seen.append)
    # 250 files, fewer than PARTIAL_FIRST_FILES, however slow the machine: no flicker of a half
    # catalog before the whole one.
    assert seen == []


def test_writes_between_the_read_and_the_watches_are_read_again(tree: Tree) -> None:
    """The watcher reads first and adds its watches after: what is written in between raises no
    event, and must be found anyway (engine/reload/watchsince.py)."""
    tree.skill("kept", skill_text(description="old"))
    tree.skill("gone", skill_text(description="going"))
    write(tree.project / ".claude" / "commands" / "ns" / "a.md", "A.\n")

    def meanwhile(done: int, total: int) -> None:
        if done != total:
            return
        # The last file is read; the watches are not there yet.
        tree.skill("kept", skill_text(description="new"))
        tree.skill("fresh", skill_text(description="fresh"))
        (tree.skills() / "gone" / "SKILL.md").unlink()
        write(tree.project / ".claude" / "commands" / "ns" / "b.md", "B.\n")

    recorder = Recorder()
    handle = Workspace(tree.locations()).watch(recorder, progress=meanwhile)
    try:
        catalog = handle.catalog
        assert catalog is not None
        assert catalog.skills["kept"].description == "new"
        assert "fresh" in catalog.skills
        assert "gone" not in catalog.skills
        assert "ns:b" in catalog.skills
        # And the watches are in place for what comes next.
        tree.skill("later", skill_text(description="later"))
        recorder.wait(lambda c: "later" in c.skills)
    finally:
        handle.stop()


def test_a_write_after_the_whole_catalog_was_handed_over_is_a_change(tree: Tree) -> None:
    """The screen shows the whole catalog before the watches are added: what the timestamps find
    written meanwhile reaches the callback as a change, as any later write does."""
    tree.skill("kept", skill_text(description="old"))
    handed: list[Catalog] = []

    def partial(catalog: Catalog) -> None:
        handed.append(catalog)
        if catalog.reading is None:
            tree.skill("kept", skill_text(description="new"))

    recorder = Recorder()
    handle = Workspace(tree.locations()).watch(recorder, partial=partial)
    try:
        assert handed[-1].skills["kept"].description == "old"
        assert handle.catalog is not None and handle.catalog.skills["kept"].description == "new"
        assert recorder.changes and recorder.changes[0].changed == {"kept": ("description",)}
    finally:
        handle.stop()


def test_nothing_written_meanwhile_reads_nothing_again(many: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[Path] = []
    real = catalog_module.load_entry

    def counted(entry, *args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(entry.path)
        return real(entry, *args, **kwargs)

    # Without the margin for the kernel's coarse clock, files written before the start are old.
    monkeypatch.setattr(watchsince, "MARGIN_NS", 0)
    monkeypatch.setattr(catalog_module, "load_entry", counted)
    handle = Workspace(many.locations()).watch(Recorder())
    handle.stop()
    assert len(reads) == COUNT
