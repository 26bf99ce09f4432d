"""After `enter` runs a skill, what the user types goes to the composer, as in Claude Code
(issue 34, major 1): `t`, `a`, `e`, `f` and `q` typed into the tiers tree switched the filter,
opened a dialog, an editor, forked and quit."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, TabbedContent

from tests.llm_server import MessagesServer, Reply

from .conftest import loaded, run_done, served_app, until
from .test_app import _walk_to


async def test_typing_after_enter_on_a_skill_lands_in_the_composer(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(text="Here are your notes."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "daily-notes")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and app.conversation.answers and app.conversation.settled, what="the answer")
        await pilot.press(*"thanks, quite a few")
        composer = app.query_one("#composer", Input)
        assert composer.value == "thanks, quite a few"
        assert app.is_running and len(app.screen_stack) == 1, "no key quit the app or opened a dialog"
        assert app.query_one(TabbedContent).active == "conversation"


async def test_typing_after_a_run_with_arguments_lands_in_the_composer(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "daily-notes")
        await pilot.press("a")
        await until(pilot, lambda: len(app.screen_stack) == 2, what="the arguments dialog")
        await pilot.press(*"today", "enter")
        await until(pilot, lambda: app.session.runner is not None and run_done(app), what="the run")
        await pilot.pause()
        await pilot.press(*"tafe")
        assert app.query_one("#composer", Input).value == "tafe"
        assert len(app.screen_stack) == 1


async def test_a_run_uses_the_settings_model_as_the_listing_does(tmp_path: Path, server: MessagesServer) -> None:
    """Issue 34, one model: the demo project's settings say `"model": "sonnet"`; the listing's budget
    was sized for it while the conversation sent every request to the default model."""
    from engine import resolve_model

    server.script(Reply(text="Done."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 1, what="the request")
        assert server.requests[0]["model"] == resolve_model("sonnet", {})


async def test_the_arguments_dialog_numbers_words_as_the_details_do(tmp_path: Path) -> None:
    """Issue 34: the details said `$target = word 1`, the arguments dialog `word 0`."""
    from textual.widgets import Static

    from .test_app import text_of

    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "deploy")
        await until(pilot, lambda: app.settled, what="the details")
        assert "$target = word 1" in text_of(app.query_one("#details-facts", Static))
        await pilot.press("a")
        await until(pilot, lambda: len(app.screen_stack) == 2, what="the arguments dialog")
        shown = " ".join(text_of(s) for s in app.screen.query(Static))
        assert "$target = word 1" in shown and "word 0" not in shown
