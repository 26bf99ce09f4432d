"""`w`: why the selected skill (or the file a diagnostic names) does or does not reach the model.

The trace is the one `skilldeck why` prints (engine.trace_why), drawn with the same table. It is
computed in a thread worker (it stats files and reads the settings), then shown in this modal.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import Why, trace_why

from ..cli_why import trace_table
from ..widgets.diagnostics import DiagnosticsTree

if TYPE_CHECKING:
    from ..app import SkilldeckApp


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


def why_target(app: SkilldeckApp) -> Path | None:
    """The file the user means: the focused diagnostic's, else the selected skill's (a rule's
    settings file is no skill file, so the rules pane traces the selected skill too)."""
    focused = app.focused
    if isinstance(focused, DiagnosticsTree) and focused.current is not None:
        return focused.current.path
    skill, _ = app._current()
    return skill.path if skill is not None else None


def open_why(app: SkilldeckApp) -> None:
    """Trace the target in a thread, then show it; the UI thread reads no file."""
    view = app.view
    target = why_target(app) if view is not None else None
    if view is None or target is None:
        app.notify("Nothing selected" if view is not None else "Still loading…", severity="warning", title="Why")
        return
    workspace, permissions = app.workspace, app.permissions

    def work() -> None:
        result = trace_why(workspace, view.catalog, str(target), listing=view.listing, permissions=permissions, kind="path")
        app.call_from_thread(app.push_screen, WhyScreen(result))

    # A failure (a skilldeck bug) is a toast and a log line, never an exit (tui/workers.py).
    app.start_worker(work, f"Tracing {target}", thread=True, exclusive=True, group="why", name="why")
