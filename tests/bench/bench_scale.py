"""`skilldeck list --json` against its floor at 1,000 to 50,000 real skills (`make bench`).

Each catalog is made of real skills copied under new folder names (scale_catalogs.py), as one
project's `.claude/skills` and as a marketplace of 150 plugins given with `--plugin-dir`, and
kept in tests/bench/.data/ (built once; the 50,000 ones take a minute). For each, the floor
(floor_list.py) and skilldeck run as whole processes, back to back, writing to a file: the ratio
is the median of the pairs' ratios (this machine's speed drifts over seconds), the times the
best of each, and peak memory the child's maximum resident size. Goals at 15,000: ratio <= 1.5,
peak < 150 MB. The CPU columns (user + system time, best of each, and their ratio) move less than
the wall times when other work shares the cores: the load average is printed with the table.

    python tests/bench/bench_scale.py [--sizes 1000,5000] [--runs 3]
"""

from __future__ import annotations

import argparse
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
    floor = [py, str(HERE / "floor_list.py"), "--project" if kind == "project" else "--plugin-dir", str(where)]
    ours = [py, "-m", "tui.cli.main", "list", "--json", "--no-bundled"]
    ours += ["--user-dir", str(empty / "u"), "--managed-dir", str(empty / "m")]
    ours += ["--project", str(where)] if kind == "project" else ["--project", str(empty), "--plugin-dir", str(where)]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--runs", type=int, default=3, help="pairs per catalog (one at 50,000)")
    parser.add_argument("--unbuffered", action="store_true", help="run both with PYTHONUNBUFFERED=1")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if args.unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(
        f"skilldeck list --json against the floor, whole processes ({cores} cores{load}{', unbuffered' if args.unbuffered else ''})"
    )
    print(
        f"{'catalog':>8} {'skills':>7} {'floor s':>8} {'ours s':>7} {'ratio':>6} {'floor MB':>9} {'ours MB':>8} {'json MB':>8}"
        f" {'floor cpu':>9} {'ours cpu':>8} {'cpu ratio':>9}"
    )
    for count in (int(s) for s in args.sizes.split(",")):
        for kind in ("project", "market"):
            m = measure(kind, count, 1 if count >= 50_000 else args.runs, env)
            print(
                f"{kind:>8} {count:>7,} {m['floor_s']:>8.2f} {m['ours_s']:>7.2f} {m['ratio']:>6.2f} "
                f"{m['floor_mb']:>9.0f} {m['ours_mb']:>8.0f} {m['out_mb']:>8.1f} "
                f"{m['floor_cpu']:>9.2f} {m['ours_cpu']:>8.2f} {m['ours_cpu'] / m['floor_cpu']:>9.2f}",
                flush=True,
            )
    print("goals at 15,000: ratio <= 1.5 (median of back-to-back pairs), ours MB < 150")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
