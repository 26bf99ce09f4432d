"""The listing the model receives, the budget it uses, and whose descriptions were dropped."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import ProgressBar, Static

from engine import OWN_SKILLS_NOTE, Listing, printable

from ..view import count

# Names shown inline for the trimmed descriptions; the listing below holds them all.
SHOWN_NAMES = 40


def _not_listed(listing: Listing) -> Text:
    """What is not in the listing, grouped by why (a few reasons, whatever the catalog's size),
    and the note about Claude Code's own skills."""
    groups: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for name, reason in (listing.left_out or {}).items():
        groups[reason] += 1
        if len(shown := examples.setdefault(reason, [])) < 5:
            shown.append(name)
    text = Text()
    if groups:
        text.append(f"{count(sum(groups.values()), 'skill')} not listed:\n", "bold")
        for reason, times in groups.most_common():
            names = examples[reason]
            more = f", +{times - len(names)} more" if times > len(names) else ""
            text.append(f"  {times} × {reason}", "yellow")
            text.append(f"  ({printable(', '.join(names))}{more})\n", "dim")
    if not listing.own_counted:
        text.append(OWN_SKILLS_NOTE, "dim")
    return text


def budget_percent(listing: Listing) -> Text:
    """The share of the budget the listing takes, as it is: a ProgressBar's own label stops at
    100%, which read as "fits" for a listing at 141%."""
    share = round(100 * listing.used / max(listing.budget, 1))
    style = "bold red" if listing.used > listing.budget else "yellow" if listing.over else "green"
    text = Text(f"{share}% of the budget", style)
    if listing.over and listing.wanted != listing.used:
        text.append(f"  (every description: {round(100 * listing.wanted / max(listing.budget, 1))}%)", "dim")
    return text


class ListingPane(VerticalScroll):
    DEFAULT_CSS = """
    #listing-budget {
        height: auto;
    }
    #listing-budget ProgressBar {
        width: 1fr;
    }
    #listing-percent {
        width: auto;
        margin: 1 0 0 2;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="listing-summary")
        with Horizontal(id="listing-budget"):
            yield ProgressBar(id="listing-bar", show_eta=False, show_percentage=False)
            yield Static(id="listing-percent")
        yield Static(id="listing-trimmed")
        yield Static(id="listing-own")
        yield Static(id="listing-text")

    def show_listing(self, listing: Listing) -> None:
        over = listing.wanted > listing.budget
        size = f"{count(len(listing.entries), 'skill')}, {listing.used:,} of {listing.budget:,g} characters"
        summary = Text.assemble(
            ("What the model is told about skills  ", "bold"),
            (size, "red" if over else "green"),
            (f"  ({listing.budget_source})" if listing.budget_source else "", "dim"),
        )
        self.query_one("#listing-summary", Static).update(summary)
        self.query_one("#listing-bar", ProgressBar).update(
            total=max(listing.budget, 1), progress=min(listing.used, listing.budget)
        )
        self.query_one("#listing-percent", Static).update(budget_percent(listing))
        trimmed = listing.trimmed
        note = self.query_one("#listing-trimmed", Static)
        if trimmed:
            note.update(
                Text.assemble(
                    (f"{count(len(trimmed), 'description')} dropped to fit ({listing.wanted:,} characters wanted; ", "yellow"),
                    ("the most used keep theirs, then the first listed): ", "yellow"),
                    printable(", ".join(trimmed[:SHOWN_NAMES])),
                    (f", +{len(trimmed) - SHOWN_NAMES} more" if len(trimmed) > SHOWN_NAMES else "", "dim"),
                )
            )
        else:
            note.update(Text("Every description fits.", "dim"))
        self.query_one("#listing-own", Static).update(_not_listed(listing))
        # The exact listing, but a control in a description is shown (^[), not sent to the terminal.
        shown = printable(listing.text)
        text = Text(shown)
        text.stylize("bold", 0, len(shown.split("\n", 1)[0]))
        self.query_one("#listing-text", Static).update(text)
