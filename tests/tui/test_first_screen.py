"""A large catalog's first screen: the first skills show while the rest is still read, the app says
how far it got, and the whole catalog takes over without moving the cursor. The loading thread is
held mid-way (an event, not a sleep) so that the half-loaded screen can be looked at."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import engine.catalog.assembly as catalog_module
from engine import Locations
from tests.conftest import skill_text, write
from tui.app import SkilldeckApp
from tui.view import PathDisplay

from .conftest import loaded, until
from .test_panes_details import _facts

COUNT = 250


def _project(tmp_path: Path) -> Locations:
    project = tmp_path / "proj"
    for i in range(COUNT):
        write(project / ".claude" / "skills" / f"s{i:03d}" / "SKILL.md", skill_text(description=f"skill {i}"))
    empty = tmp_path / "empty"
    return Locations(project=project, user_dir=empty / "u", managed_dir=empty / "m", bundled=False, environ={})


def _hold_the_load(monkeypatch: pytest.MonkeyPatch, at: str = "s150") -> threading.Event:
    """The loading thread waits at `at` (s150: past the first snapshot of 100 files) until the
    event the test sets once it has looked."""
    go_on = threading.Event()
    real = catalog_module.load_entry

    def held(entry: Any, *args: Any, **kwargs: Any) -> Any:
        if entry.path.parent.name == at:
            assert go_on.wait(10)
        return real(entry, *args, **kwargs)

    monkeypatch.setattr(catalog_module, "load_entry", held)
    return go_on


@pytest.mark.parametrize("watch", [True, False])
async def test_the_first_skills_show_while_the_rest_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, watch: bool) -> None:
    monkeypatch.setattr(catalog_module, "PARTIAL_FIRST_S", 0.0)
    monkeypatch.setattr(catalog_module, "PARTIAL_FIRST_FILES", 0)
    monkeypatch.setattr(catalog_module, "PARTIAL_EVERY_S", 60.0)
    go_on = _hold_the_load(monkeypatch)
    app = SkilldeckApp(_project(tmp_path), PathDisplay.default(), blink=False, watch=watch)
    async with app.run_test(size=(120, 36)) as pilot:
        try:
            await until(pilot, lambda: "reading the skills" in str(app.sub_title), what="the first snapshot")
            assert "99 of 250 files" in str(app.sub_title)
            assert not app.loaded_once
            shown = app.tiers.shown_skills()
            assert len(shown) == 99
            # The user can move already.
            assert app.tiers.select_path(shown[5].path)
            await until(pilot, lambda: app.selected == shown[5].path, what="the cursor on s005")
            # The budget is shared by all skills: whether this one keeps its description is not
            # known until they are all read (the partial catalog would have said "yes").
            await until(pilot, lambda: _facts(app).get("in model listing", "").startswith("not known yet"), what="not known yet")
            assert "99 of 250 files" in _facts(app)["in model listing"]
        finally:
            go_on.set()
        await loaded(pilot)
        assert len(app.tiers.shown_skills()) == COUNT
        assert "250 skills" in str(app.sub_title)
        # The whole catalog kept the cursor where the user put it.
        assert app.selected is not None and app.selected.parent.name == "s005"
        await until(pilot, lambda: _facts(app).get("in model listing") == "yes", what="listed, once all are read")


async def test_quitting_during_the_first_load_leaves_no_watcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app quit while the first load read the disk: the watcher that load then made kept its
    thread and inotify watches for the rest of the process."""
    go_on = _hold_the_load(monkeypatch)
    app = SkilldeckApp(_project(tmp_path), PathDisplay.default(), blink=False, watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
    # The app is gone; the load goes on in its thread and makes the watcher.
    go_on.set()
    deadline = threading.Event()
    for _ in range(200):
        if app.feed.watching and not app.feed._watch._thread.is_alive():  # type: ignore[union-attr]
            break
        deadline.wait(0.05)
    else:
        raise AssertionError("the watcher made after quitting is still running (or was never made)")


async def test_the_title_counts_the_files_read_as_the_load_bar_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34: the load bar reached 100% while the title still said 4,099 of 6,166 files (the
    last snapshot's count): the title now follows the bar."""
    from textual.widgets import ProgressBar

    monkeypatch.setattr(catalog_module, "PARTIAL_FIRST_S", 0.0)
    monkeypatch.setattr(catalog_module, "PARTIAL_FIRST_FILES", 0)
    monkeypatch.setattr(catalog_module, "PARTIAL_EVERY_S", 60.0)
    go_on = _hold_the_load(monkeypatch, at="s220")  # past the progress message at 200 files
    app = SkilldeckApp(_project(tmp_path), PathDisplay.default(), blink=False, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        try:
            bar = app.query_one("#load-progress", ProgressBar)
            await until(pilot, lambda: bar.progress == 200, what="the bar at 200 files")
            await until(pilot, lambda: "reading the skills: 200 of 250 files" in str(app.sub_title), what="the title")
        finally:
            go_on.set()
        await loaded(pilot)
