"""Markdown drawn by Textual's own Markdown widget, then kept as the lines it drew.

Textual arranges every widget of the screen on each layout change, and its Markdown widget makes
about ten widgets per 200 characters: a long answer (2,000+ widgets) made every later frame of the
app slow, streaming above all. A `FlatMarkdown` has its blocks only while it is open (being
streamed into, or drawn at a new width); once they are laid out it copies what each drew into
plain lines and drops them, so it looks exactly the same and costs one widget.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Markdown


def flatten(root: Widget) -> list[Strip]:
    """The lines `root` and its descendants draw, as one picture the size of `root`.

    Each widget draws itself (`render_lines`) and is laid over its ancestors at the offset the
    compositor gave it, clipped to its parent, as the screen would show it.
    """
    origin = root.region
    width, height = origin.size
    lines = [Strip.blank(width)] * height
    clips: dict[Widget, Region] = {root: origin}
    for widget in root.walk_children(with_self=True):
        parent = widget.parent
        clip = clips.get(parent, origin) if isinstance(parent, Widget) and widget is not root else origin
        region = widget.region
        if not widget.display or not region:
            continue
        clips[widget] = visible = clip.intersection(region)
        if not visible:
            continue
        strips = widget.render_lines(Region(0, 0, region.width, region.height))
        left = visible.x - region.x
        for row in range(visible.y, visible.bottom):
            strip = strips[row - region.y].crop(left, left + visible.width)
            x, y = visible.x - origin.x, row - origin.y
            line = lines[y]
            lines[y] = Strip.join([line.crop(0, x), strip, line.crop(x + visible.width, width)])
    return lines


class FlatMarkdown(Markdown):
    """A Markdown that, once laid out and closed, keeps the lines its blocks drew and drops them.

    It is a Markdown itself (not a wrapper) because every level of nested auto-height containers
    makes Textual arrange the blocks again on each layout.
    """

    def __init__(self, source: str = "", *, live: bool = False, classes: str | None = None) -> None:
        super().__init__(source, classes=classes)
        # While live, a stream writes into it; it is flattened only once closed.
        self.live = live
        self._lines: list[Strip] | None = None
        self._width = 0
        # Rows dropped from the bottom: see `capture`.
        self._trim = 0
        self.top_margin = 0
        self._seen: tuple[object, ...] = ()
        # A part streamed into is first flattened by its answer, which knows the trim.
        self._owned = live
        self._updating = False

    @property
    def flat(self) -> bool:
        return self._lines is not None

    @property
    def settled(self) -> bool:
        """Flat, and drawn for the width it has (a resize redraws it)."""
        width = self.outer_size.width
        return self._lines is not None and (self._width == width or not width)

    def close(self) -> None:
        """No more text will come: the owner calls `capture` once a frame has drawn it."""
        self.live = False

    async def on_resize(self, event: events.Resize) -> None:
        if self.live or not event.size.width or (self._owned and self._lines is None):
            return
        if self._lines is not None:
            if event.size.width == self._width:
                return
            # Drawn for another width: let Markdown lay it out again, then flatten that.
            self._lines = None
            self._updating = True
            try:
                await self.update(self.source)
            finally:
                self._updating = False
        self._capture_soon()

    def _capture_soon(self) -> None:
        # Twice: the first wait lets the messages that mount and size the blocks reach the screen,
        # the second lets the screen lay them out.
        self.call_after_refresh(self.call_after_refresh, self._retry)

    def _retry(self) -> None:
        if not self.capture(None) and self._lines is None and self.outer_size.width:
            self._capture_soon()

    def edge_margins(self) -> tuple[int, int] | None:
        """The top margin of the first block and the bottom margin of the last, while open; None
        while the first block may still change kind (text streaming into it: "``" becomes a fence)."""
        blocks = [child for child in self.children if child.display]
        if not blocks or (self.live and len(blocks) < 2):
            return None
        return blocks[0].styles.margin.top, blocks[-1].styles.margin.bottom

    def capture(self, trim: int | None = None) -> bool:
        """Flatten now, if the screen has laid out every block; whether it is flat.

        `trim` rows come off the bottom: one Markdown collapses the margins between two blocks
        into the larger, but a part's picture keeps its last block's bottom margin and the next
        part's its first block's top margin, so their owner drops the smaller of the two here.
        """
        if self._lines is not None:
            return True
        width = self.outer_size.width  # as the resize event gives it: with padding
        if self.live or self._updating or not self.is_mounted or not width or not self._laid_out(width):
            return False
        self._trim = self._trim if trim is None else trim
        self._owned = False
        margins = self.edge_margins()
        self.top_margin = margins[0] if margins else 0
        # The picture includes the padding and border, which Textual draws again around the lines.
        gutter = self.styles.gutter
        picture = flatten(self)
        lines = [line.crop(gutter.left, width - gutter.right) for line in picture[gutter.top : len(picture) - gutter.bottom]]
        lines = lines[: len(lines) - self._trim] if self._trim else lines
        self._lines = [line.apply_offsets(0, y) for y, line in enumerate(lines)]
        self._width = width
        # Hidden first: Textual removes widgets over several messages each, and until then it
        # would go on arranging them on every layout.
        for child in self.children:
            child.display = False
        self.remove_children()
        self.refresh(layout=True)
        return True

    def _laid_out(self, width: int) -> bool:
        """Whether the screen has placed every block at this width, and they stayed put since the
        last look. (Not the screen's "layout pending" flag: while text streams in below, some
        layout is nearly always due; and a block's place can lag a frame behind its text.)"""
        region = self.region
        if region.width != width or (self.source.strip() and not region.height):
            return False
        # Blocks span the content width; ones that do not are from before a resize (or on their way out).
        gutter = self.styles.gutter
        inner = region.width - gutter.width
        if any(child.region.width != inner for child in self.children if child.display):
            return False
        # Relative to this part: while the log scrolls, every region on screen moves each frame.
        places = [widget.region for widget in self.walk_children() if widget.display]
        seen = (region.size, *(Region(r.x - region.x, r.y - region.y, r.width, r.height) for r in places))
        settled, self._seen = seen == self._seen, seen
        return settled and all(placed.width for placed in places)

    # Drawing ------------------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self._lines is not None:
            return len(self._lines)
        return super().get_content_height(container, viewport, width)

    def render_line(self, y: int) -> Strip:
        if self._lines is None:
            return super().render_line(y)
        width = self.size.width
        if y >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        line = self._lines[y]
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
        if self._lines is None:
            return super().get_selection(selection)
        return selection.extract("\n".join(line.text.rstrip() for line in self._lines)), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        if self._lines is not None:
            self.refresh()


def _over(strip: Strip, style: Style) -> Strip:
    """`style` laid over every segment (Strip.apply_style lays it under)."""
    return Strip([Segment(text, seg_style + style if seg_style else style, control) for text, seg_style, control in strip])
