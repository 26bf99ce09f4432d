"""The app's speed, measured in one run (`make bench`).

1. Process start to first painted screen with 2,000 skills, over the same with an empty
   catalog (goal: at most 1.3): the catalog loads in a thread after the first frame.
2. A cursor move and a search keystroke with 1,000 and 10,000 skills (goal: under 30 ms each,
   flat in the count), timed through Textual's pilot, median of many key presses.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from bench_catalog import make_tree  # noqa: E402
from textual import events  # noqa: E402

from engine import Locations  # noqa: E402
from tui.app import SkilldeckApp  # noqa: E402
from tui.view import PathDisplay  # noqa: E402
from tui.widgets.search import SearchBox  # noqa: E402

EXE = Path(sys.executable).parent / "skilldeck"


def _flags(loc: Locations) -> list[str]:
    out = ["--project", str(loc.project), "--user-dir", str(loc.user), "--managed-dir", str(loc.managed), "--no-bundled"]
    for extra in loc.add_dirs:
        out += ["--add-dir", str(extra)]
    return out


def first_paint(loc: Locations, runs: int) -> float:
    """Best seconds from spawning `skilldeck` to its first frame."""
    best = float("inf")
    for _ in range(runs):
        with tempfile.NamedTemporaryFile(delete=False) as mark:
            path = mark.name
        env = dict(os.environ, SKILLDECK_FIRST_PAINT_FILE=path)
        start = time.time()
        subprocess.run([str(EXE), *_flags(loc)], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        painted = float(Path(path).read_text())
        os.unlink(path)
        best = min(best, painted - start)
    return best


async def _timed_key(app: SkilldeckApp, key: str, painted: asyncio.Event) -> float:
    """Seconds from a key event entering the app to the frame that shows its effect."""
    painted.clear()
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    start = time.perf_counter()
    app._driver.send_message(event)  # type: ignore[union-attr]
    await asyncio.wait_for(painted.wait(), 5)
    return time.perf_counter() - start


async def key_latency(loc: Locations, presses: int = 40) -> tuple[float, float]:
    """Median ms for a cursor move (j) and for a search keystroke, key to painted frame."""
    app = SkilldeckApp(loc, PathDisplay.default(), blink=False)
    painted = asyncio.Event()
    async with app.run_test(size=(160, 48)) as pilot:
        while not app.loaded_once:
            await pilot.pause(0.05)
        await pilot.pause()
        show = app._show_selected

        def show_and_mark() -> None:
            show()
            app.call_after_refresh(painted.set)

        app._show_selected = show_and_mark  # type: ignore[method-assign]
        moves = [await _timed_key(app, "j", painted) for _ in range(presses)]
        await pilot.press("slash")
        box = app.query_one(SearchBox)
        narrow = box._show

        def narrow_and_mark(results: list) -> None:  # type: ignore[type-arg]
            narrow(results)
            app.call_after_refresh(painted.set)

        box._show = narrow_and_mark  # type: ignore[method-assign]
        keys = []
        for _ in range(presses // 8):
            keys += [await _timed_key(app, letter, painted) for letter in "skill-00"]
            for _ in range(8):
                await _timed_key(app, "backspace", painted)
    return statistics.median(moves) * 1000, statistics.median(keys) * 1000


def main() -> int:
    base = Path(tempfile.mkdtemp(prefix="skilldeck-tui-bench-"))
    try:
        empty = Locations(
            project=base / "empty", user_dir=base / "empty-user", managed_dir=base / "empty-managed", bundled=False, environ={}
        )
        (base / "empty").mkdir()
        two_k = make_tree(base / "2k", 2000)
        t_empty = first_paint(empty, 5)
        t_two_k = first_paint(two_k, 5)
        print(
            f"first paint: empty {t_empty * 1000:.0f} ms, 2,000 skills {t_two_k * 1000:.0f} ms, ratio {t_two_k / t_empty:.2f} (goal <= 1.3)"
        )
        for count in (1000, 10000):
            loc = make_tree(base / f"{count}", count)
            move, key = asyncio.run(key_latency(loc))
            print(f"{count:>6} skills: cursor move {move:.1f} ms, search keystroke {key:.1f} ms (goal < 30 ms each)")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
