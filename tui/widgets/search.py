"""`/` search: an input and the ranked results, narrowing as you type.

Names, labels and descriptions come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input

from engine import printable

from ..search import Result, SearchIndex

# More than a tall terminal shows; ranking more only slows each keystroke.
RESULTS_SHOWN = 200


def result_label(result: Result) -> Text:
    skill = result.skill
    label = Text(printable(skill.name), "dim strike" if result.shadowed else "bold")
    label.append(f"  {printable(skill.source.label)}", "dim")
    label.append(f"  {printable(' '.join(skill.description.split())[:160])}", "dim" if result.shadowed else "")
    return label


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


class ResultsList(Widget):
    """One line per result, drawn only for the rows on screen. (An OptionList wraps and
    measures every option on every keystroke, which costs tens of milliseconds.)"""

    highlighted: reactive[int] = reactive(0)

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

    def render(self) -> Text:
        height = max(self.size.height, 1)
        if not self.results:
            return Text("no match" if self.query_text else "type to search", "dim")
        if self.highlighted < self._first:
            self._first = self.highlighted
        elif self.highlighted >= self._first + height:
            self._first = self.highlighted - height + 1
        lines = []
        for i in range(self._first, min(len(self.results), self._first + height)):
            line = result_label(self.results[i])
            if i == self.highlighted:
                line.stylize("reverse")
            lines.append(line)
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out

    @property
    def query_text(self) -> str:
        return getattr(self.parent, "query_text", "")

    def on_click(self, event: events.Click) -> None:
        index = self._first + event.y
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
        self._show([])
        field.focus()

    @on(Input.Changed, "#search-input")
    def _narrow(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self._show(self.index.search(event.value, limit=RESULTS_SHOWN))

    def _show(self, results: list[Result]) -> None:
        self.results.set_results(results)

    def action_move(self, step: int) -> None:
        self.results.move(step)

    @on(Input.Submitted, "#search-input")
    def _submit(self) -> None:
        results = self.results
        picked = results.results[results.highlighted] if results.results else None
        self.post_message(self.Picked(picked))

    @on(ResultsList.Clicked)
    def _clicked(self, message: ResultsList.Clicked) -> None:
        self.post_message(self.Picked(self.results.results[message.index]))

    def action_close(self) -> None:
        self.post_message(self.Picked(None))
