"""The conversation keeps the order things happened in (issue 34): the model's words before the
tool call they announce, and a cancelled answer marked where it stopped."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Collapsible, Static

from tests.llm_server import MessagesServer, Reply

from .conftest import loaded, run_done, served_app, until
from .test_app import _walk_to, text_of


async def test_the_text_that_announces_a_tool_call_is_drawn_before_it(tmp_path: Path, server: MessagesServer) -> None:
    call = {"id": "t1", "name": "Bash", "input": {"command": "git push origin main"}}  # denied by a demo rule: no question
    server.script(Reply(text="First I will push the branch.", tool_uses=[call]), Reply(text="It was refused."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        pane = app.conversation
        await until(pilot, lambda: run_done(app) and len(pane.answers) == 2 and pane.settled, what="both answers")
        children = list(pane.transcript.children)
        announced = children.index(pane.answers[0].parts[0])  # type: ignore[union-attr]
        block = next(i for i, c in enumerate(children) if isinstance(c, Collapsible) and c.has_class("tool"))
        assert announced < block, "the announcement, then the call"


async def test_a_cancelled_answer_is_marked_where_it_stopped(tmp_path: Path, server: MessagesServer) -> None:
    long = "".join(f"Sentence {n} of an answer that keeps going. " for n in range(200))
    server.script(Reply(text=long, chunk=20, pace=0.05), Reply(text="A new answer."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        pane = app.conversation
        await until(pilot, lambda: pane.answers and "Sentence 3" in pane.answers[0].source, what="the answer streaming")
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app) and pane.settled, what="the cancel")
        children = list(pane.transcript.children)
        mark = next(i for i, c in enumerate(children) if c.has_class("cancelled"))
        assert "cancelled" in text_of(children[mark])  # type: ignore[arg-type]
        assert all(children.index(part) < mark for part in pane.answers[0].parts)  # type: ignore[union-attr]
        assert isinstance(children[mark], Static)


async def test_the_composer_brings_back_sent_messages_and_scrolls_the_conversation(
    tmp_path: Path, server: MessagesServer
) -> None:
    """Issue 34: no history on `up`, and `pageup` did not scroll the conversation from the composer."""
    long = "\n\n".join(f"Paragraph {n} of a long answer." for n in range(120))
    server.script(Reply(text=long), Reply(text="Two."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        composer = app.query_one("#composer")
        await pilot.press(*"first question", "enter")
        pane = app.conversation
        await until(pilot, lambda: run_done(app) and pane.answers and pane.settled, what="the long answer")
        await pilot.press(*"second", "enter")
        await until(pilot, lambda: run_done(app) and len(pane.answers) == 2 and pane.settled, what="the second answer")
        await pilot.press(*"draft")
        await pilot.press("up")
        assert composer.value == "second"  # type: ignore[attr-defined]
        await pilot.press("up", "up")
        assert composer.value == "first question", "stops at the oldest"  # type: ignore[attr-defined]
        await pilot.press("down", "down")
        assert composer.value == "draft", "back to what was being typed"  # type: ignore[attr-defined]
        log = pane.transcript
        await until(pilot, lambda: log.scroll_y >= log.max_scroll_y > 0, what="the log at its end")
        bottom = log.scroll_y
        await pilot.press("pageup")
        await until(pilot, lambda: log.scroll_y < bottom, what="pageup to scroll the log")
        assert app.focused is composer
