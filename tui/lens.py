"""Whose world the panes show (issue 36): Claude Code's, or another agent's that reads the same
skill folders (Codex CLI, Gemini CLI, OpenCode, Copilot CLI; engine/hosts). `A` and the palette
switch it; the tiers, details, diagnostics and listing panes then show that agent's view, while a
run is always Claude Code's. Every agent's verdict on each skill (the portability matrix) is read
in a worker after each load, for the details pane's `agents` row.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol, cast

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import ProgressBar, Static

from engine import (
    HOST_KEYS,
    Catalog,
    Listing,
    Place,
    PortabilityRow,
    Workspace,
    host_shapes,
    host_view,
    portability,
    printable,
)

from .books import Book
from .view import PathDisplay
from .widgets.textlines import TextLines

DEFAULT = HOST_KEYS[0]
TITLES = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI", "opencode": "OpenCode",
          "copilot": "Copilot CLI"}  # fmt: skip
# How each verdict reads in the details row: a mark that survives without colour, and a colour.
MARKS = {
    "listed": ("✓", "green"), "cut": ("✂", "yellow"), "names-only": ("…", "yellow"), "hidden": ("–", "yellow"),
    "shadowed": ("↷", "yellow"), "off": ("○", "dim"), "refused": ("✗", "bold red"), "not-read": ("·", "dim"),
}  # fmt: skip


def place_of(workspace: Workspace) -> Place:
    locations = workspace.locations
    return Place.here(locations.project, locations.environ)


@dataclass
class AgentBook(Book):
    key: str = DEFAULT
    rows: dict[Path, PortabilityRow] | None = None

    @property
    def ready(self) -> bool:
        return self.rows is not None or self.problem is not None

    @property
    def title(self) -> str:
        return TITLES.get(self.key, self.key)

    def next_key(self) -> str:
        return HOST_KEYS[(HOST_KEYS.index(self.key) + 1) % len(HOST_KEYS)]

    def start(self, node: DOMNode, workspace: Workspace, catalog: Catalog, start: Callable[..., object]) -> None:
        """Every agent's view of the same place, in a thread (`start` is Deck.start)."""
        place = place_of(workspace)

        def work() -> None:
            try:
                views = [host_view(key, place, workspace.locations, catalog) for key in HOST_KEYS]
                rows = {row.path: row for row in portability(views)}
            except OSError as exc:
                node.app.call_from_thread(self._failed, f"{exc.strerror or exc}")
                raise
            node.app.call_from_thread(self._done, rows)

        start(node, work, "Reading what each agent sees", thread=True, exclusive=True, group="agents", name="agents")

    def _done(self, rows: dict[Path, PortabilityRow]) -> None:
        self.rows, self.problem = rows, None
        self._tell()

    def line(self, path: Path) -> Text:
        """The details pane's row: what each agent does with this SKILL.md."""
        if self.problem is not None:
            return Text(f"unknown: {self.problem}", "dim")
        if self.rows is None:
            return Text("reading what each agent sees…", "dim")
        row = self.rows.get(Path(os.path.realpath(path)))
        if row is None:
            return Text("no agent reaches this file", "dim")
        out = Text()
        for key in HOST_KEYS:
            cell = row.cells.get(key)
            if cell is None:
                continue
            mark, style = MARKS.get(cell.status, ("?", ""))
            out.append(f"{mark} {TITLES[key]} {cell.status}", style)
            if cell.status not in ("listed", "not-read") and cell.why:
                out.append(f": {cell.why}", "dim")
            out.append("\n")
        out.rstrip()
        return out


def display(workspace: Workspace, key: str, catalog: Catalog, listing: Callable[[Catalog], Listing]) -> tuple[Catalog, Listing]:
    """The catalog and listing the panes show for agent `key` (in a worker: it reads the disk)."""
    if key == DEFAULT:
        return catalog, listing(catalog)
    return host_shapes(host_view(key, place_of(workspace), workspace.locations, catalog))


def show_agent_listing(pane: Widget, listing: Listing, paths: PathDisplay) -> None:
    """The listing pane with another agent's block: its size and budget, nothing of Claude Code's
    (its own skills, its trimming, its comparison and what-ifs), then the block as sent, its paths
    shown as every pane shows them (`~`, `<demo>`)."""
    summary = Text.assemble((f"What {listing.agent} is told about skills  ", "bold"), (f"{len(listing.entries):,} sent", "green"),
                            (f"  ({listing.budget_source})", "dim"))  # fmt: skip
    pane.query_one("#listing-summary", Static).update(summary)
    pane.query_one("#listing-bar", ProgressBar).update(total=1, progress=1)
    pane.query_one("#listing-percent", Static).update("")
    cut = [e.name for e in listing.entries if e.trimmed]
    note = f"{len(cut):,} cut or sent by name only by its budget: {', '.join(cut[:12])}" if cut else "Nothing is cut."
    pane.query_one("#listing-trimmed", Static).update(Text(printable(note), "yellow" if cut else "dim"))
    pane.query_one("#listing-own", Static).update("")
    pane.query_one("#listing-text", TextLines).set_lines(paths.in_text(listing.text).split("\n"), first_style="bold")


class Lens(Protocol):
    def action_agent(self, key: str = "") -> None: ...


class AgentCommands(Provider):
    """The palette's `Agent: …` entries: show each agent's view."""

    def _hits(self) -> Iterable[tuple[str, str]]:
        for key in HOST_KEYS:
            yield key, f"Agent: show what {TITLES[key]} sees"

    async def discover(self) -> Hits:
        for key, label in self._hits():
            yield DiscoveryHit(label, partial(cast(Lens, self.app).action_agent, key), help=f"--agent {key}")

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for key, label in self._hits():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(cast(Lens, self.app).action_agent, key), help=f"--agent {key}")
