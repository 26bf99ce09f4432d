"""`?`: every key of the app and of its panes, from their bindings (so it cannot drift)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, key_display="?", id="help.close2"),
        Binding("q", "dismiss", "Close", show=False, id="help.close3"),
    ]

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for title, rows in self.sections:
            table.add_row(f"[bold]{title}[/]", "")
            for keys, description in rows:
                table.add_row(keys, description)
            table.add_row("", "")
        with VerticalScroll(id="help-box"):
            yield Static("[b]skilldeck keys[/b]   [dim]escape closes[/]", id="help-title")
            yield Static(table)
        yield keys_line(self.BINDINGS)  # type: ignore[arg-type]


def keys_line(bindings: list[Binding]) -> Static:
    """A modal's own keys, in the bottom row over the main screen's footer (whose keys mean other
    things there: `a` runs a skill with arguments, not "allow always"). A plain line, not a second
    Footer: one in a modal left the screen beneath it drawn as it was when the modal opened
    (a tab's underline mid-slide in one screenshot out of three)."""
    line = Text(" ")
    for keys, description in key_rows(bindings):
        line.append(f" {keys} ", "bold reverse")
        line.append(f" {description}  ")
    return Static(line, classes="modal-keys")


def key_name(binding: Binding) -> str:
    """A key as the README spells it (`escape`, `ctrl+n`, `/`), one spelling for every row: the
    footer's short forms (`esc`, `^n`) are for its narrow line only."""
    return binding.key_display or binding.key


def key_rows(bindings: list[Binding]) -> list[tuple[str, str]]:
    """(keys, description) rows, merging bindings that share an action."""
    rows: dict[str, list[str]] = {}
    descriptions: dict[str, str] = {}
    for binding in bindings:
        if not binding.description:
            continue
        key = key_name(binding)
        rows.setdefault(binding.action, []).append(key)
        descriptions.setdefault(binding.action, binding.description)
    return [(" ".join(keys), descriptions[action]) for action, keys in rows.items()]
