"""Running a plan: each distinct request sent once, at most `concurrency` at a time, answers
from the cache first; progress as it happens; a partial report at any moment.

For a UI: `EvalRun(plan, backend, ...)`, then `async for step in run` (or `await run.run(progress)`),
each step an `EvalStep` (pure data); `run.report()` whenever (a cancelled or failed run's report
says what is missing and why). Cancel by cancelling the task iterating the run: the requests in
flight are cancelled with it, and the answers received so far stay in the cache.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from ..llm import Backend
from .cache import EvalCache
from .outcome import RouteOutcome, ask
from .report import EvalReport, build_report
from .requests import EvalPlan, RoutingRequest

DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 64


@dataclass(frozen=True, slots=True)
class EvalStep:
    """One request answered (or failed): `done` of `total` distinct requests so far."""

    done: int
    total: int
    request: RoutingRequest
    outcome: RouteOutcome


class EvalRun:
    def __init__(
        self, plan: EvalPlan, backend: Backend, *, concurrency: int = DEFAULT_CONCURRENCY, cache: EvalCache | None = None
    ) -> None:
        self.plan = plan
        self.backend = backend
        self.concurrency = min(max(1, concurrency), MAX_CONCURRENCY)
        self.cache = cache
        # Answers by key: what `report()` is built from.
        self.outcomes: dict[str, RouteOutcome] = {}
        self.offline = backend.name == "offline"
        self.finished = False

    def report(self) -> EvalReport:
        return build_report(self.plan, self.outcomes, offline=self.offline, finished=self.finished)

    async def run(self, progress: Callable[[EvalStep], None] | None = None) -> EvalReport:
        async for step in self:
            if progress is not None:
                progress(step)
        return self.report()

    async def __aiter__(self) -> AsyncIterator[EvalStep]:
        todo = self.plan.unique()
        total = len(todo)
        if self.offline:
            # The offline backend sends nothing: the plan (requests, estimate) is all there is.
            self.finished = True
            return
        if self.cache is not None and not self.cache.loaded:
            await asyncio.to_thread(self.cache.load)
        done = 0
        remaining: list[RoutingRequest] = []
        for item in todo:
            kept = self.cache.get(item.key) if self.cache is not None else None
            if kept is None:
                remaining.append(item)
                continue
            self.outcomes[item.key] = kept
            done += 1
            yield EvalStep(done, total, item, kept)
        gate = asyncio.Semaphore(self.concurrency)
        answers: asyncio.Queue[tuple[RoutingRequest, RouteOutcome]] = asyncio.Queue()

        async def one(item: RoutingRequest) -> None:
            async with gate:
                try:
                    outcome = await ask(self.backend, item.request)
                except Exception as exc:
                    # A backend that raises (ours never do) fails this request, not the run.
                    outcome = RouteOutcome(None, error=f"{type(exc).__name__}: {exc}"[:500], error_kind="internal")
            answers.put_nowait((item, outcome))

        tasks = [asyncio.create_task(one(item)) for item in remaining]
        try:
            for _ in remaining:
                item, outcome = await answers.get()
                self.outcomes[item.key] = outcome
                if self.cache is not None:
                    self.cache.put(item.key, outcome, model=self.plan.model, listing=item.listing_hash)
                done += 1
                yield EvalStep(done, total, item, outcome)
            self.finished = True
        finally:
            for task in tasks:
                task.cancel()
            if tasks:
                await asyncio.gather(*tasks, return_exceptions=True)
            if self.cache is not None:
                # A few lines at most per answer; small enough to write on the way out.
                self.cache.flush()


async def run_evals(
    plan: EvalPlan,
    backend: Backend,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    cache: EvalCache | None = None,
    progress: Callable[[EvalStep], None] | None = None,
) -> EvalReport:
    return await EvalRun(plan, backend, concurrency=concurrency, cache=cache).run(progress)
