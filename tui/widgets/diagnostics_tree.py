"""The diagnostics as a tree of files and their diagnostics, drawn a line at a time.

Textual's Tree made a node per file and per diagnostic: some 3,000 nodes for the 1,500 diagnostics
of a 15,000-skill catalog, 0.6 s on the UI loop at every catalog change, and a whole re-render of
its lines each time the pane showed. Here the rows are a list of (file, diagnostic) indexes built
once per catalog or filter, and a row's text is made only while it is on screen (Textual's line
API on a ScrollView, as the tiers tree does).

Paths and messages come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message

from engine import Diagnostic

from .navigation import LineCursor, LineLook

# A row: (file index, diagnostic index in that file); -1 is the file's own row.
Row = tuple[int, int]


class DiagnosticsTree(LineCursor, can_focus=True):
    """Files (open by default) and their diagnostics. The cursor starts on the first diagnostic."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Select", show=False),
        Binding("space", "toggle_file", "Open or close the file", show=False),
        Binding("left", "close_file", "Close the file", show=False),
        Binding("right", "open_file", "Open the file", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"diagnostics--cursor", "diagnostics--guides"}
    DEFAULT_CSS = """
    DiagnosticsTree {
        background: $surface;
        & > .diagnostics--guides { color: $surface-lighten-2; }
        & > .diagnostics--cursor {
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .diagnostics--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .diagnostics--guides { color: $surface-lighten-3; }
        }
    }
    """

    class Highlighted(Message):
        """The cursor is on another row, or the rows changed under it."""

    class Selected(Message):
        """enter (or a click) on a row."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._files: Sequence[tuple[Path, Sequence[Diagnostic]]] = ()
        self._open: list[bool] = []
        self._rows: list[Row] = []
        self._cursor = 0
        self._empty = Text()
        # Makes a row's label: (file, None) for a file's row, (file, diagnostic) for a diagnostic's.
        self._label: Callable[[Path, Diagnostic | None], Text] = lambda path, diag: Text()

    # The rows ---------------------------------------------------------------------------------
    def show_files(
        self,
        files: Sequence[tuple[Path, Sequence[Diagnostic]]],
        label: Callable[[Path, Diagnostic | None], Text],
        empty: Text,
    ) -> None:
        """Show these files, in this order, each open; `empty` when there are none. The cursor goes
        to the first diagnostic."""
        self._files, self._label, self._empty = files, label, empty
        self._open = [True] * len(files)
        self._relayout()
        self._cursor = -1
        # From the top: the first file's row stays in sight above its first diagnostic (the pane
        # may not be laid out yet, and scrolling to line 1 in no height would hide it).
        self.scroll_home(animate=False, immediate=True)
        self.move_to(1 if files else 0, scroll=False)

    def _relayout(self) -> None:
        rows: list[Row] = []
        for f, (_, diags) in enumerate(self._files):
            rows.append((f, -1))
            if self._open[f]:
                rows.extend((f, d) for d in range(len(diags)))
        self._rows = rows
        self.forget_lines()
        self.virtual_size = Size(self.scrollable_content_region.width, max(len(rows), 1))
        self.refresh()

    @property
    def files(self) -> list[Path]:
        """The files shown, in order."""
        return [path for path, _ in self._files]

    @property
    def last_line(self) -> int:
        return len(self._rows) - 1

    def row_data(self, line: int) -> Diagnostic | Path | None:
        """A line's own data: its file's path, or its diagnostic."""
        if not 0 <= line < len(self._rows):
            return None
        f, d = self._rows[line]
        path, diags = self._files[f]
        return path if d < 0 else diags[d]

    @property
    def cursor_data(self) -> Diagnostic | Path | None:
        return self.row_data(self._cursor)

    @property
    def current(self) -> Diagnostic | None:
        """The diagnostic under the cursor; on a file's row, the file's first."""
        if not 0 <= self._cursor < len(self._rows):
            return None
        f, d = self._rows[self._cursor]
        diags = self._files[f][1]
        return diags[max(d, 0)] if diags else None

    # Moving ---------------------------------------------------------------------------------
    def _moved(self, old: int) -> None:
        if old != self._cursor:
            self.post_message(self.Highlighted())

    @property
    def line_count(self) -> int:
        return len(self._rows)

    def action_select(self) -> None:
        if self._rows:
            self.post_message(self.Selected())

    def _set_open(self, is_open: bool | None) -> None:
        """Open, close or (None) toggle the file of the cursor's row; the cursor stays on its row,
        or goes to its file's when its row is hidden."""
        if not self._rows:
            return
        f, d = self._rows[self._cursor]
        want = not self._open[f] if is_open is None else is_open
        if want == self._open[f]:
            return
        self._open[f] = want
        self._relayout()
        self._cursor = -1
        self.move_to(self._rows.index((f, d)) if (f, d) in self._rows else self._rows.index((f, -1)))

    def action_toggle_file(self) -> None:
        self._set_open(None)

    def action_open_file(self) -> None:
        self._set_open(True)

    def action_close_file(self) -> None:
        self._set_open(False)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        line = offset.y + int(self.scroll_offset.y)
        if 0 <= line < len(self._rows):
            self.move_to(line, scroll=False)
            self.post_message(self.Selected())

    # Drawing ----------------------------------------------------------------------------------
    def row_text(self, line: int, fit: bool = True) -> Text:
        """A line's text as drawn, before the cursor's style, fitted to the width (or whole)."""
        if not self._rows:
            return self._empty.copy() if line == 0 else Text()
        if not 0 <= line < len(self._rows):
            return Text()
        f, d = self._rows[line]
        path, diags = self._files[f]
        if d < 0:
            text = Text("▼ " if self._open[f] else "▶ ") + self._label(path, None)
        else:
            guides = self.get_component_rich_style("diagnostics--guides", partial=True)
            # A span, not the Text's base style: the label after it keeps its own colours.
            text = Text.assemble(("└ " if d == len(diags) - 1 else "├ ", guides), self._label(path, diags[d]))
        room = self.scrollable_content_region.width
        if fit and room and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    @property
    def drawn_lines(self) -> int:
        return max(len(self._rows), 1)  # an empty view says so on its first line

    def line_look(self, line: int) -> LineLook:
        cursor = self.get_component_rich_style("diagnostics--cursor", partial=True) if line == self._cursor else None
        return self.get_component_rich_style("diagnostics--guides", partial=True), cursor

    def line_text(self, line: int, look: LineLook) -> Text:
        text = self.row_text(line)
        cursor = look[1]
        if cursor is not None and self._rows:
            # As Textual's Tree drew it: the label under the cursor, not the guide before it.
            text.stylize(cursor, 0 if self._rows[line][1] < 0 else 2)
        return text

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, max(len(self._rows), 1))
