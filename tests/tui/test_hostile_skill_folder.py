"""A skill folder holding a chain of folders 1,000 deep: the details pane lists what it can and
the app keeps running (a recursive walk raised RecursionError in a worker, which ended the app)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import make_chain, remove_chain
from tui.app import SkilldeckApp

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
        await until(pilot, lambda: app.body_shown_for == deploy / "SKILL.md", timeout=10, what="the body and its files")
        assert app.is_running
    remove_chain(deploy / "d", 1000)
