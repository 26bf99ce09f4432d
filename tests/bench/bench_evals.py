"""The routing lab, measured in one run (`make bench`).

1. The lab's own time per request, without any model: planning (the runner's request, the
   listing and its dropped variants, keys), running through the cache and the concurrency
   bound against a backend that answers at once, and the report (goal: under 5 ms a request).
2. 200 routing requests against the local Messages API server with concurrency 8, through the
   lab, and the same requests sent by a bare AsyncAnthropic loop with the same bound (goal:
   the lab within 1.2x of the bare loop). The server runs in a process of its own (in this one
   its threads would share the interpreter with both clients); the two are measured in
   back-to-back pairs, the first of each pair alternating, and compared by their total times:
   this machine's speed drifts from one second to the next, and alternating spreads the drift
   over both.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import EvalCache, EvalRun, Workspace, load_evals, plan_evals  # noqa: E402
from engine.llm import Event, Request, Stop, ToolUse, Usage  # noqa: E402
from tests.conftest import Tree, skill_text, write  # noqa: E402
from tests.llm_server import MessagesServer, Reply  # noqa: E402

SKILLS = 60
CASES = 400
SERVER_REQUESTS = 200
CONCURRENCY = 8
ROUNDS = 5


class Instant:
    """A backend that answers every request at once with a Skill call: the model, removed."""

    name = "instant"

    def warm(self) -> None:
        pass

    async def stream(self, request: Request) -> AsyncIterator[Event]:
        text = request.messages[0]["content"][0]["text"]
        yield ToolUse("s", "Skill", {"skill": f"skill-{int(text.split()[-1]) % SKILLS}"})
        yield Usage(100, 10)
        yield Stop("tool_use")


def _workspace(base: Path, cases: int, env: dict[str, str]) -> Workspace:
    tree = Tree(base)
    for n in range(SKILLS):
        tree.skill(f"skill-{n}", skill_text(name=f"skill-{n}", description=f"Handles the chores of kind {n}. " * 4))
    lines = "".join(f"  - request: please do chore {n}\n    expect: skill-{n % SKILLS}\n" for n in range(cases))
    write(tree.project / ".claude" / "skill-evals.yaml", "requests:\n" + lines)
    return Workspace(tree.locations(environ=env))


async def overhead() -> tuple[float, int, dict[str, float]]:
    base = Path(tempfile.mkdtemp(prefix="skilldeck-evals-bench-"))
    ws = _workspace(base, CASES, {"XDG_STATE_HOME": str(base / "state")})
    catalog = ws.load()
    parts: dict[str, float] = {}
    start = time.perf_counter()
    evals = load_evals(ws.locations, catalog, listing=ws.listing(catalog))
    parts["load"] = time.perf_counter() - start
    start = time.perf_counter()
    plan = plan_evals(ws, catalog, evals.cases)
    parts["plan"] = time.perf_counter() - start
    start = time.perf_counter()
    run = EvalRun(plan, Instant(), concurrency=CONCURRENCY, cache=EvalCache.at(ws.locations.environ))
    await run.run()
    parts["run"] = time.perf_counter() - start
    start = time.perf_counter()
    report = run.report()
    parts["report"] = time.perf_counter() - start
    assert report.all_met and not report.partial
    n = len(plan.requests)
    return sum(parts.values()) / n, n, parts


def _choose(body: dict[str, Any]) -> Reply:
    text = body["messages"][0]["content"][0]["text"]
    return Reply(
        text="I'll use that skill.", tool_uses=[{"id": "s", "name": "Skill", "input": {"skill": f"skill-{text.split()[-1]}"}}]
    )


def _serve(conn: Any) -> None:
    with MessagesServer() as server:
        server.choose = _choose
        conn.send(server.url)
        conn.recv()  # until the bench is done


async def versus_bare(url: str) -> tuple[float, float, float]:
    import anthropic

    base = Path(tempfile.mkdtemp(prefix="skilldeck-evals-bench-"))
    env = {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(base / "state")}
    ws = _workspace(base, SERVER_REQUESTS, env)
    catalog = ws.load()
    evals = load_evals(ws.locations, catalog, listing=ws.listing(catalog))
    backend = ws.backend()
    client = anthropic.AsyncAnthropic(base_url=url, api_key="k", max_retries=0)

    async def lab() -> float:
        # Planned inside the measure: the lab's whole cost, no cache (each round asks again).
        start = time.perf_counter()
        plan = plan_evals(ws, catalog, evals.cases, variants=("listed",))
        report = await EvalRun(plan, backend, concurrency=CONCURRENCY).run()
        assert report.pending == 0 and not report.failed and len(plan.requests) == SERVER_REQUESTS
        return time.perf_counter() - start

    params = [r.request.to_dict() for r in plan_evals(ws, catalog, evals.cases, variants=("listed",)).requests]

    async def bare() -> float:
        gate = asyncio.Semaphore(CONCURRENCY)

        async def one(body: dict[str, Any]) -> None:
            async with gate:
                stream = await client.messages.create(**body, stream=True)
                async for _event in stream:
                    pass

        start = time.perf_counter()
        await asyncio.gather(*(one(body) for body in params))
        return time.perf_counter() - start

    await lab()
    await bare()  # warm both: imports, connections
    ours, theirs = [], []
    for n in range(ROUNDS):
        if n % 2:
            theirs.append(await bare())
            ours.append(await lab())
        else:
            ours.append(await lab())
            theirs.append(await bare())
    return sum(ours) / sum(theirs), statistics.median(ours), statistics.median(theirs)


def main() -> int:
    per, n, parts = asyncio.run(overhead())
    shown = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in parts.items())
    print(f"routing lab, own time per request without a model: {per * 1000:.3f} ms over {n} requests ({shown}) (goal < 5 ms)")
    here, there = multiprocessing.Pipe()
    server = multiprocessing.get_context("fork").Process(target=_serve, args=(there,), daemon=True)
    server.start()
    try:
        ratio, ours, bare = asyncio.run(versus_bare(here.recv()))
    finally:
        here.send("stop")
        server.join(10)
    print(
        f"{SERVER_REQUESTS} routing requests to the local server, concurrency {CONCURRENCY}: lab {ours * 1000:.0f} ms, "
        f"bare AsyncAnthropic loop {bare * 1000:.0f} ms (medians of {ROUNDS}), ratio {ratio:.2f} of the totals of "
        f"{ROUNDS} alternating pairs (goal <= 1.2)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
