"""`w`: why the selected skill (or the file a diagnostic names) does or does not reach the model.

The trace is the one `skilldeck why` prints (engine.trace_why), drawn with the same table. It is
computed in a thread worker (it stats files and reads the settings), then shown in this modal.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import Permissions, Why, trace_why

from ..cli.why import trace_table
from ..deck import Deck
from ..view import CatalogView


class WhyScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    WhyScreen {
        align: center middle;
    }
    #why-box {
        width: 90%;
        max-width: 140;
        height: auto;
        max-height: 90%;
        border: round $accent;
        background: $surface;
        padding: 1 2;
    }
    #why-hint {
        padding: 1 0 0 0;
        color: $text-muted;
    }
    """
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="why.close"),
        Binding("w", "dismiss", "Close", show=False, id="why.close2"),
        Binding("q", "dismiss", "Close", show=False, id="why.close3"),
    ]

    def __init__(self, result: Why) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="why-box"):
            yield Static(trace_table(self.result), id="why-trace")
            yield Static("escape closes · skilldeck why PATH|NAME prints the same trace", id="why-hint", markup=False)


def open_why(deck: Deck, node: DOMNode, view: CatalogView | None, target: Path | None, permissions: Permissions | None) -> None:
    """Trace `target` (the file the user means) in a thread of `node`, then show it; the UI
    thread reads no file."""
    if view is None or target is None:
        node.app.notify("Nothing selected" if view is not None else "Still loading…", severity="warning", title="Why")
        return
    workspace = deck.workspace

    def work() -> None:
        result = trace_why(workspace, view.catalog, str(target), listing=view.listing, permissions=permissions, kind="path")
        node.app.call_from_thread(node.app.push_screen, WhyScreen(result))

    # A failure (a skilldeck bug) is a toast and a log line, never an exit (tui/workers.py).
    deck.start(node, work, f"Tracing {target}", thread=True, exclusive=True, group="why", name="why")
