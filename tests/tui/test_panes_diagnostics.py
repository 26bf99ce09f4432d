"""The diagnostics and rules panes: the cursor is drawn from the start, a diagnostic's hint is
shown, enter on a file no skill loads from shows its lines, counts are in the right number
(issue 17)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from textual.widgets import Static

from engine import Diagnostic, PlacedRule
from tui.rules.pane import RulesTree
from tui.widgets.diagnostics import DiagnosticsPane, DiagnosticsTree

from .conftest import demo_app, loaded, until
from .test_app import text_of


async def test_the_cursor_is_on_a_row_before_any_key(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        tree = app.query_one(DiagnosticsTree)
        assert tree.cursor_line == 1 and isinstance(tree.cursor_data, Diagnostic), "on the first diagnostic"
        await pilot.press("5")
        await until(pilot, lambda: app.permissions is not None, what="the rules")
        rules = app.query_one(RulesTree)
        assert rules.cursor_line >= 0 and isinstance(rules.cursor_node.data, PlacedRule), "on the first rule"


async def test_rows_and_the_detail_show_the_hint(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        tree = app.query_one(DiagnosticsTree)
        diag = tree.current
        assert diag is not None and diag.hint
        row = tree.row_text(tree.cursor_line, fit=False).plain
        assert "→ " in row and diag.hint[:30] in row
        detail = text_of(app.query_one("#diagnostics-detail", Static))
        assert "→ " + diag.hint[:30] in detail


async def test_enter_on_a_file_no_skill_loads_from_shows_its_lines(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    notes = tmp_path / "demo" / "acme-app" / ".claude" / "skills" / "notes.md"
    notes.write_text("# Team notes\n\nnot a skill: a loose markdown file\nline four\n")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        tree = app.query_one(DiagnosticsTree)
        while not (tree.current and tree.current.code == "loose-markdown" and tree.cursor_data is tree.current):
            await pilot.press("j")
        detail = app.query_one("#diagnostics-detail", Static)
        assert "No skill loads from this file. enter: show its lines here" in text_of(detail)
        await pilot.press("enter")
        await until(pilot, lambda: "not a skill: a loose markdown file" in text_of(detail), what="the file's lines")
        shown = text_of(detail)
        assert "    1  # Team notes" in shown and "    4  line four" in shown
        assert app.query_one("#panes").active == "diagnostics", "still on the diagnostics"  # type: ignore[attr-defined]
        assert not any("No skill loads" in n.message for n in app.notices), "no toast instead"


async def test_counts_are_in_the_right_number(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    # One of the demo's two errors gone: one error is left.
    (tmp_path / "demo" / "acme-app" / ".claude" / "skills" / "Lowercase" / "skill.md").unlink()
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        header = text_of(app.query_one("#diagnostics-header", Static))
        assert "✗ 1 error " in header and "errors " not in header.split("showing")[0]
        assert "note" in header and "info" not in header


async def test_space_closes_and_opens_a_file(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        tree = app.query_one(DiagnosticsTree)
        first, second = tree.files[:2]
        rows = tree.last_line
        assert tree.cursor_line == 1 and tree.row_data(0) == first
        await pilot.press("space")
        assert tree.cursor_line == 0 and tree.cursor_data == first, "on its file's row"
        assert tree.row_data(1) == second and tree.last_line == rows - 1
        assert tree.row_text(0).plain.startswith("▶ ")
        await pilot.press("space")
        assert tree.last_line == rows and isinstance(tree.row_data(1), Diagnostic)
        await pilot.press("left")
        assert tree.row_data(1) == second
        await pilot.press("right", "j")
        assert tree.cursor_data is tree.current and tree.current.path == first  # type: ignore[union-attr]
        await pilot.press("G")
        assert tree.cursor_line == tree.last_line


async def test_the_plugin_doctors_findings_show_under_their_plugin(tmp_path: Path) -> None:
    """A plugin the user settings enable but nobody installed: the doctor's finding and its fix
    show in the Diagnostics pane under a row for that plugin (issue 37)."""
    app = demo_app(tmp_path / "demo")
    settings = tmp_path / "demo" / "home" / ".claude" / "settings.json"
    settings.write_text('{"enabledPlugins": {"ghost@mk": true}}')
    async with app.run_test(size=(200, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        pane = app.query_one(DiagnosticsPane)
        await until(pilot, lambda: "plugin ghost@mk" in pane.plugin_findings, what="the doctor's findings")
        (finding,) = pane.plugin_findings["plugin ghost@mk"]
        assert finding.code == "enabled-not-installed"
        assert finding.hint == "claude plugin install ghost@mk --scope user"
        tree = app.query_one(DiagnosticsTree)
        rows = [tree.row_text(i, fit=False).plain for i in range(tree.virtual_size.height)]
        at = next(i for i, row in enumerate(rows) if row.endswith("plugin ghost@mk"))
        assert "enabled-not-installed" in rows[at + 1] and "→ claude plugin install ghost@mk --scope user" in rows[at + 1]


async def test_a_plugin_edited_after_the_app_started_needs_a_restart(tmp_path: Path) -> None:
    """Group 9 of the doctor: a plugin file saved while the app runs is a warning under the
    plugin (a Claude Code started before still runs the copy it read)."""
    app = demo_app(tmp_path / "demo")
    skill = tmp_path / "demo" / "plugins" / "demo-tools" / "skills" / "format-check" / "SKILL.md"
    async with app.run_test(size=(200, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        pane = app.query_one(DiagnosticsPane)
        assert "plugin demo-tools@inline" not in pane.plugin_findings
        skill.write_text(skill.read_text().replace("description:", "description: Edited.", 1))
        later = time.time() + 60
        os.utime(skill, (later, later))
        await until(pilot, lambda: "plugin demo-tools@inline" in pane.plugin_findings, timeout=15, what="the edit")
        (finding,) = pane.plugin_findings["plugin demo-tools@inline"]
        assert finding.code == "changed-on-disk" and finding.hint == "restart Claude Code"


async def test_a_plugins_tier_line_carries_the_doctors_findings(tmp_path: Path) -> None:
    """Issue 37: the doctor's warnings on the plugin's own tier line, not only in Diagnostics."""
    app = demo_app(tmp_path / "demo")
    skill = tmp_path / "demo" / "plugins" / "demo-tools" / "skills" / "format-check" / "SKILL.md"
    async with app.run_test(size=(200, 48)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        line = next(i for i in range(tree.last_line + 1) if "plugin demo-tools" in tree.row_text(i).plain)
        assert "doctor" not in tree.row_text(line).plain
        skill.write_text(skill.read_text().replace("description:", "description: Edited.", 1))
        later = time.time() + 60
        os.utime(skill, (later, later))
        await until(pilot, lambda: app.deck.doctor.counts.get("demo-tools") == (0, 1), what="the doctor's warning")
        line = next(i for i in range(tree.last_line + 1) if "plugin demo-tools" in tree.row_text(i).plain)
        assert "doctor ⚠1" in tree.row_text(line).plain
