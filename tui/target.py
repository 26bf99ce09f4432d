"""The file (and line) a key means, from what has focus: `e` opens it, `c` copies its path, `w`
traces it."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget

from engine import Skill

from .rules.pane import RulesTree
from .widgets.diagnostics_tree import DiagnosticsTree


def meant_file(focused: Widget | None, skill: Skill | None, settings: bool = True) -> tuple[Path, int] | None:
    """The focused diagnostic's file at its line, the focused rule's (or file line's) settings file (unless
    `settings` is False: `w` traces skill files only, so there the selected skill), else the
    selected skill's file."""
    if isinstance(focused, DiagnosticsTree) and focused.current is not None:
        diag = focused.current
        return diag.path, diag.line or 1
    if settings and isinstance(focused, RulesTree) and focused.current_file is not None:
        return focused.current_file, 1
    return (skill.path, 1) if skill is not None else None
