"""A skill's body as Markdown, rendered in a thread to lines and drawn a line at a time.

Textual's `Markdown` mounts a widget per block: each body shown mounted dozens of them on the UI
loop, the details pane's layout walked them all on every cursor step, and the blocks of the body
before became garbage caught in reference cycles, which only the full collections free (40-100 ms
each at 15,000 skills, one every few keys). Here the body is rendered by Rich's Markdown in the
thread that reads it, at the pane's width, into strips; the UI loop only hands out the rows on
screen. Nothing in a body is clickable: links show their address, as text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from rich.segment import Segment
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from .strips import LineWidget

# Code blocks: a dark theme that reads on both of the app's themes (Rich's default is monokai).
CODE_THEME = "ansi_dark"
# How much of a body is rendered: a preview, not the file (Claude Code gets all of it). A table of
# 20,000 rows took Rich 9 s to lay out, in the thread but holding the interpreter's lock.
MAX_LINES = 2_000
MAX_CHARS = 100_000


def render_markdown(source: str, width: int) -> list[list[Segment]]:
    """`source` (made printable by the caller) as rows of `width` cells. Pure, for a thread: a
    console of its own, writing nowhere. Rows of segments, not strips: a strip kept for each row
    of a long body, with the strips its drawing cached on it, was some 10,000 objects for every
    full garbage collection to walk."""
    width = max(width, 1)
    shown = source[:MAX_CHARS]
    lines = shown.split("\n")
    if len(lines) > MAX_LINES or len(source) > MAX_CHARS:
        shown = "\n".join(lines[:MAX_LINES])
        rest = len(source) - len(shown)
        shown += f"\n\n*({rest:,} more characters not shown here: `e` opens the file)*"
    source = shown
    console = Console(
        width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor", legacy_windows=False, emoji=False
    )
    # Here, in the thread, not when the app starts: Rich's Markdown brings markdown-it and Pygments.
    from rich.markdown import Markdown

    markdown = Markdown(source, code_theme=CODE_THEME, hyperlinks=False)
    return console.render_lines(markdown, console.options.update(width=width), pad=False)


class MarkdownBody(LineWidget):
    """Rows rendered elsewhere (`render_markdown`), for the width they were rendered at."""

    DEFAULT_CSS = "MarkdownBody { height: auto; }"

    class Stale(Message):
        """The body's width is not the one its rows were rendered at: render them again."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.source = ""
        self.rendered_width = 0
        self._rows: Sequence[list[Segment]] = ()

    def show(self, source: str, rows: Sequence[list[Segment]], width: int) -> None:
        self.source, self._rows, self.rendered_width = source, rows, width
        self.refresh(layout=True)

    def on_resize(self, event: events.Resize) -> None:
        if self.source and event.size.width and event.size.width != self.rendered_width:
            self.post_message(self.Stale())

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._rows)

    def render_line(self, y: int) -> Strip:
        width, base = self.size.width, self.line_base
        if not 0 <= y < len(self._rows):
            return Strip.blank(width, base)
        # Until the body is rendered again at a new width (SkillDetails.on_resize), a row is cut
        # or padded to the width it has.
        return Strip(self._rows[y]).crop_extend(0, width, None).apply_style(base)
