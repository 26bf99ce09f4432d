"""A streamed answer, drawn as a few MarkdownParts, shows what Rich's Markdown draws for the whole
text, and draws each finished block once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rich.markdown import Markdown as RichMarkdown
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.selection import Selection

from tests.llm_server import MessagesServer, Reply
from tui.conversation.answer import MarkdownPart, StreamedAnswer, blocks
from tui.conversation.pane import ConversationPane

from .conftest import run_done, served_app, until
from .test_conversation import _launch

SAMPLE = (
    "# Release notes\n\nThe release adds faster search and **streamed** answers; see `engine/runner/loop.py`.\n\n"
    "## Search\n\n- first point\n- second point\n  continued\n\n1. one\n2. two\n\n"
    "```python\ndef step() -> int:\n\n    return 1\n```\n\n> quoted **bold**\n\n"
    "### Table\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nA closing paragraph that is long enough to wrap "
    "over more than one line at the width of the test terminal, to check wrapping.\n"
)
# Where Rich's spacing between blocks is not one blank line: rules, loose lists, HTML, quotes
# next to each other, a setext heading, leading blank lines.
ODD = (
    "\n\n1. one\n\n2. two\n\n   two's paragraph\n\nPara\n\n---\n\nAfter a rule\n\n***\n\n- a\n\n- b\n\n"
    "> q1\n\n> q2\n\n<div>\nhtml\n</div>\n\nText [link](http://example.com)\n\n    indented code\n\n"
    "Setext\n---\n\n~~~\nfenced\n\n~~~\n\nend\n"
)
WIDTH = 70


class Log(App[None]):
    # The same width whether or not the log scrolls.
    CSS = "#log { scrollbar-gutter: stable; }"

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="log")


def rich_rows(app: App[None], text: str, width: int, code_theme: str = "monokai") -> list[str]:
    """What Rich's Markdown draws for `text` as one document."""
    markdown = RichMarkdown(text, code_theme=code_theme, hyperlinks=False)
    lines = app.console.render_lines(markdown, app.console_options.update_width(width), pad=False)
    return ["".join(segment.text for segment in line).rstrip() for line in lines]


def shown(part: MarkdownPart) -> list[str]:
    """The lines a part gives the screen (inside its padding)."""
    return [part.render_line(y).text.rstrip() for y in range(part.size.height)]


async def stream(pilot, text: str, piece: int, part: int = StreamedAnswer.PART) -> StreamedAnswer:  # type: ignore[no-untyped-def]
    answer = StreamedAnswer(pilot.app.query_one("#log", VerticalScroll))
    answer.PART = part
    for start in range(0, len(text), piece):
        answer.write(text[start : start + piece])
        await pilot.pause()
    answer.finish()
    await until(pilot, lambda: answer.settled and all(p.size.width for p in answer.parts), what="the answer to settle")
    await pilot.pause()
    return answer


@pytest.mark.parametrize(("piece", "part"), [(1, 2000), (7, 2000), (10_000, 2000), (7, 100), (10_000, 100)])
async def test_parts_draw_what_rich_draws_for_the_whole_text(piece: int, part: int) -> None:
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        answer = await stream(pilot, SAMPLE, piece, part)
        assert answer.source == SAMPLE
        width = answer.parts[0].size.width
        assert [row for p in answer.parts for row in shown(p)] == rich_rows(app, SAMPLE, width)
        # A few widgets: a part takes blocks until it holds `part` characters.
        assert (len(answer.parts) > 1) == (part < len(SAMPLE))
        assert all(len(p.source) < part + max(map(len, blocks(SAMPLE))) for p in answer.parts)


async def test_blocks_drawn_apart_draw_as_one_document() -> None:
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        for text in (SAMPLE, ODD):
            part = MarkdownPart(text)
            await app.query_one("#log").mount(part)
            await pilot.pause()
            assert len(blocks(text)) > 8
            assert shown(part) == rich_rows(app, text, part.size.width)


def test_blocks_keep_fences_list_items_and_loose_lists_whole() -> None:
    text = "para one\n\n```\ncode\n\nmore code\n```\n\n- item\n\n  item's second paragraph\n\n- next item\n\nnext\n"
    assert blocks(text) == [
        "para one\n\n",
        "```\ncode\n\nmore code\n```\n\n",
        "- item\n\n  item's second paragraph\n\n- next item\n\n",
        "next\n",
    ]
    assert blocks("") == [] and blocks("\n\nfirst\n\nsecond") == ["\n\nfirst\n\n", "second"]


async def test_finished_blocks_are_drawn_once() -> None:
    """Each tick draws the open block again; the blocks before it keep the lines they drew."""
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        answer = StreamedAnswer(app.query_one("#log", VerticalScroll))
        cut = SAMPLE.index("```python")
        answer.write(SAMPLE[:cut])
        await until(pilot, lambda: answer.parts and answer.parts[0].size.width, what="the first part")
        await pilot.pause(0.2)
        part = answer.parts[0]
        before = part.rows(part.size.width)
        # While open it keeps blank rows below its text to grow into (fewer layouts of the log).
        assert part.size.height >= len(before) + MarkdownPart.SPARE
        answer.write(SAMPLE[cut:])
        answer.finish()
        await until(pilot, lambda: answer.settled, what="the answer to settle")
        after = part.rows(part.size.width)
        assert part.size.height == len(after)
        # Every row but the open block's last blank separator is the very row drawn before.
        assert len(after) > len(before)
        assert all(a is b for a, b in zip(before[:-1], after, strict=False))


async def open_part(pilot, log: VerticalScroll) -> MarkdownPart:  # type: ignore[no-untyped-def]
    """A part still open, laid out with its spare rows below its text."""
    answer = StreamedAnswer(log)
    answer.write("Release notes:\n\n- one\n- two\n\nMore")
    await until(pilot, lambda: answer.parts and answer.parts[0].size.width, what="the first part")
    part = answer.parts[0]
    await until(pilot, lambda: part.size.height >= len(part.rows(part.size.width)) + MarkdownPart.SPARE, what="spare rows")
    return part


async def test_a_closed_part_is_settled_only_once_its_spare_rows_are_laid_out() -> None:
    """Closing gives back the spare rows in the next layout; until then the log shows them as blank
    lines below the answer, and a screenshot taken then (the snapshot of a finished run did, once)
    showed a log scrolled by them."""
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        part = await open_part(pilot, app.query_one("#log", VerticalScroll))
        part.close()
        # Drawn at once, laid out at the next frame.
        assert part.size.height > len(part.rows(part.size.width))
        assert not part.settled
        await until(pilot, lambda: part.settled, what="the closed part laid out")
        assert part.size.height == len(part.rows(part.size.width))


async def test_a_part_that_closes_out_of_sight_gives_back_its_spare_rows() -> None:
    """An answer that ends while its tab is hidden: settled at once (nothing is laid out out of
    sight), and without the spare rows once it shows again (they stayed as blank lines)."""
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        part = await open_part(pilot, log)
        log.display = False
        await until(pilot, lambda: not part.is_on_screen, what="the log hidden")
        part.close()
        assert part.settled
        log.display = True
        await until(pilot, lambda: part.settled and part.size.width, what="laid out again")
        assert part.size.height == len(part.rows(part.size.width))


async def test_text_faster_than_a_tick_is_drawn_over_several() -> None:
    class Manual(StreamedAnswer):
        TICK = 3600  # ticked by the test

    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        answer = Manual(app.query_one("#log", VerticalScroll))
        answer.write(SAMPLE * 10)
        answer.finish()
        ticks = 0
        while not answer.finished:
            answer._rest_until = 0.0  # not the test below
            answer._tick()
            ticks += 1
            drawn = sum(len(part.source) for part in answer.parts)
            assert drawn <= ticks * answer.PER_TICK
            await pilot.pause()
        assert ticks == -(-len(SAMPLE * 10) // answer.PER_TICK)
        assert "".join(part.source for part in answer.parts) == SAMPLE * 10


async def test_a_long_open_block_is_drawn_less_often() -> None:
    """A tick draws the open block whole; after a long draw the next ticks rest, three times as long."""

    class Manual(StreamedAnswer):
        TICK = 3600
        PER_TICK = 100_000

    app = Log()
    async with app.run_test(size=(WIDTH + 6, 80)) as pilot:
        answer = Manual(app.query_one("#log", VerticalScroll))
        answer.write("Code:\n\n")
        answer._tick()
        await until(pilot, lambda: answer.parts[0].size.width, what="the part laid out")
        code = "Code:\n\n```python\n" + "".join(f"value_{n} = compute({n}, 'text')\n" for n in range(600))
        answer.write(code[7:])
        started = time.monotonic()
        answer._tick()
        took = time.monotonic() - started
        assert answer.parts[0].source == code and took > 0.01
        answer.write("more = 1\n")
        answer._tick()
        assert answer.parts[0].source == code, "the tick right after rests"
        await pilot.pause(min(3 * took, answer.REST) + 0.05)
        answer._tick()
        assert answer.parts[0].source == code + "more = 1\n"
        answer.abandon()


async def test_a_part_draws_again_at_a_new_width_and_in_a_new_theme() -> None:
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 60)) as pilot:
        app.theme = "textual-dark"
        part = MarkdownPart(SAMPLE)
        await app.query_one("#log").mount(part)
        await pilot.pause()
        dark = [part.render_line(y) for y in range(part.size.height)]
        await pilot.resize_terminal(46, 60)
        await until(pilot, lambda: part.size.width == 40 and part.settled, what="the part at the new width")
        assert shown(part) == rich_rows(app, SAMPLE, 40)
        await pilot.resize_terminal(WIDTH + 6, 60)
        await until(pilot, lambda: part.size.width == WIDTH, what="the part at the old width")
        app.theme = "textual-light"
        await until(pilot, lambda: part.settled, what="the part in the new theme")
        light = [part.render_line(y) for y in range(part.size.height)]
        # The same text, the code drawn in the light theme's colours (Rich's "default" code theme).
        assert [line.text for line in light] == [line.text for line in dark]
        assert light != dark
        assert shown(part) == rich_rows(app, SAMPLE, WIDTH, "default")


async def test_an_answer_shows_terminal_controls_and_can_be_copied() -> None:
    app = Log()
    async with app.run_test(size=(WIDTH + 6, 40)) as pilot:
        answer = await stream(pilot, "Look: \x1b]52;c;aGk=\x07 **done**\n\nnext\n", 5)
        part = answer.parts[0]
        assert shown(part)[0] == "Look: ^[]52;c;aGk=^G done"
        assert part.get_selection(Selection(None, None)) == ("Look: ^[]52;c;aGk=^G done\n\nnext", "\n")


async def test_a_cancelled_answer_stays_and_the_next_one_follows_the_next_message(tmp_path: Path, server: MessagesServer) -> None:
    # The stream stalls mid-answer: a cancel while events arrive can be lost in asyncio.wait_for on
    # Python 3.11 (the engine's read loop), which is not what this test is about.
    server.script(Reply(text="word " * 4000, chunk=5, stall_after=60), Reply(text="The second answer."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(120, 40)) as pilot:
        await _launch(pilot, "release-notes")
        pane = app.query_one(ConversationPane)
        await until(pilot, lambda: pane.answers and len(pane.answers[0].source) > 250, what="the answer to stream")
        await pilot.press("escape")
        first = pane.answers[0]
        assert isinstance(first, StreamedAnswer)

        def drawn() -> str:
            return "".join(part.source for part in first.parts)

        await until(pilot, lambda: run_done(app) and drawn() == first.source, what="the cancelled answer to be drawn")
        kept = first.source
        assert 100 < len(kept) < len("word " * 4000)
        app.query_one("#composer").focus()
        await pilot.press(*"again", "enter")
        await until(pilot, lambda: run_done(app) and len(pane.answers) == 2 and pane.settled, what="the second answer")
        assert first.source == kept and pane.answers[1].source == "The second answer."
        children = list(pane.transcript.children)
        second = pane.answers[1]
        assert isinstance(second, StreamedAnswer)
        user = next(w for w in children if w.has_class("user") and "again" in str(w.render()))
        assert children.index(first.parts[-1]) < children.index(user) < children.index(second.parts[0])


async def test_quitting_mid_answer_ends_the_app(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(text="words " * 2000, chunk=4, pace=0.002))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(100, 30)) as pilot:
        await _launch(pilot, "release-notes")
        pane = app.query_one(ConversationPane)
        await until(pilot, lambda: pane.answers and pane.answers[0].source, what="the answer to stream")
    assert not app.is_running
