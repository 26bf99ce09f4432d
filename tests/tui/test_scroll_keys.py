"""j and k scroll the details pane and the `?` list, as they move in the trees (issue 34)."""

from __future__ import annotations

from pathlib import Path

from textual.containers import VerticalScroll

from tui.screens.help import HelpScreen
from tui.widgets.details import SkillDetails

from .conftest import demo_app, loaded, until
from .test_app import _walk_to


async def test_j_and_k_scroll_the_details_and_the_key_list(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "deploy")
        await until(pilot, lambda: app.settled, what="the details")
        details = app.query_one(SkillDetails)
        await pilot.press("2")
        await until(pilot, lambda: details.max_scroll_y > 0, what="a details pane taller than the screen")
        await pilot.press("j", "j", "j")
        await until(pilot, lambda: details.scroll_y > 0, what="j to scroll the details")
        await pilot.press("k", "k", "k")
        await until(pilot, lambda: details.scroll_y == 0, what="k to scroll back")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the key list")
        box = app.screen.query_one("#help-box", VerticalScroll)
        await pilot.press("j", "j")
        await until(pilot, lambda: box.scroll_y > 0, what="j to scroll the key list")
        assert isinstance(app.screen, HelpScreen)


async def test_the_palettes_keys_opens_skilldecks_own_key_list(tmp_path: Path) -> None:
    """Issue 34: the palette's "Keys" opened Textual's help panel, not the `?` list."""
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"Keys")
        await until(pilot, lambda: app.screen.query_one("CommandList").option_count > 0, what="the palette's hits")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the key list")
        assert not app.screen.query("HelpPanel") and not app.query("HelpPanel")
