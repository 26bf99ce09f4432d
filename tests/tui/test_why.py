"""`w` in the real app: the why-trace of the selected skill, or of the file a diagnostic names."""

from __future__ import annotations

import os

from rich.console import Console
from textual.widgets import Static

from tui.app import SkilldeckApp
from tui.screens.why import WhyScreen
from tui.widgets.diagnostics import DiagnosticsTree

from .conftest import loaded, until


def shown(screen: WhyScreen) -> str:
    console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(screen.query_one("#why-trace", Static).content)
    return console.export_text()


async def test_w_traces_the_selected_skill_and_escape_closes(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.tree.current is not None and app.tree.current.skill is not None, what="a skill")
        selected = app.tree.current.skill  # type: ignore[union-attr]
        assert selected is not None and selected.name == "security-review"
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WhyScreen), what="the why screen")
        screen = app.screen
        assert isinstance(screen, WhyScreen)
        result = screen.result
        assert result.path == selected.path and result.name == "security-review"
        assert result.outcome == "listed"
        assert result.verdict.startswith("the model sees it as `- security-review: ")
        text = shown(screen)
        for gate in ("root", "reserved", "size", "parse", "dedup", "shadowing", "permissions", "budget", "verdict"):
            assert gate in text
        # The managed skill hides the user's skill of the same name: the trace says so.
        assert "hides the user skill at" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, WhyScreen)


async def test_w_on_a_diagnostic_traces_its_file(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await pilot.press("3", "f")
        tree = app.query_one(DiagnosticsTree)
        while not (tree.current and tree.current.code == "yaml-invalid" and tree.cursor_node.data is tree.current):
            await pilot.press("j")
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WhyScreen), what="the why screen")
        result = app.screen.result  # type: ignore[attr-defined]
        assert result.path is not None and result.path.parent.name == "broken-yaml"
        parse = result.gate("parse")
        assert parse is not None and any("yaml-invalid" in note for note in parse.notes)
        assert "yaml-invalid" in shown(app.screen)  # type: ignore[arg-type]
        await pilot.press("w")
        assert not isinstance(app.screen, WhyScreen)


async def test_w_on_a_tier_says_nothing_is_selected_and_help_lists_it(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await pilot.press("g")
        await until(pilot, lambda: app.tree.current is not None and app.tree.current.skill is None, what="a tier row")
        await pilot.press("w")
        await pilot.pause()
        assert not isinstance(app.screen, WhyScreen)
        assert any(n.message == "Nothing selected" and n.title == "Why" for n in app._notifications)
        await pilot.press("question_mark")
        rows = [row for _, section in app.screen.sections for row in section]  # type: ignore[attr-defined]
        assert ("w", "Why: trace the selected skill") in rows
