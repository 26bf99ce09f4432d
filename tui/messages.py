"""Messages the engine adapter posts into the app. Each carries an immutable snapshot."""

from __future__ import annotations

from typing import NamedTuple

from textual.message import Message

from engine import CatalogDiff, Permissions

from .view import CatalogView


class LoadProgress(Message):
    """Posted from the loading thread every few hundred files."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class CatalogLoaded(Message):
    """A new catalog snapshot is ready; widgets re-project it. `change` is set when it
    comes from the watcher (what changed on disk)."""

    def __init__(self, view: CatalogView, elapsed_ms: float, reload: bool, change: CatalogDiff | None = None) -> None:
        super().__init__()
        self.view = view
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
    """The body and folder listing of a skill, read in a thread after the cursor settled."""

    def __init__(self, path: object, body: str, files: list[str], error: str | None) -> None:
        super().__init__()
        self.path = path
        self.body = body
        self.files = files
        self.error = error


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
