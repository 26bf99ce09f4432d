"""`skilldeck list --agent X --json` against its floor on 1,000 and 15,000 skills (`make bench`).

The catalog is one project `.agents/skills` folder, the folder every agent but Claude Code reads
(git-initialised, so that Codex CLI, OpenCode and Copilot CLI stop their walk up at it), built once
in tests/bench/.data/. The floor is floor_list.py's reader (list the folder, read every SKILL.md,
PyYAML's C loader, print name, description and path) run as a whole process on the same folder;
each agent's `list --json` runs as a whole process beside it. Each figure is the best of three,
back to back, so that both sides see the same machine. Goal (issue 36): within 1.5x the floor.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / ".data"
AGENTS = ("codex", "gemini", "opencode", "copilot")
GOAL = 1.5


def catalog(count: int) -> Path:
    project = DATA / f"agents-{count}"
    skills = project / ".agents" / "skills"
    done = project / ".built"
    if done.exists():
        return project
    skills.mkdir(parents=True, exist_ok=True)
    (project / ".git").mkdir(exist_ok=True)
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    for n in range(count):
        name = f"skill-{n:05d}"
        folder = skills / name
        folder.mkdir(exist_ok=True)
        description = f"Does task {n} of the catalog, reading the files it is given and writes a short report about them."
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nBody of {name}.\n")
    done.write_text("ok\n")
    return project


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one whole process (its output to /dev/null)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[:5]} failed")
    return elapsed, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--counts", type=int, nargs="*", default=[1_000, 15_000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    py = sys.executable
    skilldeck = str(Path(py).parent / "skilldeck")
    home = DATA / "agents-home"
    home.mkdir(parents=True, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "GEMINI_CLI_TRUST_WORKSPACE": "true", "LANG": "C.UTF-8"}  # fmt: skip
    print(f"skilldeck list --agent X --json against the floor, whole processes ({os.cpu_count()} cores), best of {args.runs}")
    print(f"{'skills':>7} {'agent':>9} {'floor s':>8} {'ours s':>7} {'ratio':>6} {'ours MB':>8}  goal <= {GOAL}x")
    worst = 0.0
    for count in args.counts:
        project = catalog(count)
        reader = f"import sys, json; sys.path.insert(0, {str(HERE)!r}); import floor_list; print(json.dumps(floor_list.read(sys.argv[1])))"
        floor = [py, "-c", reader, str(project / ".agents" / "skills")]
        for agent in AGENTS:
            ours = [skilldeck, "list", "--json", "--agent", agent, "--project", str(project)]
            pairs = [(run(floor, env), run(ours, env)) for _ in range(args.runs)]
            floor_s = min(f[0] for f, _ in pairs)
            ours_s = min(o[0] for _, o in pairs)
            ratio = ours_s / floor_s
            worst = max(worst, ratio) if count >= 15_000 else worst
            print(f"{count:>7,} {agent:>9} {floor_s:>8.2f} {ours_s:>7.2f} {ratio:>6.2f} {max(o[1] for _, o in pairs):>8.0f}")
    print(f"worst ratio at 15,000: {worst:.2f}x ({'meets' if worst <= GOAL else 'misses'} the {GOAL}x goal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
