"""The listing the model receives, the budget it uses, and whose descriptions were dropped."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import ProgressBar, Static

from engine import OWN_SKILLS_NOTE, Listing, printable


class ListingPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(id="listing-summary")
        yield ProgressBar(id="listing-bar", show_eta=False)
        yield Static(id="listing-trimmed")
        yield Static(id="listing-own")
        yield Static(id="listing-text")

    def show_listing(self, listing: Listing) -> None:
        over = listing.wanted > listing.budget
        summary = Text.assemble(
            ("What the model is told about skills  ", "bold"),
            (f"{len(listing.entries)} skills, {listing.used:,} of {listing.budget:,g} characters", "red" if over else "green"),
            (f"  ({listing.budget_source})" if listing.budget_source else "", "dim"),
        )
        self.query_one("#listing-summary", Static).update(summary)
        self.query_one("#listing-bar", ProgressBar).update(
            total=max(listing.budget, 1), progress=min(listing.used, listing.budget)
        )
        trimmed = listing.trimmed
        note = self.query_one("#listing-trimmed", Static)
        if trimmed:
            note.update(
                Text.assemble(
                    (f"{len(trimmed)} descriptions dropped to fit ({listing.wanted:,} characters wanted): ", "yellow"),
                    printable(", ".join(trimmed)),
                )
            )
        else:
            note.update(Text("Every description fits.", "dim"))
        left_out = listing.left_out or {}
        own = "" if listing.own_counted else OWN_SKILLS_NOTE
        if left_out:
            own = f"{len(left_out)} skills not listed (disable-model-invocation, skillOverrides, skilldeck's own). " + own
        self.query_one("#listing-own", Static).update(Text(own, "dim"))
        # The exact listing, but a control in a description is shown (^[), not sent to the terminal.
        shown = printable(listing.text)
        text = Text(shown)
        text.stylize("bold", 0, len(shown.split("\n", 1)[0]))
        self.query_one("#listing-text", Static).update(text)
