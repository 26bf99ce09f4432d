"""`/` search: an input and the ranked results, narrowing as you type, the highlighted one
previewed in the details pane once the keys rest.

Names, labels and descriptions come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import Input

from engine import printable

from ..search import Result, SearchIndex
from .strips import LineWidget, text_strip
from .tiers import TiersTree

# More than a tall terminal shows; ranking more only slows each keystroke.
RESULTS_SHOWN = 200
# Lines per result: the name and where it comes from, then the description on a line of its own
# (on one line a plugin's label left about ten characters of it).
ROW_LINES = 2
# The highlighted result is previewed once the keys rest this long, so typing stays one repaint
# of the results (the preview redraws the details and reads the body).
PREVIEW_DELAY_S = 0.15


def result_label(result: Result) -> Text:
    skill = result.skill
    label = Text(printable(skill.name), "dim strike" if result.shadowed else "bold")
    label.append(f"  {printable(skill.source.label)}", "dim")
    if result.shadowed:
        label.append("  shadowed", "yellow")
    return label


def result_description(result: Result) -> Text:
    # Longer than any pane is wide; the line ends in an ellipsis where the pane does.
    return Text(f"  {printable(' '.join(result.skill.description.split())[:400])}", "dim")


class SearchInput(Input):
    """An Input whose virtual width does not follow its text. Textual's Input resizes its
    virtual width on every keystroke, and that forces a layout of the whole screen (tens of
    milliseconds with a long skill body on the right); a fixed width keeps a keystroke to
    repainting the input and the results."""

    @property
    def content_width(self) -> int:
        return max(1024, self.value_width)

    @property
    def value_width(self) -> int:
        return len(self.value) + 1


class ResultsList(LineWidget):
    """Two lines per result, drawn a line at a time and only for the rows on screen. A row's lines
    are kept by what they show (the skill, highlighted or not, the width): typing a letter that
    keeps most of the results draws only the new ones. (An OptionList wraps and measures every
    option on every keystroke; one Rich text of every row on screen took 6-20 ms a keystroke at
    15,000 skills.)"""

    highlighted: reactive[int] = reactive(0, repaint=False)

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.results: list[Result] = []
        self._first = 0

    def set_results(self, results: list[Result]) -> None:
        self.results = results
        self._first = 0
        self.highlighted = 0
        self.refresh()

    def move(self, step: int) -> None:
        if self.results:
            self.highlighted = max(0, min(len(self.results) - 1, self.highlighted + step))

    def watch_highlighted(self, old: int, new: int) -> None:
        if not self._follow():
            for index in (old, new):
                self.refresh(Region(0, (index - self._first) * ROW_LINES, self.size.width, ROW_LINES))

    def on_resize(self) -> None:
        self._follow()

    def _follow(self) -> bool:
        """Scroll so that the highlighted row is on screen; whether that moved the rows."""
        rows, lit = max(self.size.height // ROW_LINES, 1), self.highlighted
        first = min(self._first, lit) if lit < self._first + rows else lit - rows + 1
        if first == self._first:
            return False
        self._first = first
        self.refresh()
        return True

    def render_line(self, y: int) -> Strip:
        width, base = self.size.width, self.line_base
        if not self.results:
            if y:
                return Strip.blank(width, base)
            return self._drawn(Text("no match" if self.query_text else "type to search", "dim"), width, base)
        index, part = self._first + y // ROW_LINES, y % ROW_LINES
        if index >= len(self.results):
            return Strip.blank(width, base)
        result, lit = self.results[index], index == self.highlighted
        skill = result.skill
        # By what the row shows: a skill edited since (the same path) is drawn again.
        key = (skill.name, skill.source.label, skill.description, result.shadowed, part, lit, width, base)

        def draw() -> Strip:
            line = result_label(result) if part == 0 else result_description(result)
            if lit:
                line.stylize("reverse")
            return self._drawn(line, width, base)

        return self.kept_line(key, draw)

    def _drawn(self, line: Text, width: int, base: Style) -> Strip:
        line.truncate(width, overflow="ellipsis")
        return text_strip(line, self.app.console, width, base)

    @property
    def query_text(self) -> str:
        return getattr(self.parent, "query_text", "")

    def on_click(self, event: events.Click) -> None:
        index = self._first + event.y // ROW_LINES
        if 0 <= index < len(self.results):
            self.highlighted = index
            self.post_message(self.Clicked(index))


class SearchBox(Vertical):
    BINDINGS = [
        Binding("down", "move(1)", "Next result", show=False, id="search.next"),
        Binding("up", "move(-1)", "Previous result", show=False, id="search.previous"),
        Binding("escape", "close", "Close search", id="search.close"),
    ]

    class Picked(Message):
        def __init__(self, result: Result | None) -> None:
            super().__init__()
            self.result = result

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.index = SearchIndex(())
        self.query_text = ""
        self._preview_timer: Timer | None = None
        # Where the tiers tree's cursor was when search opened: escape puts it back there.
        self._origin: Path | int | None = None

    def compose(self) -> ComposeResult:
        yield SearchInput(placeholder="search names, descriptions, paths", id="search-input")
        yield ResultsList(id="search-results")

    @property
    def results(self) -> ResultsList:
        return self.query_one(ResultsList)

    def open(self, index: SearchIndex, blink: bool = True) -> None:
        self.index = index
        self.display = True
        field = self.query_one(Input)
        field.cursor_blink = blink
        field.value = ""
        # Closed with a query in it, the field kept its sideways scroll (one column when hidden at
        # width 0): opened again, `godot` showed as `odot`. An empty field starts at its left edge.
        field.scroll_to(x=0, animate=False, immediate=True)
        tree = self._tree
        data = tree.current if tree is not None else None
        self._origin = data.skill.path if data is not None and data.skill is not None else (tree.cursor_line if tree else None)
        self._show([])
        field.focus()

    @property
    def _tree(self) -> TiersTree | None:
        found = self.screen.query(TiersTree)
        return found.first() if found else None

    @on(Input.Changed, "#search-input")
    def _narrow(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self._show(self.index.search(event.value, limit=RESULTS_SHOWN))

    def _show(self, results: list[Result]) -> None:
        self.results.set_results(results)
        self._preview_later()

    def action_move(self, step: int) -> None:
        self.results.move(step)
        self._preview_later()

    def _preview_later(self) -> None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
        self._preview_timer = self.set_timer(PREVIEW_DELAY_S, self._preview)

    def _preview(self) -> None:
        """Show the highlighted result in the details pane: the hidden tiers tree's cursor moves
        to it, so the details, the rules pane and the body follow as for any selection."""
        results, tree = self.results, self._tree
        if not self.display or not results.results or tree is None:
            return
        tree.select_path(results.results[results.highlighted].skill.path)

    def _stop_preview(self) -> None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
            self._preview_timer = None

    @on(Input.Submitted, "#search-input")
    def _submit(self) -> None:
        self._stop_preview()
        results = self.results
        picked = results.results[results.highlighted] if results.results else None
        self.post_message(self.Picked(picked))

    @on(ResultsList.Clicked)
    def _clicked(self, message: ResultsList.Clicked) -> None:
        self._stop_preview()
        self.post_message(self.Picked(self.results.results[message.index]))

    def action_close(self) -> None:
        self._stop_preview()
        tree, origin = self._tree, self._origin
        if tree is not None and isinstance(origin, Path):
            tree.select_path(origin)
        elif tree is not None and isinstance(origin, int):
            tree.cursor_line = origin
        self.post_message(self.Picked(None))
