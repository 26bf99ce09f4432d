"""The right-hand tabs: which pane each holds, and their labels at every width."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from .conversation.pane import ConversationPane
from .deck import Deck
from .evals.pane import EvalRequests, EvalsPane
from .rules.pane import RulesPane, RulesTree
from .widgets.details import DetailsKeys, SkillDetails
from .widgets.diagnostics import DiagnosticsPane
from .widgets.diagnostics_tree import DiagnosticsTree
from .widgets.listing import ListingKeys, ListingPane
from .widgets.pane_keys import PaneKeysScreen

# Each tab's label, and the shorter one used below NARROW columns (at 80 the long ones were cut to `6 C`).
TAB_LABELS = {
    "details": ("2 Details", "2 Details"),
    "diagnostics": ("3 Diagnostics", "3 Diags"),
    "listing": ("4 Listing", "4 List"),
    "rules": ("5 Rules", "5 Rules"),
    "conversation": ("6 Conversation", "6 Chat"),
    "evals": ("7 Evals", "7 Evals"),
}
NARROW = 110

# What a tab's key focuses in it (the conversation's depends on whether a run is going: the app's).
FOCUS_IN: dict[str, type[Widget]] = {
    "details": DetailsKeys,  # in the details pane: its scrolling keys apply
    "diagnostics": DiagnosticsTree,
    "listing": ListingKeys,  # in the listing pane: its keys apply
    "rules": RulesTree,
    "evals": EvalRequests,
}


def compose_tabs(deck: Deck, backend: str | None, model: str | None) -> ComposeResult:
    with TabbedContent(id="panes", initial="details"):
        with TabPane(TAB_LABELS["details"][0], id="details"):
            yield SkillDetails(deck, id="details-pane")
        with TabPane(TAB_LABELS["diagnostics"][0], id="diagnostics"):
            yield DiagnosticsPane(deck, id="diagnostics-pane")
        with TabPane(TAB_LABELS["listing"][0], id="listing"):
            yield ListingPane(deck, id="listing-pane")
        with TabPane(TAB_LABELS["rules"][0], id="rules"):
            yield RulesPane(deck, id="rules-pane")
        with TabPane(TAB_LABELS["conversation"][0], id="conversation"):
            yield ConversationPane(deck, backend, model, id="conversation-pane")
        with TabPane(TAB_LABELS["evals"][0], id="evals"):
            yield EvalsPane(deck, backend, model, id="evals-pane")


def relabel(tabs: TabbedContent, width: int) -> None:
    for pane, (label, short) in TAB_LABELS.items():
        tabs.get_tab(pane).label = short if width < NARROW else label


class PanesApp(App[None]):
    """An app whose screen draws what a pane key changes, not the whole screen (widgets/pane_keys.py)."""

    def get_default_screen(self) -> Screen[Any]:
        return PaneKeysScreen(id="_default")
