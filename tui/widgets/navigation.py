"""Vim-style movement shared by the app's trees and lists."""

from __future__ import annotations

import os
from importlib.metadata import version
from typing import Generic, TypeVar

from textual.binding import Binding
from textual.geometry import Size
from textual.widgets import Tree

TEXTUAL_VERSION = version("textual")

VIM_BINDINGS = [
    Binding("j", "cursor_down", "Down", show=False, id="nav.down"),
    Binding("k", "cursor_up", "Up", show=False, id="nav.up"),
    Binding("g", "first", "First", show=False, id="nav.first"),
    Binding("G", "last", "Last", show=False, id="nav.last"),
]


DataT = TypeVar("DataT")

# Only on the Textual it was measured with (pyproject pins it); any other runs Textual's own code.
# SKILLDECK_PLAIN_TEXTUAL=1 turns it off, for the bench that weighs it.
PATCH_SCROLLBAR = TEXTUAL_VERSION == "8.2.8" and not os.environ.get("SKILLDECK_PLAIN_TEXTUAL")


class NavTree(Tree[DataT], Generic[DataT]):
    """A tree without a visible root, narrow guides, and j/k/g/G."""

    BINDINGS = VIM_BINDINGS

    def __init__(self, label: str, **kwargs: object) -> None:
        super().__init__(label, **kwargs)  # type: ignore[arg-type]
        self.show_root = False
        self.guide_depth = 2
        self._laid_out_as: tuple[Size, Size, Size, Size] | None = None

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

    def action_first(self) -> None:
        self.cursor_line = 0

    def action_last(self) -> None:
        self.cursor_line = self.last_line
