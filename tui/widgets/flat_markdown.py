"""Markdown drawn by Textual's own Markdown widget, shown as the lines it drew.

Textual arranges every widget of the screen on each layout change, and its Markdown widget makes
about ten widgets per 200 characters: a long answer (2,000+ widgets) made every later frame of the
app slow, streaming above all. A `FlatMarkdown` lays its blocks out and draws them itself, and the
screen sees only the lines: it looks exactly the same and costs the screen one widget. While it is
open (streamed into) it draws again after each append; once closed it keeps the lines and drops
the blocks.

`picture` uses Textual internals (its compositor, widgets' layout caches); tests/tui/test_answer.py
checks what it draws against what the screen draws, with the version tests/constraints.txt pins.

Its text is a model's (an answer, streamed or resumed): every way text gets in (the constructor,
`update`, `append`, which a stream calls) shows terminal controls as `^[` (engine.printable),
never passes them to the terminal. A stream hands `append` a dozen chunks a second of at most a
few hundred characters; `printable` costs about 4 µs on 300 (python -m timeit), nothing beside a
frame.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual._styles_cache import StylesCache
from textual.await_complete import AwaitComplete
from textual.geometry import Region, Size, Spacing
from textual.layout import DockArrangeResult
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Markdown

from engine import printable
from tui.compositor import KeptMapCompositor

# `picture` lays a document out in a box of a multiple of this height (see there).
_BOX = 48
# What the screen's compositor is given to arrange inside a drawn FlatMarkdown.
_NOTHING = DockArrangeResult([], set(), Spacing())


def picture(
    root: Widget, width: int, cache: StylesCache | None = None, rows: int = 0, above: Widget | None = None
) -> tuple[int, list[Strip]]:
    """The lines `root` and its descendants draw at `width`, padding and border included, from
    the first line it returns on (0 but with `above`).

    Laid out and drawn by a compositor of its own, with the code the screen uses, so it does not
    wait for the screen: a part is drawn as soon as its text is in, wherever the log has scrolled.
    `cache` keeps the lines `root` draws itself, if it draws something else for the screen;
    `rows` is how tall it was last time; `above` is a child that (with everything above it) draws
    as it did last time, so only the lines below it are drawn.
    """
    for widget in root.walk_children(with_self=True):
        # A widget whose text or children changed since the last frame has told only itself so
        # far (its ancestors hear on its next idle), so their measurements may be stale: tell
        # them now. The rest keep what they measured, so a part streamed into is laid out again
        # only where it changed.
        if widget is root or widget._layout_required or not widget._size:
            for ancestor in (widget, *widget.ancestors):
                if not isinstance(ancestor, Widget):
                    break
                ancestor._clear_arrangement_cache()
                ancestor._layout_updates += 1
                if ancestor is root:
                    break
    gutter = root.styles.gutter
    # Laid out in a box of a height that seldom changes, then drawn only as tall as its content:
    # every block's measurements are kept by the height of its container, so a box as tall as
    # the content (a new height at each append) would measure every block again each time. Not
    # much taller than the content either: `root` draws all of it (its background).
    box = _BOX * (1 + (rows + _BOX // 3) // _BOX)
    while True:
        compositor = KeptMapCompositor()
        compositor.reflow(root, Size(width, box))
        inner = root._get_scrollable_region(Region(0, 0, width, box).shrink(gutter))
        height = root.arrange(inner.size).total_region.height + gutter.height
        if height <= box:
            break
        box = _BOX * (1 + height // _BOX)
    for widget, geometry in compositor.full_map.items():
        # What the screen does after a reflow (the root keeps the size the screen gave it).
        if widget is not root:
            widget._size_updated(geometry.region.size, geometry.virtual_size, geometry.container_size, layout=False)
    top = min(compositor.full_map[above].region.bottom, height) if above in compositor.full_map else 0
    # A widget draws at the size the screen's compositor has for it (`Widget.region`), so for
    # this one synchronous draw the screen asks ours: nothing else runs meanwhile.
    screen = root.screen
    own, own_cache = screen._compositor, root._styles_cache
    screen._compositor = compositor
    root._styles_cache = cache or own_cache
    try:
        chops = compositor._render_chops(Region(0, top, width, height - top), lambda y: y >= top)
    finally:
        screen._compositor, root._styles_cache = own, own_cache
    return top, [Strip.join(chop.values()) for chop in chops[top:height]]


class FlatMarkdown(Markdown):
    """A Markdown that draws its blocks itself and shows the screen only the lines; once closed and
    drawn, it drops the blocks.

    It is a Markdown itself (not a wrapper), so `Markdown.get_stream` writes into it and its
    blocks are laid out as in any Markdown; `arrange` hides them from the screen once it has a
    picture, and `_picturing` lets `picture` see them.
    """

    def __init__(self, source: str = "", *, live: bool = False, classes: str | None = None) -> None:
        super().__init__(printable(source), classes=classes)
        # While live, a stream writes into it; it drops its blocks only once closed.
        self.live = live
        # The last picture's rows as plain segments (with the offsets mouse selection reads), not
        # Strips: a Strip holds seven caches, and every object kept is walked by every full
        # garbage collection from then on (a 40,000-character answer: 58,000 fewer). Until the
        # first picture (None) the screen arranges and draws the blocks as for any Markdown.
        self._rows: list[list[Segment]] | None = None
        self._width = 0
        # Closed, drawn, and its blocks dropped.
        self._flat = False
        # While `picture` lays the blocks out, the widget is a plain Markdown again, and what it
        # draws itself then (its background, all the box `picture` lays it out in) is kept apart
        # from what it draws for the screen, and across pictures.
        self._picturing = False
        self._picture_cache = StylesCache()
        self._line_style = Style()
        # The blocks above the last at the last picture: an append changes only the last block
        # and adds blocks after it, so these draw as they did (see `draw`).
        self._kept: list[Widget] = []
        # Rows dropped from the bottom: see `trim`.
        self._trim = 0
        self.top_margin = 0
        self.bottom_margin = 0

    @property
    def _drawn(self) -> bool:
        """Showing its picture rather than its blocks."""
        return self._rows is not None and not self._picturing

    @property
    def flat(self) -> bool:
        return self._flat

    @property
    def flat_height(self) -> int:
        """Rows shown, once drawn (the trimmed ones left out)."""
        return len(self._rows) - self._trim if self._rows is not None else 0

    def lines(self) -> list[Strip]:
        """What it shows, once drawn."""
        return [Strip(self._rows[y]) for y in range(self.flat_height)] if self._rows is not None else []

    @property
    def settled(self) -> bool:
        """Flat, and drawn for the width it has (a resize draws it again)."""
        width = self.outer_size.width
        return self._flat and (self._width == width or not width)

    def close(self) -> None:
        """No more text will come: the owner calls `capture` next."""
        self.live = False

    def update(self, markdown: str) -> AwaitComplete:
        return super().update(printable(markdown))

    def append(self, markdown: str) -> AwaitComplete:
        appended = super().append(printable(markdown))

        async def then() -> None:
            await appended
            self._draw_soon()

        return AwaitComplete(then())

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._restyle)

    def on_unmount(self) -> None:
        # A Signal drops a removed subscriber only when it next publishes, so until the theme
        # changed, every part removed (joined into the one above, or the conversation cleared)
        # stayed alive with all its rows: 158 of them after the bench's one long answer.
        self.app.theme_changed_signal.unsubscribe(self)

    async def _restyle(self, _theme: object) -> None:
        """The lines keep the colours they were drawn in: draw them again in the new theme's."""
        self._picture_cache.clear()
        if self._flat:
            await self._draw_again()
        elif self.live:
            self._draw_soon()

    async def _draw_again(self) -> None:
        """Let Markdown make the blocks again from the text (the old lines show meanwhile), then
        flatten those."""
        self._flat = False
        await self.update(self.source)
        self._capture_soon()

    async def on_resize(self, event: events.Resize) -> None:
        # Markdown mounts its blocks on mount, which is handled before the first resize.
        width = event.size.width
        if not width or width == self._width:
            return
        if self.live:
            self._draw_soon()
            return
        if self._flat:
            await self._draw_again()  # drawn for another width
        else:
            self._capture_soon()

    def _capture_soon(self, tries: int = 100) -> None:
        """Flatten once every block is mounted (Markdown mounts them over a few messages). If that
        never happens the blocks stay: slower to lay out, drawn just the same."""
        if not self.capture() and tries and not self.live and self.is_mounted and self.outer_size.width:
            self.call_after_refresh(self._capture_soon, tries - 1)

    def _draw_soon(self, tries: int = 100) -> None:
        """Draw the open document once every block is mounted."""
        if self.live and not self.draw() and tries and self.is_mounted:
            self.call_after_refresh(self._draw_soon, tries - 1)

    def edge_margins(self) -> tuple[int, int] | None:
        """The top margin of the first block and the bottom margin of the last, while open; None
        while the first block may still change kind (text streaming into it: "``" becomes a fence)."""
        if self._flat:
            return self.top_margin, self.bottom_margin
        blocks = [child for child in self.children if child.display]
        if not blocks or (self.live and len(blocks) < 2):
            return None
        return blocks[0].styles.margin.top, blocks[-1].styles.margin.bottom

    def _draw_width(self) -> int:
        """The width it has, or before the screen first lays it out, the width it will have (so
        that the screen never has to arrange its blocks)."""
        if self.outer_size.width:
            return self.outer_size.width  # as the resize event gives it: with padding
        parent = self.parent
        if not isinstance(parent, Widget):
            return 0
        return max(0, parent.scrollable_content_region.width - self.styles.margin.width)

    def draw(self) -> bool:
        """Lay the blocks out and keep the lines they draw, if every block is in place; whether
        it drew."""
        if self._flat:
            return True
        width = self._draw_width()
        if not self.is_mounted or not width:
            return False
        blocks = list(self.walk_children())
        # Every block mounted, and the widgets each was given to hold too (a list item's bullet
        # and paragraphs are mounted after the item).
        if (self.source.strip() and not blocks) or any(not block.is_mounted or block._pending_children for block in blocks):
            return False
        children = list(self.children)
        kept = self._kept
        # What the blocks kept since the last picture drew is kept too, unless the width changed.
        same = width == self._width and len(children) > len(kept) and all(a is b for a, b in zip(children, kept, strict=False))
        gutter = self.styles.gutter
        self._picturing = True
        try:
            top, drawn = picture(self, width, self._picture_cache, len(self._rows or ()), kept[-1] if same and kept else None)
        finally:
            self._picturing = False
        # The picture includes the padding and border, which Textual draws again around the lines.
        first = max(top, gutter.top)  # the first line drawn that is a row
        start = first - gutter.top
        new = [line.crop(gutter.left, width - gutter.right) for line in drawn[first - top : len(drawn) - gutter.bottom]]
        kept_rows = self._rows[:start] if self._rows is not None and start else []
        grew = self._rows is None or len(kept_rows) + len(new) != len(self._rows)
        self._rows = kept_rows + [list(line.apply_offsets(0, start + y)) for y, line in enumerate(new)]
        self._width = width
        self._kept = children[:-1]
        self._clear_arrangement_cache()
        self.refresh(layout=grew)
        return True

    def capture(self) -> bool:
        """Draw for good and drop the blocks now, if it is closed and can draw; whether it is flat."""
        if self._flat:
            return True
        if self.live or not self.draw():
            return False
        self.top_margin, self.bottom_margin = self.edge_margins() or (0, 0)
        self._flat = True
        self._kept = []
        # The lines of its own box, kept for the next picture; a flat part has none.
        self._picture_cache.clear()
        # Hidden first: Textual removes widgets over several messages each, and until then it
        # would go on arranging them on every layout.
        for child in self.children:
            child.display = False
        self.remove_children()
        return True

    def absorb(self, lower: FlatMarkdown) -> bool:
        """Take on the lines and text of `lower`, the flat part right below this one, if both are
        drawn for the same width (the owner then removes it); whether it did.

        The screen arranges every widget on each frame, so a long answer kept as a few widgets
        makes every later frame cheaper than as a hundred. The text together draws as the two
        did (parts are cut between blocks), so a resize draws it again as one document.
        """
        if not (self._flat and lower._flat and self._rows is not None and lower._rows is not None):
            return False
        # Not while its dropped blocks are still being removed: removing it then leaves them
        # held by the unfinished removal, never freed.
        if self._width != lower._width or lower.children:
            return False
        rows = self._rows[: self.flat_height]
        rows += [list(Strip(row).apply_offsets(0, len(rows) + y)) for y, row in enumerate(lower._rows)]
        self._rows = rows
        self._trim = lower._trim
        self._markdown = self.source + lower.source
        self.bottom_margin = lower.bottom_margin
        self.refresh(layout=True)
        return True

    def trim(self, rows: int) -> None:
        """Drop `rows` rows off the bottom. One Markdown collapses the margins between two blocks
        into the larger, but a part's picture keeps its last block's bottom margin and the next
        part's its first block's top margin, so their owner drops the smaller of the two here."""
        if rows != self._trim:
            self._trim = rows
            self.refresh(layout=True)

    # Drawing ------------------------------------------------------------------------------------
    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        # The screen arranges nothing inside once it shows the picture: the blocks are laid out
        # by `picture` alone.
        return _NOTHING if self._drawn else super().arrange(size, optimal)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self._drawn:
            # Asked so that Textual drops the list of displayed blocks it keeps (until next asked)
            # once they are gone: it kept every dropped block alive, with all they held.
            self.displayed_children  # noqa: B018
            return self.flat_height
        return super().get_content_height(container, viewport, width)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Textual works `rich_style` out afresh (over every ancestor) each time it is asked.
        self._line_style = self.rich_style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        if not self._drawn or self._rows is None:
            return super().render_line(y)
        width = self.size.width
        if y >= self.flat_height:
            return Strip.blank(width, self._line_style)
        line = Strip(self._rows[y])
        selection = self.text_selection
        span = selection.get_span(y) if selection is not None else None
        if span is not None:
            start, end = span
            end = line.cell_length if end == -1 else end
            chosen = self.screen.get_component_rich_style("screen--selection")
            line = Strip.join([line.crop(0, start), _over(line.crop(start, end), chosen), line.crop(end)])
        return line.crop_extend(0, width, self._line_style)

    # Mouse selection: the lines keep their text, so a drag over a flat answer still copies it.
    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        if not self._drawn:
            return super().get_selection(selection)
        return selection.extract("\n".join(line.text.rstrip() for line in self.lines())), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        if self._rows is not None:
            self.refresh()


def _over(strip: Strip, style: Style) -> Strip:
    """`style` laid over every segment (Strip.apply_style lays it under)."""
    return Strip([Segment(text, seg_style + style if seg_style else style, control) for text, seg_style, control in strip])
