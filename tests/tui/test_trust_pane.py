"""An untrusted clone in the app: its own allow rules are shown struck through, `t` trusts it."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console
from textual.widgets import Static

from engine.demo import make_demo
from tui.app import SkilldeckApp
from tui.screens.confirm import ConfirmScreen
from tui.view import PathDisplay

from .conftest import loaded, until


def _text(widget: Static) -> str:
    console = Console(width=300, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(widget.content)
    return console.export_text()


async def test_an_untrusted_project_is_said_and_can_be_trusted(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    locations = make_demo(folder, {"XDG_STATE_HOME": str(tmp_path / "state")})
    (locations.user.parent / ".claude.json").unlink()  # as if cloned: no trust recorded anywhere
    app = SkilldeckApp(locations, PathDisplay.default([(folder, "<demo>")]), blink=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        assert app.permissions is not None and not app.permissions.settings.trust.trusted
        assert app.permissions.decide_skill("release-notes").decision == "ask", "the project's own allow does not count"
        # Said once, in a toast that names the key: a y/n question popped up under the user's typing
        # (issue 34), where a typed `y` would have trusted a cloned repository.
        await until(pilot, lambda: any(n.title == "Not trusted" for n in app.notices), what="the trust note")
        assert "t on the Rules pane" in next(n.message for n in app.notices if n.title == "Not trusted")
        assert len(app.screen_stack) == 1, "no question the user did not ask for"
        await pilot.press("5")
        await pilot.press("a")
        await until(pilot, lambda: any(n.title == "Rules" for n in app.notices), what="the rule written")
        said = next(n.message for n in app.notices if n.title == "Rules")
        assert "does not count until the project is trusted" in said, said
        await until(pilot, lambda: "not trusted" in _text(app.query_one("#rules-diagnostics", Static)), what="the trust note")
        await pilot.press("t")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(
            pilot,
            lambda: app.permissions is not None and app.permissions.settings.trust.trusted,
            what="the project trusted and the settings read again",
        )
        assert app.permissions.decide_skill("release-notes").decision == "allow"
        assert (tmp_path / "state" / "skilldeck" / "trusted-projects.json").exists()
