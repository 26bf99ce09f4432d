"""Keys as the app shows them: one spelling per key, rows merged by action, a modal's key line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static


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
