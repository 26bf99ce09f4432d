"""The listing the model receives, the budget it uses, whose descriptions were dropped, (C) the
same listing as the user's own Claude Code sends it, compared line by line, and what-if questions
answered with no model (D disable a skill, S shorten a description, B set the budget: who gains or
loses a description, and who is next; T: what Claude Code adds after the model touches a file)."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from rich.console import Group
from rich.rule import Rule
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState

from engine import (
    OWN_SKILLS_NOTE,
    Catalog,
    Comparison,
    ComparisonCache,
    DisableSkill,
    Listing,
    RaiseBudget,
    ShortenDescription,
    WhatIf,
    listing_update,
    printable,
    what_if,
)

from ..compare_run import Attempt, Compared
from ..compare_view import Heading, Line, comparison_lines
from ..deck import Deck
from ..evals.ask import AskScreen
from ..lens import show_agent_listing
from ..usage import UNUSED_DAYS
from ..view import count
from .pane_keys import PaneKeys, focus_keys_on_click
from .textlines import TextLines

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
        if listing.own_stale:
            text.append(printable(listing.own_stale), "yellow")
        else:
            text.append(OWN_SKILLS_NOTE, "dim")
    elif listing.own_from:
        text.append(f"Claude Code's own skills counted as {printable(listing.own_from)} listed them (skilldeck compare)", "dim")
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


WhatIfChange = DisableSkill | ShortenDescription | RaiseBudget


def what_if_text(change: WhatIfChange, result: WhatIf) -> Text:
    """A what-if's answer: who gains or loses a description, who leaves the listing, who is next."""
    if isinstance(change, DisableSkill):
        asked = f"disable {change.skill}"
    elif isinstance(change, ShortenDescription):
        asked = f"shorten {change.skill} to {change.chars:,} characters"
    else:
        asked = f"a budget of {change.chars:,g} characters"
    text = Text.assemble(("What if: ", "bold"), (printable(asked), "bold cyan"), ("  (no model asked)\n", "dim"))

    def names(label: str, found: tuple[str, ...], style: str) -> None:
        text.append(f"  {label}: ", "bold")
        text.append(printable(", ".join(found)) if found else "nobody", style if found else "dim")
        text.append("\n")

    names("gain their description", result.gained, "green")
    names("lose their description", result.lost, "red")
    if result.removed or isinstance(change, DisableSkill):
        names("leave the listing", result.removed, "yellow")
    names("next to lose theirs", result.next_to_lose, "yellow")
    after = result.after
    headroom = result.headroom
    text.append("  budget: ", "bold")
    text.append(
        f"{after.used:,} of {after.budget:,g} characters, "
        + (f"{headroom:,g} to spare" if headroom >= 0 else f"{-headroom:,g} over"),
        "green" if headroom >= 0 else "red",
    )
    return text


class ListingKeys(PaneKeys):
    """What `4` focuses: the listing pane's keys (tui/widgets/pane_keys.py)."""


class ListingPane(VerticalScroll, can_focus=False):
    BINDINGS = [
        Binding("C", "compare", "Compare with Claude Code", id="listing.compare"),
        Binding("D", "what_if('disable')", "What if: disable a skill", id="listing.whatif.disable"),
        Binding("S", "what_if('shorten')", "What if: shorten a description", id="listing.whatif.shorten"),
        Binding("B", "what_if('budget')", "What if: set the budget", id="listing.whatif.budget"),
        Binding("T", "touch", "What if: the model touches a file", id="listing.whatif.touch"),
    ]
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
    #listing-compare, #listing-whatif {
        margin: 1 0;
    }
    """

    def __init__(self, deck: Deck, claude: str | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck = deck
        # The `claude` to run (`--claude PATH`); None finds it on the workspace's PATH.
        self.claude = claude
        # Kept until the listing changes: then cleared, and the result shown is marked stale.
        self.cache = ComparisonCache()
        self._listing: Listing | None = None
        # Which listing a comparison belongs to: it goes up each time the listing changes.
        self._generation = 0
        # The comparison running now, if any.
        self.attempt: Attempt | None = None
        self._worker: Worker[object] | None = None
        self._ticker: Timer | None = None
        self._result: Compared | None = None
        self._stale = False
        self._said: Text | None = None
        self.compare_lines: list[Line] = []
        # What the what-if keys change: the catalog the listing was made from.
        self.catalog: Catalog | None = None
        self.what_if_result: tuple[WhatIfChange, WhatIf] | None = None
        self.touched_said = ""

    def compose(self) -> ComposeResult:
        yield ListingKeys(id="listing-keys")
        yield Static(id="listing-summary")
        with Horizontal(id="listing-budget"):
            yield ProgressBar(id="listing-bar", show_eta=False, show_percentage=False)
            yield Static(id="listing-percent")
        yield Static(id="listing-whatif")
        yield Static(id="listing-compare")
        yield Static(id="listing-trimmed")
        yield Static(id="listing-own")
        yield TextLines(id="listing-text")

    def on_click(self, event: events.Click) -> None:
        focus_keys_on_click(self, event)

    def _usage_read(self) -> None:
        if self._listing is not None and self.is_attached:
            self.show_listing(self._listing)

    def on_mount(self) -> None:
        self.deck.usage.listeners.append(self._usage_read)
        self.query_one("#listing-compare", Static).display = False
        self.query_one("#listing-whatif", Static).display = False

    def show_listing(self, listing: Listing, catalog: Catalog | None = None) -> None:
        self.refresh_bindings()  # C and the what-ifs are Claude Code's alone (check_action)
        if listing.agent:  # another agent's block: its own summary, nothing of Claude Code's
            self._listing = listing
            return show_agent_listing(self, listing, self.deck.paths)
        if catalog is not None:
            self.catalog = catalog
        if self._listing is not None and listing.text != self._listing.text:
            # A comparison of the old listing says nothing sure of this one: kept, marked stale.
            self._generation += 1
            self.cache.clear()
            if self._result is not None and not self._stale:
                self._stale = True
                self._draw()
        self._listing = listing
        over = listing.wanted > listing.budget
        size = f"{count(len(listing.entries), 'skill')}, {listing.used:,} of {listing.budget:,g} characters"
        preview = self.deck.workspace.locations.marketplace is not None
        summary = Text.assemble(
            ("Preview: what installing these plugins would add to the listing  " if preview else "", "bold yellow"),
            ("" if preview else "What the model is told about skills  ", "bold"),
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
            # A skill that lost its text is rarely picked, so it stays unused, so nobody notices.
            unused = [name for name in trimmed if self.deck.usage.unused(name)]
            note.update(
                Text.assemble(
                    (f"{count(len(trimmed), 'description')} dropped to fit ({listing.wanted:,} characters wanted; ", "yellow"),
                    ("the most used keep theirs, then the first listed): ", "yellow"),
                    printable(", ".join(trimmed[:SHOWN_NAMES])),
                    (f", +{len(trimmed) - SHOWN_NAMES} more" if len(trimmed) > SHOWN_NAMES else "", "dim"),
                    (f"\nof these, not used in {UNUSED_DAYS} days: " if unused else "", "bold red"),
                    printable(", ".join(unused[:SHOWN_NAMES])),
                    (f", +{len(unused) - SHOWN_NAMES} more" if len(unused) > SHOWN_NAMES else "", "dim"),
                )
            )
        else:
            note.update(Text("Every description fits.", "dim"))
        self.query_one("#listing-own", Static).update(_not_listed(listing))
        # The exact listing, controls shown (^[), drawn a row at a time (15,000 skills: 365,000 characters).
        self.query_one("#listing-text", TextLines).set_lines(listing.text.split("\n"), first_style="bold")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in ("compare", "what_if", "touch") and self._listing is not None and self._listing.agent)

    # Comparing with Claude Code -------------------------------------------------------------
    @property
    def comparing(self) -> bool:
        return self._worker is not None

    @property
    def stale(self) -> bool:
        return self._stale

    def action_compare(self) -> None:
        """C: run the comparison; C while it runs cancels it."""
        if self._worker is not None:
            self._cancel()
            return
        if self.deck.refused_in_preview(self, "Claude Code can be compared with it"):
            return
        self.attempt = Attempt(self.claude, self.deck.workspace.locations, self.cache, self._generation)
        self._said = None
        self._worker = self.deck.start(
            self, self.attempt.wait, "Comparing with Claude Code", thread=True, exclusive=True, group="compare", name="compare"
        )
        self._ticker = self.set_interval(0.5, self._draw)
        self._draw()

    def _cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        self._stop()
        self._said = Text(
            "Cancelled: Claude Code was stopped and its scratch folder removed; C compares again.",
            "yellow",
        )
        self._draw()

    def _stop(self) -> None:
        self._worker = self.attempt = None
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def on_unmount(self) -> None:
        if self._usage_read in self.deck.usage.listeners:
            self.deck.usage.listeners.remove(self._usage_read)
        # The pane's workers go with it; the helper thread's result is dropped.
        if self._worker is not None:
            self._worker.cancel()
        self._stop()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._worker or event.state != WorkerState.SUCCESS:
            return
        attempt, outcome = self.attempt, event.worker.result
        self._stop()
        if isinstance(outcome, Compared) and attempt is not None:
            # A result for a listing that changed while it ran is shown stale, and not kept.
            if attempt.generation == self._generation:
                self.cache.put(outcome.key, outcome.comparison)
            self.show_comparison(outcome, stale=attempt.generation != self._generation)
            return
        if isinstance(outcome, str):
            if "--allow-network" in outcome:
                outcome += " (in a terminal: `skilldeck compare --allow-network`; the app never runs it unsealed)"
            self._said = Text(f"Cannot compare with Claude Code: {printable(outcome)}", "bold red")
            self.app.notify(f"Cannot compare with Claude Code: {outcome}", title="Compare", severity="error", timeout=10)
        else:
            # The error policy has shown what failed (a toast, the error log).
            self._said = Text("The comparison failed: see the error message.", "bold red")
        self._draw()

    def show_comparison(self, result: Compared | Comparison, stale: bool = False) -> None:
        """Show a comparison's rows and summary (a recorded one, in the snapshot and screenshot)."""
        self._result = result if isinstance(result, Compared) else Compared(("", "", ""), result)
        self._stale = stale
        self._said = None
        self._draw()

    def _draw(self) -> None:
        lines: list[Line] = []
        if self.attempt is not None:
            seconds = int(self.attempt.seconds())
            lines.append(Text(f"{printable(self.attempt.said)}… {seconds} s", "yellow"))
        elif self._said is not None:
            lines.append(self._said)
        if self._result is not None:
            if self._stale:
                lines.append(Text("stale: the catalog changed since; C to compare again", "bold yellow"))
            elif self._result.kept:
                lines.append(Text("kept from the last run: the listing has not changed since", "dim"))
            lines += comparison_lines(self._result.comparison, self.deck.paths, summary_first=True)
        self.compare_lines = lines
        target = self.query_one("#listing-compare", Static)
        target.display = bool(lines)
        drawn = [Rule(line.title, align="left", style="dim") if isinstance(line, Heading) else line for line in lines]
        target.update(Group(*drawn))

    @property
    def compare_text(self) -> str:
        """What the comparison section says, as plain text (a heading as `── title`)."""
        return "\n".join(f"── {line.title}" if isinstance(line, Heading) else line.plain for line in self.compare_lines)

    # What if (no model) --------------------------------------------------------------------
    def action_what_if(self, kind: str) -> None:
        """D, S, B: ask what to change, then show what it does to the listing."""
        catalog = self.catalog
        if catalog is None or self._listing is None:
            self.app.notify("Still loading…", severity="warning")
            return
        names = sorted(catalog.skills)
        if kind == "disable":
            question = AskScreen("What if this skill were disabled (disable-model-invocation)?", "skill name", names)
        elif kind == "shorten":
            question = AskScreen("What if this skill's description were cut to N characters?", "skill-name N", names)
        else:
            question = AskScreen(
                "What if the listing's budget were N characters?", "characters", value=f"{self._listing.budget * 2:g}"
            )
        self.app.push_screen(question, lambda answer: self._asked(kind, answer))

    def _asked(self, kind: str, answer: str | None) -> None:
        if not answer or not answer.strip():
            return
        change = self._change(kind, answer.strip())
        if isinstance(change, str):
            self.app.notify(change, title="What if", severity="warning")
            return
        self.deck.start(self, self._what_if(change), "Working out the what-if", exclusive=True, group="whatif")

    def _change(self, kind: str, answer: str) -> WhatIfChange | str:
        """The change asked for, or why the answer is not one."""
        skills = self.catalog.skills if self.catalog is not None else {}
        if kind == "budget":
            try:
                chars = float(answer.replace(",", ""))
            except ValueError:
                return f"Not a number of characters: {answer}"
            return RaiseBudget(chars) if chars >= 0 else "A budget is 0 characters or more"
        name, _, rest = answer.partition(" ") if kind == "shorten" else (answer, "", "")
        if name not in skills:
            return f"No skill is named {name}"
        if kind == "disable":
            return DisableSkill(name)
        try:
            return ShortenDescription(name, int(rest.strip().replace(",", "")))
        except ValueError:
            return f"Give the skill's name and a number of characters (e.g. {name} 80)"

    async def _what_if(self, change: WhatIfChange) -> None:
        catalog = self.catalog
        if catalog is None:
            return
        # Two listings of the whole catalog: at 15,000 skills, a thread's work.
        result = await asyncio.to_thread(what_if, self.deck.workspace, catalog, [change])
        self.what_if_result = (change, result)
        target = self.query_one("#listing-whatif", Static)
        target.update(what_if_text(change, result))
        target.display = True
        self.scroll_to_widget(target)

    @property
    def what_if_said(self) -> str:
        """The what-if section as plain text (for tests)."""
        result = self.what_if_result
        return what_if_text(*result).plain if result is not None else ""

    # What if the model touches a file (T) -----------------------------------------------------
    def action_touch(self) -> None:
        """T: ask for a file, then show the listing update Claude Code would send after the model
        reads or edits it (the `paths:` skills it activates, the nested skills it loads)."""
        catalog = self.catalog
        if catalog is None:
            self.app.notify("Still loading…", severity="warning")
            return
        # Offered: the folders of the nested skills held back (a file there loads them).
        folders = sorted({f"{s.source.scope}/" for s in catalog.deferred if s.source.scope})
        question = AskScreen("What would Claude Code add to the listing after the model reads this file?", "path", folders)
        self.app.push_screen(question, self._touch)

    def _touch(self, answer: str | None) -> None:
        if answer and answer.strip():
            self.deck.start(self, self._touched(answer.strip()), "Working out the listing update", exclusive=True, group="whatif")

    async def _touched(self, answer: str) -> None:
        catalog = self.catalog
        if catalog is None:
            return
        start = self.deck.workspace.locations.project
        update = await asyncio.to_thread(listing_update, catalog, start, Path(answer))
        said = Text.assemble((f"After touching {printable(answer)}: ", "bold"))
        if update:
            said.append("Claude Code sends this listing update\n", "bold")
            said.append(printable(update))
        else:
            said.append("nothing new (no held-back paths: skill matches it, no nested skills folder holds it)", "dim")
        self.touched_said = said.plain
        target = self.query_one("#listing-whatif", Static)
        target.update(said)
        target.display = True
        self.scroll_to_widget(target)
