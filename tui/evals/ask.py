"""A one-line question in a modal (a skill's name, a number of characters): the what-if keys of
the listing pane ask with it. Returns the text, or None on escape."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static


class AskScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="ask.cancel")]

    def __init__(self, question: str, placeholder: str = "", suggestions: Sequence[str] = (), value: str = "") -> None:
        super().__init__()
        self.question, self.placeholder, self.value = question, placeholder, value
        # Completes a skill's name as it is typed (right arrow takes it).
        self.suggester = SuggestFromList(suggestions, case_sensitive=False) if suggestions else None

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-box"):
            yield Static(Text(self.question, "bold"))
            yield Input(self.value, placeholder=self.placeholder, suggester=self.suggester, id="ask-input")
            yield Static(Text("enter: go · right: complete · escape: cancel", "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
