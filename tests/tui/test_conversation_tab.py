"""The conversation tab's keys, clicks and what it shows while it waits (issue 17, "Conversation tab")."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Collapsible, Input, Static, TabbedContent

from tests.llm_server import MessagesServer, Reply
from tui.app import SkilldeckApp
from tui.conversation.pane import ConversationPane
from tui.screens.approve import ApproveScreen
from tui.screens.help import HelpScreen

from .conftest import back_to_tree, loaded, run_done, served_app, until
from .test_app import _selected, _walk_to, text_of


def _pane(app: SkilldeckApp) -> ConversationPane:
    return app.query_one(ConversationPane)


def _waiting(app: SkilldeckApp) -> str:
    line = app.query_one("#conversation-waiting", Static)
    return text_of(line).strip() if line.display else ""


def _shown_keys(app: SkilldeckApp) -> dict[str, str]:
    """The keys the footer of the current screen offers: key -> description."""
    return {key: b.binding.description for key, b in app.screen.active_bindings.items() if b.binding.show}


async def test_6_lands_in_the_composer_or_in_the_transcript_while_a_run_goes(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(hang=True))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        composer = app.query_one("#composer", Input)
        assert app.focused is composer
        await pilot.press(*"hello")
        assert composer.value == "hello", "what the user types lands in the composer"
        composer.value = ""
        await pilot.press("escape", "1")
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: len(server.requests) == 1, what="the request")
        assert app.focused is composer, "after enter on a skill, typing goes to the composer"
        await pilot.click("#tiers")
        await pilot.press("6")
        assert app.focused is _pane(app).transcript, "a run is going: the transcript, where escape cancels"
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app), what="the cancel")


async def test_a_click_on_a_skill_selects_it_and_enter_runs_it(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        tree = app.tiers
        line = next(n for n in range(tree.last_line + 1) if tree.row_text(n).plain == "├ release-notes")
        # The row, below the tree's top rule (its gutter).
        await pilot.click("#tiers", offset=(4, tree.styles.gutter.top + line - round(tree.scroll_y)))
        await until(pilot, lambda: _selected(app) == "release-notes", what="the click to move the cursor")
        await pilot.pause()
        assert app.session.runner is None and app.query_one(TabbedContent).active == "details", "a click sent nothing"
        await pilot.press("enter")
        await until(pilot, lambda: app.session.runner is not None and run_done(app), what="the run that enter starts")
        assert app.query_one(TabbedContent).active == "conversation"


async def test_a_cancelled_answer_keeps_its_place_and_the_next_one_goes_below_the_next_question(
    tmp_path: Path, server: MessagesServer
) -> None:
    first = "".join(f"Sentence {n} of an answer that keeps going. " for n in range(200))
    server.script(Reply(text=first, chunk=20, pace=0.05), Reply(text="## Answer\n\nThe second one."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        pane = _pane(app)
        await until(pilot, lambda: pane.answers and "Sentence 3" in pane.answers[0].source, what="the answer streaming")
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app), what="the cancel")
        pane.query_one("#composer").focus()
        await pilot.press(*"again", "enter")
        await until(pilot, lambda: run_done(app) and len(pane.answers) == 2 and pane.settled, what="the second answer, drawn")
        old, new = pane.answers
        assert "second one" not in old.source and new.source == "## Answer\n\nThe second one."
        children = list(pane.transcript.children)
        question = next(i for i, c in enumerate(children) if c.has_class("user") and "again" in text_of(c))  # type: ignore[arg-type]
        assert all(children.index(part) < question for part in old.parts)
        assert all(children.index(part) > question for part in new.parts)


async def test_a_live_timer_shows_the_wait_until_the_first_token_or_a_cancel(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(hang=True), Reply(text="First words", stall_after=5))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: len(server.requests) == 1, what="the request")
        model = server.requests[0]["model"]
        # On a loaded machine the first look may come after a second has passed: read whatever count is shown,
        # then wait for it to go up.
        shown = re.compile(rf"waiting for {re.escape(model)}… (\d+) s, escape cancels")
        await until(pilot, lambda: shown.fullmatch(_waiting(app)) is not None, what="the waiting line")
        first = int(shown.fullmatch(_waiting(app)).group(1))  # type: ignore[union-attr]
        await until(
            pilot,
            lambda: (m := shown.fullmatch(_waiting(app))) is not None and int(m.group(1)) > first,
            what="the count to go on",
        )
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app), what="the cancel")
        assert _waiting(app) == "", "a cancel ends the wait"
        await back_to_tree(pilot)
        await pilot.press("enter")
        pane = _pane(app)
        await until(pilot, lambda: pane.answers and pane.answers[-1].source == "First words", what="the first token")
        await until(pilot, lambda: _waiting(app) == "", what="the wait to end at the first token")
        assert not run_done(app), "the stream is still open: the first token ended the wait, not the run"
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app), what="the cancel")


async def test_the_screens_keys_work_from_any_focus(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(status=529), Reply(text="Recovered."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the error")
        assert "ctrl+r: retry" in text_of(app.query(".error").first(Static))
        assert _waiting(app) == "", "an error ends the wait"
        assert app.focused is app.query_one("#composer")
        await back_to_tree(pilot)
        assert _shown_keys(app)["ctrl+r"] == "Retry"
        await pilot.press("ctrl+r")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 2, what="the retry from the tree")
        await pilot.press("ctrl+t")
        await until(pilot, lambda: _pane(app).has_class("show-meta"), what="ctrl+t from the tree")
        assert "ctrl+r" not in _shown_keys(app), "nothing left to retry"


async def test_offline_shows_a_summary_and_the_full_request_wrapped_one_key_away(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(100, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        pane = _pane(app)
        await until(pilot, lambda: run_done(app) and app.query(".offline-summary"), what="the offline summary")
        request = pane.last_request
        assert request is not None
        summary = text_of(app.query_one(".offline-summary", Static))
        assert f"model    {request.model}" in summary
        assert "tools    " + ", ".join(t["name"] for t in request.tools) in summary
        # The listing is the system message after the first user message, where Claude Code sends it.
        assert [m["role"] for m in request.messages] == ["user", "system"]
        listing = request.messages[1]["content"][0]["text"]
        assert f"listing  11 skills, {len(listing):,} characters in a system message" in summary
        assert "1. <command-message>release-notes</command-message> …" in summary
        assert "2. Base directory for this skill: " in summary and "ctrl+t shows the whole request" in summary
        assert not pane.answers, "no wall of JSON"
        full = app.query_one(".offline-request", Static)
        assert full.styles.display == "none"
        await pilot.press("ctrl+t")
        await until(pilot, lambda: full.styles.display == "block" and full.size.height, what="the full request")
        await pilot.pause()
        shown = text_of(full)
        assert '"model": ' in shown and request.messages[0]["content"][1]["text"][:40] in shown
        # Wrapped, not cut: as wide as the log, taller than its lines.
        assert full.size.width <= pane.transcript.content_region.width and pane.transcript.max_scroll_x == 0
        assert full.size.height > len(shown.splitlines())


async def test_the_composer_says_how_to_leave_and_offers_only_what_works(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        composer = app.query_one("#composer", Input)
        composer.focus()  # `6` has its own test above
        await pilot.pause()
        keys = _shown_keys(app)
        assert keys.get("escape") == "Leave" and app.screen.active_bindings["escape"].binding.key_display == "tab/esc"
        typed = {"q", "slash", "r", "e", "c", "question_mark", "1", "2", "3", "4", "5", "6", "f", "a"}
        assert not typed & set(keys), keys
        await pilot.press("escape")
        assert app.focused is _pane(app).transcript, "escape leaves the composer"
        await pilot.press("2")
        assert app.query_one(TabbedContent).active == "details", "and the app's keys work again"


async def test_the_approval_shows_its_own_keys_and_each_title_says_who_decided(tmp_path: Path, server: MessagesServer) -> None:
    calls = [
        {"id": "t0", "name": "Bash", "input": {"command": "env printf once"}},
        {"id": "t1", "name": "Bash", "input": {"command": "env printf no"}},
        {"id": "t2", "name": "Bash", "input": {"command": "git push origin main"}},
    ]
    server.script(Reply(tool_uses=calls), Reply(text="Done."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "daily-notes")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ApproveScreen), what="the approval modal")
        assert _shown_keys(app) == {"o": "Allow once", "a": "Allow always", "d": "Deny"}
        keys = app.screen.query_one(".modal-keys", Static)
        assert text_of(keys).split() == ["o", "Allow", "once", "a", "Allow", "always", "d", "escape", "Deny"]
        assert keys.region.y == app.screen.size.height - 1, "in the footer's row, over the main screen's keys"
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, ApproveScreen) and len(app.query(".tool")) == 2, what="the 2nd ask")
        await pilot.press("d")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 2, what="the second request")

        def titles() -> list[str]:
            return [str(block.title) for block in app.query(".tool").results(Collapsible)]

        await until(pilot, lambda: len(titles()) == 3, what="three calls")
        assert titles() == [
            "Bash · allowed once · done",
            "Bash · denied by you",
            "Bash · denied by rule Bash(git push *) (project)",
        ]


async def test_an_empty_conversation_says_what_to_do(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        empty = app.query_one("#conversation-empty", Static)
        assert empty.display and empty.size.height
        assert "enter on a skill runs it; type /name args below; ctrl+p for the palette" in text_of(empty)
        app.query_one("#composer").focus()
        await pilot.press(*"/release-notes", "enter")
        await until(pilot, lambda: run_done(app) and app.query(".offline-summary"), what="the run")
        assert not empty.display
        await pilot.press("ctrl+n")
        assert empty.display, "a new conversation is empty again"


async def test_the_composer_hint_ends_at_a_sentence(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        app.query_one("#composer").focus()
        await pilot.press(*"/daily-notes ")
        hint = app.query_one("#composer-hint", Static)
        await until(pilot, lambda: hint.display and hint.size.height, what="the hint")
        assert text_of(hint).strip() == "/daily-notes [text to note]  Append a dated entry to my notes file."
        needed = hint.get_content_height(hint.size, hint.size, hint.content_region.width)
        assert needed <= hint.content_region.height, "drawn whole, not cut"


async def test_the_key_list_spells_keys_one_way_and_says_what_enter_does(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert text_of(app.screen.query_one(".modal-keys", Static)).split() == ["escape", "?", "q", "Close"]
        sections = dict(app.screen.sections)
        keys = [key for rows in sections.values() for key, _ in rows]
        assert not [k for k in keys if "^" in k or "esc" in k.split()], keys
        assert (
            "enter",
            "Run the selected skill (forked if it says context: fork), or open a tier; a click only selects",
        ) in sections["Tiers tree"]
        assert ("enter", "Go to the diagnostic's skill") in sections["Diagnostics pane"]
        conversation = dict(sections["Conversation tab"])
        assert conversation["escape"] == "Cancel run" and conversation["ctrl+r"] == "Retry"
        assert dict(sections["Approval"]) == {"o": "Allow once", "a": "Allow always", "d escape": "Deny"}


async def test_ctrl_r_is_offered_only_while_the_last_run_failed(tmp_path: Path, server: MessagesServer) -> None:
    """Issue 34: after an error, a new message that was answered left ctrl+r shown and active; it
    sent the failed request again (tokens spent for nothing)."""
    server.script(Reply(status=529), Reply(text="Fine now."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the error")
        assert _shown_keys(app)["ctrl+r"] == "Retry"
        await pilot.press(*"go on", "enter")
        await until(pilot, lambda: run_done(app) and any(a.source == "Fine now." for a in _pane(app).answers), what="the answer")
        assert "ctrl+r" not in _shown_keys(app)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert run_done(app) and len(server.requests) == 2, "nothing sent again"
