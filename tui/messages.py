"""Messages the engine adapter posts into the app. Each carries an immutable snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.segment import Segment
from textual.message import Message

from engine import Catalog, CatalogDiff, Permissions

from .view import CatalogView


class LoadProgress(Message):
    """Posted from the loading thread every few hundred files."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class CatalogLoaded(Message):
    """A new catalog snapshot is ready; widgets re-project it. `change` is set when it
    comes from the watcher (what changed on disk). `runs` is Claude Code's catalog, which runs use
    when the panes show another agent's view (tui/lens.py)."""

    def __init__(
        self, view: CatalogView, elapsed_ms: float, reload: bool, change: CatalogDiff | None = None, runs: Catalog | None = None
    ) -> None:
        super().__init__()
        self.view = view
        self.runs = runs if runs is not None else view.catalog
        self.elapsed_ms = elapsed_ms
        self.reload = reload
        self.change = change


class CatalogArriving(Message):
    """A snapshot of the first load while it still reads (`view.catalog.reading` says how far):
    the tiers show the skills read so far; the other panes wait for the whole catalog."""

    def __init__(self, view: CatalogView) -> None:
        super().__init__()
        self.view = view


class BodyLoaded(Message):
    """The body of a skill (or why it cannot be read) as the Markdown shown, its rows rendered at
    `width`, and the folder's other files: read in a thread after the cursor settled."""

    def __init__(self, path: object, source: str, rows: Sequence[list[Segment]], width: int, files: list[str]) -> None:
        super().__init__()
        self.path = path
        self.source = source
        self.rows = rows
        self.width = width
        self.files = files


class JumpToSkill(Message):
    """Select a skill (by file path, so shadowed skills can be reached too) and show it."""

    def __init__(self, path: object) -> None:
        super().__init__()
        self.path = path


class PermissionsLoaded(Message):
    """The settings files, read in a thread, ready to decide."""

    def __init__(self, permissions: Permissions) -> None:
        super().__init__()
        self.permissions = permissions


class Notice(NamedTuple):
    """A notification as the app showed it (`SkilldeckApp.notices` keeps the latest): what tests
    and the help screen can read without Textual's private toast list."""

    title: str
    message: str
    severity: str
