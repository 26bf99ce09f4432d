"""An assistant's answer as it streams in, as a run of FlatMarkdown parts: the open one drawn
again after each append, the ones before it kept as lines (see flat_markdown.py for why).

Text is drawn a dozen times a second, not on every delta: at 2,000 tokens per second a frame per
delta left the loop no time for keys.
"""

from __future__ import annotations

import asyncio
import re

from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownStream

from tui import gc_pause
from tui.widgets.flat_markdown import FlatMarkdown

_FENCE = re.compile(r" {0,3}(```|~~~)")


def split_point(text: str, limit: int) -> int:
    """Where `text` can be cut into two Markdown documents that draw as the whole would.

    The start of the first line past `limit` characters that follows a blank line outside a code
    fence and is not indented (so it starts a new block, not a list item's next paragraph); 0 when
    there is none yet.
    """
    if len(text) <= limit:
        return 0
    position, fenced, blank_before = 0, False, False
    for line in text.splitlines(keepends=True):
        if position >= limit and blank_before and not fenced and line[:1] not in (" ", "\t", "\n", "\r"):
            return position
        if _FENCE.match(line):
            fenced = not fenced
        blank_before = not line.strip()
        position += len(line)
    return 0


class StreamedAnswer:
    """One answer, drawn into the conversation log as a run of FlatMarkdown parts.

    Not a widget of its own: the parts sit in the log directly (a tool call's block can follow
    the last), one level of containers fewer for every frame to arrange.
    """

    TICK = 1 / 12
    # Characters of the open part before it is cut at a blank line (CHUNK), and the most text
    # drawn in one tick (PER_TICK). Each draw of the open part lays out its changed blocks, and
    # a tick's work is a stall that keys wait behind, so both are short; but a dozen ticks a second
    # at most, so shorter also means a fast model's text is drawn later.
    # tests/bench/bench_conversation.py (2,000 tokens/s for 5 s; p99 lag, drawn in full after),
    # CHUNK with PER_TICK 300, two runs each, interleaved: 150 → 35-38 ms, 18-21 s; 200 →
    # 35-42 ms, 21-25 s; 300 → 42-49 ms, 16-20 s; 800 → 59-61 ms, 17-19 s. A new part's first
    # draw lays out and draws all of its text, the later ones only what changed, so parts are
    # short; at 200 it still draws 1,300-1,900 characters a second (the low end while a long
    # answer's garbage is collected in steps), faster than models stream.
    CHUNK = 200
    PER_TICK = 300
    # Flat parts next to each other are joined into one of up to MERGE characters: fewer widgets
    # for every frame to arrange, while a resize, which draws each again from its text, stays
    # short for each.
    MERGE = 2000
    # Parts made, after which the answer's dropped widgets are collected every STEP ticks as it
    # goes (gc_pause.py), and what is left once it is drawn. A short answer leaves its garbage
    # to Python's schedule. The bench's 40,000 characters, steps every K ticks, each step's
    # collection / the one at the end: K=2 8-15 / 460 ms, 3 16-33 / 530 ms, 4 21-29 / 300 ms,
    # 6 38-57 / 330 ms; no steps: 1,740 ms at the end. Steps cost the drawing about a tenth.
    LONG = 20
    STEP = 3

    def __init__(self, log: Widget, classes: str = "answer") -> None:
        self._log = log
        self._classes = classes
        self._text: list[str] = []
        self._pending: list[str] = []
        self._written = ""  # what the open part has been given
        self.parts: list[FlatMarkdown] = []
        self.made = 0  # parts made, before any were joined
        self._stream: MarkdownStream | None = None
        self._ending = False
        self.finished = False
        gc_pause.hold()
        self._holding = True
        self._ticks = 0
        self._ticker: Timer = log.set_interval(self.TICK, self._tick)

    @property
    def source(self) -> str:
        return "".join(self._text)

    @property
    def settled(self) -> bool:
        """Complete, and every part drawn flat."""
        return self.finished and all(part.settled for part in self.parts)

    def write(self, delta: str) -> None:
        self._text.append(delta)
        self._pending.append(delta)

    def finish(self) -> None:
        """The answer is complete: draw the rest on the next tick and flatten it."""
        self._ending = True

    def abandon(self) -> None:
        """The log is being cleared: stop drawing."""
        self._pending.clear()
        self._done()

    def _capture(self) -> bool:
        """Keep as lines the parts closed so far, collapse the margin between each two and join
        those that fit in one; whether every part is flat and joined."""
        for part in self.parts:
            if not part.live:
                part.capture()
        for upper, lower in zip(self.parts, self.parts[1:], strict=False):
            margins = lower.edge_margins()
            if upper.flat and margins is not None:
                upper.trim(min(upper.bottom_margin, margins[0]))
        at, waiting = 0, False
        while at + 1 < len(self.parts):
            upper, lower = self.parts[at], self.parts[at + 1]
            if len(upper.source) + len(lower.source) <= self.MERGE and upper.flat and lower.flat:
                if upper.absorb(lower):
                    del self.parts[at + 1]
                    lower.remove()
                    continue
                # Its dropped blocks are still being removed: joined on a later tick.
                waiting = waiting or bool(lower.children)
            at += 1
        return all(part.flat for part in self.parts) and not waiting

    async def _tick(self) -> None:
        self._capture()
        # At most about one part's worth a tick: text that piles up while the app is busy (a
        # model faster than Textual can make widgets) is drawn over several ticks, each short,
        # rather than in one long stall that keys wait behind.
        pending = "".join(self._pending)
        text, rest = pending[: self.PER_TICK], pending[self.PER_TICK :]
        self._pending[:] = [rest] if rest else []
        if text:
            await self._draw(text)
        self._ticks += 1
        if self._holding and self.made >= self.LONG and self._ticks % self.STEP == 0:
            gc_pause.step()
        if self._ending and not self._pending:
            await self._close()
            self._release()
            # Parts of an answer streamed while the pane was hidden are kept once it shows.
            if self._capture():
                self._done()

    async def _draw(self, text: str) -> None:
        given = len(self._written)  # of the open part, already in its stream
        self._written += text
        # Cut finished parts off one CHUNK at a time, so text that piled up while the app was
        # busy still makes parts of the usual size.
        while (at := split_point(self._written, self.CHUNK)) and at >= given:
            await self._give(self._written[given:at])
            await self._close()
            self._written, given = self._written[at:], 0
        await self._give(self._written[given:])

    async def _give(self, text: str) -> None:
        # A stream is opened only with text for it: stopping one whose task never ran would raise.
        if not text or self.finished:
            return
        if self._stream is None:
            # The first part carries the answer's classes (its margin); parts after it join on.
            part = FlatMarkdown(live=True, classes=self._classes if not self.parts else "answer-part")
            # After the last part, not at the end: a tool call's block may already follow.
            await self._log.mount(part, after=self.parts[-1] if self.parts else None)
            self.parts.append(part)
            self.made += 1
            self._stream = Markdown.get_stream(part)
        await self._stream.write(text)

    async def _close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            # Shielded: MarkdownStream's task swallows a cancel and returns normally, so a tick
            # cancelled while awaiting it (the app closing) would lose the cancel, and its timer
            # would tick on while Textual waits for it to end: the app never exited.
            await asyncio.shield(stream.stop())
            part = self.parts[-1]
            # The stream's last append can still be running when stop returns (it is shielded
            # from the stop); it holds the Markdown's lock until its blocks are in place.
            async with part.lock:
                pass
            part.close()
            part.capture()

    def _release(self) -> None:
        if self._holding:
            self._holding = False
            long = self.made >= self.LONG
            # What a long answer's steps left is collected just after its last frame, a natural
            # pause, not on a later key. Through the app, which outlives the log (cleared with
            # the conversation); a hold it could not schedule ends here.
            if not (long and self._log.app.call_after_refresh(gc_pause.release)):
                gc_pause.release()

    def _done(self) -> None:
        self._release()
        if not self.finished:
            self.finished = True
            self._ticker.stop()
