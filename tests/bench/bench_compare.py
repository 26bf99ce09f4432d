"""`skilldeck compare` on a 300-skill project, whole process, beside the floor: the same pinned
Claude Code run alone in print mode on the same project (`make bench`; issue 19's goal: under 10 s).

The project is real skills copied under new folder names (scale_catalogs.py), git-initialised,
with an empty home. compare runs Claude Code once in its sandbox, loads the catalog and diffs:
what it adds to Claude Code's own run is the sandbox, the recording server and skilldeck's load.
Needs the pinned Claude Code in .oracle/ (`make test` or `make oracle` installs it).

    python tests/bench/bench_compare.py [--skills 300] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
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

CLAUDE = REPO / ".oracle" / "node_modules" / ".bin" / "claude"
EXE = Path(sys.executable).parent / "skilldeck"
GOAL_S = 10.0


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not CLAUDE.exists():
        print(f"compare: no pinned Claude Code in {CLAUDE.parent} (make oracle installs it): skipped")
        return 0
    source = cached("project", args.skills, HERE / ".data")
    base = Path(tempfile.mkdtemp(prefix="skilldeck-compare-bench-"))
    try:
        project = base / "proj"
        shutil.copytree(source, project, symlinks=True)
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        home = base / "home"
        home.mkdir()
        env = {
            "PATH": f"{CLAUDE.parent}:/usr/bin:/bin",
            "HOME": str(home),
            "XDG_STATE_HOME": str(base / "state"),
            "LANG": "C.UTF-8",
        }
        compare = [str(EXE), "compare", "--claude", str(CLAUDE), "--project", str(project), "--no-bundled"]
        # The floor: Claude Code alone, offline, pointed at a port nothing listens on (it gives up
        # on the request at once): its own start, load and listing, which compare cannot skip.
        floor_env = env | {
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
            "ANTHROPIC_API_KEY": "dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",
        }
        floor = [str(CLAUDE), "-p", "hi", "--no-session-persistence", "--strict-mcp-config"]
        print(f"{os.cpu_count()} cores; {args.skills} skills; load average {os.getloadavg()[0]:.1f}")
        compares, floors = [], []
        for _ in range(args.runs):
            seconds, code = timed(compare, env, project)
            if code not in (0, 1):
                print(f"compare failed (exit {code}): run `skilldeck compare` in {project} to see why")
                return 1
            compares.append(seconds)
            floors.append(timed(floor, floor_env, project)[0])
        best, median = min(compares), statistics.median(compares)
        print(
            f"skilldeck compare: best {best:.1f} s, median {median:.1f} s (goal < {GOAL_S:.0f} s: "
            f"{'met' if median < GOAL_S else 'NOT met'}); Claude Code alone: best {min(floors):.1f} s"
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
