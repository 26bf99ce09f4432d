"""A streamed answer drawn as flat parts looks exactly like one Markdown widget of the same text."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock

from tests.llm_server import MessagesServer, Reply
from tui import gc_pause
from tui.widgets.answer import StreamedAnswer, split_point
from tui.widgets.conversation import ConversationPane
from tui.widgets.flat_markdown import FlatMarkdown

from .conftest import served_app, until
from .test_conversation import _launch

SAMPLE = (
    "# Release notes\n\nThe release adds faster search and **streamed** answers; see `engine/runner.py`.\n\n"
    "## Search\n\n- first point\n- second point\n  continued\n\n1. one\n2. two\n\n"
    "```python\ndef step() -> int:\n\n    return 1\n```\n\n> quoted **bold**\n\n"
    "### Table\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nA closing paragraph that is long enough to wrap "
    "over more than one line at the width of the test terminal, to check wrapping.\n"
)


class Log(App[None]):
    # The same width whether or not the log scrolls: one test draws in a terminal too short to show it all.
    CSS = "#log { scrollbar-gutter: stable; }"

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="log")


def _text(lines) -> list[str]:  # type: ignore[no-untyped-def]
    return [line.text.rstrip() for line in lines]


async def _drawing(pilot, widget: Markdown) -> list[str]:  # type: ignore[no-untyped-def]
    """What the screen shows inside `widget`'s padding, once two looks a few frames apart agree
    (the scrollbar can arrive a layout after the text and narrow everything)."""
    last: list[str] = []
    for _ in range(100):
        await pilot.pause(0.05)
        region, gutter = widget.region, widget.styles.gutter
        assert region.bottom < pilot.app.size.height, "the whole Markdown must be on screen"
        screen = pilot.app.screen._compositor.render_strips()
        rows = screen[region.y + gutter.top : region.bottom - gutter.bottom]
        now = _text(line.crop(region.x + gutter.left, region.right - gutter.right) for line in rows)
        if now and now == last:
            return now
        last = now
    raise AssertionError("the Markdown never stopped changing")


@pytest.mark.parametrize(
    ("chunk", "piece", "rows", "merge"),
    # (100, 7, 8, _): most parts are never on screen (below the log's bottom edge) and drawn all the same.
    [
        (1, 7, 80, 0),
        (100, 7, 80, 0),
        (1, 10_000, 80, 0),
        (10_000, 7, 80, 0),
        (100, 7, 8, 0),
        (100, 7, 80, 2000),
        (100, 7, 8, 2000),
    ],
)
async def test_parts_draw_like_one_markdown(chunk: int, piece: int, rows: int, merge: int) -> None:
    app = Log()
    async with app.run_test(size=(70, 80)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        whole = Markdown(SAMPLE)
        await log.mount(whole)
        # What Textual draws inside the padding (a flat part draws its padding around its lines).
        expected = await _drawing(pilot, whole)
        await whole.remove()
        await pilot.resize_terminal(70, rows)

        answer = StreamedAnswer(log)
        answer.CHUNK, answer.MERGE = chunk, merge
        for start in range(0, len(SAMPLE), piece):
            answer.write(SAMPLE[start : start + piece])
            await pilot.pause()
        answer.finish()
        await until(pilot, lambda: answer.settled, what="the answer to settle")
        drawn = [text for part in answer.parts for text in _text(part.lines())]
        assert answer.source == SAMPLE
        assert (answer.made > 1) == (chunk < len(SAMPLE))
        # Joined into one part when merging (SAMPLE is shorter than MERGE), else one per cut.
        assert len(answer.parts) == (1 if merge else answer.made)
        assert drawn == expected


def test_split_point_keeps_fences_and_list_items_whole() -> None:
    text = "para one\n\n```\ncode\n\nmore code\n```\n\n- item\n\n  item's second paragraph\n\nnext\n"
    cuts = []
    rest = text
    while at := split_point(rest, 1):
        cuts.append(rest[:at])
        rest = rest[at:]
    cuts.append(rest)
    assert cuts == ["para one\n\n", "```\ncode\n\nmore code\n```\n\n", "- item\n\n  item's second paragraph\n\n", "next\n"]


async def test_flat_answer_redraws_at_a_new_width() -> None:
    app = Log()
    async with app.run_test(size=(70, 30)) as pilot:
        part = FlatMarkdown(SAMPLE)
        await app.query_one("#log").mount(part)
        await until(pilot, lambda: part.capture(), what="the part to flatten")
        narrow = part.flat_height
        await pilot.resize_terminal(40, 30)
        await until(pilot, lambda: part.flat and part._width <= 40, what="the part to flatten again")
        assert part.flat_height > narrow


async def test_joined_parts_redraw_as_one_markdown_at_a_new_width() -> None:
    app = Log()
    async with app.run_test(size=(70, 80)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        answer = StreamedAnswer(log)
        answer.CHUNK = 100
        answer.write(SAMPLE)
        answer.finish()
        await until(pilot, lambda: answer.settled, what="the answer to settle")
        assert answer.made > 1 and len(answer.parts) == 1
        await pilot.resize_terminal(45, 80)
        await until(pilot, lambda: answer.settled and answer.parts[0]._width < 45, what="the answer to draw again")
        drawn = _text(answer.parts[0].lines())
        whole = Markdown(SAMPLE)
        await log.mount(whole)
        assert drawn == await _drawing(pilot, whole)


async def test_a_flat_part_takes_on_a_new_theme() -> None:
    """Flat lines keep the colours they were drawn in, so a theme change draws them again."""
    app = Log()
    async with app.run_test(size=(70, 30)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        app.theme = "textual-dark"
        part = FlatMarkdown(SAMPLE)
        await log.mount(part)
        await until(pilot, lambda: part.flat, what="the part to flatten")
        dark = part.lines()
        app.theme = "textual-light"
        await until(pilot, lambda: part.flat and part.lines() != dark, what="the part to draw again")
        fresh = FlatMarkdown(SAMPLE)
        await log.mount(fresh)
        await until(pilot, lambda: fresh.flat, what="a part drawn in the new theme")
        assert part.lines() == fresh.lines()


async def test_closing_a_part_can_be_cancelled() -> None:
    """The app closing cancels the ticker mid-close; Textual's MarkdownStream swallows a cancel, so
    unless closing passes it on, the ticker ran on and the app never exited."""
    app = Log()
    async with app.run_test(size=(70, 30)) as pilot:
        answer = StreamedAnswer(app.query_one("#log", VerticalScroll))
        await answer._give("some **text**\n")
        closing = asyncio.get_running_loop().create_task(answer._close())
        await asyncio.sleep(0)  # now awaiting the stream's end
        closing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await closing
        answer.abandon()
        await pilot.pause()


async def test_dropped_blocks_and_joined_parts_are_freed() -> None:
    """Textual keeps a list of a widget's displayed children until next asked; a flat part that
    was never asked again kept every block it dropped alive, with all they held. And a Signal
    keeps a subscriber it never published to: every part joined into the one above stayed."""

    def dropped() -> tuple[int, int]:
        # The log, too, keeps its list of displayed children (the parts) until next asked, as
        # the next frame that arranges it does; that one list is all it holds.
        log.displayed_children  # noqa: B018
        gc.collect()
        objects = gc.get_objects()
        blocks = sum(1 for o in objects if isinstance(o, MarkdownBlock) and not o.is_attached)
        return blocks, sum(1 for o in objects if isinstance(o, FlatMarkdown) and not o.is_attached)

    app = Log()
    async with app.run_test(size=(70, 30)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        answer = StreamedAnswer(log)
        answer.CHUNK = 50
        answer.write(SAMPLE * 3)
        answer.finish()
        await until(pilot, lambda: answer.settled, what="the answer to settle")
        assert answer.made > 10 and len(answer.parts) < answer.made / 2
        await until(pilot, lambda: dropped() == (0, 0), what="the dropped blocks and joined parts to be freed")


async def test_a_long_answer_collects_its_garbage_in_steps_and_once_at_its_end() -> None:
    """While an answer streams the heap is frozen and full collections wait, but for a long
    answer's steps, which walk only what was made since; its end thaws the heap and collects
    what the steps froze while it was still alive, then Python's own schedule comes back."""
    threshold = gc.get_threshold()
    app = Log()
    async with app.run_test(size=(70, 30)) as pilot:
        answer = StreamedAnswer(app.query_one("#log", VerticalScroll))
        assert gc.get_threshold()[2] > threshold[2] and gc.get_freeze_count() > 0
        answer.CHUNK, answer.LONG, answer.STEP = 50, 3, 1
        answer.write(SAMPLE * 2)
        answer.finish()
        frozen_at_start: list[int] = []

        def watch(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and info["generation"] == 2:
                frozen_at_start.append(gc.get_freeze_count())

        gc.callbacks.append(watch)
        try:
            await until(pilot, lambda: answer.settled and not gc_pause.holding(), what="the hold to end")
        finally:
            gc.callbacks.remove(watch)
        assert gc.get_threshold() == threshold and gc.get_freeze_count() == 0
        steps, end = frozen_at_start[:-1], frozen_at_start[-1:]
        assert steps and all(steps), "steps while the heap was frozen"
        assert end == [0], "then one collection of the thawed heap"


async def test_quitting_mid_answer_ends_the_hold(tmp_path: Path, server: MessagesServer) -> None:
    threshold = gc.get_threshold()
    server.script(Reply(text="words " * 2000, chunk=4, pace=0.002))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(100, 30)) as pilot:
        await _launch(pilot, "release-notes")
        pane = app.query_one(ConversationPane)
        await until(pilot, lambda: pane.answers and gc_pause.holding(), what="the answer to stream")
    assert not gc_pause.holding() and gc.get_threshold() == threshold and gc.get_freeze_count() == 0


async def test_an_open_part_shows_what_one_markdown_would_as_it_streams() -> None:
    """The screen never lays out an open part's blocks (it draws them itself after each append),
    and what it shows at each step is what a Markdown of the text so far shows."""
    app = Log()
    async with app.run_test(size=(70, 80)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        part = FlatMarkdown(live=True)
        await log.mount(part)
        for end in (SAMPLE.index("## Search"), SAMPLE.index("1. one"), SAMPLE.index("> quoted"), len(SAMPLE)):
            await part.append(SAMPLE[len(part.source) : end])
            await until(pilot, lambda: part._rows is not None and not part._layout_required, what="the part to draw")
            shown = _text(part.lines())
            placed = app.screen._compositor.full_map
            assert part.children and not any(block in placed for block in part.walk_children())
            whole = Markdown(part.source)
            await log.mount(whole)
            assert shown == await _drawing(pilot, whole)
            await whole.remove()
