"""The conversation's message box."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.widgets import Input


class Composer(Input):
    """The message box. It takes every printable key (1..6, q), so it says how to leave it."""

    BINDINGS = [Binding("escape", "leave", "Leave", key_display="tab/esc", id="composer.leave")]

    def __init__(self, running: Callable[[], bool], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._run_going = running

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a run is going, escape is the app's: it cancels the run (the waiting line says so).
        return not (action == "leave" and self._run_going())

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # Textual gives `slash` no character, so the footer went on offering `/ Search`, which types `/` here.
        return key == "slash" or super().check_consume_key(key, character)

    def action_leave(self) -> None:
        self.screen.query_one("#conversation-log").focus()
