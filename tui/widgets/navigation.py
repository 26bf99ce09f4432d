"""Vim-style movement shared by the app's trees and lists."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.binding import Binding
from textual.widgets import Tree

VIM_BINDINGS = [
    Binding("j", "cursor_down", "Down", show=False, id="nav.down"),
    Binding("k", "cursor_up", "Up", show=False, id="nav.up"),
    Binding("g", "first", "First", show=False, id="nav.first"),
    Binding("G", "last", "Last", show=False, id="nav.last"),
]


DataT = TypeVar("DataT")


class NavTree(Tree[DataT], Generic[DataT]):
    """A tree without a visible root, narrow guides, and j/k/g/G."""

    BINDINGS = VIM_BINDINGS

    def __init__(self, label: str, **kwargs: object) -> None:
        super().__init__(label, **kwargs)  # type: ignore[arg-type]
        self.show_root = False
        self.guide_depth = 2

    def action_first(self) -> None:
        self.cursor_line = 0

    def action_last(self) -> None:
        self.cursor_line = self.last_line
