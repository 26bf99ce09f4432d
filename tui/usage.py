"""What the transcripts say about each skill's use (issue 38), read once in a worker; the panes ask.

Gigabytes of history must not delay the first screen: the details pane starts the read after it
is mounted, shows "reading…" meanwhile, and every pane that registered is told when it is in.
Only names, counts and dates come from the engine (never message text).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.dom import DOMNode

from engine import SkillUsage, UsageReport, Workspace, collect_usage, state_dir, transcript_roots

from .books import Book

# "Never used in N days": the tiers' filter and the listing's mark.
UNUSED_DAYS = 30
DAY = 86_400.0


def age(when: float, now: float) -> str:
    days = int((now - when) // DAY)
    return "today" if days <= 0 else "yesterday" if days == 1 else f"{days} days ago"


@dataclass
class UsageBook(Book):
    report: UsageReport | None = None
    started: bool = False

    @property
    def ready(self) -> bool:
        return self.report is not None or self.problem is not None

    def start(self, node: DOMNode, workspace: Workspace, start: Callable[..., object]) -> None:
        """Read the transcripts once, in a thread (`start` is Deck.start: a failure is a message)."""
        if self.started:
            return
        self.started = True
        locations = workspace.locations
        roots = transcript_roots(locations)
        cache = state_dir(locations.environ) / "usage-cache.json"

        def work() -> None:
            try:
                report = collect_usage(roots, (), cache_path=cache)
            except OSError as exc:
                node.app.call_from_thread(self._failed, f"{exc.strerror or exc}")
                raise
            node.app.call_from_thread(self._done, report)

        start(node, work, "Reading the transcripts", thread=True)

    def _done(self, report: UsageReport) -> None:
        self.report = report
        self._tell()

    def of(self, name: str) -> SkillUsage | None:
        return self.report.of(name) if self.report is not None else None

    def unused(self, name: str, days: float = UNUSED_DAYS, now: float | None = None) -> bool:
        """Not used in the last `days` (False until the transcripts are read)."""
        if self.report is None:
            return False
        found = self.report.of(name)
        now = time.time() if now is None else now
        return found is None or not found.last or found.last < now - days * DAY

    def line(self, name: str, now: float | None = None) -> Text:
        """The details pane's row: how the skill was used, or why that is not known yet."""
        if self.problem is not None:
            return Text(f"unknown: the transcripts could not be read ({self.problem})", "dim")
        if self.report is None:
            return Text("reading the transcripts…", "dim")
        found = self.report.of(name)
        if found is None or not found.used:
            files = self.report.files
            return Text(f"never, in {files:,} transcript{'' if files == 1 else 's'}", "yellow")
        now = time.time() if now is None else now
        failed = f" ({found.failed} failed)" if found.failed else ""
        return Text.assemble(
            f"typed {found.typed} · by the model {found.model}",
            (failed, "red"),
            f" · last {age(found.last, now)}" if found.last else "",
            (f" · {found.sessions} sessions", "dim"),
        )
