"""A skill's `!` commands in a project the user has not trusted: the app asks once per project
before running them (issue 14: a cloned repository's skill runs code on the user's machine)."""

from __future__ import annotations

import json
from pathlib import Path

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
