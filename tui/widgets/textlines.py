"""A long text drawn a line at a time (Textual's line API): only the rows on screen are made.

A `Static` renders all of its text into strips the first time it is shown: the listing of a
15,000-skill catalog (some 365,000 characters) took over a second on the `4` key, and its strips
stayed alive for every garbage collection to walk. Here a line is wrapped at spaces to the width
(a word longer than a row is cut), the rows each line takes are summed once per text and width,
and a row is rendered only when the screen asks for it, wrapped again on its own.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip

from engine import printable

from .strips import LineWidget, text_strip


class TextLines(LineWidget):
    DEFAULT_CSS = "TextLines { height: auto; }"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._lines: Sequence[str] = ()
        self._first_style = Style()
        # For the width they were summed at: the first row of each line, and the rows in all.
        self._width = 0
        self._starts: list[int] = [0]

    def set_lines(self, lines: Sequence[str], first_style: str = "") -> None:
        """Show `lines` (text from files: made printable when drawn); the first in `first_style`."""
        self._lines, self._first_style = lines, Style.parse(first_style) if first_style else Style()
        self._width = 0
        self.refresh(layout=True)

    @property
    def lines(self) -> Sequence[str]:
        return self._lines

    def _rows(self, width: int) -> list[int]:
        if width != self._width:
            width = max(width, 1)
            self._width = width
            self._starts = [0, *accumulate(row_count(line, width) for line in self._lines)]
        return self._starts

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._rows(width)[-1]

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        starts = self._rows(width)
        base = self.line_base
        if not 0 <= y < starts[-1]:
            return Strip.blank(width, base)
        index = bisect_right(starts, y) - 1
        line = printable(self._lines[index])
        cuts = [*breaks(line, width), len(line)]
        row = min(y - starts[index], len(cuts) - 2)
        text = Text(line[cuts[row] : cuts[row + 1]].rstrip(" "), self._first_style if index == 0 else "")
        return text_strip(text, self.app.console, width, base)


def row_count(line: str, width: int) -> int:
    """The rows `line` takes at `width`. A short line of printable ASCII (nearly every line of a
    listing) is one row, found without wrapping it: 15,000 lines took 85 ms to wrap on the `4` key."""
    if len(line) <= width and line.isascii() and line.isprintable():
        return 1
    return len(breaks(printable(line), width))


def breaks(line: str, width: int) -> list[int]:
    """Where each row of `line` starts when it is wrapped at spaces to `width` cells; a word longer
    than a row is cut where the row is full. Always at least one row."""
    starts = [0]
    used = 0  # cells on the current row
    position = 0
    for word in line.split(" "):
        size = cell_len(word)
        if used and used + 1 + size > width:
            starts.append(position)
            used = 0
        elif used:
            used += 1
        while size > width:
            # A word wider than a row: as many cells as fit, then the rest on the next rows.
            cut, cells = 0, 0
            while cut < len(word) and cells + cell_len(word[cut]) <= width - used:
                cells += cell_len(word[cut])
                cut += 1
            cut = max(cut, 1)
            position += cut
            word, size = word[cut:], cell_len(word[cut:])
            starts.append(position)
            used = 0
        used += size
        position += len(word) + 1
    return starts
