"""The tiers tree under pilot: g/G keep the cursor in sight, the focused pane shows, collapse and
expand all, the filter, plugin rows, and what 80x24 shows (tab labels, `? Keys`, ellipses)."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from textual.color import Color
from textual.widget import Widget
from textual.widgets import TabbedContent

from engine import Severity
from tui.app import SkilldeckApp
from tui.screens.help import HelpScreen
from tui.widgets import tiers
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
    return [tree.get_node_at_line(line).label.plain for line in range(tree.last_line + 1)]  # type: ignore[union-attr]


async def test_plugin_rows_show_the_bare_skill_name(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tier = next(n for n in app.tiers.root.children if n.data is not None and n.data.source.plugin == "demo-tools")
        names = [child.label.plain for child in tier.children]  # type: ignore[union-attr]
        assert names == ["changelog", "format-check"], names


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
        assert tree.last_line + 1 == len(tree.root.children)
        assert tree.current is not None and tree.current.skill is None and tree.current.source == skill.source
        assert all(line.startswith("▶") for line in (tree.render_label(n, Style(), Style()).plain for n in tree.root.children))
        await pilot.press("plus")
        await pilot.pause()
        assert tree.last_line == lines
        # The tier the cursor was on stays under it; j goes back down to its skills.
        assert tree.current is not None and tree.current.source == skill.source
        await pilot.press("minus", "equals_sign")
        await pilot.pause()
        assert tree.last_line == lines
        # A reload keeps the tiers the user collapsed.
        first = tree.root.children[0]
        first.collapse()
        tree.show_view(app.view, app.paths, None)  # type: ignore[arg-type]
        await pilot.pause()
        assert not tree.root.children[0].is_expanded and tree.root.children[1].is_expanded


async def test_filter_cycles_errors_problems_all(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree, view = app.tiers, app.view
        assert view is not None
        everything = _rows(tree)
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "errors" and "errors" in str(tree.border_title)
        skills = [n.data.skill for n in tree._by_path.values() if n.data is not None and n.data.skill is not None]
        assert skills and all(view.worst(s.path) is Severity.ERROR for s in skills)
        assert len(_rows(tree)) < len(everything)
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "problems"
        skills = [n.data.skill for n in tree._by_path.values() if n.data is not None and n.data.skill is not None]
        assert {view.worst(s.path) for s in skills} == {Severity.ERROR, Severity.WARNING}
        await pilot.press("t")
        await pilot.pause()
        assert tree.filter == "all" and tree.border_title == "1 Tiers" and _rows(tree) == everything


def _footer_keys(app: SkilldeckApp) -> dict[str, Widget]:
    return {getattr(w, "action", ""): w for w in app.screen.query("FooterKey")}


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
        assert keys.region.width > 0 and keys.region.right <= 80
        # A label cut by the pane ends in an ellipsis and fits its line.
        tree = app.tiers
        cut = 0
        for node in tree.root.children:
            text = tree.render_label(node, Style(), Style())
            assert text.cell_len <= tree.label_room(node)
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
        node = next(n for n in tree.root.children if n.data is not None and n.data.source.plugin == "demo-tools")
        whole = node.label.plain
        assert whole.endswith("<demo>/plugins/demo-tools")
        shown = tree.render_label(node, Style(), Style()).plain
        assert len(shown) == tree.label_room(node)
        head, _, tail = shown.partition("…")
        assert head.startswith("▼ plugin demo-tools  2 skills  <") and whole.endswith("/demo-tools")
        assert len(tail) >= 8 and whole.endswith(tail)


async def test_a_big_catalog_opens_with_its_tiers_closed(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Above BIG skills a tier's rows are added only when it opens: a load, a filter key, collapse
    all cost the tiers, not every skill."""
    monkeypatch.setattr(tiers, "BIG", 3)
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        opened = [n for n in tree.root.children if n.is_expanded]
        assert len(opened) == 1 and tree.current is not None and tree.current.skill is not None
        assert all(not n.children for n in tree.root.children if not n.is_expanded)
        # Opening a tier (enter on it) adds its rows.
        project = next(n for n in tree.root.children if n.data is not None and n.data.source.label == "project")
        tree.move_cursor(project)
        await pilot.press("enter")
        await until(pilot, lambda: len(project.children) == 6, what="the project tier's rows")
        # Going to a skill of a closed tier opens it.
        plugin = next(n for n in tree.root.children if n.data is not None and n.data.source.plugin == "demo-tools")
        skill = next(s for s in app.view.catalog.skills.values() if s.name == "demo-tools:changelog")  # type: ignore[union-attr]
        app.go_to_path(skill.path)
        await until(pilot, lambda: tree.current is not None and tree.current.skill == skill, what="the plugin skill")
        assert plugin.is_expanded
        await pilot.press("plus")
        await pilot.pause()
        assert all(n.is_expanded and n.children for n in tree.root.children if n.data and n.data.source.label != "managed")
