"""The evals tab: the project's eval requests, the estimate before a run, the run's progress, the
report after it (matrix, per-skill bars, who steals, what changes with a description dropped,
usage), and each request's detail (enter).

Reading the eval files, planning and the cache's disk reads happen in threads; a run is an async
worker of this pane (the engine's `EvalRun` on the app's loop: the SDK's network reads never block
the UI). The offline backend sends nothing: the tab shows the exact requests and their cost. A new
catalog (a description edited on disk) makes a new plan; the cache answers whatever it did not
change, so a re-run asks only what the edit can change.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, replace
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from engine import (
    Backend,
    Catalog,
    EvalCache,
    EvalDetail,
    EvalPlan,
    EvalReport,
    EvalRun,
    EvalSet,
    EvalStep,
    Listing,
    RouteOutcome,
    load_evals,
    plan_evals,
    printable,
)

from ..deck import Deck
from .detail import EvalDetailScreen
from .view import estimate_line, how_to_start, plan_summary, ran_summary, report_parts, request_prompt

CONCURRENCY = 4
OFFLINE_NOTE = (
    "Offline backend: nothing is sent. Below are the exact requests a run would send (enter shows one) and above "
    "their cost; set ANTHROPIC_API_KEY to run them."
)


class AppCache(EvalCache):
    """The engine's cache as the app keeps it for its whole life.

    Written by the pane in a thread: `EvalRun` flushes it on the loop on its way out, which the UI
    loop must not do (a slow disk would freeze the app). And an answer kept by an earlier run of
    this session reads as cached, as one read from the file does: the engine's `put` keeps the
    outcome as it came (not cached), so a second run in one process counted it as sent again."""

    def get(self, key: str) -> RouteOutcome | None:
        kept = super().get(key)
        return replace(kept, cached=True) if kept is not None and not kept.cached else kept

    def flush(self) -> None:
        pass

    def write(self) -> None:
        super().flush()


@dataclass(frozen=True)
class Prepared:
    evals: EvalSet
    plan: EvalPlan | None
    # Made (and the cache read) by the first plan only.
    cache: AppCache | None
    backend: Backend | None


class EvalRequests(OptionList):
    """The plan's requests, one row each, marked as they are answered; enter shows one's detail."""


class EvalsPane(Vertical):
    BINDINGS = [
        Binding("R", "run", "Run evals", id="evals.run"),
        Binding("x", "cancel", "Cancel evals", id="evals.cancel"),
        # The app's escape cancels a conversation's run; here, while the evals run, it cancels them.
        Binding("escape", "cancel", "Cancel evals", show=False, id="evals.cancel2"),
    ]

    def __init__(self, deck: Deck, backend: str | None = None, model: str | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck = deck
        self.backend_name, self.model_name = backend, model
        self.backend: Backend | None = None
        self.cache: AppCache | None = None
        self.catalog: Catalog | None = None
        self._listing: Listing | None = None
        # The catalog changed since the last plan: a new one is made when the tab shows.
        self._dirty = False
        self._planned_for: Catalog | None = None
        self.evals: EvalSet | None = None
        self.plan: EvalPlan | None = None
        self.report: EvalReport | None = None
        self.run: EvalRun | None = None
        self._worker: Worker[Any] | None = None
        # Which plan a report belongs to: a report of an older one is shown stale.
        self._generation = 0
        self._report_generation = 0
        self._rows: dict[str, list[int]] = {}
        self._counts = (0, 0)

    def compose(self) -> ComposeResult:
        yield Static(Text("Reading the eval files…", "dim"), id="evals-status")
        yield Static(id="evals-note")
        with VerticalScroll(id="evals-report"):
            yield Static(id="evals-report-text")
        yield EvalRequests(id="evals-requests")

    def on_mount(self) -> None:
        self.query_one("#evals-note", Static).display = False
        self.query_one("#evals-report").display = False

    # State ----------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._worker is not None and not self._worker.is_finished

    @property
    def offline(self) -> bool:
        return self.backend is not None and self.backend.name == "offline"

    @property
    def ready(self) -> bool:
        """The eval files are read and the requests planned for the catalog last given."""
        return self.evals is not None and self._planned_for is self.catalog

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # escape and x only while a run goes: otherwise escape is the app's (and the footer stays short).
        if action == "cancel":
            return self.running
        return True

    # The catalog (from the app) and the plan --------------------------------------------------
    def set_catalog(self, catalog: Catalog, listing: Listing) -> None:
        self.catalog, self._listing = catalog, listing
        self._dirty = True
        # Planning reads the settings and builds the listing twice (about 1 s of a thread at
        # 15,000 skills): only for the tab on screen, else when it next shows.
        if self.is_on_screen:
            self._prepare()

    def on_show(self) -> None:
        if self._dirty:
            self._prepare()

    def _prepare(self) -> None:
        catalog, listing = self.catalog, self._listing
        if catalog is None or listing is None:
            return
        self._dirty = False
        self.deck.start(self, self._plan(catalog, listing), "Reading the eval files", exclusive=True, group="evals-plan")

    def _read(self, catalog: Catalog, listing: Listing) -> Prepared:
        """Thread: the eval files, the plan, the cache's file and the backend (which imports the SDK)."""
        workspace = self.deck.workspace
        cache = backend = None
        if self.cache is None:
            cache = AppCache(EvalCache.at(workspace.locations.environ).path)
            cache.load()
        if self.backend is None:
            backend = workspace.backend(self.backend_name)
        evals = load_evals(workspace.locations, catalog, listing=listing)
        plan = None
        if evals.ok and evals.cases:
            plan = plan_evals(workspace, catalog, evals.cases, model=self.model_name)
        return Prepared(evals, plan, cache, backend)

    async def _plan(self, catalog: Catalog, listing: Listing) -> None:
        prepared = await asyncio.to_thread(self._read, catalog, listing)
        self.cache = self.cache or prepared.cache
        self.backend = self.backend or prepared.backend
        self.evals, self.plan = prepared.evals, prepared.plan
        self._planned_for = catalog
        self._generation += 1
        self._show_plan()

    def _show_plan(self) -> None:
        evals, plan = self.evals, self.plan
        status = self.query_one("#evals-status", Static)
        requests = self.query_one(EvalRequests)
        if evals is None:
            return
        problems = [p for p in evals.problems if evals.files or p.severity != "error"]
        text = Text()
        if not evals.files:
            text = how_to_start()
        elif plan is None:
            text.append("No requests to run", "bold red")
            text.append(": fix the eval file's errors below, then r reloads.\n" if not evals.ok else ".\n")
        else:
            text.append_text(plan_summary(plan))
            text.append("\n")
            text.append_text(estimate_line(plan.estimate(self.cache or ())))
            text.append("\n")
            if not self.running:
                text.append("R runs them; enter on a request shows what is sent." if not self.offline else "", "dim")
        for problem in problems:
            style = "red" if problem.severity == "error" else "yellow"
            text.append("\n" + printable(str(problem)), style)
        status.update(text)
        if not self.running:  # while a run goes, the note is its progress line
            note = self.query_one("#evals-note", Static)
            note.update(Text(OFFLINE_NOTE, "yellow"))
            note.display = self.offline and plan is not None
        requests.display = plan is not None
        self._fill(plan)
        if self.report is not None:
            self._show_report()

    def _fill(self, plan: EvalPlan | None) -> None:
        """The request rows: each with the outcome the last run (or the cache) has for it."""
        requests = self.query_one(EvalRequests)
        highlighted = requests.highlighted
        requests.clear_options()
        self._rows = {}
        if plan is None:
            return
        outcomes = dict(self.run.outcomes) if self.run is not None else {}
        if self.cache is not None:
            outcomes = {r.key: o for r in plan.requests if (o := outcomes.get(r.key) or self.cache.get(r.key)) is not None}
        options = []
        for index, item in enumerate(plan.requests):
            self._rows.setdefault(item.key, []).append(index)
            options.append(Option(request_prompt(EvalDetail(item, outcomes.get(item.key))), id=str(index)))
        requests.add_options(options)
        if options:
            requests.highlighted = min(highlighted or 0, len(options) - 1)

    # Running ----------------------------------------------------------------------------------
    def action_run(self) -> None:
        if self.deck.refused_in_preview(self, "its skills can be tried with a model"):
            return
        if self.running:
            self.app.notify("The evals are running: x cancels them", title="Evals", severity="warning")
            return
        plan, backend, cache = self.plan, self.backend, self.cache
        if not self.ready or plan is None or backend is None or cache is None:
            why = "Still reading the eval files" if not self.ready else "No requests to run (see the tab)"
            self.app.notify(why, title="Evals", severity="warning")
            return
        if self.offline:
            self.app.notify("Offline backend: nothing was sent (the requests and estimate are on the tab)", title="Evals")
            return
        self.run = EvalRun(plan, backend, concurrency=CONCURRENCY, cache=cache)
        self._report_generation = self._generation
        self.report = None
        self._counts = (0, 0)
        self._worker = self.deck.start(self, self._go(self.run), "Running the evals", exclusive=True, group="evals-run")
        self._progress(0, len(plan.unique()))
        self.refresh_bindings()

    async def _go(self, run: EvalRun) -> None:
        try:
            async for step in run:
                self._step(step)
        finally:
            self._finish(run)

    def _step(self, step: EvalStep) -> None:
        cached, failed = self._counts
        self._counts = (cached + step.outcome.cached, failed + step.outcome.failed)
        self._progress(step.done, step.total)
        plan = self.plan
        if plan is None or self.run is None or plan is not self.run.plan:
            return  # the rows are a newer plan's (the catalog changed during the run)
        requests = self.query_one(EvalRequests)
        for index in self._rows.get(step.request.key, []):
            requests.replace_option_prompt_at_index(index, request_prompt(EvalDetail(plan.requests[index], step.outcome)))

    def _progress(self, done: int, total: int) -> None:
        cached, failed = self._counts
        line = Text.assemble(
            ("Running: ", "bold"),
            f"{done}/{total} answered · {cached} from the cache · ",
            (f"{failed} failed", "bold red" if failed else ""),
            ("  x or escape cancels", "dim"),
        )
        self.query_one("#evals-note", Static).update(line)
        self.query_one("#evals-note", Static).display = True

    def _finish(self, run: EvalRun) -> None:
        """The run ended (answered, failed, or cancelled): its report, partial or not, and the
        answers written in a thread."""
        cache = self.cache
        if not self.is_attached:
            # The app is closing: no UI to keep responsive, and the answers are worth keeping.
            if cache is not None:
                cache.write()
            return
        if cache is not None:
            self.deck.start(self, cache.write, "Saving the eval answers", thread=True, group="evals-save")
        if run is not self.run:
            return
        self.report = run.report()
        self.query_one("#evals-note", Static).display = False
        self._show_report()
        self.call_after_refresh(self.refresh_bindings)

    def _show_report(self) -> None:
        report = self.report
        if report is None:
            return
        scroll = self.query_one("#evals-report", VerticalScroll)
        scroll.display = True
        stale = self._report_generation != self._generation
        self.query_one("#evals-report-text", Static).update(report_parts(report, stale))
        if not stale and report.plan is self.plan:
            # The estimate is in the report's usage line now: the plan's lines give the report room.
            self.query_one("#evals-status", Static).update(ran_summary(report.plan))
            requests = self.query_one(EvalRequests)
            for index, detail in enumerate(report.details):
                requests.replace_option_prompt_at_index(index, request_prompt(detail))

    def on_unmount(self) -> None:
        # The app is closing (its workers are cancelled with it): the answers so far are written
        # now, while the thread a run's end starts to write them may not get to run.
        if self.cache is not None:
            self.cache.write()

    def action_cancel(self) -> None:
        if self._worker is not None and self.running:
            self._worker.cancel()
            self.app.notify("Evals cancelled: the report is partial", title="Evals")

    # Detail ------------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        plan = self.plan
        if plan is None or event.option.id is None:
            return
        item = plan.requests[int(event.option.id)]
        outcome = self.run.outcomes.get(item.key) if self.run is not None else None
        if outcome is None and self.cache is not None:
            outcome = self.cache.get(item.key)
        self.app.push_screen(EvalDetailScreen(EvalDetail(item, outcome)))

    @property
    def report_text(self) -> str:
        """What the report section shows, as plain text (for tests)."""
        return _plain(self.query_one("#evals-report-text", Static))

    @property
    def status_text(self) -> str:
        return _plain(self.query_one("#evals-status", Static)) + _plain(self.query_one("#evals-note", Static))


def _plain(widget: Static) -> str:
    buffer = io.StringIO()
    Console(width=200, file=buffer, color_system=None).print(widget.content)
    return buffer.getvalue()
