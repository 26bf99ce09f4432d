"""The tiers tree under pilot: g/G keep the cursor in sight, the focused pane shows, collapse and
expand all, the filter, plugin rows, and what 80x24 shows (tab labels, `? Keys`, ellipses)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rich.text import Text
from textual.color import Color
from textual.widgets import TabbedContent

from engine import Severity
from tui.app import SkilldeckApp
from tui.screens.help import HelpScreen
from tui.widgets.footer import KeysFooter, ShownKey
from tui.widgets.tiers import TiersTree

from .conftest import demo_app, loaded, served_app, until
from .test_app import text_of


def _cursor_in_sight(tree: TiersTree) -> bool:
    top = tree.scroll_offset.y
    return top <= tree.cursor_line < top + tree.scrollable_content_region.height


async def test_g_and_G_scroll_the_cursor_into_sight(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        assert tree.last_line >= tree.scrollable_content_region.height  # the demo is taller than the pane
        await pilot.press("G")
        await pilot.pause()
        assert tree.cursor_line == tree.last_line
        assert _cursor_in_sight(tree), (tree.cursor_line, tree.scroll_offset)
        await pilot.press("g")
        await pilot.pause()
        assert tree.cursor_line == 0 and _cursor_in_sight(tree)


def _bar_colour(app: SkilldeckApp) -> Color:
    return app.query_one("#panes Underline").get_component_styles("underline--bar").color


async def test_the_focused_pane_shows_in_dark_and_light_themes(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)  # its state folder (where the theme is saved) is under tmp_path
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.press("1")
            await pilot.pause()
            accent = Color.parse(app.get_css_variables()["accent"])
            edge, colour = app.tiers.styles.border_top
            assert (edge, colour) == ("heavy", accent)
            assert app.tiers.styles.border_title_color == accent
            assert _bar_colour(app) != accent
            await pilot.press("2")
            await pilot.pause()
            edge, colour = app.tiers.styles.border_top
            assert edge != "heavy" and colour != accent
            assert _bar_colour(app) == accent


def _rows(tree: TiersTree) -> list[str]:
    return [tree.row_text(line).plain for line in range(tree.last_line + 1)]


def _tier_line(tree: TiersTree, plugin: str | None = None, label: str | None = None) -> int:
    """The line of the tier of `plugin` (or with `label`)."""
    for line in range(tree.last_line + 1):
        data = tree.data_at(line)
        if data is not None and data.skill is None and (data.source.plugin == plugin if plugin else data.source.label == label):
            return line
    raise AssertionError(f"no tier {plugin or label}")


async def test_plugin_rows_show_the_bare_skill_name(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        line = _tier_line(tree, plugin="demo-tools")
        assert _rows(tree)[line + 1 : line + 3] == ["├ changelog", "└ format-check"]


async def test_collapse_all_expand_all_keep_the_cursor(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        await pilot.press("j", "j", "j", "j", "j")
        await pilot.pause()
        skill = tree.current.skill  # type: ignore[union-attr]
        assert skill is not None
        lines = tree.last_line
        await pilot.press("minus")
        await pilot.pause()
        assert tree.last_line + 1 == len(tree.tiers)
        assert tree.current is not None and tree.current.skill is None and tree.current.source == skill.source
        assert all(line.startswith("▶") for line in _rows(tree))
        await pilot.press("plus")
        await pilot.pause()
        assert tree.last_line == lines
        # The tier the cursor was on stays under it; j goes back down to its skills.
        assert tree.current is not None and tree.current.source == skill.source
        await pilot.press("minus", "equals_sign")
        await pilot.pause()
        assert tree.last_line == lines
        # A reload keeps the tiers the user closed (space on a tier's line closes it).
        await pilot.press("g", "space")
        assert not tree.tiers[0].is_open
        tree.show_view(app.view, app.paths, None)  # type: ignore[arg-type]
        await pilot.pause()
        assert not tree.tiers[0].is_open and tree.tiers[1].is_open


async def test_filter_cycles_errors_problems_unused_all(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree, view = app.tiers, app.view
        assert view is not None
        everything = _rows(tree)
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "errors" and "errors" in str(tree.border_title)
        skills = tree.shown_skills()
        assert skills and all(view.worst(s.path) is Severity.ERROR for s in skills)
        assert len(_rows(tree)) < len(everything)
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "problems"
        assert {view.worst(s.path) for s in tree.shown_skills()} == {Severity.ERROR, Severity.WARNING}
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "unused"  # tests/tui/test_usage_app.py: what it shows
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "all" and tree.border_title == "1 Tiers" and _rows(tree) == everything


def _footer_keys(app: SkilldeckApp) -> dict[str, ShownKey]:
    return {key.action: key for key in app.screen.query_one(KeysFooter).shown}


async def test_the_footer_changes_with_the_focused_pane_and_a_click_presses_a_key(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 40)) as pilot:
        await loaded(pilot)
        footer = app.query_one(KeysFooter)
        await until(pilot, lambda: "cycle_filter" in _footer_keys(app), what="the tree's keys in the footer")
        drawn = footer.render().plain
        for key in footer.shown:  # each key where its cells are
            assert drawn[key.start : key.end].strip().startswith(key.shown.strip()), (key, drawn)
        filter_key = _footer_keys(app)["cycle_filter"]
        await pilot.click(KeysFooter, offset=(filter_key.start + 1, 0))
        await until(pilot, lambda: app.tiers.filter == "errors", what="the click to press t")
        await pilot.press("4")
        await until(pilot, lambda: "cycle_filter" not in _footer_keys(app), what="the tree's keys gone with its focus")
        assert "help" in _footer_keys(app) and footer.render().plain != drawn


async def test_tree_keys_show_in_the_footer_and_the_key_list(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: "collapse_all" in _footer_keys(app), what="the tree's keys in the footer")
        assert {"collapse_all", "expand_all", "cycle_filter"} <= set(_footer_keys(app))
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        shown = "\n".join(text_of(s) for s in app.screen.query("Static"))
        for line in ("- ", "Collapse all", "+ =", "Expand all", "Filter"):
            assert line in shown, line


async def test_80x24_reads_whole(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        # Every tab label whole, inside the screen.
        tabs = app.query_one(TabbedContent)
        for pane in ("details", "diagnostics", "listing", "rules", "conversation"):
            tab = tabs.get_tab(pane)
            assert tab.region.right <= 80 and tab.region.width >= len(tab.label.plain), (pane, tab.region)
        assert tabs.get_tab("conversation").label.plain == "6 Chat"
        # `? Keys` on the footer whatever the tree adds before it.
        await until(pilot, lambda: "help" in _footer_keys(app), what="? Keys in the footer")
        keys = _footer_keys(app)["help"]
        assert keys.end > keys.start and keys.end <= 80
        # A label cut by the pane ends in an ellipsis and fits its line.
        tree = app.tiers
        room = tree.scrollable_content_region.width
        cut = 0
        for line in range(tree.last_line + 1):
            text = tree.row_text(line)
            assert text.cell_len <= room
            cut += text.plain.endswith("…")
        assert cut
    wide = demo_app(tmp_path / "demo")
    async with wide.run_test(size=(160, 40)) as pilot:
        await loaded(pilot)
        assert wide.query_one(TabbedContent).get_tab("conversation").label.plain == "6 Conversation"


async def test_plugin_header_path_is_cut_in_its_middle(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        line = _tier_line(tree, plugin="demo-tools")
        whole = str(app.paths(tree.tiers[tree.row_at(line)[0]].tier.source.root))  # type: ignore[index]
        assert whole.endswith("<demo>/plugins/demo-tools")
        shown = tree.row_text(line).plain
        assert len(shown) == tree.scrollable_content_region.width
        head, _, tail = shown.partition("…")
        assert head.startswith("▼ plugin demo-tools  2 skills  <") and whole.endswith("/demo-tools")
        assert len(tail) >= 8 and whole.endswith(tail)


async def test_tiers_open_and_close_by_key_and_click_and_a_search_opens_a_closed_one(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        project = _tier_line(tree, label="project")
        tree.move_to(project)
        await pilot.press("enter")
        assert _rows(tree)[project].startswith("▶ project"), "enter on a tier closes it"
        await pilot.press("enter")
        assert _rows(tree)[project + 1 : project + 7][-1].startswith("└ research"), "and opens it again"
        await pilot.press("j", "left")
        assert tree.cursor_line == project and _rows(tree)[project].startswith("▶"), "left on a skill closes its tier"
        await pilot.press("right")
        assert _rows(tree)[project].startswith("▼")
        # A click on a tier's line opens or closes it; on a skill it only moves the cursor.
        await pilot.click(TiersTree, offset=(3, project - int(tree.scroll_offset.y) + 1))
        assert _rows(tree)[project].startswith("▶") and tree.cursor_line == project
        # Going to a skill of a closed tier opens it.
        await pilot.press("minus")
        skill = next(s for s in app.view.catalog.skills.values() if s.name == "demo-tools:changelog")  # type: ignore[union-attr]
        app.go_to_path(skill.path)
        await until(pilot, lambda: tree.current is not None and tree.current.skill == skill, what="the plugin skill")
        assert tree.tiers[tree.row_at(tree.cursor_line)[0]].is_open  # type: ignore[index]


async def test_a_big_catalog_draws_only_what_is_on_screen(tmp_path: Path) -> None:
    """Every tier open at any size: a row is made only while it is drawn, so the tree holds no
    widget, node or label per skill (the old Tree held four objects per row and its tiers started
    closed above 2,000 skills). make bench measures the keys at 15,000."""
    from tests.bench.bench_catalog import make_tree

    locations = make_tree(tmp_path / "big", 3_000)
    app = SkilldeckApp(locations, blink=False, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.loaded_once, timeout=120, what="the big catalog")
        tree = app.tiers
        assert all(t.is_open for t in tree.tiers) and tree.last_line + 1 >= 3_000
        drawn: list[int] = []
        real = tree.row_text

        def counting(line: int) -> Text:
            drawn.append(line)
            return real(line)

        tree.row_text = counting  # type: ignore[method-assign]
        await pilot.press("G")
        await pilot.pause()
        assert tree.cursor_line == tree.last_line
        height = tree.scrollable_content_region.height
        # The screen it left (drawn again as it scrolled away) and the one it reached: nothing between.
        assert drawn and all(line < height or line > tree.last_line - height for line in drawn), sorted(set(drawn))
        assert tree.last_line in drawn


async def test_claude_codes_own_skills_from_a_comparison_show_as_a_tier_counted_in_the_budget(tmp_path: Path) -> None:
    from engine.listing.build import Foreign
    from engine.listing.claude_own import save_own

    app = demo_app(tmp_path / "demo")
    locations = app.workspace.locations
    save_own(locations.environ, locations.project, "2.1.328", [Foreign("update-config", "Change settings.", 0, True)])
    async with app.run_test(size=(160, 40)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        rows = _rows(tree)
        header = next(i for i, row in enumerate(rows) if "Claude Code 2.1.328's own" in row)
        assert rows[header].startswith("▼ Claude Code 2.1.328's own  1 skill  (reco")
        assert rows[header + 1] == "└ update-config  counted in the budget"
        assert app.view is not None and app.view.listing.entries[0].name == "update-config"
        tree.move_to(header + 1)
        await pilot.pause()
        assert tree.current is not None and tree.current.skill is None, "no skill of skilldeck's behind the row"


async def test_the_details_follow_the_cursor_within_the_key_so_one_frame_shows_both(tmp_path: Path) -> None:
    # A message from the tree reached the app only after the screen had drawn the cursor's frame:
    # every step drew two frames, the second held back by Textual's frame timer.
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree, title = app.tiers, app.query_one("#details-title")
        for _ in range(4):
            tree.action_cursor(1)  # no await between the move and the check: nothing else ran
            data = tree.current
            assert data is not None
            expected = ("/" + data.skill.name) if data.skill else data.source.label
            assert text_of(title).startswith(expected), (text_of(title), expected)


def test_frames_are_not_held_back_by_a_60_per_second_timer() -> None:
    # Set by the tui package before Textual is imported; a user's own TEXTUAL_FPS wins.
    code = "import tui.app, textual.constants as c; print(c.MAX_FPS)"
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert (
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip() == "240"
    )
    env["TEXTUAL_FPS"] = "30"
    assert (
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip() == "30"
    )


async def test_a_skills_name_is_not_drawn_in_the_guides_colour(tmp_path: Path) -> None:
    # `Text(guide, guides) + label` made the guides' dim colour the whole line's base style.
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        line = next(n for n in range(tree.line_count) if (d := tree.data_at(n)) is not None and d.skill is not None)
        text = tree.row_text(line)
        assert not text.style, text.style
        guide = [span for span in text.spans if span.start == 0]
        assert guide and guide[0].end == 2, text.spans


async def test_a_change_of_focus_redraws_the_tree_from_its_kept_lines(tmp_path: Path) -> None:
    # Focus changes the tree's top rule, so Textual redraws all of it: no label is made again.
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        made: list[int] = []
        real = tree.row_text
        tree.row_text = lambda line: made.append(line) or real(line)  # type: ignore[method-assign]
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        # Only the cursor's line looks different focused (its style is part of what is kept).
        assert set(made) <= {tree.cursor_line}, made
        await pilot.press("j")
        await pilot.pause()
        assert tree.cursor_line in made, "a line that looks different is drawn"
