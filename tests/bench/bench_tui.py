"""The app's speed, measured in one run (`make bench`), at the demo's size and at real catalog sizes.

1. Process start to the first painted frame with 2,000 skills, over the same with an empty
   catalog (goal: at most 1.3): the catalog loads in a thread after the first frame.
2. Process start to the first screen that shows skills (tiers with their counts, the first skill,
   its details), at 15,000 skills (goal: within 2 s).
3. Key to painted frame, 95th percentile, for the keys that move (j, k), narrow a search (/ then
   letters, one at a time), at the 15-skill demo and at 1,000 and 15,000 skills (goal: under
   30 ms, flat in the count); the listing pane (4) within 100 ms; the longest stall of the UI loop
   while browsing (goal: under 100 ms); the process's resident memory once loaded.
4. Issue 39's figures at the largest size: a pane key (2 3 5 1) at most 1.2x the bare app's in
   the same run; `godot` arriving at once (a paste, a fast typist) until the list narrows, within
   200 ms (with, beside it, the first result's preview, which waits for the keys to rest); the
   app's peak memory, in the key runs and in a real session (app_peak.py: spawned in a pty,
   watching, every pane shown and a search typed), within 200 MB.

Keys are posted to the app as the terminal driver posts them; "painted" is the first refresh after
the handler that shows the key's effect ran. Beside them, the floor: a plain Textual app of the same
shape given the same kinds of key (bare_textual.py), what Textual itself takes for such frames here.
The bare app and the largest size run `--repeat` times, alternated, each in a process of its own;
the summary gives the medians. The catalogs are real skills (tests/bench/scale_catalogs.py), by
default 150 installed and enabled marketplace plugins (`--shape`). `--sizes 1000,15000` chooses
the sizes.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import pty
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
# First, as in the skilldeck command: the tui package sets what Textual reads when it is imported
# (its frame rate, its animations).
import tui  # noqa: E402, F401

sys.path.insert(0, str(Path(__file__).parent))

import app_peak  # noqa: E402
from bench_conversation import LagSampler  # noqa: E402
from scale_catalogs import cached  # noqa: E402
from textual import events  # noqa: E402

from engine import Locations, make_demo  # noqa: E402
from tui.app import SkilldeckApp  # noqa: E402
from tui.heap import settle_imports  # noqa: E402
from tui.view import PathDisplay  # noqa: E402
from tui.widgets.details import SkillDetails  # noqa: E402
from tui.widgets.search import SearchBox  # noqa: E402

EXE = Path(sys.executable).parent / "skilldeck"
DATA = Path(__file__).resolve().parent / ".data"


def _flags(loc: Locations) -> list[str]:
    out = ["--project", str(loc.project), "--user-dir", str(loc.user), "--managed-dir", str(loc.managed), "--no-bundled"]
    for extra in loc.add_dirs:
        out += ["--add-dir", str(extra)]
    return out


def _spawned(loc: Locations, mark_env: str, runs: int) -> float:
    """Best seconds from spawning `skilldeck` in a terminal of its own (a pty, as a user's
    terminal: without one Textual's input thread spins on a closed stdin and takes the CPU from
    the load) to the moment it writes in `mark_env`'s file."""
    best = float("inf")
    for _ in range(runs):
        with tempfile.NamedTemporaryFile(delete=False) as mark:
            path = mark.name
        env = dict(os.environ, **{mark_env: path}, TERM="xterm-256color", COLUMNS="160", LINES="48")
        main, child = pty.openpty()
        start = time.time()
        proc = subprocess.Popen([str(EXE), *_flags(loc)], env=env, stdin=child, stdout=child, stderr=child, close_fds=True)
        os.close(child)
        # Read what it draws, as a terminal does: a full pty buffer would stop the app.
        drain = threading.Thread(target=_drain, args=(main,), daemon=True)
        drain.start()
        if proc.wait(timeout=300) != 0:
            raise SystemExit(f"skilldeck exited with {proc.returncode}")
        drain.join(timeout=5)
        os.close(main)
        shown = float(Path(path).read_text())
        os.unlink(path)
        best = min(best, shown - start)
    return best


def _drain(fd: int) -> None:
    while True:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:  # EIO: the child closed its side
            return


def p95_ms(samples: list[float]) -> float:
    return sorted(samples)[min(len(samples) - 1, int(len(samples) * 0.95))] * 1000


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    return float("nan")


def rss_mb() -> float:
    return _status_mb("VmRSS:")


def peak_mb() -> float:
    """The process's peak resident memory so far (the kernel's high-water mark)."""
    return _status_mb("VmHWM:")


class Painted:
    """Set on the first refresh after one of the app's methods ran: the frame that shows a key."""

    def __init__(self, app: SkilldeckApp) -> None:
        self.app = app
        self.event = asyncio.Event()

    def after(self, owner: Any, name: str) -> None:
        real = getattr(owner, name)

        def marked(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            self.app.call_after_refresh(self.event.set)
            return result

        setattr(owner, name, marked)

    async def key(self, key: str) -> float:
        self.event.clear()
        event = events.Key(key, key if len(key) == 1 else None)
        start = time.perf_counter()
        self.app.post_message(event)
        await asyncio.wait_for(self.event.wait(), 10)
        return time.perf_counter() - start


async def browse(loc: Locations, rounds: int = 25) -> dict[str, Any]:
    app = SkilldeckApp(loc, PathDisplay.default(), blink=False, watch=False)
    # As the skilldeck command does before it runs the app: its garbage collections are the app's.
    settle_imports()
    out: dict[str, Any] = {}
    async with app.run_test(size=(160, 48)) as pilot:
        while not app.settled:
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        out["rss"] = rss_mb()
        painted = Painted(app)
        details = app.query_one(SkillDetails)
        # A move shows a skill's details, or a tier's on a tier's line.
        painted.after(details, "show")
        painted.after(details, "show_tier")
        painted.after(app, "action_pane")
        lag = LagSampler()
        out["move"] = [await painted.key(k) for _ in range(rounds) for k in "jjkk"]
        # As many pane keys as moves: over 24, a 95th percentile was the second slowest.
        out["pane"] = [await painted.key(k) for _ in range(rounds) for k in "2351"]
        # As many showings of the listing as moves of four keys: over six, a 95th percentile is
        # only the slowest one.
        out["listing"] = []
        for _ in range(rounds):
            out["listing"].append(await painted.key("4"))
            await painted.key("1")
        await pilot.press("slash")
        box = app.query_one(SearchBox)
        painted.after(box, "_show")
        out["search"] = []
        for _ in range(rounds // 8 + 1):
            out["search"] += [await painted.key(letter) for letter in "skill-0"]
            for _ in range(7):
                await painted.key("backspace")
        out["paste"], out["preview"] = [], []
        for _ in range(PASTES):
            # As the first time the word is searched: the index answers a query it answered
            # lately from what it kept (tui/search.py), which a paste of a new word cannot use.
            box.index._answers.clear()
            box.index._last = None
            narrowed, previewed = await pasted(app, box, details, PASTED)
            out["paste"].append(narrowed)
            out["preview"].append(previewed)
            # Closed (the tiers' cursor goes back where it was) and opened again: the next
            # preview moves the cursor again.
            await pilot.press("escape")
            await pilot.press("slash")
        await pilot.press("escape")
        samples = await lag.stop()
        out["stall"] = max(samples) * 1000
        out["peak"] = peak_mb()
    return out


# A word arriving at once (a paste, a fast typist): every letter is in before the first is answered.
PASTED = "godot"
PASTES = 5


async def pasted(app: SkilldeckApp, box: SearchBox, details: SkillDetails, word: str) -> tuple[float, float]:
    """Seconds from posting every letter of `word` at once to the first frame that shows the
    results for the whole word, and to the frame that shows the first result's details (the
    preview, once the keys have rested for PREVIEW_DELAY_S)."""
    narrowed, previewed = asyncio.Event(), asyncio.Event()
    show, preview = box._show, details.show

    def shown(*args: Any, **kwargs: Any) -> Any:
        result = show(*args, **kwargs)
        if box.query_text == word:
            app.call_after_refresh(narrowed.set)
        return result

    def previewing(*args: Any, **kwargs: Any) -> Any:
        result = preview(*args, **kwargs)
        if narrowed.is_set():
            app.call_after_refresh(previewed.set)
        return result

    box._show = shown  # type: ignore[method-assign]
    details.show = previewing  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        for letter in word:
            app.post_message(events.Key(letter, letter))
        await asyncio.wait_for(narrowed.wait(), 10)
        at = time.perf_counter() - start
        if not box.results.results:  # no match (the demo): nothing to preview
            return at, float("nan")
        await asyncio.wait_for(previewed.wait(), 10)
        return at, time.perf_counter() - start
    finally:
        box._show = show  # type: ignore[method-assign]
        details.show = preview  # type: ignore[method-assign]


def catalog(base: Path, count: int, shape: str = "installed") -> Locations:
    """The demo (15), or `count` real skills (the vendored collection's, copied under new folder
    names: tests/bench/scale_catalogs.py, built once in tests/bench/.data): as 150 plugins
    installed and enabled from a marketplace (`installed`; `mismatch`: the same with a
    name-mismatch diagnostic per skill), one project (`project`) or one `--plugin-dir` (`market`)."""
    if count == 15:
        return make_demo(base / "demo", {})  # written again if it is there: the same files
    where = cached(shape, count, DATA)
    empty = base / "empty-config"
    (empty / "project").mkdir(parents=True, exist_ok=True)
    return Locations(
        project=where if shape == "project" else empty / "project",
        user_dir=where if shape in ("installed", "mismatch") else empty / "user",
        managed_dir=empty / "managed",
        plugin_dirs=(where,) if shape == "market" else (),
        bundled=False,
        environ={},
    )


def _row(label: str, out: dict[str, Any]) -> str:
    figures = "  ".join(
        f"{name} {p95_ms(out[name]):6.1f}" if name in out else f"{name} {'-':>6}"
        for name in ("move", "pane", "search", "listing", "paste")
    )
    if "stall" not in out:
        return f"{label:>14}: p95 ms  {figures}"
    return (
        f"{label:>14}: p95 ms  {figures}   longest stall {out['stall']:6.1f} ms   {out['rss']:5.0f} MB resident, "
        f"{out['peak']:5.0f} MB at the peak"
    )


def _in_child(code: str) -> dict[str, Any]:
    """Runs `code` (which prints a JSON line last) in a process of its own: the figures of one
    run do not carry the garbage of another."""
    here = str(Path(__file__).parent)
    prelude = f"import asyncio, json, sys; sys.path.insert(0, {here!r}); "
    done = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, check=True)
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def _bare() -> dict[str, Any]:
    # The floor: a plain Textual app of the same shape, the same kinds of key (bare_textual.py).
    return _in_child(
        "import bench_tui, bare_textual; from tui.heap import settle_imports; settle_imports();"
        "print(json.dumps(asyncio.run(bare_textual.browse())))"
    )


def _app(base: Path, count: int, shape: str) -> dict[str, Any]:
    return _in_child(
        f"import bench_tui as b; from pathlib import Path;"
        f"print(json.dumps(asyncio.run(b.browse(b.catalog(Path({str(base)!r}), {count}, {shape!r})))))"
    )


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,15000")
    parser.add_argument("--shape", default="installed", help="installed, mismatch, market or project (scale_catalogs.py)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the bare app and the largest size, alternated")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    # As `pip install` leaves them (bench_scale.py says why).
    for package in ("engine", "tui"):
        compileall.compile_dir(ROOT / package, quiet=1)
    base = Path(tempfile.mkdtemp(prefix="skilldeck-tui-bench-"))
    print(f"{os.cpu_count()} cores; each size in a process of its own; catalogs: {args.shape}")
    try:
        empty = Locations(
            project=base / "empty", user_dir=base / "empty-user", managed_dir=base / "empty-managed", bundled=False, environ={}
        )
        (base / "empty").mkdir()
        two_k = catalog(base, 2000, args.shape)
        t_empty = _spawned(empty, "SKILLDECK_FIRST_PAINT_FILE", 5)
        t_two_k = _spawned(two_k, "SKILLDECK_FIRST_PAINT_FILE", 5)
        print(
            f"first paint: empty {t_empty * 1000:.0f} ms, 2,000 skills {t_two_k * 1000:.0f} ms, ratio {t_two_k / t_empty:.2f} (goal <= 1.3)"
        )
        for count in sizes:
            loc = catalog(base, count, args.shape)
            shown = _spawned(loc, "SKILLDECK_FIRST_SKILLS_FILE", 3)
            print(f"first screen with skills, {count:,} skills: {shown * 1000:.0f} ms (goal at 15,000: within 2,000 ms)")
        print("keys, key to painted frame (goals: move/search p95 < 30 ms, listing < 100 ms, stall < 100 ms;")
        print("  pane <= 1.2x the bare app's, paste (every letter of `godot` at once, until the list narrows) <= 200 ms)")
        bare = _bare()
        print(_row("bare Textual", bare))
        largest: dict[str, Any] = {}
        for count in [15, *sizes]:
            out = _app(base, count, args.shape)
            print(_row("demo (15)" if count == 15 else f"{count:,} skills", out))
            largest = out
        runs = [(bare, largest)]
        for n in range(2, args.repeat + 1):
            again = (_bare(), _app(base, sizes[-1], args.shape))
            print(_row(f"bare, run {n}", again[0]))
            print(_row(f"{sizes[-1]:,}, run {n}", again[1]))
            runs.append(again)
        loc = catalog(base, sizes[-1], args.shape)
        flags = [*_flags(loc), *(f for d in loc.plugin_dirs for f in ("--plugin-dir", str(d)))]
        session_peak = app_peak.peak_mb(EXE, flags, sizes[-1])
        summary(runs, sizes[-1], session_peak)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def summary(runs: list[tuple[dict[str, Any], dict[str, Any]]], count: int, session_peak: float) -> None:
    """Issue 39's figures at the largest size, each beside its partner from the same run (medians over the runs)."""
    ratios = [p95_ms(app["pane"]) / p95_ms(bare["pane"]) for bare, app in runs]
    pane = _median(ratios)
    print(f"\nissue 39, {count:,} skills ({len(runs)} runs of the app and the bare Textual app, alternated; medians):")
    print(
        f"  pane key 2 3 5 1, p95: {_median([p95_ms(a['pane']) for _, a in runs]):.0f} ms vs the bare app's "
        f"{_median([p95_ms(b['pane']) for b, _ in runs]):.0f} ms = {pane:.2f}x (runs: {', '.join(f'{r:.2f}' for r in ratios)})"
        f"   goal <= 1.2x: {'met' if pane <= 1.2 else 'NOT met'}"
    )
    narrowed = _median([_median(a["paste"]) * 1000 for _, a in runs])
    print(
        f"  search, `godot` at once until the list narrows: median {narrowed:.0f} ms, p95 "
        f"{_median([p95_ms(a['paste']) for _, a in runs]):.0f} ms (one key at a time: p95 "
        f"{_median([p95_ms(a['search']) for _, a in runs]):.0f} ms; the bare app's paste "
        f"{_median([_median(b['paste']) * 1000 for b, _ in runs]):.0f} ms; the first result previewed at "
        f"{_median([_median(a['preview']) * 1000 for _, a in runs]):.0f} ms)   goal <= 200 ms: {'met' if narrowed <= 200 else 'NOT met'}"
    )
    peak = max(session_peak, *(a["peak"] for _, a in runs))
    print(
        f"  the app's peak memory: {session_peak:.0f} MB in a terminal, watching, every pane shown and a search typed; "
        f"{_median([a['peak'] for _, a in runs]):.0f} MB in the key runs   goal <= 200 MB: {'met' if peak <= 200 else 'NOT met'}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
