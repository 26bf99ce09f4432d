"""Asking for a skill's arguments before running it (`a` on a skill).

The name, hint and argument names come from the skill's file: shown through `printable`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from engine import Skill, printable

from ..widgets.details import arguments_text


class ArgumentsScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="arguments.cancel")]

    def __init__(self, skill: Skill) -> None:
        super().__init__()
        self.skill = skill

    def compose(self) -> ComposeResult:
        skill, hint = self.skill, printable(self.skill.argument_hint or "")
        with Vertical(id="arguments-box"):
            yield Static(Text.assemble(("/" + printable(skill.name), "bold"), ("  arguments", "dim")))
            if hint:
                yield Static(Text(f"hint: {hint}", "cyan"))
            if skill.arguments:
                # As the details pane says it (`$target = word 1`): it said `word 0` here.
                yield Static(Text.assemble(("named: ", "dim"), arguments_text(skill)))
            yield Input(placeholder=hint or "arguments", id="arguments-input")
            yield Static(Text("enter: run · escape: cancel", "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
