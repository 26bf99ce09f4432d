"""What the app's parts share, handed to each when it is made: no part reaches back into the App.

A pane that reads files or runs a model owns the workers that do it (they die with the pane);
`Deck.start` starts them under the one error policy (tui/workers.py) with the workspace's state
folder for the error log.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker

from engine import Workspace

from . import workers
from .view import PathDisplay


@dataclass(frozen=True)
class Deck:
    workspace: Workspace
    # How a path is shown (relative to the project, `~` for the home folder).
    paths: PathDisplay
    # Snapshots and screenshots turn the cursor blink off so that two runs draw the same.
    blink: bool = True

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
