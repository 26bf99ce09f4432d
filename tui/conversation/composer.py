"""The conversation's message box."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.widgets import Input

# Messages kept for `up`: more than a session types.
HISTORY = 200


class Composer(Input):
    """The message box. It takes every printable key (1..6, q), so it says how to leave it. `up`
    and `down` go through what was sent before, `pageup` and `pagedown` scroll the conversation
    above it (as in Claude Code's prompt)."""

    BINDINGS = [
        Binding("escape", "leave", "Leave", key_display="tab/esc", id="composer.leave"),
        Binding("up", "history(-1)", "Earlier message", show=False, id="composer.earlier"),
        Binding("down", "history(1)", "Later message", show=False, id="composer.later"),
        Binding("pageup", "scroll_log(-1)", "Scroll up", show=False, id="composer.pageup"),
        Binding("pagedown", "scroll_log(1)", "Scroll down", show=False, id="composer.pagedown"),
    ]

    def __init__(self, running: Callable[[], bool], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._run_going = running
        self.history: list[str] = []
        # Where `up` has got to in the history (None: at the message being typed, kept in `_draft`).
        self._at: int | None = None
        self._draft = ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While a run is going, escape is the app's: it cancels the run (the waiting line says so).
        return not (action == "leave" and self._run_going())

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # Textual gives `slash` no character, so the footer went on offering `/ Search`, which types `/` here.
        return key == "slash" or super().check_consume_key(key, character)

    def action_leave(self) -> None:
        self.screen.query_one("#conversation-log").focus()

    def remember(self, text: str) -> None:
        """A message sent: the newest `up` brings back."""
        if not self.history or self.history[-1] != text:
            self.history = [*self.history[-(HISTORY - 1) :], text]
        self._at = None

    def action_history(self, step: int) -> None:
        if not self.history or (self._at is None and step > 0):
            return
        if self._at is None:
            self._draft, self._at = self.value, len(self.history)
        self._at = max(0, self._at + step)
        if self._at >= len(self.history):
            self._at, self.value = None, self._draft
        else:
            self.value = self.history[self._at]
        self.cursor_position = len(self.value)

    def action_scroll_log(self, pages: int) -> None:
        log = self.screen.query_one("#conversation-log")
        (log.scroll_page_down if pages > 0 else log.scroll_page_up)()
