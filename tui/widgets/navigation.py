"""Vim-style movement shared by the app's trees and lists."""

from __future__ import annotations

from textual.binding import Binding

VIM_BINDINGS = [
    Binding("j", "cursor_down", "Down", show=False, id="nav.down"),
    Binding("k", "cursor_up", "Up", show=False, id="nav.up"),
    Binding("g", "first", "First", show=False, id="nav.first"),
    Binding("G", "last", "Last", show=False, id="nav.last"),
]
