"""The app's run keys (enter, f, a, escape, ctrl+n, ctrl+t, ctrl+r): the conversation pane's
session does the runs. A run is always Claude Code's: when the panes show another agent's view
(tui/lens.py), the selected skill runs as Claude Code loads the same file, or not at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from textual.widgets import TabbedContent

from engine import Catalog, Skill

from .conversation.pane import ConversationPane
from .conversation.session import RunSession
from .screens.arguments import ArgumentsScreen


class RunHost(Protocol):
    """What the run keys need of the app."""

    @property
    def session(self) -> RunSession: ...
    @property
    def conversation(self) -> ConversationPane: ...
    @property
    def panes(self) -> TabbedContent: ...
    @property
    def runs_catalog(self) -> Catalog | None: ...
    def _current(self) -> tuple[Skill | None, object]: ...
    def _run(self, fork: bool | None, args: str = "") -> None: ...
    def notify(self, message: str, *, title: str = "", severity: Any = "information") -> None: ...
    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...
    def call_after_refresh(self, callback: Any) -> bool: ...
    def query_one(self, selector: str) -> Any: ...


def claude_codes(app: RunHost, skill: Skill | None, shadow: object) -> tuple[Skill | None, object]:
    """The selected skill as Claude Code loads it: itself in Claude Code's view; in another
    agent's, Claude Code's skill at the same file (None when Claude Code does not load it)."""
    runs = app.runs_catalog
    if skill is None or runs is None or runs.skills.get(skill.name) is skill or any(s.skill is skill for s in runs.shadowed):
        return skill, shadow  # Claude Code's own (a shadowed one says which skill runs instead)
    same = next((s for s in runs.skills.values() if s.path == skill.path), None)
    return same, None


class RunActions:
    def _run(self: RunHost, fork: bool | None, args: str = "") -> None:
        skill, shadow = claude_codes(self, *self._current())
        if skill is None:
            self.notify("Select a skill Claude Code loads in the tiers tree first", severity="warning")
        elif self.session.run_skill(skill, shadow, fork, args):
            # What the user types next is for the conversation.
            self.panes.active = "conversation"
            self.call_after_refresh(self.query_one("#composer").focus)

    def action_run_inline(self: RunHost) -> None:
        # As Claude Code runs a typed /name: inline, unless the skill says context: fork.
        self._run(None)

    def action_run_fork(self: RunHost) -> None:
        self._run(True)

    def action_run_with_args(self: RunHost) -> None:
        skill, _ = claude_codes(self, *self._current())
        if skill is None:
            self.notify("Select a skill Claude Code loads in the tiers tree first", severity="warning")
            return
        self.push_screen(ArgumentsScreen(skill), lambda args: None if args is None else self._run(None, args))

    def action_cancel_run(self: RunHost) -> None:
        self.session.cancel()

    def action_new_conversation(self: RunHost) -> None:
        self.session.new()

    def resume_session(self: RunHost, path: Path | None = None) -> None:
        """Reopen a saved conversation (the latest when none is named) and continue it."""
        self.session.resume(path, then=lambda: setattr(self.panes, "active", "conversation"))

    def action_toggle_meta(self: RunHost) -> None:
        self.conversation.action_toggle_meta()

    def action_retry(self: RunHost) -> None:
        self.conversation.action_retry()
