"""Keys as the app shows them: one spelling per key, rows merged by action, a modal's key line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

# The app's own keys (tui/app.py), from any focus on the main screen.
APP_BINDINGS: list[BindingType] = [
    Binding("q", "quit", "Quit", id="app.quit"),
    Binding("slash", "search", "Search", key_display="/", id="app.search"),
    Binding("r", "reload", "Reload", id="app.reload"),
    Binding("e", "edit", "Edit", id="app.edit"),
    Binding("c", "copy_path", "Copy path", id="app.copy_path"),
    Binding("w", "why", "Why: trace the selected skill", show=False, id="app.why"),
    Binding("A", "agent", "Agent", id="app.agent"),
    Binding("question_mark", "help", "Keys", key_display="?", id="app.help"),
    Binding("1", "pane('tiers')", "Tiers pane", show=False, id="app.pane.tiers"),
    Binding("2", "pane('details')", "Details pane", show=False, id="app.pane.details"),
    Binding("3", "pane('diagnostics')", "Diagnostics pane", show=False, id="app.pane.diagnostics"),
    Binding("4", "pane('listing')", "Listing pane", show=False, id="app.pane.listing"),
    Binding("5", "pane('rules')", "Rules pane", show=False, id="app.pane.rules"),
    Binding("6", "pane('conversation')", "Conversation pane", show=False, id="app.pane.conversation"),
    Binding("7", "pane('evals')", "Evals pane", show=False, id="app.pane.evals"),
    # The conversation's keys are the app's, so that they work from any focus (the composer,
    # where enter on a skill leaves it, or the tree); check_action shows each only where it applies.
    Binding("escape", "cancel_run", "Cancel run", id="app.cancel_run"),
    Binding("ctrl+t", "toggle_meta", "Show sent prompt", id="app.toggle_meta"),
    Binding("ctrl+r", "retry", "Retry", id="app.retry"),
    Binding("ctrl+n", "new_conversation", "New conversation", show=False, id="app.new_conversation"),
]


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


def key_rows(bindings: Sequence[BindingType]) -> list[tuple[str, str]]:
    """(keys, description) rows, merging bindings that share an action."""
    rows: dict[str, list[str]] = {}
    descriptions: dict[str, str] = {}
    for binding in Binding.make_bindings(bindings):
        if not binding.description:
            continue
        key = key_name(binding)
        rows.setdefault(binding.action, []).append(key)
        descriptions.setdefault(binding.action, binding.description)
    return [(" ".join(keys), descriptions[action]) for action, keys in rows.items()]
