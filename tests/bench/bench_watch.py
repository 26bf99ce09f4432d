"""Hot reload, measured in one run (`make bench`).

1. Latency from a file write to the diff callback, p50 and p95, with 10 skills and with 2,000
   (goal: p95 under 150 ms, and the 2,000-skill p95 within 1.3x of the 10-skill one, since
   only the changed folder is read).
2. The churn test with more seeds than the suite runs: every seed must end with the watched
   catalog equal to a cold load.
"""

from __future__ import annotations

import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from bench_catalog import make_tree  # noqa: E402

from engine import Catalog, CatalogDiff, Workspace  # noqa: E402
from tests.conftest import Tree  # noqa: E402
from tests.engine.test_watch import churn_until_equal  # noqa: E402

WRITES = 100


def latency(count: int) -> list[float]:
    base = Path(tempfile.mkdtemp(prefix=f"skilldeck-watch-{count}-"))
    try:
        loc = make_tree(base, count)
        arrived: dict[str, float] = {}
        cond = threading.Condition()

        def on_change(catalog: Catalog, change: CatalogDiff) -> None:
            with cond:
                now = time.perf_counter()
                for name in change.changed:
                    arrived.setdefault(name, now)
                cond.notify_all()

        handle = Workspace(loc).watch(on_change)
        rng = random.Random(count)
        names = list(handle.catalog.skills)
        out = []
        try:
            for i in range(WRITES):
                name = names[rng.randrange(len(names))]
                arrived.pop(name, None)
                path = handle.catalog.skills[name].path
                text = path.read_text().replace("description: ", f"description: v{i} ", 1)
                start = time.perf_counter()
                path.write_text(text)
                with cond:
                    assert cond.wait_for(lambda n=name: n in arrived, 5), f"no diff for {name}"
                out.append(arrived[name] - start)
        finally:
            handle.stop()
        return out
    finally:
        shutil.rmtree(base, ignore_errors=True)


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1000


def main() -> int:
    results = {}
    for count in (10, 2000):
        values = latency(count)
        results[count] = (p(values, 50), p(values, 95))
        print(
            f"write -> diff with {count:>5} skills: p50 {results[count][0]:.0f} ms, p95 {results[count][1]:.0f} ms (goal p95 < 150 ms)"
        )
    print(f"p95 ratio 2,000 / 10 skills: {results[2000][1] / results[10][1]:.2f} (goal <= 1.3)")
    warnings.simplefilter("ignore")
    seeds = range(1, 11)
    passed = 0
    for seed in seeds:
        base = Path(tempfile.mkdtemp(prefix="skilldeck-churn-"))
        try:
            churn_until_equal(Tree(base), seed, 1000)
            passed += 1
        except AssertionError as exc:
            print(f"churn seed {seed}: FAILED\n{exc}")
        finally:
            shutil.rmtree(base, ignore_errors=True)
    print(f"churn, 1,000 operations per seed: {passed} of {len(seeds)} seeds end equal to a cold load")
    return 0 if passed == len(seeds) else 1


if __name__ == "__main__":
    raise SystemExit(main())
