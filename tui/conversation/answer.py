"""A model's answer in the conversation log: Markdown drawn by Rich into a few line widgets, with
public Textual API only.

The look is Rich's Markdown throughout, for the text still streaming and the text done alike:
- one look from the first token to the last: nothing changes when a part is done (Textual's
  Markdown for the open text and Rich for the rest would jump at every cut);
- the look the pane already gives a fork's answer, which it draws with Rich's Markdown;
- Textual's Markdown makes about ten widgets per 200 characters, each arranged by the screen on
  every frame and made again as the text streams in; a part here is one widget whose lines are
  drawn once per width;
- a link shows as `text (url)`, never as a terminal hyperlink whose target a model could hide.

An answer is a run of `MarkdownPart` widgets of up to about `StreamedAnswer.PART` characters each.
A part keeps its text as blocks cut where a new block starts (`cuts`), each drawn once per width
and theme; only the open block at the end, the one text still streams into, is drawn again, at
most twelve times a second with at most `PER_TICK` new characters a tick, so that a fast model's
text is drawn over several short ticks rather than in one long stall that keys wait behind.
While open, the last part keeps blank rows below its text to grow into: the screen lays out and
scrolls the log, a repaint of every line in it, only every few ticks (and so makes half as many
objects for the garbage collector to walk: with 2,000 skills a full collection takes 0.2-0.4 s).

The text is a model's: it goes through `printable` (terminal controls shown as `^[`) as it comes.
"""

from __future__ import annotations

import copy
import functools
import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget

from engine import printable

from ..widgets.strips import LineWidget

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from rich.markdown import Markdown

Row = list[Segment]
_FENCE = re.compile(r" {0,3}(```|~~~)")
_ITEM = re.compile(r"([-*+]|\d{1,9}[.)])([ \t]|$)")
_RULE = re.compile(r" {0,3}([-*_])( *\1){2,} *")
# What a block is drawn after, so that Rich's spacing between it and the block before comes out
# as in one document: Rich puts a blank line before a block unless the one before is a rule.
_AFTER_TEXT, _AFTER_RULE = "x\n\n", "---\n\n"
# Rich's Markdown makes a parser for each document: some 200 objects in reference cycles, which
# only a full garbage collection frees, and each one walks every object of the app. So one parser,
# made as Rich makes its own, parses every block into a copy of an empty Markdown of the look.
# Made at the first answer, not when the app starts: Rich's Markdown brings markdown-it and
# Pygments, some 60 ms of every start (the details' body, drawn in a thread, imports them first).


@functools.cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")


@functools.cache
def _look(dark: bool) -> Markdown:
    from rich.markdown import Markdown

    return Markdown("", code_theme="monokai" if dark else "default", hyperlinks=False)


def rich_markdown(text: str) -> Markdown:
    """`text` as Rich's Markdown (a fork's answer, a tool's result), imported when first drawn."""
    from rich.markdown import Markdown

    return Markdown(text)


# The rows each draws (a rule is followed by an empty line), left out of the block's.
_AFTER_ROWS = {"": 0, _AFTER_TEXT: 1, _AFTER_RULE: 2}


def cuts(text: str) -> Iterator[int]:
    """Where `text` can be cut into Markdown documents that draw as the whole would: the start of
    each line that follows a blank line outside a code fence and is not indented (it starts a new
    block, not a list item's next paragraph), but for a list's next item (a loose list is one list)."""
    position, fenced, blank_before, started, listed = 0, False, False, False, False
    for line in text.splitlines(keepends=True):
        new_block = blank_before and not fenced and line[:1] not in (" ", "\t", "\n", "\r")
        item = bool(_ITEM.match(line))
        if new_block and started and not (item and listed):
            yield position
        if new_block or not started:
            listed = item
        if _FENCE.match(line):
            fenced = not fenced
        blank_before = not line.strip()
        started = started or not blank_before
        position += len(line)


def blocks(text: str) -> list[str]:
    """`text` cut at every `cuts` point (none for no text)."""
    starts = [0, *cuts(text)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)] if text else []


def _after(block: str) -> str:
    """What `block` looks like to the block after it (see _AFTER_TEXT): a rule if its last line is
    one (`***`, `___`, or `---` not underlining a heading)."""
    lines = block.rstrip().splitlines()
    last = lines[-1] if lines else ""
    heading = last.strip()[:1] == "-" and len(lines) > 1 and lines[-2].strip()
    return _AFTER_RULE if _RULE.fullmatch(last) and not heading else _AFTER_TEXT


class MarkdownPart(LineWidget):
    """Markdown drawn by Rich as lines (Textual's line API). Its last block may be open: the
    answer streaming into it sets that block again (`extend`); every other block is drawn once
    per width and theme. `after` is the text before it (the answer's parts before this one)."""

    DEFAULT_CSS = "MarkdownPart { height: auto; padding: 0 2; }"
    SPARE = 4

    def __init__(self, source: str = "", *, after: str = "", classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self._blocks = blocks(printable(source))
        self._after = _after(after) if after else ""
        self._open = False
        # Each block's lines at `_key` (width, dark theme), None until drawn. Kept as plain lists of
        # segments, not Strips: a Strip holds seven caches, and every object kept is walked by every
        # full garbage collection, which stalls the app.
        self._drawn: list[list[Row] | None] = [None] * len(self._blocks)
        self._rows: list[Row] | None = None
        self._key: tuple[int, bool] = (0, True)
        self._shown = 0  # the height Textual was last given
        self._reserve = 0  # rows kept while open (see _redraw)

    @property
    def source(self) -> str:
        return "".join(self._blocks)

    @property
    def last_block(self) -> str:
        return self._blocks[-1] if self._blocks else ""

    @property
    def closed_length(self) -> int:
        return sum(map(len, self._blocks[:-1] if self._open else self._blocks))

    @property
    def settled(self) -> bool:
        """Drawn for the width it has (or not shown yet), at the height Textual last laid it out
        with: a closed part gives back its spare rows in the next layout, and until then the log
        shows them as blank lines below the answer. Out of sight (another tab) its size is
        nothing, as Textual gives a widget it does not lay out."""
        width = self.size.width
        if not width:
            return True
        drawn = self._rows is not None and self._key == (width, self.app.current_theme.dark)
        return drawn and self._shown == max(len(self._rows or ()), self._reserve)

    def extend(self, closed: list[str], open_block: str) -> None:
        """Replace the open block by the `closed` blocks, then `open_block` (if any) as the new one."""
        if self._open:
            old, old_drawn = self._blocks.pop(), self._drawn.pop()
            if closed and old_drawn is not None and closed[0].rstrip() == old.rstrip():
                # The open block's text was all there: what it drew is what the closed block draws.
                self._blocks.append(closed.pop(0))
                self._drawn.append(old_drawn)
        self._blocks += closed + ([open_block] if open_block else [])
        self._drawn += [None] * (len(closed) + bool(open_block))
        self._open = bool(open_block)
        self._redraw()

    def close(self) -> None:
        """No more text comes: the open block is done, and the spare rows go."""
        if self._open:
            self._open = False
            self._redraw()

    def _redraw(self) -> None:
        """Draw now if the width is known; lay the log out again if the height changed, else
        repaint the rows that changed."""
        old, self._rows = self._rows or [], None
        if not self._open:
            # Closed, the spare rows go, also when it closes out of sight (another tab): they
            # stayed as blank lines below the answer once it showed again.
            self._reserve = 0
        width = self.size.width
        if not width:
            self.refresh(layout=True)
            return
        new = self.rows(width)
        if self._open and len(new) > self._reserve:
            # While open, the text grows into blank rows below it, at least SPARE and twice what
            # it grew by since the last draw: the screen lays out and scrolls the whole log again
            # (a frame of every line in it) only every few ticks, however fast the rows come.
            self._reserve = len(new) + max(self.SPARE, 2 * (len(new) - len(old)))
        if max(len(new), self._reserve) != self._shown:
            self.refresh(layout=True)
            return
        first = next((y for y, (a, b) in enumerate(zip(old, new, strict=False)) if a is not b), min(len(old), len(new)))
        self.refresh(Region(0, first, width, max(len(old), len(new)) - first))

    def rows(self, width: int) -> list[Row]:
        """Every line at `width`."""
        key = (width, self.app.current_theme.dark)
        if key != self._key:
            self._key, self._rows = key, None
            self._drawn = [None] * len(self._blocks)
        if self._rows is None:
            rows: list[Row] = []
            for at, block in enumerate(self._blocks):
                drawn = self._drawn[at]
                if drawn is None:
                    drawn = self._drawn[at] = self._draw(_after(self._blocks[at - 1]) if at else self._after, block)
                rows += drawn
            self._rows = rows
        return self._rows

    def _draw(self, after: str, block: str) -> list[Row]:
        """The lines of `block` as Rich draws them after `after`'s."""
        width, dark = self._key
        options = self.app.console_options.update_width(width)

        markdown = copy.copy(_look(dark))
        markdown.markup, markdown.parsed = after + block, _parser().parse(after + block)
        lines = self.app.console.render_lines(markdown, options, pad=False)
        return lines[_AFTER_ROWS[after] :]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        rows = len(self.rows(width)) if width else 0
        if self._open and rows > self._reserve:
            self._reserve = rows + self.SPARE  # drawn before it had a width
        self._shown = max(rows, self._reserve) if width else 0
        return self._shown

    def render_line(self, y: int) -> Strip:
        width, style = self.size.width, self.line_base
        rows = self.rows(width)
        segments, x = [], 0
        for text, seg_style, control in rows[y] if y < len(rows) else ():
            # Where each piece of text sits, for mouse selection (as Strip.apply_offsets, in one Strip).
            at = Style.from_meta({"offset": (x, y)})
            segments.append(Segment(text, style + seg_style + at if seg_style else style + at, control))
            x += len(text)
        line = Strip(Segment.adjust_line_length(segments, width, style), width)
        selection = self.text_selection
        span = selection.get_span(y) if selection is not None else None
        if span is not None:
            start, end = span
            end = x if end == -1 else end
            chosen = self.screen.get_component_rich_style("screen--selection")
            line = Strip.join([line.crop(0, start), _over(line.crop(start, end), chosen), line.crop(end)])
        return line

    # Mouse selection: the lines keep their text, so a drag over an answer copies it.
    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        text = "\n".join("".join(segment.text for segment in row).rstrip() for row in self.rows(self.size.width))
        return selection.extract(text), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()


def _over(strip: Strip, style: Style) -> Strip:
    """`style` laid over every segment (Strip.apply_style lays it under)."""
    return Strip([Segment(text, seg_style + style if seg_style else style, control) for text, seg_style, control in strip])


class StreamedAnswer:
    """One answer as it streams in: `MarkdownPart`s in the log, the last one open.

    Not a widget of its own: the parts sit in the log directly, after one another (a tool call's
    block can follow the last), one level of containers fewer for every frame to arrange.
    """

    TICK = 1 / 12
    # A part takes blocks until it holds PART characters, then the next block starts a new part:
    # a screen arranges a few widgets per answer, and a resize draws each part again in one go.
    PART = 2000
    # The most new text drawn in one tick: text that piled up while the app was busy is drawn
    # over several short ticks. 1,200 a tick keeps up with 14,000 characters a second.
    PER_TICK = 1200
    REST = 0.5

    def __init__(self, log: Widget, classes: str = "answer") -> None:
        self._log = log
        self._classes = classes
        self._text: list[str] = []
        self._pending = ""  # written, not drawn yet
        self._open = ""  # the open block, drawn
        self.parts: list[MarkdownPart] = []
        self._ending = False
        self._rest_until = 0.0
        self.finished = False
        self._ticker = log.set_interval(self.TICK, self._tick)

    @property
    def source(self) -> str:
        return "".join(self._text)

    @property
    def settled(self) -> bool:
        """Complete, and every part drawn for its width."""
        return self.finished and all(part.settled for part in self.parts)

    def write(self, delta: str) -> None:
        delta = printable(delta)
        self._text.append(delta)
        self._pending += delta

    def finish(self) -> None:
        """The answer is complete (or cancelled): draw the rest, then stop. Its first part takes
        its place now: what comes next (a tool call it announced) is mounted after it, not before."""
        if not self.parts and self._pending:
            self._new_part()
        self._ending = True

    def abandon(self) -> None:
        """The log is being cleared: stop drawing."""
        self._pending = ""
        self._done()

    def _tick(self) -> None:
        start = time.monotonic()
        if start < self._rest_until:
            return
        new, self._pending = self._pending[: self.PER_TICK], self._pending[self.PER_TICK :]
        if new:
            self._draw(new)
            # An open block is drawn again whole at each tick; a long one (a 10,000-character
            # code block) takes long to draw, so ticks wait in between: drawing takes at most a
            # quarter of the time, and keys are answered meanwhile. At most REST: a tick that a
            # garbage collection made long must not hold the text back for seconds.
            end = time.monotonic()
            self._rest_until = end + min(3 * (end - start), self.REST)
        if self._ending and not self._pending:
            if self.parts:
                self.parts[-1].close()
            self._done()

    def _draw(self, new: str) -> None:
        *closed, self._open = blocks(self._open + new)
        part = self.parts[-1] if self.parts else self._new_part()
        while True:
            # The blocks that fit in the part (a first one always does).
            fit, size = 0, part.closed_length
            while fit < len(closed) and (not size or size + len(closed[fit]) <= self.PART):
                size += len(closed[fit])
                fit += 1
            if fit == len(closed):
                break
            # Full: it takes what fits and is closed (its open block's text is in what is left).
            part.extend(closed[:fit], "")
            closed = closed[fit:]
            part = self._new_part()
        part.extend(closed, self._open)

    def _new_part(self) -> MarkdownPart:
        # The first part carries the answer's classes (its margin); the parts after it join on.
        last = self.parts[-1] if self.parts else None
        part = MarkdownPart(after=last.last_block if last else "", classes=self._classes if not last else None)
        # After the last part, not at the end: a tool call's block may already follow.
        self._log.mount(part, after=last)
        self.parts.append(part)
        return part

    def _done(self) -> None:
        if not self.finished:
            self.finished = True
            self._ticker.stop()
