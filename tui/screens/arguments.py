"""Asking for a skill's arguments before running it (`a` on a skill)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from engine import Skill


class ArgumentsScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="arguments.cancel")]

    def __init__(self, skill: Skill) -> None:
        super().__init__()
        self.skill = skill

    def compose(self) -> ComposeResult:
        with Vertical(id="arguments-box"):
            yield Static(Text.assemble(("/" + self.skill.name, "bold"), ("  arguments", "dim")))
            if self.skill.argument_hint:
                yield Static(Text(f"hint: {self.skill.argument_hint}", "cyan"))
            if self.skill.arguments:
                yield Static(Text("named: " + "  ".join(f"${n} = word {i}" for i, n in enumerate(self.skill.arguments)), "dim"))
            yield Input(placeholder=self.skill.argument_hint or "arguments", id="arguments-input")
            yield Static(Text("enter: run · escape: cancel", "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
