"""Vim-style movement shared by the app's trees and lists."""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

import textual
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from .strips import LineWidget, text_strip


def _textual_version() -> str:
    """The installed Textual's version, from the name of its `.dist-info` folder beside the
    package (`textual-8.2.8.dist-info`, as wheels install it): one folder listing, where
    importlib.metadata took some 25 ms of every start. importlib.metadata for any other install."""
    found = list(Path(textual.__file__).parent.parent.glob("textual-*.dist-info"))
    if len(found) == 1:
        return found[0].name.removeprefix("textual-").removesuffix(".dist-info")
    from importlib.metadata import version

    return version("textual")


TEXTUAL_VERSION = _textual_version()

VIM_BINDINGS = [
    Binding("j", "cursor_down", "Down", show=False, id="nav.down"),
    Binding("k", "cursor_up", "Up", show=False, id="nav.up"),
    Binding("g", "first", "First", show=False, id="nav.first"),
    Binding("G", "last", "Last", show=False, id="nav.last"),
]


DataT = TypeVar("DataT")

# What a line of a line-drawn tree looks like beside its text: the guides' style, and the line's own
# (the cursor's, a tier's) if it has one.
LineLook = tuple[Style, Style | None]

# Only on the Textual it was measured with (pyproject pins it); any other runs Textual's own code.
# SKILLDECK_PLAIN_TEXTUAL=1 turns it off, for the bench that weighs it.
PATCH_SCROLLBAR = TEXTUAL_VERSION == "8.2.8" and not os.environ.get("SKILLDECK_PLAIN_TEXTUAL")


class SteadyScrollbar(ScrollView):
    """A ScrollView that redraws itself only when its sizes really change (both of the app's
    scrolling trees: NavTree and the tiers tree)."""

    # The sizes of the last layout that got through.
    _laid_out_as: tuple[Size, Size, Size, Size] | None = None

    if PATCH_SCROLLBAR:

        def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
            # The one private override in tui/ (docs/upstream/tree-scrollbar-redraw.md): Textual's
            # ScrollView redraws its scrollbar on every layout of the screen (it compares the
            # compositor's virtual size with its own lines, which always differ), which widened each
            # frame's redraw to the whole tree while an answer streamed. Only a real change passes.
            seen = (size, virtual_size, container_size, self.virtual_size)
            if seen == self._laid_out_as:
                return False
            self._laid_out_as = seen
            return super()._size_updated(size, virtual_size, container_size, layout)


class LineCursor(SteadyScrollbar, LineWidget):
    """A view drawn a line at a time with a cursor line (the tiers and diagnostics trees): the keys
    that move the cursor. A subclass keeps the cursor's line in `_cursor` and says how many lines
    it has (`line_count`) and how the cursor moves (`move_to`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="nav.up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="nav.down"),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,g", "first", "First", show=False, id="nav.first"),
        Binding("end,G", "last", "Last", show=False, id="nav.last"),
    ]
    _cursor = 0

    @property
    def line_count(self) -> int:
        raise NotImplementedError

    @property
    def drawn_lines(self) -> int:
        """The lines with text (below them, blank): `line_count` unless the view says otherwise."""
        return self.line_count

    def line_look(self, line: int) -> LineLook:
        """Everything a line's look depends on beside the rows and the width: its styles."""
        raise NotImplementedError

    def line_text(self, line: int, look: LineLook) -> Text:
        """A line's text, styled as `look` says."""
        raise NotImplementedError

    def render_line(self, y: int) -> Strip:
        line = y + int(self.scroll_offset.y)
        width = self.scrollable_content_region.width
        base = self.line_base
        if line >= self.drawn_lines:
            return Strip.blank(width, base)
        look = self.line_look(line)
        # Kept by everything its look depends on beside the rows (`forget_lines` when they change).
        return self.kept_line(
            (line, width, base, look), lambda: text_strip(self.line_text(line, look), self.app.console, width, base)
        )

    @property
    def cursor_line(self) -> int:
        return self._cursor

    @cursor_line.setter
    def cursor_line(self, line: int) -> None:
        self.move_to(line)

    def move_to(self, line: int, scroll: bool = True) -> None:
        line = max(0, min(line, self.line_count - 1))
        old, self._cursor = self._cursor, line
        if old != line:
            self._refresh_line(old)
            self._refresh_line(line)
        if scroll:
            self.scroll_to_region(Region(0, line, 1, 1), animate=False, force=True, immediate=True)
        self._moved(old)

    def _moved(self, old: int) -> None:
        """After each move (also to the same line): what the subclass tells its pane."""

    def _refresh_line(self, line: int) -> None:
        y = line - int(self.scroll_offset.y)
        if 0 <= y < self.scrollable_content_region.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def action_cursor(self, step: int) -> None:
        self.move_to(self._cursor + step)

    def action_page(self, step: int) -> None:
        self.move_to(self._cursor + step * max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(self.line_count - 1)


class NavTree(Tree[DataT], SteadyScrollbar, Generic[DataT]):
    """A tree without a visible root, narrow guides, and j/k/g/G. (Tree first: Textual takes a
    widget's CSS and component classes from its first base.)"""

    BINDINGS: ClassVar[list[BindingType]] = [*VIM_BINDINGS]

    def __init__(self, label: str, **kwargs: object) -> None:
        super().__init__(label, **kwargs)  # type: ignore[arg-type]
        self.show_root = False
        self.guide_depth = 2

    def action_first(self) -> None:
        self._jump(0)

    def action_last(self) -> None:
        self._jump(self.last_line)

    def _jump(self, line: int) -> None:
        # Setting cursor_line alone left the cursor off screen (Tree scrolls only on its own moves).
        if line < 0:
            return
        self.cursor_line = line
        self.scroll_to_line(line, animate=False)

    def label_room(self, node: TreeNode[DataT]) -> int:
        """The cells a node's label has on its line: the tree's width less its guides (the root is
        hidden, so a top node has none)."""
        depth = 0
        parent = node.parent
        while parent is not None and parent is not self.root:
            depth += 1
            parent = parent.parent
        return self.scrollable_content_region.width - depth * self.guide_depth

    def render_label(self, node: TreeNode[DataT], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        room = self.label_room(node)
        if 0 < room < text.cell_len:
            text = self.fit_label(node, text, room)
        return text

    def fit_label(self, node: TreeNode[DataT], text: Text, room: int) -> Text:
        """A label too long for its line, cut to `room` cells with an ellipsis (the tree's own
        crop showed no sign that anything was cut)."""
        text.truncate(room, overflow="ellipsis")
        return text

    def get_label_width(self, node: TreeNode[DataT]) -> int:
        # Tree's default renders each label of the tree on every rebuild (15,000 after an expand
        # all); its length and its icon give the same width. Not cut to the line: the trees do not
        # scroll sideways (overflow-x: hidden), and asking each node for the room took longer still.
        width = node.label.cell_len if isinstance(node.label, Text) else len(str(node.label))
        return width + (len(self.ICON_NODE) if node.allow_expand else 0)
