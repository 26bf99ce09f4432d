"""The listing pane's "compare with Claude Code" (C, or the palette): the real app under pilot,
running the real pinned Claude Code (.oracle) on a small oracle workspace: the progress line, the
rows, the summary, the result kept until the listing changes and then marked stale, a second C that
cancels and stops Claude Code (as closing the app does), and a `claude` that does not exist or no sandbox (a message, the
app goes on)."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from textual.widgets import TabbedContent
from textual.worker import WorkerState

from engine import Locations
from tests.oracle.workspace import Places, build, load_cases
from tui.app import SkilldeckApp
from tui.compare_run import CLEANUP_S
from tui.view import PathDisplay
from tui.widgets.listing import ListingPane

from .conftest import loaded, until
from .test_cli_compare import CLAUDE, VERSION, fake_claude

# Claude Code takes a few seconds here; a loaded machine may take many more.
RUN_S = 90.0


def oracle_app(tmp: Path) -> tuple[SkilldeckApp, Places]:
    places = build(load_cases("listing")["basics"], Path(os.path.realpath(tmp)))
    environ = {"HOME": str(places.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "XDG_STATE_HOME": str(tmp / "state")}
    locations = Locations(places.project, places.home / ".claude", places.root / "managed", environ=environ)
    return SkilldeckApp(locations, PathDisplay.default([(places.root, "<ws>")]), blink=False), places


async def test_compare_runs_claude_code_and_marks_stale(tmp_path: Path) -> None:
    scratch_before = set(Path(tempfile.gettempdir()).glob("skilldeck-compare-*"))
    app, places = oracle_app(tmp_path / "ws")
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        pane = app.query_one(ListingPane)
        pane.claude = str(CLAUDE)
        await pilot.press("4", "C")
        await until(pilot, lambda: f"running Claude Code {VERSION} " in pane.compare_text, what="the progress line")
        assert re.match(rf"running Claude Code {re.escape(VERSION)} .*… \d+ s$", pane.compare_text.split("\n")[0])
        await until(pilot, lambda: not pane.comparing, timeout=RUN_S, what="the comparison")
        text = pane.compare_text
        assert f"Claude Code {VERSION} (" in text and "sealed off (private network" in text
        assert "= - usr: user skill" in text and "= - alpha: Does &lt;alpha&gt; things & more" in text
        assert "≠" not in text and "only in skilldeck" not in text
        # The summary opens the section: the pane's first screen shows it.
        assert re.fullmatch(rf"identical · Claude Code {re.escape(VERSION)} · \d+\.\d s", text.split("\n")[0])

        # Kept: the listing has not changed, so C shows the same result without running claude.
        await pilot.press("C")
        await until(pilot, lambda: not pane.comparing, what="the kept comparison")
        assert pane.compare_text.startswith("kept from the last run: the listing has not changed since\nidentical · ")
        assert "= - usr: user skill" in pane.compare_text

        # A description edited on disk: the watcher's new listing marks the result stale, not gone.
        skill = places.project / ".claude" / "skills" / "alpha" / "SKILL.md"
        skill.write_text("---\nname: alpha\ndescription: Does other things\n---\nbody\n")
        await until(pilot, lambda: pane.stale, what="the new listing")
        assert pane.compare_text.startswith("stale: the catalog changed since; C to compare again")
        assert "= - alpha: Does &lt;alpha&gt; things & more" in pane.compare_text

        # C starts again (the cache was cleared with the listing); C once more cancels it.
        await pilot.press("C")
        assert pane.comparing
        cancelled = pane.attempt
        await pilot.press("C")
        assert not pane.comparing and pane.compare_text.startswith("Cancelled: Claude Code was stopped")
        assert "stale: the catalog changed since" in pane.compare_text
        # And a run going when the app (with the pane) goes away is cancelled with it.
        await pilot.press("C")
        left = pane.attempt
        workers = [w for w in app.workers if w.group == "compare" and w.is_running]
        assert len(workers) == 1
    assert workers[0].state == WorkerState.CANCELLED
    # Cancelled runs are stopped, not abandoned: Claude Code killed, its scratch folder gone.
    assert cancelled is not None and cancelled.done.wait(CLEANUP_S)
    assert left is not None and left.done.wait(CLEANUP_S)
    assert set(Path(tempfile.gettempdir()).glob("skilldeck-compare-*")) <= scratch_before


async def test_a_missing_claude_is_a_message_not_an_exit(tmp_path: Path) -> None:
    app, _ = oracle_app(tmp_path / "ws")
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        pane = app.query_one(ListingPane)
        pane.claude = str(tmp_path / "nowhere" / "claude")
        # From the palette, as a user who does not know the key would.
        await pilot.press("ctrl+p", *"compare with claude", "enter")
        await until(pilot, lambda: "Cannot compare" in pane.compare_text, what="the error")
        assert "not an executable file" in pane.compare_text
        assert any(n.title == "Compare" and "not an executable file" in n.message for n in app.notices)
        assert app.query_one(TabbedContent).active == "listing"
        assert app.is_running and not pane.comparing
        await pilot.press("3")
        assert app.is_running


async def test_no_sandbox_is_a_message_that_names_the_cli_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no private namespace can be made (here: no `unshare` on PATH) nothing runs: the pane
    says why and where an unsealed run can be asked for; the app itself never runs one."""
    app, _ = oracle_app(tmp_path / "ws")
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        pane = app.query_one(ListingPane)
        pane.claude = str(fake_claude(tmp_path / "bin"))
        monkeypatch.setenv("PATH", str(tmp_path / "empty"))
        await pilot.press("4", "C")
        await until(pilot, lambda: "Cannot compare" in pane.compare_text, what="the error")
        assert "cannot run Claude Code sealed off" in pane.compare_text
        assert "in a terminal: `skilldeck compare --allow-network`" in pane.compare_text
        assert app.is_running and not pane.comparing
