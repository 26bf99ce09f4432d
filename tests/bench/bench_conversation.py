"""The conversation pane's speed, measured in one run (`make bench`), each figure beside the same
measure of a bare Textual app streaming into one `Markdown` widget (`Markdown.get_stream`).

1. A realistic stream, 300 tokens per second for 30 s, into the pane with 2,000 skills loaded:
   event-loop lag p99 while it streams (goal < 50 ms); the longest stall from the enter key until
   3 s after the answer is drawn in full, its end included (goal < 100 ms); and the median time
   from a key typed in the composer in those 3 s to the screen showing it (goal < 50 ms).
2. A stress stream, 2,000 tokens per second for 5 s: lag p99 (goal < 150 ms: keys are answered),
   and the time until the text is drawn in full against the stream's own duration (goal < 2x).
3. Time from the `enter` key on a skill to its request reaching the server, with 2,000 skills in
   the listing (goal: under 50 ms). The floor is a warm SDK client's `messages.stream(...)` call.

Each also says how many full garbage collections ran meanwhile and the longest: with 2,000 skills
loaded every one walks some 300,000 objects, the longest stalls left.

Each stream is measured in a process of its own. The server runs in a child process, so that its
writing never competes with the app for the GIL, as a real API would not. Both processes read CLOCK_MONOTONIC (`time.perf_counter` on Linux).
`--seconds N` shortens the realistic stream (and `--stress-seconds N` the stress one) while
iterating; the goals are for the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
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

SAMPLE = 0.005  # the lag sampler's sleep
AFTER = 3.0  # seconds watched after an answer is drawn in full
KEYS = 15  # keys typed in those seconds
SKILLS = 2000


def answer_text(tokens: int) -> str:
    """Markdown of about `tokens` four-character tokens: headings, paragraphs, lists, code."""
    parts, size, n = [], 0, 0
    while size < tokens * 4:
        n += 1
        block = (
            f"## Part {n}\n\nThe release adds faster search, a conversation pane and **streamed** answers; "
            f"see `engine/runner/loop.py` for item {n}.\n\n- first point of {n}\n- second point of {n}\n\n"
            f"```python\ndef step_{n}() -> int:\n    return {n}\n```\n\n"
        )
        parts.append(block)
        size += len(block)
    return "".join(parts)[: tokens * 4]


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


# Measuring ---------------------------------------------------------------------------------------
class LagSampler:
    """How late a short sleep wakes, again and again: the event loop's lag."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.running = True
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self.running:
            start = time.perf_counter()
            await asyncio.sleep(SAMPLE)
            self.samples.append(time.perf_counter() - start - SAMPLE)

    async def stop(self) -> list[float]:
        self.running = False
        await self.task
        return self.samples


class FullCollections:
    """The full garbage collections (oldest generation) while it watches, in ms: the usual cause
    of a long stall, as every one walks every object of the app (2,000 skills: some 300,000)."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self._watch)

    def _watch(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.ms.append((time.perf_counter() - self._start) * 1000)

    def stop(self) -> list[float]:
        gc.callbacks.remove(self._watch)
        return self.ms


def p99_ms(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.99)] * 1000


async def _until(app: Any, done: Callable[[], object], what: str, every: float = 0.02, timeout: float = 300.0) -> None:
    """Poll until `done()`; a handler that raised ends the app, which would otherwise leave the
    bench waiting for ever."""
    deadline = time.perf_counter() + timeout
    while not done():
        if not app.is_running or time.perf_counter() > deadline:
            raise RuntimeError(f"gave up waiting for {what}: the app {'stopped' if not app.is_running else 'took too long'}")
        await asyncio.sleep(every)


def _press(app: Any, key: str, character: str | None = None) -> float:
    """Post a key as the terminal driver does; when it was posted."""
    from textual import events

    start = time.perf_counter()
    app.post_message(events.Key(key, character))
    return start


async def _shown(app: Any) -> None:
    """Until the screen has been drawn after now."""
    done = asyncio.get_running_loop().create_future()
    app.call_after_refresh(lambda: done.done() or done.set_result(None))
    await done


async def _keys_after(app: Any, field: Any) -> list[float]:
    """Type KEYS letters into `field` over AFTER seconds; the seconds from each key to the screen
    drawn with it in the field."""
    field.focus()
    await _shown(app)
    took = []
    for _ in range(KEYS):
        before = field.value
        start = _press(app, "a", "a")
        await _until(app, lambda before=before: field.value != before, "the key", every=0.001)
        await _shown(app)
        took.append(time.perf_counter() - start)
        await asyncio.sleep(AFTER / KEYS)
    return took


def _result(
    samples: list[float], after: list[float], keys: list[float], stream: float, drawn: float, chars: int, full: list[float]
) -> dict[str, float]:
    return {
        "full": len(full),
        "full_max": max(full, default=0.0),
        "lag": p99_ms(samples),
        "longest": max(samples + after) * 1000,
        "key": statistics.median(keys) * 1000,
        "stream": stream,
        "drawn": drawn,
        "chars": chars,
    }


# skilldeck -----------------------------------------------------------------------------------
def _locations(base: Path, url: str, count: int) -> Any:
    import dataclasses

    from bench_catalog import make_tree

    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": url, "XDG_STATE_HOME": str(base / "state")}
    return dataclasses.replace(make_tree(base / "tree", count), environ=env)


async def _ready(base: Path, url: str, body: Callable[[Any, Any], Awaitable[None]]) -> None:
    from tui.app import SkilldeckApp
    from tui.heap import settle_imports
    from tui.view import PathDisplay

    app = SkilldeckApp(_locations(base, url, SKILLS), PathDisplay.default(), blink=False, watch=False)
    settle_imports()  # as the skilldeck command does before it runs the app
    async with app.run_test(size=(160, 48)) as pilot:
        while not (app.loaded_once and app.session.backend is not None):
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        for _ in range(20):
            skill, _ = app._current()
            if skill is not None and skill.user_invocable:
                break
            await pilot.press("j")
        await body(app, pilot)


def _run_done(app: Any) -> bool:
    return not any(w.group == "run" and w.is_running for w in app.workers)


def skilldeck_stream(base: Path, tokens_per_second: int, seconds: float) -> dict[str, float]:
    tokens = int(tokens_per_second * seconds)
    expected = len(answer_text(tokens))
    server = Server(tokens, 1 / tokens_per_second)
    out: dict[str, float] = {}

    async def body(app: Any, pilot: Any) -> None:
        from textual.widgets import Input

        from tui.conversation.pane import ConversationPane

        pane = app.query_one(ConversationPane)

        def text() -> int:
            return len(pane.answers[-1].source) if pane.answers else 0

        collections = FullCollections()
        sampler = LagSampler()
        _press(app, "enter")
        await _until(app, lambda: text() > 0, "the first text")
        first = time.perf_counter()
        await _until(app, lambda: text() >= expected, "the last text")
        stream = time.perf_counter() - first
        await _until(app, lambda: _run_done(app) and pane.settled, "the answer to be drawn in full")
        drawn = time.perf_counter() - first
        samples = await sampler.stop()
        sampler = LagSampler()
        keys = await _keys_after(app, app.query_one("#composer", Input))
        out.update(_result(samples, await sampler.stop(), keys, stream, drawn, text(), collections.stop()))

    try:
        asyncio.run(_ready(base / f"lag-{tokens_per_second}", server.url, body))
    finally:
        server.close()
    return out


def skilldeck_enter(base: Path, runs: int) -> list[float]:
    """Seconds from enter to the request's arrival, one per run (a short answer each)."""
    server = Server(20, 0.0)
    starts: list[float] = []

    async def body(app: Any, pilot: Any) -> None:
        for _ in range(runs):
            before = len(app.session.runner.messages) if app.session.runner else 0
            starts.append(_press(app, "enter"))
            # The command, the skill prompt and the answer.
            await _until(
                app,
                lambda n=before + 3: app.session.runner and len(app.session.runner.messages) >= n and _run_done(app),
                "the run",
            )
            # A person reads the answer before the next enter; the app settles meanwhile. (Not
            # pilot.pause(delay): it forces a screen update at its end, just before the press.)
            await pilot.pause()
            await asyncio.sleep(0.3)

    try:
        asyncio.run(_ready(base / "enter", server.url, body))
        arrived = server.arrivals()
    finally:
        server.close()
    return [a - s for s, a in zip(starts, arrived, strict=True)]


# Floors ------------------------------------------------------------------------------------------
def _client(url: str) -> Any:
    import anthropic

    return anthropic.AsyncAnthropic(api_key="k", base_url=url, max_retries=0)


PARAMS = {"model": "claude-sonnet-5-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "hi"}]}


def floor_stream(tokens_per_second: int, seconds: float) -> dict[str, float]:
    """The same measures for a bare app: one Markdown in a scrolling log, and an Input."""
    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll
    from textual.widgets import Input, Markdown

    server = Server(int(tokens_per_second * seconds), 1 / tokens_per_second)

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            with VerticalScroll(id="log"):
                yield Markdown(id="answer")
            yield Input(id="field")

    out: dict[str, float] = {}

    async def main() -> None:
        app = Bare()
        async with app.run_test(size=(160, 48)) as pilot:
            app.query_one("#log").anchor()
            client = _client(server.url)
            await pilot.pause()
            md = Markdown.get_stream(app.query_one("#answer", Markdown))
            collections = FullCollections()
            sampler = LagSampler()
            chars, first = 0, 0.0
            async with client.messages.stream(**PARAMS) as events:
                async for text in events.text_stream:
                    first = first or time.perf_counter()
                    chars += len(text)
                    await md.write(text)
            stream = time.perf_counter() - first
            await md.stop()
            await _shown(app)
            drawn = time.perf_counter() - first
            samples = await sampler.stop()
            sampler = LagSampler()
            keys = await _keys_after(app, app.query_one("#field", Input))
            out.update(_result(samples, await sampler.stop(), keys, stream, drawn, chars, collections.stop()))

    try:
        asyncio.run(main())
    finally:
        server.close()
    return out


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


# Report ------------------------------------------------------------------------------------------
def _line(name: str, ours: float, bare: float, unit: str, goal: float | None) -> str:
    verdict = "" if goal is None else f"  goal < {goal:g} {unit}: {'met' if ours < goal else 'MISSED'}"
    return f"  {name:<34} {ours:8.1f} {unit}   bare Markdown {bare:8.1f} {unit}{verdict}"


def report(label: str, tps: int, seconds: float, ours: dict[str, float], bare: dict[str, float], goals: dict[str, float]) -> None:
    print(
        f"{label}: {tps:,} tokens/s for {seconds:g} s ({int(ours['chars']):,} characters; bare Markdown "
        f"{int(bare['chars']):,}), {SKILLS:,} skills loaded in skilldeck"
    )
    print(_line("event-loop lag p99 while streaming", ours["lag"], bare["lag"], "ms", goals.get("lag")))
    print(_line(f"longest stall, to {AFTER:g} s after the end", ours["longest"], bare["longest"], "ms", goals.get("longest")))
    print(_line("a key after the answer, median", ours["key"], bare["key"], "ms", goals.get("key")))
    print(
        f"  full garbage collections meanwhile: {ours['full']:.0f}, the longest {ours['full_max']:.0f} ms   "
        f"bare Markdown {bare['full']:.0f}, the longest {bare['full_max']:.0f} ms"
    )
    ratio, bare_ratio = ours["drawn"] / ours["stream"], bare["drawn"] / bare["stream"]
    print(
        f"  drawn in full after {ours['drawn']:.1f} s of a {ours['stream']:.1f} s stream: {ratio:.2f}x   "
        f"bare Markdown {bare['drawn']:.1f} s of {bare['stream']:.1f} s: {bare_ratio:.2f}x"
        + (f"  goal < {goals['drawn']:g}x: {'met' if ratio < goals['drawn'] else 'MISSED'}" if "drawn" in goals else "")
    )


def _measured(kind: str, tps: int, seconds: float, base: Path) -> dict[str, float]:
    """One stream measured in a fresh process, so that what an earlier measure left on the heap
    does not lengthen this one's garbage collections."""
    command = [sys.executable, __file__, "--one", kind, str(tps), str(seconds), str(base)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=900, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="the realistic stream's length")
    parser.add_argument("--stress-seconds", type=float, default=5.0, help="the stress stream's length")
    parser.add_argument("--no-enter", action="store_true", help="skip the enter -> request measure")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="skilldeck-conv-bench-"))
    try:
        for label, tps, seconds, goals in (
            ("realistic", 300, args.seconds, {"lag": 50, "longest": 100, "key": 50}),
            ("stress", 2000, args.stress_seconds, {"lag": 150, "drawn": 2}),
        ):
            ours = _measured("skilldeck", tps, seconds, base)
            bare = _measured("bare", tps, seconds, base)
            report(label, tps, seconds, ours, bare, goals)
        if not args.no_enter:
            runs = 15
            ours_enter = skilldeck_enter(base, runs)
            bare_enter = floor_enter(runs)
            med, first, bare_med = statistics.median(ours_enter[1:]), ours_enter[0], statistics.median(bare_enter)
            print(
                f"enter -> request at the server, {SKILLS:,} skills: first {first * 1000:.1f} ms, median of {runs - 1} more "
                f"{med * 1000:.1f} ms (max {max(ours_enter) * 1000:.1f}); bare SDK call {bare_med * 1000:.1f} ms, "
                f"ratio {med / bare_med:.2f} (goal < 50 ms)"
            )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]), float(sys.argv[3]))
        raise SystemExit(0)
    if sys.argv[1:2] == ["--one"]:
        kind, tps, seconds, folder = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), Path(sys.argv[5])
        os.environ.pop("ANTHROPIC_MODEL", None)
        one = skilldeck_stream(folder, tps, seconds) if kind == "skilldeck" else floor_stream(tps, seconds)
        print(json.dumps(one))
        raise SystemExit(0)
    os.environ.pop("ANTHROPIC_MODEL", None)
    raise SystemExit(main())
