"""`skilldeck list --json` against its floor at 1,000 to 50,000 real skills (`make bench`).

Each catalog is made of real skills copied under new folder names (scale_catalogs.py), in four
shapes: 150 marketplace plugins installed and enabled as `/plugin install` leaves them
(`installed`: installed_plugins.json, enabledPlugins, the marketplace's clone), the same with a
name-mismatch diagnostic per skill (`mismatch`), the 150 plugins given as one `--plugin-dir`
(`market`), and one project's `.claude/skills` (`project`). They are kept in tests/bench/.data/
(built once; the 50,000 ones take a minute). For each, the floor (floor_list.py: list, read, C
YAML, print) and skilldeck run as whole processes, back to back, writing to a file: the ratio is
the median of the pairs' ratios (this machine's speed drifts over seconds), the times the best of
each, and peak memory the child's maximum resident size. The CPU columns (user + system time,
best of each, and their ratio) move less than the wall times when other work shares the cores: the
load average is printed with the table. The sources are compiled to bytecode first, as `pip
install` leaves them: with PYTHONDONTWRITEBYTECODE set (as in some shells and containers) every
run would compile skilldeck's hundred modules again, some 50 ms the floor never pays.

Goals (issue 39): at 15,000 skills a ratio <= 1.5 in every shape; and a cost that grows no faster
than the floor's: the growth column is what each skill added since the smallest size cost over
what it cost the floor (CPU), within the same 1.5.

    python tests/bench/bench_scale.py [--sizes 1000,5000,15000] [--runs 3] [--kinds installed,project]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

from scale_catalogs import cached  # noqa: E402

DATA = HERE / ".data"
SIZES = (1_000, 5_000, 15_000, 50_000)
KINDS = ("installed", "mismatch", "market", "project")
LABELS = {
    "installed": "150 installed and enabled plugins",
    "mismatch": "the same, a name-mismatch per skill",
    "market": "the 150 plugins as one --plugin-dir",
    "project": "one project .claude/skills",
}
GOAL = 1.5


def run(argv: list[str], out: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds, peak resident MB and CPU seconds of one whole process."""
    with open(out, "wb") as fh:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.DEVNULL, cwd=REPO, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):  # 1: the catalog has error diagnostics (some real skills do)
        raise SystemExit(f"{argv[:4]} failed with {proc.returncode}")
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def commands(kind: str, where: Path, empty: Path) -> tuple[list[str], list[str]]:
    py = sys.executable
    config = kind in ("installed", "mismatch")
    flag = "--installed" if config else {"project": "--project", "market": "--plugin-dir"}[kind]
    floor = [py, str(HERE / "floor_list.py"), flag, str(where)]
    ours = [py, "-m", "tui.cli.main", "list", "--json", "--no-bundled", "--managed-dir", str(empty / "m")]
    ours += ["--user-dir", str(where if config else empty / "u")]
    ours += ["--project", str(where)] if kind == "project" else ["--project", str(empty)]
    ours += ["--plugin-dir", str(where)] if kind == "market" else []
    return floor, ours


def measure(kind: str, count: int, runs: int, env: dict[str, str]) -> dict[str, float]:
    where = cached(kind, count, DATA)
    with tempfile.TemporaryDirectory(prefix="skilldeck-bench-") as tmp:
        empty = Path(tmp)
        floor, ours = commands(kind, where, empty)
        pairs = []
        for _ in range(runs):
            pairs.append((run(floor, empty / "floor.json", env), run(ours, empty / "ours.json", env)))
        size = (empty / "ours.json").stat().st_size / 1e6
    return {
        "floor_s": min(f[0] for f, _ in pairs),
        "ours_s": min(o[0] for _, o in pairs),
        "ratio": statistics.median(o[0] / f[0] for f, o in pairs),
        "floor_mb": max(f[1] for f, _ in pairs),
        "ours_mb": max(o[1] for _, o in pairs),
        "out_mb": size,
        "floor_cpu": min(f[2] for f, _ in pairs),
        "ours_cpu": min(o[2] for _, o in pairs),
    }


def growth(small: dict[str, float], large: dict[str, float]) -> float:
    """What the skills between two sizes added to skilldeck's CPU time over what they added to the floor's."""
    added = large["floor_cpu"] - small["floor_cpu"]
    return (large["ours_cpu"] - small["ours_cpu"]) / added if added > 0 else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--runs", type=int, default=3, help="pairs per catalog (one at 50,000)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"of {', '.join(KINDS)}")
    parser.add_argument("--unbuffered", action="store_true", help="run both with PYTHONUNBUFFERED=1")
    args = parser.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    for package in ("engine", "tui"):
        compileall.compile_dir(REPO / package, quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if args.unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(
        f"skilldeck list --json against the floor, whole processes ({cores} cores{load}{', unbuffered' if args.unbuffered else ''})"
    )
    print(
        f"{'catalog':>9} {'skills':>7} {'floor s':>8} {'ours s':>7} {'ratio':>6} {'floor MB':>9} {'ours MB':>8} {'json MB':>8}"
        f" {'floor cpu':>9} {'ours cpu':>8} {'cpu ratio':>9} {'growth':>6}"
    )
    sizes = [int(s) for s in args.sizes.split(",")]
    found: dict[tuple[str, int], dict[str, float]] = {}
    for count in sizes:
        for kind in kinds:
            m = found[kind, count] = measure(kind, count, 1 if count >= 50_000 else args.runs, env)
            grew = growth(found[kind, sizes[0]], m) if count != sizes[0] else float("nan")
            print(
                f"{kind:>9} {count:>7,} {m['floor_s']:>8.2f} {m['ours_s']:>7.2f} {m['ratio']:>6.2f} "
                f"{m['floor_mb']:>9.0f} {m['ours_mb']:>8.0f} {m['out_mb']:>8.1f} "
                f"{m['floor_cpu']:>9.2f} {m['ours_cpu']:>8.2f} {m['ours_cpu'] / m['floor_cpu']:>9.2f}"
                + (f" {grew:>6.2f}" if count != sizes[0] else f" {'':>6}"),
                flush=True,
            )
    print(f"growth: CPU skilldeck spent on the skills added since {sizes[0]:,}, over the floor's")
    summary(found, sizes, kinds)
    return 0


def summary(found: dict[tuple[str, int], dict[str, float]], sizes: list[int], kinds: list[str]) -> None:
    """Issue 39's figures, each beside its floor from the same run and its goal."""
    print("\nissue 39: list --json against the floor (walk + read + C YAML), same run")
    top = 15_000 if 15_000 in sizes else sizes[-1]
    for kind in kinds:
        if (kind, top) not in found:
            continue
        m = found[kind, top]
        met = "met" if m["ratio"] <= GOAL else "NOT met"
        print(
            f"  {top:,} skills, {LABELS[kind]:<38} {m['ours_s']:5.2f} s vs {m['floor_s']:5.2f} s = {m['ratio']:.2f}x "
            f"(CPU {m['ours_cpu'] / m['floor_cpu']:.2f}x), {m['ours_mb']:.0f} MB   goal <= {GOAL}: {met}"
        )
    for kind in kinds:
        small = [n for n in sizes if n < top and (kind, n) in found]
        if not small:
            continue
        ratios = ", ".join(f"{found[kind, n]['ratio']:.2f}x at {n:,}" for n in small)
        grew = [growth(found[kind, sizes[0]], found[kind, n]) for n in sizes[1:] if (kind, n) in found and n <= top]
        flat = all(g <= GOAL for g in grew)
        print(
            f"  {LABELS[kind]:<38} {ratios}; each added skill {', '.join(f'{g:.2f}x' for g in grew)} the floor's"
            f"   goal: no faster than the floor (<= {GOAL}): {'met' if flat else 'NOT met'}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
