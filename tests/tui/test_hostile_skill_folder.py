"""A skill folder holding a chain of folders 1,000 deep: the details pane lists what it can and
the app keeps running (a recursive walk raised RecursionError in a worker, which ended the app)."""

from __future__ import annotations

from pathlib import Path

from engine.demo import make_demo
from tests.conftest import make_chain, remove_chain
from tui.app import SkilldeckApp
from tui.view import PathDisplay

from .conftest import demo_app, loaded, until
from .test_app import _walk_to


async def test_a_very_deep_skill_folder_is_listed_with_a_bound(tmp_path: Path) -> None:
    app: SkilldeckApp = demo_app(tmp_path / "demo")
    deploy = app.workspace.locations.project / ".claude" / "skills" / "deploy"
    (deploy / "notes.txt").write_text("x")
    make_chain(deploy / "d", 1000)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "deploy")
        await until(pilot, lambda: app.body_shown_for == deploy / "SKILL.md", what="the body and its files")
        assert app.is_running
    remove_chain(deploy / "d", 1000)


async def test_a_project_folder_named_with_markup_and_controls(tmp_path: Path) -> None:
    """The title and every notification name the project: `[/b]` must not be read as markup (a
    MarkupError ends the app) and ESC must not reach the terminal."""
    folder = tmp_path / "demo [/b] \x1b]0;owned\x07"
    app = SkilldeckApp(make_demo(folder), PathDisplay.default([]), blink=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("c")  # copy path: "Copied <path>"
        await pilot.press("r")  # reload: "Reloaded in ... ms"
        await until(pilot, lambda: len(app.notices) >= 2, what="the notifications")
        shown = [n.message for n in app.notices] + [app.sub_title]
        assert all("\x1b" not in text and "\x07" not in text for text in shown), shown
        assert any("[/b]" in n.message for n in app.notices)
        assert app.is_running
