"""Markdown drawn by Textual's own Markdown widget, then kept as the lines it drew.

Textual arranges every widget of the screen on each layout change, and its Markdown widget makes
about ten widgets per 200 characters: a long answer (2,000+ widgets) made every later frame of the
app slow, streaming above all. A `FlatMarkdown` has its blocks only while it is open (being
streamed into, or drawn at a new width); once closed it lays them out and draws them itself, keeps
the lines and drops the blocks, so it looks exactly the same and costs one widget.

`picture` uses Textual internals (its compositor, widgets' layout caches); tests/tui/test_answer.py
checks what it draws against what the screen draws, with the version tests/constraints.txt pins.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual._compositor import Compositor
from textual.geometry import Size
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Markdown


def picture(root: Widget, width: int) -> list[Strip]:
    """The lines `root` and its descendants draw at `width`, padding and border included.

    Laid out and drawn by a compositor of its own, with the code the screen uses, so it does not
    wait for the screen: a part is drawn as soon as its text is in, wherever the log has scrolled.
    """
    for widget in root.walk_children(with_self=True):
        # A block whose text changed since the last frame has told only itself so far (its
        # ancestors hear on its next idle), so their measurements may be stale.
        widget._clear_arrangement_cache()
        widget._box_model_cache.clear()
        widget.clear_cached_dimensions()
    gutter = root.styles.gutter
    height = root.get_content_height(Size(width, 0), Size(width, 0), width - gutter.width) + gutter.height
    compositor = Compositor()
    compositor.reflow(root, Size(width, height))
    for widget, geometry in compositor.full_map.items():
        # What the screen does after a reflow (the root keeps the size the screen gave it).
        if widget is not root:
            widget._size_updated(geometry.region.size, geometry.virtual_size, geometry.container_size, layout=False)
    # A widget draws at the size the screen's compositor has for it (`Widget.region`), so for
    # this one synchronous draw the screen asks ours: nothing else runs meanwhile.
    screen = root.screen
    own = screen._compositor
    screen._compositor = compositor
    try:
        return compositor.render_strips()
    finally:
        screen._compositor = own


class FlatMarkdown(Markdown):
    """A Markdown that, once closed and given a width, keeps the lines its blocks drew and drops them.

    It is a Markdown itself (not a wrapper) because every level of nested auto-height containers
    makes Textual arrange the blocks again on each layout.
    """

    def __init__(self, source: str = "", *, live: bool = False, classes: str | None = None) -> None:
        super().__init__(source, classes=classes)
        # While live, a stream writes into it; it is flattened only once closed.
        self.live = live
        # The picture's rows as plain segments (with the offsets mouse selection reads), not Strips:
        # a Strip holds seven caches, and every object kept is walked by every full garbage
        # collection from then on (a 40,000-character answer: 58,000 fewer).
        self._rows: list[list[Segment]] | None = None
        self._width = 0
        # Rows dropped from the bottom: see `trim`.
        self._trim = 0
        self.top_margin = 0
        self.bottom_margin = 0

    @property
    def flat(self) -> bool:
        return self._rows is not None

    @property
    def flat_height(self) -> int:
        """Rows shown, once flat (the trimmed ones left out)."""
        return len(self._rows) - self._trim if self._rows is not None else 0

    def lines(self) -> list[Strip]:
        """What it shows, once flat."""
        return [Strip(self._rows[y]) for y in range(self.flat_height)] if self._rows is not None else []

    @property
    def settled(self) -> bool:
        """Flat, and drawn for the width it has (a resize redraws it)."""
        width = self.outer_size.width
        return self._rows is not None and (self._width == width or not width)

    def close(self) -> None:
        """No more text will come: the owner calls `capture` next."""
        self.live = False

    async def on_resize(self, event: events.Resize) -> None:
        # Markdown mounts its blocks on mount, which is handled before the first resize.
        if self.live or not event.size.width:
            return
        if self._rows is not None:
            if event.size.width == self._width:
                return
            # Drawn for another width: let Markdown make its blocks again, then flatten those.
            self._rows = None
            await self.update(self.source)
        self._capture_soon()

    def _capture_soon(self, tries: int = 100) -> None:
        """Flatten once every block is mounted (Markdown mounts them over a few messages). If that
        never happens the blocks stay: slower to lay out, drawn just the same."""
        if not self.capture() and tries and not self.live and self.is_mounted and self.outer_size.width:
            self.call_after_refresh(self._capture_soon, tries - 1)

    def edge_margins(self) -> tuple[int, int] | None:
        """The top margin of the first block and the bottom margin of the last, while open; None
        while the first block may still change kind (text streaming into it: "``" becomes a fence)."""
        if self._rows is not None:
            return self.top_margin, self.bottom_margin
        blocks = [child for child in self.children if child.display]
        if not blocks or (self.live and len(blocks) < 2):
            return None
        return blocks[0].styles.margin.top, blocks[-1].styles.margin.bottom

    def capture(self) -> bool:
        """Flatten now, if it is closed and has a width; whether it is flat."""
        if self._rows is not None:
            return True
        width = self.outer_size.width  # as the resize event gives it: with padding
        if self.live or not self.is_mounted or not width:
            return False
        blocks = list(self.walk_children())
        # Every block mounted, and the widgets each was given to hold too (a list item's bullet
        # and paragraphs are mounted after the item).
        if (self.source.strip() and not blocks) or any(not block.is_mounted or block._pending_children for block in blocks):
            return False
        drawn = picture(self, width)
        self.top_margin, self.bottom_margin = self.edge_margins() or (0, 0)
        # The picture includes the padding and border, which Textual draws again around the lines.
        gutter = self.styles.gutter
        rows = [line.crop(gutter.left, width - gutter.right) for line in drawn[gutter.top : len(drawn) - gutter.bottom]]
        self._rows = [list(line.apply_offsets(0, y)) for y, line in enumerate(rows)]
        self._width = width
        self.refresh(layout=True)
        # Hidden first: Textual removes widgets over several messages each, and until then it
        # would go on arranging them on every layout.
        for child in self.children:
            child.display = False
        self.remove_children()
        return True

    def trim(self, rows: int) -> None:
        """Drop `rows` rows off the bottom. One Markdown collapses the margins between two blocks
        into the larger, but a part's picture keeps its last block's bottom margin and the next
        part's its first block's top margin, so their owner drops the smaller of the two here."""
        if rows != self._trim:
            self._trim = rows
            self.refresh(layout=True)

    # Drawing ------------------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self._rows is not None:
            # Asked so that Textual drops the list of displayed blocks it keeps (until next asked)
            # once they are gone: it kept every dropped block alive, with all they held.
            self.displayed_children  # noqa: B018
            return self.flat_height
        return super().get_content_height(container, viewport, width)

    def render_line(self, y: int) -> Strip:
        if self._rows is None:
            return super().render_line(y)
        width = self.size.width
        if y >= self.flat_height:
            return Strip.blank(width, self.rich_style)
        line = Strip(self._rows[y])
        selection = self.text_selection
        span = selection.get_span(y) if selection is not None else None
        if span is not None:
            start, end = span
            end = line.cell_length if end == -1 else end
            chosen = self.screen.get_component_rich_style("screen--selection")
            line = Strip.join([line.crop(0, start), _over(line.crop(start, end), chosen), line.crop(end)])
        return line.crop_extend(0, width, self.rich_style)

    # Mouse selection: the lines keep their text, so a drag over a flat answer still copies it.
    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        if self._rows is None:
            return super().get_selection(selection)
        return selection.extract("\n".join(line.text.rstrip() for line in self.lines())), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        if self._rows is not None:
            self.refresh()


def _over(strip: Strip, style: Style) -> Strip:
    """`style` laid over every segment (Strip.apply_style lays it under)."""
    return Strip([Segment(text, seg_style + style if seg_style else style, control) for text, seg_style, control in strip])
