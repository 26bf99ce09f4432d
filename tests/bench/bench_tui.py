"""The app's speed, measured in one run (`make bench`), at the demo's size and at real catalog sizes.

1. Process start to the first painted frame with 2,000 skills, over the same with an empty
   catalog (goal: at most 1.3): the catalog loads in a thread after the first frame.
2. Process start to the first screen that shows skills (tiers with their counts, the first skill,
   its details), at 15,000 skills (goal: within 2 s).
3. Key to painted frame, 95th percentile, for the keys that move (j, k), switch pane (2 3 5 1),
   narrow a search (/ then letters), at the 15-skill demo and at 1,000 and 15,000 skills
   (goal: under 30 ms, flat in the count); the listing pane (4) within 100 ms; the longest stall of
   the UI loop while browsing (goal: under 100 ms); the process's resident memory once loaded
   (goal at 15,000: under 200 MB).

Keys are posted to the app as the terminal driver posts them; "painted" is the first refresh after
the handler that shows the key's effect ran. Beside them, the floor: a plain Textual app of the same
shape given the same kinds of key (bare_textual.py), what Textual itself takes for such frames here. The catalogs are real skills (tests/bench/scale_catalogs.py).
`--sizes 1000,15000` chooses the sizes.
"""

from __future__ import annotations

import argparse
import asyncio
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


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


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
        out["pane"] = [await painted.key(k) for _ in range(rounds // 5 + 1) for k in "2351"]
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
        await pilot.press("escape")
        samples = await lag.stop()
        out["stall"] = max(samples) * 1000
    return out


def catalog(base: Path, count: int) -> Locations:
    """The demo (15), or a project of `count` real skills (the vendored collection's, copied under
    new folder names: tests/bench/scale_catalogs.py), built once."""
    if count == 15:
        return make_demo(base / "demo", {})  # written again if it is there: the same files
    project = cached("project", count, base / "catalogs")
    empty = base / "empty-config"
    return Locations(project=project, user_dir=empty / "user", managed_dir=empty / "managed", bundled=False, environ={})


def _row(label: str, out: dict[str, Any]) -> str:
    figures = "  ".join(
        f"{name} {p95_ms(out[name]):6.1f}" if name in out else f"{name} {'-':>6}"
        for name in ("move", "pane", "search", "listing")
    )
    if "stall" not in out:
        return f"{label:>14}: p95 ms  {figures}"
    return f"{label:>14}: p95 ms  {figures}   longest stall {out['stall']:6.1f} ms   {out['rss']:5.0f} MB resident"


def _in_child(code: str) -> dict[str, Any]:
    """Runs `code` (which prints a JSON line last) in a process of its own: the figures of one
    run do not carry the garbage of another."""
    here = str(Path(__file__).parent)
    prelude = f"import asyncio, json, sys; sys.path.insert(0, {here!r}); "
    done = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, check=True)
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,15000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    base = Path(tempfile.mkdtemp(prefix="skilldeck-tui-bench-"))
    print(f"{os.cpu_count()} cores; each size in a process of its own")
    try:
        empty = Locations(
            project=base / "empty", user_dir=base / "empty-user", managed_dir=base / "empty-managed", bundled=False, environ={}
        )
        (base / "empty").mkdir()
        two_k = catalog(base, 2000)
        t_empty = _spawned(empty, "SKILLDECK_FIRST_PAINT_FILE", 5)
        t_two_k = _spawned(two_k, "SKILLDECK_FIRST_PAINT_FILE", 5)
        print(
            f"first paint: empty {t_empty * 1000:.0f} ms, 2,000 skills {t_two_k * 1000:.0f} ms, ratio {t_two_k / t_empty:.2f} (goal <= 1.3)"
        )
        for count in sizes:
            loc = catalog(base, count)
            shown = _spawned(loc, "SKILLDECK_FIRST_SKILLS_FILE", 3)
            print(f"first screen with skills, {count:,} skills: {shown * 1000:.0f} ms (goal at 15,000: within 2,000 ms)")
        print("keys, key to painted frame (goals: move/pane/search p95 < 30 ms, listing < 100 ms, stall < 100 ms)")
        # The floor: a plain Textual app of the same shape, the same kinds of key (bare_textual.py).
        bare = _in_child(
            "import bench_tui, bare_textual; from tui.heap import settle_imports; settle_imports();"
            "print(json.dumps(asyncio.run(bare_textual.browse())))"
        )
        print(_row("bare Textual", bare))
        for count in [15, *sizes]:
            loc = catalog(base, count)
            where = str(base)
            out = _in_child(
                f"import bench_tui as b; from pathlib import Path;"
                f"print(json.dumps(asyncio.run(b.browse(b.catalog(Path({where!r}), {count})))))"
            )
            print(_row("demo (15)" if count == 15 else f"{count:,} skills", out))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
