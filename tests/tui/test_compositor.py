"""The main screen's compositor lays the screen out once per layout while an answer streams."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

from tui.compositor import KeptMapCompositor, keep_map
from tui.widgets.flat_markdown import FlatMarkdown

from .conftest import until


class Counting(KeptMapCompositor):
    """Counts the screen's layouts and its arrangements of every widget."""

    def __init__(self) -> None:
        super().__init__()
        self.layouts = self.arranged = 0

    def reflow(self, parent: Widget, size: Size) -> Any:
        self.layouts += 1
        return super().reflow(parent, size)

    def _arrange_root(self, root: Widget, size: Size, visible_only: bool = True) -> Any:
        self.arranged += not visible_only
        return super()._arrange_root(root, size, visible_only)


class Log(App[None]):
    def get_default_screen(self) -> Screen:
        screen = keep_map(super().get_default_screen())
        screen._compositor = Counting()
        return screen

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="log")


async def test_streaming_into_a_part_lays_the_screen_out_once_per_layout() -> None:
    """Textual arranges every widget again whenever its map is marked stale and a region is asked
    for, and a reflow left it marked stale (a new compositor's is, and a scroll marks it)."""
    app = Log()
    async with app.run_test(size=(70, 60)) as pilot:
        compositor = app.screen._compositor
        assert isinstance(compositor, Counting)
        part = FlatMarkdown(live=True)
        await app.query_one("#log").mount(part)
        for piece in ("# Notes\n\nSome ", "**bold** text", " and more.\n\n- a\n- b", "\n\nThe end.\n"):
            await part.append(piece)
            await until(pilot, lambda: part._rows is not None and not part._layout_required, what="the part to draw")
            await pilot.pause()
        assert part.flat_height > 5
        assert compositor.layouts > 4
        assert compositor.arranged == compositor.layouts
