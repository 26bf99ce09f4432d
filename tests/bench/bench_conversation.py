"""The conversation pane's speed, measured in one run (`make bench`).

1. Event-loop lag while a model streams 2,000 tokens per second into the pane (goal: p99 under
   50 ms). The floor is the least a Textual app can do with the same stream: one Markdown widget
   fed through `Markdown.get_stream` from the same SDK stream, lag sampled the same way.
2. Time from the `enter` key on a skill to its request reaching the server, with 2,000 skills
   in the listing (goal: under 50 ms). The floor is the bare SDK: a warm client's
   `messages.stream(...)` call to the request reaching the same server.

The server runs in a child process, so that its writing never competes with the app for the GIL,
as a real API would not. Both processes read CLOCK_MONOTONIC (`time.perf_counter` on Linux).
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

TOKENS_PER_SECOND = 2000
SECONDS = 5
SAMPLE = 0.005  # the lag sampler's sleep


def answer_text(tokens: int) -> str:
    """Markdown of about `tokens` four-character tokens: paragraphs, lists, code."""
    parts, size, n = [], 0, 0
    while size < tokens * 4:
        n += 1
        block = (
            f"## Part {n}\n\nThe release adds faster search, a conversation pane and **streamed** answers; "
            f"see `engine/runner.py` for item {n}.\n\n- first point of {n}\n- second point of {n}\n\n"
            f"```python\ndef step_{n}() -> int:\n    return {n}\n```\n\n"
        )
        parts.append(block)
        size += len(block)
    return "".join(parts)


# The server, in a child process ------------------------------------------------------------
def serve(tokens: int, pace: float) -> None:
    from tests.llm_server import MessagesServer, Reply

    text = answer_text(tokens)
    with MessagesServer() as server:
        server.replies = _Endless(Reply(text=text, chunk=4, pace=pace))  # type: ignore[assignment]
        print(server.url, flush=True)
        seen = 0
        while sys.stdin.readline():  # one line per poll; EOF ends the server
            while seen < len(server.arrived):
                print(f"{server.arrived[seen]!r}", flush=True)
                seen += 1
            print("end", flush=True)


class _Endless(list):  # type: ignore[type-arg]
    """Every request gets the same reply."""

    def __init__(self, reply: Any) -> None:
        super().__init__([reply])
        self.reply = reply

    def pop(self, index: int = -1) -> Any:  # type: ignore[override]
        return self.reply


class Server:
    def __init__(self, tokens: int, pace: float) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(tokens), str(pace)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()

    def arrivals(self) -> list[float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("poll\n")
        self.proc.stdin.flush()
        out = []
        while (line := self.proc.stdout.readline().strip()) != "end":
            out.append(float(line))
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)


# Lag sampling --------------------------------------------------------------------------------
class LagSampler:
    def __init__(self) -> None:
        self.samples: list[float] = []
        self.running = True

    async def run(self) -> None:
        while self.running:
            start = time.perf_counter()
            await asyncio.sleep(SAMPLE)
            self.samples.append(time.perf_counter() - start - SAMPLE)

    def p99_ms(self) -> float:
        ordered = sorted(self.samples)
        return ordered[int(len(ordered) * 0.99)] * 1000


async def sampled(body: Callable[[], Awaitable[None]]) -> LagSampler:
    sampler = LagSampler()
    task = asyncio.get_running_loop().create_task(sampler.run())
    try:
        await body()
    finally:
        sampler.running = False
        await task
    return sampler


# skilldeck -----------------------------------------------------------------------------------
def _locations(base: Path, url: str, count: int) -> Any:
    import dataclasses

    from bench_catalog import make_tree

    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": url, "XDG_STATE_HOME": str(base / "state")}
    return dataclasses.replace(make_tree(base / "tree", count), environ=env)


async def _ready(base: Path, url: str, count: int, pilot_body: Callable[[Any, Any], Awaitable[None]]) -> None:
    from tui.app import SkilldeckApp
    from tui.view import PathDisplay

    app = SkilldeckApp(_locations(base, url, count), PathDisplay.default(), blink=False, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        while not (app.loaded_once and app.backend is not None):
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        for _ in range(20):
            skill, _ = app._current()
            if skill is not None and skill.user_invocable:
                break
            await pilot.press("j")
        await pilot_body(app, pilot)


async def _until(app: Any, done: Callable[[], object], every: float, what: str, timeout: float = 120.0) -> None:
    """Poll until `done()`; a handler that raised ends the app, which would otherwise leave the
    bench waiting for ever."""
    deadline = time.perf_counter() + timeout
    while not done():
        if not app.is_running or time.perf_counter() > deadline:
            raise RuntimeError(f"gave up waiting for {what}: the app {'stopped' if not app.is_running else 'took too long'}")
        await asyncio.sleep(every)


def _run_done(app: Any) -> bool:
    return not any(w.group == "run" and w.is_running for w in app.workers)


async def _press_enter(app: Any) -> float:
    from textual import events

    event = events.Key("enter", None)
    event.set_sender(app)
    start = time.perf_counter()
    app._driver.send_message(event)
    return start


def _tracked() -> int:
    """Objects the garbage collector tracks once it has collected: what every later full
    collection walks."""
    gc.collect()
    return len(gc.get_objects())


async def _after(seconds: float) -> float:
    """The longest the event loop stalled over the next `seconds` (the end of an answer)."""
    sampler = LagSampler()
    task = asyncio.get_running_loop().create_task(sampler.run())
    await asyncio.sleep(seconds)
    sampler.running = False
    await task
    return max(sampler.samples) * 1000


def skilldeck_lag(base: Path) -> dict[str, float]:
    """p99 lag (ms), characters drawn, seconds from enter until the answer was drawn in full, the
    longest stall until 3 s after, and the objects the answer left tracked."""
    server = Server(TOKENS_PER_SECOND * SECONDS, 1 / TOKENS_PER_SECOND)
    result: dict[str, float] = {}

    async def body(app: Any, pilot: Any) -> None:
        from tui import gc_pause
        from tui.widgets.conversation import ConversationPane

        pane = app.query_one(ConversationPane)
        before = _tracked()

        async def stream() -> None:
            # Sampled until the answer is drawn in full (its last parts flattened), not only
            # until the server is done: drawing that lags behind the stream counts too.
            start = time.perf_counter()
            await _press_enter(app)
            await _until(app, lambda: server_done() and pane.answers and pane.settled, 0.05, "the answer to be drawn in full")
            result["seconds"] = time.perf_counter() - start

        def server_done() -> bool:
            return bool(app.runner and len(app.runner.messages) >= 3 and _run_done(app))

        sampler = await sampled(stream)
        result["lag"] = sampler.p99_ms()
        result["chars"] = len(pane.answers[-1].source) if pane.answers else 0
        # The end of an answer can come just before or just after the last part is drawn.
        result["longest"] = max(max(sampler.samples) * 1000, await _after(3.0))
        assert not gc_pause.holding()
        result["kept"] = _tracked() - before

    try:
        asyncio.run(_ready(base / "lag", server.url, 2000, body))
    finally:
        server.close()
    return result


def skilldeck_enter(base: Path, runs: int) -> list[float]:
    """Seconds from enter to the request's arrival, one per run (a short answer each)."""
    server = Server(20, 0.0)
    starts: list[float] = []

    async def body(app: Any, pilot: Any) -> None:
        for _ in range(runs):
            before = len(app.runner.messages) if app.runner else 0
            starts.append(await _press_enter(app))
            # The command, the skill prompt and the answer.
            await _until(
                app, lambda n=before + 3: app.runner and len(app.runner.messages) >= n and _run_done(app), 0.01, "the run"
            )
            # A person reads the answer before the next enter; the app settles meanwhile. (Not
            # pilot.pause(delay): it forces a screen update at its end, just before the press.)
            await pilot.pause()
            await asyncio.sleep(0.3)

    try:
        asyncio.run(_ready(base / "enter", server.url, 2000, body))
        arrived = server.arrivals()
    finally:
        server.close()
    return [a - s for s, a in zip(starts, arrived, strict=True)]


# Floors ------------------------------------------------------------------------------------------
def _client(url: str) -> Any:
    import anthropic

    return anthropic.AsyncAnthropic(api_key="k", base_url=url, max_retries=0)


PARAMS = {"model": "claude-sonnet-5-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "hi"}]}


def floor_lag() -> tuple[float, int]:
    """p99 lag (ms) and the objects the answer left tracked."""
    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll
    from textual.widgets import Markdown

    server = Server(TOKENS_PER_SECOND * SECONDS, 1 / TOKENS_PER_SECOND)

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            with VerticalScroll(id="log"):
                yield Markdown(id="answer")

    out: dict[str, float] = {}

    async def main() -> None:
        app = Bare()
        async with app.run_test(size=(160, 48)) as pilot:
            app.query_one("#log").anchor()
            client = _client(server.url)
            await pilot.pause()
            before = _tracked()

            async def stream() -> None:
                md = Markdown.get_stream(app.query_one("#answer", Markdown))
                async with client.messages.stream(**PARAMS) as events:
                    async for text in events.text_stream:
                        await md.write(text)
                await md.stop()
                await pilot.pause()

            out["lag"] = (await sampled(stream)).p99_ms()
            out["kept"] = _tracked() - before

    try:
        asyncio.run(main())
    finally:
        server.close()
    return out["lag"], int(out["kept"])


def floor_enter(runs: int) -> list[float]:
    server = Server(20, 0.0)
    starts: list[float] = []

    async def main() -> None:
        client = _client(server.url)
        for _ in range(runs + 1):
            starts.append(time.perf_counter())
            async with client.messages.stream(**PARAMS) as events:
                await events.get_final_message()

    try:
        asyncio.run(main())
        arrived = server.arrivals()
    finally:
        server.close()
    # The first call builds the SDK's lazy parts; skilldeck warms those before its first enter.
    return [a - s for s, a in zip(starts, arrived, strict=True)][1:]


def main() -> int:
    runs = 15
    base = Path(tempfile.mkdtemp(prefix="skilldeck-conv-bench-"))
    try:
        ours = skilldeck_lag(base)
        floor, floor_kept = floor_lag()
        lag, kept = ours["lag"], int(ours["kept"])
        expected = len(answer_text(TOKENS_PER_SECOND * SECONDS))
        print(
            f"streaming {TOKENS_PER_SECOND:,} tokens/s, drawn in full after {ours['seconds']:.1f} s "
            f"({int(ours['chars']):,} of {expected:,} characters): "
            f"event-loop lag p99 {lag:.1f} ms, floor (bare Markdown stream) {floor:.1f} ms, "
            f"ratio {lag / floor:.2f} (goal: p99 < 50 ms)"
        )
        print(
            f"longest stall until 3 s after that answer {ours['longest']:.0f} ms (the end of its garbage collection); "
            f"objects it left for every later full collection {kept:,}, bare Markdown {floor_kept:,}, "
            f"ratio {kept / floor_kept:.2f}"
        )
        ours = skilldeck_enter(base, runs)
        bare = floor_enter(runs)
        med, first, bare_med = statistics.median(ours[1:]), ours[0], statistics.median(bare)
        print(
            f"enter -> request at the server, 2,000 skills: first {first * 1000:.1f} ms, median of {runs - 1} more "
            f"{med * 1000:.1f} ms (max {max(ours) * 1000:.1f}); bare SDK call {bare_med * 1000:.1f} ms, "
            f"ratio {med / bare_med:.2f} (goal < 50 ms)"
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]), float(sys.argv[3]))
        raise SystemExit(0)
    os.environ.pop("ANTHROPIC_MODEL", None)
    raise SystemExit(main())
