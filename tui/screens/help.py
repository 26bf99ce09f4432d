"""`?`: every key of the app and of its panes, from their bindings (so it cannot drift)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..evals.pane import EvalsPane
from ..keys import key_rows, keys_line
from ..rules.pane import RulesPane
from ..widgets.diagnostics import DiagnosticsPane
from ..widgets.listing import ListingPane
from ..widgets.navigation import VIM_BINDINGS
from ..widgets.tiers import TiersTree
from .approve import ApproveScreen


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, key_display="?", id="help.close2"),
        Binding("q", "dismiss", "Close", show=False, id="help.close3"),
        # Not in the key line (it says how to leave): the list scrolls as every list does.
        Binding("j,down", "scroll_help(1)", "", show=False, id="help.down"),
        Binding("k,up", "scroll_help(-1)", "", show=False, id="help.up"),
    ]

    def action_scroll_help(self, lines: int) -> None:
        box = self.query_one("#help-box", VerticalScroll)
        (box.scroll_down if lines > 0 else box.scroll_up)()

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for title, rows in self.sections:
            table.add_row(f"[bold]{title}[/]", "")
            for keys, description in rows:
                table.add_row(keys, description)
            table.add_row("", "")
        with VerticalScroll(id="help-box"):
            yield Static("[b]skilldeck keys[/b]   [dim]escape closes[/]", id="help-title")
            yield Static(table)
        yield keys_line(self.BINDINGS)  # type: ignore[arg-type]


def key_sections(app_bindings: Sequence[Binding | tuple[str, ...]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The `?` list: the app's own keys (`app_bindings`) and each pane's, from their bindings, so
    that it says what the code does."""
    conversation = ("toggle_meta", "retry", "cancel_run", "new_conversation")
    anywhere = [b for b in app_bindings if isinstance(b, Binding) and b.action not in conversation]
    talking = [b for b in app_bindings if isinstance(b, Binding) and b.action in conversation]
    move = [*key_rows(VIM_BINDINGS), ("up down", "Move")]
    sections = [
        ("Anywhere", [*key_rows(anywhere), ("ctrl+p", "Command palette: go to skill, reload, theme"), ("tab", "Next pane")]),
        (
            "Tiers tree",
            [
                *move,
                ("enter", "Run the selected skill (forked if it says context: fork), or open a tier; a click only selects"),
                ("space left right", "Open or close the tier"),
                *key_rows([b for b in TiersTree.BINDINGS if isinstance(b, Binding) and (b.id or "").startswith("tiers.")]),
            ],
        ),
        (
            "Diagnostics pane",
            [
                *move,
                ("enter", "Go to the diagnostic's skill"),
                *key_rows(DiagnosticsPane.BINDINGS),
                ("e", "Open the file at the diagnostic's line"),
            ],
        ),
        ("Details pane", [("j k", "Scroll (as the arrows, pageup and pagedown do)")]),
        ("Listing pane", [("up down pageup pagedown", "Scroll"), *key_rows(ListingPane.BINDINGS)]),
        ("Rules pane", [*move, *key_rows(RulesPane.BINDINGS), ("e", "Open the rule's settings file")]),
        (
            "Conversation tab",
            [
                *key_rows(talking),
                ("enter", "In the composer: send the message, or /name args"),
                ("right", "In the composer: complete the skill name"),
                ("up down", "In the composer: the messages sent before"),
                ("pageup pagedown", "In the composer: scroll the conversation"),
                ("tab escape", "Leave the composer (escape cancels the run instead while one is going)"),
                ("up down pageup pagedown", "Out of the composer: scroll the conversation"),
            ],
        ),
        (
            "Evals tab",
            [
                *key_rows([b for b in EvalsPane.BINDINGS if isinstance(b, Binding)]),
                ("up down", "Move through the requests"),
                ("enter", "The request's detail: what was sent, what the model answered"),
            ],
        ),
        ("Approval", key_rows(ApproveScreen.BINDINGS)),
        (
            "Search",
            [
                ("type", "Narrow the ranked results"),
                ("up down", "Move"),
                ("enter", "Go to the skill"),
                ("escape", "Close search"),
            ],
        ),
    ]
    return sections
