"""Record one comparison run: plan it from the user's locations, start inside.py in a private
user, network and mount namespace (or, only when the user allows it, without one; seal.py), and
read back what Claude Code sent, reported and logged. Never longer than the timeout, the check
for namespaces and a second try included."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog.diagnostics import Sink
from ..catalog.locations import Locations
from ..catalog.sources.plugins.installed import installed_plugins
from ..listing.build import BUDGET_ENV
from .claude import ClaudeCode
from .seal import RECORD_TIMEOUT_S, CompareError, can_contain, refusal, run_sealed

# The recording's share of the comparison's 60 s (seal.COMPARE_TIMEOUT_S); the probes have the rest.
TIMEOUT_S = RECORD_TIMEOUT_S
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Run:
    """One `claude -p` as recorded: the request bodies, the init and result events, the debug log."""

    key: str
    exit: int | None
    seconds: float
    requests: list[dict[str, Any]]
    init: dict[str, Any]
    result: dict[str, Any]
    debug: list[str]
    stderr: str
    # The keys its requests carried: "dummy", "other" or "none".
    keys: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Recorded:
    runs: dict[str, Run]
    contained: bool
    overlaid: list[str] = field(default_factory=list)


def writable_folders(locations: Locations) -> list[Path]:
    """Every folder a run could write to, which is every folder it reads skills or settings from:
    home, config folder, project (its git root, and the main checkout of a linked worktree), the
    `--add-dir` and `--plugin-dir` folders, the installed plugins it loads, the managed folder,
    and the temporary folder (Claude Code leaves files there too). Each goes behind an overlay."""
    env = locations.environ
    folders = [Path(env.get("HOME") or Path.home()), locations.user, locations.project, *locations.add_dirs]
    # A plugin's folder is wherever the user keeps it (a --plugin-dir, a local marketplace): its
    # skills are read there, and so anything Claude Code or the plugin writes would land there.
    folders += [*locations.plugin_dirs, *(ref.root for ref in installed_plugins(locations, Sink()))]
    folders += [locations.managed, Path(tempfile.gettempdir())]
    folders += [f for f in (locations.git_root(), locations.main_worktree()) if f is not None]
    return list(dict.fromkeys(Path(os.path.abspath(f)) for f in folders))


def plan_for(claude: ClaudeCode, locations: Locations, prompts: list[tuple[str, str]], timeout: float) -> dict[str, Any]:
    args: list[str] = []
    for folder in locations.add_dirs:
        args += ["--add-dir", str(folder)]
    for folder in locations.plugin_dirs:
        args += ["--plugin-dir", str(folder)]
    environ = dict(locations.environ)
    home = Path(environ.get("HOME") or Path.home())
    if locations.user != home / ".claude":
        # Claude Code reads the user tier where skilldeck does (set only then: with it set, Claude
        # Code also reads its .claude.json from there instead of the home).
        environ["CLAUDE_CONFIG_DIR"] = str(locations.user)
    runs: list[dict[str, Any]] = [{"key": key, "prompt": prompt, "cwd": str(locations.project), "environ": environ, "args": args}
            for key, prompt in prompts]  # fmt: skip
    # Claude Code's own entries, in an empty home: all of them whole (a budget no listing of its
    # own reaches), and at a budget of 1, where only those it always keeps whole keep their text.
    for key, budget in (("baseline", "1000000000"), ("own_fixed", "1")):
        runs.append({"key": key, "baseline": True, "prompt": "hi", "cwd": "", "args": [],
                     "environ": {**environ, BUDGET_ENV: budget}})  # fmt: skip
    return {"claude": str(claude.path), "timeout": max(1.0, timeout - 3),
            "overlays": [str(f) for f in writable_folders(locations)], "runs": runs}  # fmt: skip


def record(
    claude: ClaudeCode,
    locations: Locations,
    prompts: list[tuple[str, str]],
    *,
    allow_network: bool = False,
    progress: Progress | None = None,
    timeout: float = TIMEOUT_S,
    stop: threading.Event | None = None,
) -> Recorded:
    """Run `claude -p PROMPT` once per (key, prompt), plus two baselines in an empty home
    ("baseline" and "own_fixed", see plan_for), side by side. Contained unless the kernel cannot
    (then CompareError, unless `allow_network`). All of it, the check for namespaces and a second
    try included, within `timeout`."""
    say = progress or (lambda text: None)
    deadline = time.monotonic() + timeout
    why_not = can_contain(timeout)
    if why_not is not None and not allow_network:
        raise refusal(why_not)
    contain = why_not is None
    stop = stop or threading.Event()
    answer = _record(claude, locations, prompts, contain, _left(deadline, timeout), say, stop)
    if "error" in answer and contain and allow_network:
        # The namespace was made but the overlays could not be mounted (an old kernel, a file
        # system overlayfs refuses): the user allowed an uncontained run.
        say(f"the sandbox failed ({answer['error']}); running without it as --allow-network allows")
        contain = False
        answer = _record(claude, locations, prompts, contain, _left(deadline, timeout), say, stop)
    if "error" in answer:
        hint = "" if allow_network else "; pass --allow-network to run it without the sandbox"
        raise CompareError(f"{answer['error']}{hint}")
    runs = {}
    for raw in answer.get("runs", []):
        if "error" in raw:
            raise CompareError(str(raw["error"]))
        runs[raw["key"]] = Run(raw["key"], raw["exit"], raw["seconds"], raw["requests"], raw["init"], raw["result"],
                               raw["debug"], raw["stderr"], raw.get("keys", []))  # fmt: skip
    timed_out = [k for k, r in runs.items() if r.exit is None]
    if timed_out:
        raise CompareError(f"Claude Code did not finish within {timeout:.0f} s ({', '.join(timed_out)}); it was stopped")
    return Recorded(runs, contain, list(answer.get("overlaid", [])))


def _left(deadline: float, timeout: float) -> float:
    """What is left of the budget; CompareError once it is spent."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise CompareError(f"the comparison run did not finish within {timeout:.0f} s; it was stopped")
    return left


def _record(
    claude: ClaudeCode,
    locations: Locations,
    prompts: list[tuple[str, str]],
    contain: bool,
    timeout: float,
    say: Progress,
    stop: threading.Event,
) -> dict[str, Any]:
    plan = plan_for(claude, locations, prompts, timeout)
    say(f"running Claude Code {claude.version} {'in a private namespace' if contain else 'ON THE HOST NETWORK'}")
    return run_sealed(plan, contain, timeout, stop)
