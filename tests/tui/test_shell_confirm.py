"""A skill's `!` commands in a project the user has not trusted: the app asks once per project
before running them (issue 14: a cloned repository's skill runs code on the user's machine)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from textual.widgets import Static

from tests.conftest import skill_text, write
from tests.llm_server import MessagesServer, Reply
from tui.screens.confirm import ConfirmScreen

from .conftest import loaded, run_done, served_app, until
from .test_app import text_of


def _untrusted_with_shell_skill(tmp_path: Path, server: MessagesServer):  # type: ignore[no-untyped-def]
    app = served_app(tmp_path, server)
    locations = app.deck.workspace.locations
    (locations.user.parent / ".claude.json").write_text(json.dumps({"projects": {}}))
    # No allow rules of its own, so the app's trust question at start (Rules pane) is not asked:
    # nothing but this question stands between the clone's skill and the shell.
    (locations.project / ".claude" / "settings.json").write_text("{}")
    body = "Today: !`echo from-the-shell`\n"
    write(locations.project / ".claude" / "skills" / "shelly" / "SKILL.md", skill_text(description="Runs a command.", body=body))
    return app


async def _type(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    composer = pilot.app.query_one("#composer")
    if pilot.app.focused is not composer:
        await pilot.press("6")  # in the composer, a digit is text
        composer.focus()
    await pilot.press(*text, "enter")


def _sent_texts(server: MessagesServer) -> str:
    return json.dumps([r["messages"] for r in server.requests])


async def test_no_runs_nothing_and_yes_runs_once_asked_per_project(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(text="One."), Reply(text="Two."))
    app = _untrusted_with_shell_skill(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _type(pilot, "/shelly")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        asked = text_of(app.screen.query_one("#confirm-detail"))
        assert "echo from-the-shell" in asked and "not trusted" in asked
        await pilot.press("n")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the refusal")
        assert "was not run" in text_of(app.query(".error").last())
        assert server.requests == [], "nothing was sent"

        await _type(pilot, "/shelly")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question again")
        await pilot.press("y")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 1, what="the first request")
        assert "from-the-shell" in _sent_texts(server).replace("echo from-the-shell", "")

        # Asked once per project: the next run goes straight on.
        await _type(pilot, "/shelly")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 2, what="the second request")
        assert not isinstance(app.screen, ConfirmScreen)


async def test_a_trusted_project_is_not_asked(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(text="One."))
    app = served_app(tmp_path, server)  # the demo project is trusted
    locations = app.deck.workspace.locations
    body = "Today: !`echo from-the-shell`\n"
    write(locations.project / ".claude" / "skills" / "shelly" / "SKILL.md", skill_text(description="Runs a command.", body=body))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _type(pilot, "/shelly")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 1, what="the request")
        assert "from-the-shell" in _sent_texts(server).replace("echo from-the-shell", "")


async def test_a_slow_command_shows_it_runs_and_escape_kills_it(tmp_path: Path, server: MessagesServer) -> None:
    """A skill's `!` command runs before anything is sent: the pane says so while it runs (it
    said nothing for up to 120 s), and escape ends it with its process group."""
    from tests.engine.runner.test_runner import _running_in

    app = served_app(tmp_path, server)
    project = Path(os.path.realpath(app.deck.workspace.locations.project))
    body = "A: !`touch started && sleep 30`\n"
    text = skill_text(description="Slow.", allowed__tools="Bash", body=body)
    write(project / ".claude" / "skills" / "slow" / "SKILL.md", text)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _type(pilot, "/slow")
        waiting = app.query_one("#conversation-waiting", Static)
        await until(pilot, lambda: waiting.display and "running /slow's commands" in text_of(waiting), what="the line")
        assert "escape cancels" in text_of(waiting)
        assert (project / "started").exists() and _running_in(project)
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app) and not _running_in(project), what="the command to be killed")
        assert not waiting.display
        assert server.requests == []
