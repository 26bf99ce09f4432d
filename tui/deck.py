"""What the app's parts share, handed to each when it is made: no part reaches back into the App.

A pane that reads files or runs a model owns the workers that do it (they die with the pane);
`Deck.start` starts them under the one error policy (tui/workers.py) with the workspace's state
folder for the error log.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker

from engine import CatalogDiff, Workspace, printable

from . import workers
from .lens import AgentBook
from .usage import UsageBook
from .view import PathDisplay


@dataclass
class PluginBoard:
    """The plugin doctor's errors and warnings per plugin name (the Diagnostics pane's worker finds
    them after each load; the tiers pane marks each plugin's tier line with them)."""

    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def post(self, found: dict[str, tuple[int, int]]) -> None:
        if found != self.counts:
            self.counts = found
            for listener in list(self.listeners):
                listener()


@dataclass(frozen=True)
class Deck:
    workspace: Workspace
    # How a path is shown (relative to the project, `~` for the home folder).
    paths: PathDisplay
    # Snapshots and screenshots turn the cursor blink off so that two runs draw the same.
    blink: bool = True
    # Settings files the app itself is writing (a rule, "allow always"), until the watcher's change
    # for them arrives: that change was already said by whoever wrote them.
    written: set[str] = field(default_factory=set, compare=False)
    # What the transcripts say of each skill's use, read once (tui/usage.py).
    usage: UsageBook = field(default_factory=UsageBook, compare=False)
    doctor: PluginBoard = field(default_factory=PluginBoard, compare=False)
    # Whose view the panes show, and every agent's verdict on each skill (tui/lens.py).
    agents: AgentBook = field(default_factory=AgentBook, compare=False)

    def note_written(self, path: Path) -> None:
        self.written.add(str(path))

    def own_change(self, change: CatalogDiff) -> bool:
        """Whether all a change from disk holds is settings files the app wrote itself (then
        forgotten: a later change of the same file is someone else's, and said)."""
        mine = set(change.settings) & self.written
        self.written.difference_update(mine)
        skills = change.added or change.removed or change.changed or change.diagnostics_added or change.diagnostics_cleared
        return bool(mine) and not skills and set(change.settings) == mine

    def where(self) -> str:
        """The app's subtitle: the project, or the marketplace previewed (every pane's skills are its)."""
        market = self.workspace.locations.marketplace
        lens = "" if self.agents.key == "claude-code" else f" · as {self.agents.title} sees it"
        if market is None:
            return printable(self.paths(self.workspace.locations.project)) + lens
        return printable(f"PREVIEW of the marketplace {self.paths(market)}: nothing here is installed")

    def refused_in_preview(self, node: DOMNode, what: str) -> bool:
        """True, having said so, in a `--marketplace` preview: nothing of it runs (not a skill,
        not a model, not Claude Code), since none of it is installed."""
        if self.workspace.locations.marketplace is None:
            return False
        node.app.notify(
            f"A preview (--marketplace): {what} only once the plugin is installed "
            "(claude plugin marketplace add DIR, then claude plugin install NAME@MARKETPLACE)",
            title="Preview",
            severity="warning",
        )
        return True

    def start(
        self,
        node: DOMNode,
        work: Callable[[], Any] | Callable[[], Awaitable[Any]] | Awaitable[Any],
        what: str,
        *,
        thread: bool = False,
        **options: Any,
    ) -> Worker[Any]:
        """A worker owned by `node`: a failure is a message naming `what`, never an exit."""
        return workers.start(node, work, what=what, environ=self.workspace.locations.environ, thread=thread, **options)
