"""Catalog load speed and memory against a floor, measured in one run (`make bench`).

The floor is the least any loader must do: walk the same tree, read every SKILL.md and parse
its frontmatter with PyYAML's C loader. The engine does that plus everything that makes it
useful (diagnostics, normalisation, precedence), and the goal is to stay within 1.5x of it.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Locations, Workspace

WORDS = [
    "review",
    "deploy",
    "lint",
    "test",
    "docs",
    "api",
    "schema",
    "migrate",
    "release",
    "notes",
    "debug",
    "trace",
    "profile",
    "cache",
    "security",
    "audit",
    "format",
    "refactor",
    "explain",
    "commit",
    "branch",
    "build",
    "bundle",
    "package",
    "config",
    "monitor",
    "alert",
    "incident",
    "report",
    "metric",
    "query",
    "index",
    "search",
    "translate",
    "summarise",
    "plan",
    "design",
]


def _paragraph(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def make_skill(folder: Path, name: str, rng: random.Random) -> None:
    folder.mkdir(parents=True)
    fm = [f"name: {name}", f"description: {_paragraph(rng, rng.randint(12, 60))} Use when the user asks to {rng.choice(WORDS)}."]
    if rng.random() < 0.4:
        fm.append(f"allowed-tools: Read, Grep, Bash({rng.choice(WORDS)} *)")
    if rng.random() < 0.3:
        fm.append('argument-hint: "[target]"')
    if rng.random() < 0.2:
        fm.append(f"when_to_use: {_paragraph(rng, 10)}")
    if rng.random() < 0.2:
        fm += ["metadata:", "  author: bench", f"  version: '{rng.randint(1, 9)}.0'"]
    size = rng.randint(1024, 8192)
    body: list[str] = [f"# {name}\n"]
    while sum(len(p) for p in body) < size:
        body.append(f"## {rng.choice(WORDS).title()}\n\n{_paragraph(rng, rng.randint(20, 80))}\n")
    (folder / "SKILL.md").write_text("---\n" + "\n".join(fm) + "\n---\n\n" + "\n".join(body))
    if rng.random() < 1 / 3:
        (folder / "scripts").mkdir()
        (folder / "scripts" / "run.py").write_text("print('hello')\n")
        (folder / "references").mkdir()
        (folder / "references" / "guide.md").write_text(_paragraph(rng, 200))


def make_tree(base: Path, count: int, per_root: int = 2000) -> Locations:
    """`count` skills spread over tiers of at most `per_root` (Claude Code's per-root bound)."""
    rng = random.Random(count)
    roots = [base / "managed" / ".claude" / "skills", base / "user" / "skills", base / "proj" / ".claude" / "skills"]
    add_dirs = []
    while len(roots) * per_root < count:
        extra = base / f"extra{len(add_dirs)}"
        add_dirs.append(extra)
        roots.append(extra / ".claude" / "skills")
    (base / "proj" / ".git").mkdir(parents=True)
    for i in range(count):
        make_skill(roots[i // per_root] / f"skill-{i:05d}", f"skill-{i:05d}", rng)
    return Locations(
        project=base / "proj",
        user_dir=base / "user",
        managed_dir=base / "managed",
        add_dirs=tuple(add_dirs),
        bundled=False,
        environ={},
    )


def floor(base: Path) -> int:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    n = 0
    for dirpath, _dirs, files in os.walk(base):
        if "SKILL.md" in files:
            with open(os.path.join(dirpath, "SKILL.md"), "rb") as fh:
                text = fh.read().decode("utf-8")
            if text.startswith("---"):
                end = text.find("\n---", 3)
                yaml.load(text[4:end], Loader=loader)
            n += 1
    return n


def paired(floor_fn, engine_fn, runs: int) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Floor and engine run back to back, `runs` times. This machine's speed drifts by up to
    2x over seconds (shared cores), so the ratio is the median of the ratios of each pair,
    measured moments apart; the times printed are the best of each."""
    pairs = []
    for _ in range(runs):
        times = []
        for fn in (floor_fn, engine_fn):
            gc.collect()
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        pairs.append(times)
    ratio = statistics.median(e / f for f, e in pairs)
    return min(f for f, _ in pairs), min(e for _, e in pairs), ratio


def measure(count: int, runs: int) -> tuple[float, float, float]:
    base = Path(tempfile.mkdtemp(prefix=f"skilldeck-bench-{count}-"))
    try:
        loc = make_tree(base, count)
        workspace = Workspace(loc)
        assert floor(base) == count
        loaded = len(workspace.load().skills)
        assert loaded == count, (loaded, count)
        # What the app waits for after a load: the catalog and the listing it shows (settings,
        # usage scores from ~/.claude.json, labels, budget).
        return paired(lambda: floor(base), lambda: workspace.listing(workspace.load()), runs)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def held_memory(count: int) -> float:
    base = Path(tempfile.mkdtemp(prefix="skilldeck-mem-"))
    try:
        workspace = Workspace(make_tree(base, count))
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        catalog = workspace.load()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert len(catalog.skills) == count
        return (after - before) / 1e6
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    print(f"{'skills':>7} {'floor ms':>9} {'engine ms':>10} {'ratio':>6}  goal  (ratio: median of back-to-back pairs)")
    results = {}
    for count in (2000, 10000):
        t_floor, t_engine, ratio = measure(count, args.runs if count == 2000 else max(3, args.runs // 2))
        results[count] = (t_floor, t_engine)
        goal = "<= 1.5" if count == 2000 else ""
        print(f"{count:>7} {t_floor * 1000:>9.1f} {t_engine * 1000:>10.1f} {ratio:>6.2f}  {goal}")
    growth = results[10000][1] / results[2000][1]
    floor_growth = results[10000][0] / results[2000][0]
    print(f"growth 2,000 -> 10,000: engine x{growth:.2f}, floor x{floor_growth:.2f} (linear: x5.00)")
    mb = held_memory(10000)
    print(f"memory held by a 10,000-skill catalog: {mb:.1f} MB (goal < 60 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
