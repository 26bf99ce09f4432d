"""The listing pane says the share of the budget the listing really takes (issue 17: the bar
said 100% at 141%)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from engine import Locations
from tui.app import SkilldeckApp
from tui.view import PathDisplay
from tui.widgets.listing import ListingKeys, ListingPane

from .conftest import demo_app, loaded, until
from .test_app import text_of


async def test_an_over_budget_listing_shows_its_real_percentage(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo", budget=120)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("4")
        listing = app.view.listing
        assert listing.used > listing.budget, "the demo's names alone overflow 120 characters"
        share = round(100 * listing.used / listing.budget)
        assert share > 100
        assert text_of(app.query_one("#listing-percent", Static)).startswith(f"{share}% of the budget")
        # The bar's own label (which stops at 100%) is not drawn beside it.
        assert not app.query("#listing-bar #percentage")


async def test_a_listing_that_fits_shows_its_share(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        listing = app.view.listing
        assert listing.used <= listing.budget
        share = round(100 * listing.used / listing.budget)
        assert text_of(app.query_one("#listing-percent", Static)).strip() == f"{share}% of the budget"


async def test_counts_are_in_the_right_number(tmp_path: Path) -> None:
    """One listed skill and one left out: "1 skill", "1 skill not listed" (never "1 skills")."""
    skills = tmp_path / "proj" / ".claude" / "skills"
    for name, extra in (("one", ""), ("two", "disable-model-invocation: true\n")):
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: The {name} skill.\n{extra}---\nBody.\n")
    locations = Locations(
        project=tmp_path / "proj", user_dir=tmp_path / "user", managed_dir=tmp_path / "managed", bundled=False, environ={}
    )
    app = SkilldeckApp(locations, PathDisplay.default(), blink=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        summary = text_of(app.query_one("#listing-summary", Static))
        assert "1 skill," in summary and "skills" not in summary.replace("about skills", "")
        assert "1 skill not listed:" in text_of(app.query_one("#listing-own", Static))


async def test_4_gives_the_listing_its_keys_and_keeps_the_place(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("4")
        pane = app.query_one(ListingPane)
        assert isinstance(app.focused, ListingKeys) and app.focused.parent is pane
        await pilot.press("pagedown")
        await until(pilot, lambda: pane.scroll_y > 0, what="the listing scrolled")
        where = pane.scroll_y
        await pilot.press("1", "4")
        await pilot.pause()
        assert pane.scroll_y == where, "coming back to the listing keeps the reader's place"


async def test_t_shows_the_listing_update_after_touching_a_file(tmp_path: Path) -> None:
    """T: the update Claude Code sends after the model reads apps/web/src/app.ts, which activates
    the paths: skill x and loads apps/web/.claude/skills (recorded: run_nested_read_clash)."""
    project = tmp_path / "proj"
    files = {
        ".claude/skills/x/SKILL.md": "---\ndescription: root x\npaths:\n  - apps/web/**\n---\nx\n",
        "apps/web/.claude/skills/x/SKILL.md": "---\ndescription: web x\n---\nweb x\n",
        "apps/web/src/app.ts": "export const app = 1;\n",
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    locations = Locations(
        project=project, user_dir=tmp_path / "user", managed_dir=tmp_path / "managed", bundled=False, environ={}
    )
    app = SkilldeckApp(locations, PathDisplay.default(), blink=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("4")
        pane = app.query_one(ListingPane)
        await pilot.press("T", *"apps/web/src/app.ts", "enter")
        await until(pilot, lambda: bool(pane.touched_said), what="the touch what-if")
        said = pane.touched_said
        assert said.startswith("After touching apps/web/src/app.ts: Claude Code sends this listing update")
        assert "- apps/web:x: web x (scoped to apps/web/" in said and "\n- x: root x\n" in said
        assert text_of(app.query_one("#listing-whatif", Static)).startswith("After touching apps/web/src/app.ts")
        await pilot.press("T", *"README.md", "enter")
        await until(pilot, lambda: "After touching README.md" in pane.touched_said, what="the second what-if")
        assert "nothing new" in pane.touched_said
