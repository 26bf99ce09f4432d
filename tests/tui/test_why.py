"""`w` in the real app: the why-trace of the selected skill, or of the file a diagnostic names."""

from __future__ import annotations

import json
import os

import pytest
from rich.console import Console
from textual.widgets import Static

from tests.conftest import Tree, skill_text, write
from tui.app import SkilldeckApp
from tui.cli.main import main
from tui.rules.pane import RulesTree
from tui.screens.why import WhyScreen
from tui.widgets.diagnostics import DiagnosticsTree

from .conftest import loaded, until
from .test_cli import _args


def shown(screen: WhyScreen) -> str:
    console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(screen.query_one("#why-trace", Static).content)
    return console.export_text()


async def test_w_traces_the_selected_skill_and_escape_closes(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.tiers.current is not None and app.tiers.current.skill is not None, what="a skill")
        selected = app.tiers.current.skill  # type: ignore[union-attr]
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


async def test_w_on_a_shadowed_skill_names_the_winner(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        for _ in range(60):
            current = app.tiers.current
            if current is not None and current.shadow is not None:
                break
            await pilot.press("j")
        assert app.tiers.current is not None and app.tiers.current.shadow is not None
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WhyScreen), what="the why screen")
        result = app.screen.result  # type: ignore[attr-defined]
        assert result.outcome == "never-loads" and result.gate("shadowing").status == "failed"
        assert result.verdict.startswith("it never loads because the managed skill /security-review at ")


async def test_w_on_a_diagnostic_traces_its_file(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await pilot.press("3", "f")
        tree = app.query_one(DiagnosticsTree)
        while not (tree.current and tree.current.code == "yaml-invalid" and tree.cursor_data is tree.current):
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


async def test_w_in_the_rules_pane_traces_the_selected_skill(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.tiers.current is not None and app.tiers.current.skill is not None, what="a skill")
        await pilot.press("5")
        assert isinstance(app.focused, RulesTree)
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, WhyScreen), what="the why screen")
        assert app.screen.result.name == "security-review"  # type: ignore[attr-defined]


async def test_w_on_a_tier_says_nothing_is_selected_and_help_lists_it(app: SkilldeckApp) -> None:
    async with app.run_test(size=(140, 44)) as pilot:
        await loaded(pilot)
        await pilot.press("g")
        await until(pilot, lambda: app.tiers.current is not None and app.tiers.current.skill is None, what="a tier row")
        await pilot.press("w")
        await pilot.pause()
        assert not isinstance(app.screen, WhyScreen)
        assert any(n.message == "Nothing selected" and n.title == "Why" for n in app.notices)
        await pilot.press("question_mark")
        rows = [row for _, section in app.screen.sections for row in section]  # type: ignore[attr-defined]
        assert ("w", "Why: trace the selected skill") in rows


# The command line ----------------------------------------------------------------------------------


def test_cli_why_json_and_exit_codes(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("deploy", description="Ship it.")
    assert main(_args(tree, "why", "/deploy", "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "listed" and out["loads"] is True
    assert out["verdict"] == "the model sees it as `- deploy: Ship it.`"
    assert out["gates"][0]["gate"] == "root" and out["gates"][-1]["gate"] == "budget"
    assert main(_args(tree, "why", "deplo", "--json")) == 1
    assert json.loads(capsys.readouterr().out)["suggestions"] == ["deploy"]
    # --name reads a path-looking query as a name.
    assert main(_args(tree, "why", "--name", str(tree.skills() / "deploy"), "--json")) == 1
    assert json.loads(capsys.readouterr().out)["kind"] == "name"


def test_cli_why_text_names_the_roots_and_the_verdict(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    stray = write(tree.root / "elsewhere" / "x" / "SKILL.md", skill_text(description="x"))
    assert main(_args(tree, "why", str(stray))) == 1
    text = capsys.readouterr().out
    assert "no root Claude Code scans holds this file" in text
    assert "checked:" in text and "verdict" in text


def test_cli_why_shows_terminal_controls_from_a_file_inertly(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    # A cloned repository chooses its folder names: one that clears the screen and writes the clipboard.
    # Claude Code never offers a name with controls (name-refused), so the trace exits 1.
    path = tree.skill("wipe\x1b[2J\x1b]52;c;aGk=\x07", description="x")
    assert main(_args(tree, "why", str(path))) == 1
    text = capsys.readouterr().out
    assert "wipe^[[2J" in text and "never loads" in text
    assert "\x1b" not in text and "\x07" not in text
