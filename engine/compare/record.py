"""Record one comparison run: plan it from the user's locations, start inside.py in a private
user, network and mount namespace (or, only when the user allows it, without one), and read
back what Claude Code sent, reported and logged. Never longer than the timeout."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..locations import Locations
from .claude import ClaudeCode, CompareError

TIMEOUT_S = 60.0
# How often a waiting run looks whether it was cancelled.
STOP_POLL_S = 0.1
# What inside.py may answer: its runs' requests are bounded there; this bounds the whole.
ANSWER_BYTES = 128 * 1024 * 1024
ENGINE_ROOT = Path(__file__).resolve().parents[2]
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


def can_contain() -> str | None:
    """None when a private user, network and mount namespace can be made here; else why not."""
    if sys.platform != "linux":
        return "private namespaces need Linux"
    if shutil.which("unshare") is None:
        return "the unshare command is missing (util-linux)"
    try:
        probe = subprocess.run(["unshare", "-n", "-r", "-m", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed: {exc}"
    if probe.returncode != 0:
        return f"the kernel refuses a private namespace ({probe.stderr.decode(errors='replace').strip()[:200]})"
    return None


def writable_folders(locations: Locations) -> list[Path]:
    """Every folder a run could write to: home, config folder, project (its git root), the extra
    folders it is given, and the temporary folder (Claude Code leaves files there too)."""
    env = locations.environ
    folders = [Path(env.get("HOME") or Path.home()), locations.user, locations.project, *locations.add_dirs]
    folders.append(Path(tempfile.gettempdir()))
    root = locations.git_root()
    if root is not None:
        folders.append(root)
    return [Path(os.path.abspath(f)) for f in folders]


def plan_for(
    claude: ClaudeCode, locations: Locations, prompts: list[tuple[str, str]], contain: bool, scratch: Path, timeout: float
) -> dict[str, Any]:
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
    runs.append({"key": "baseline", "baseline": True, "prompt": "hi", "cwd": "", "environ": environ, "args": []})
    return {"claude": str(claude.path), "contain": contain, "scratch": str(scratch), "timeout": max(1.0, timeout - 3),
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
    """Run `claude -p PROMPT` once per (key, prompt), plus a baseline in an empty home, side by
    side. Contained unless the kernel cannot (then CompareError, unless `allow_network`)."""
    say = progress or (lambda text: None)
    why_not = can_contain()
    if why_not is not None and not allow_network:
        raise CompareError(
            f"cannot run Claude Code sealed off: {why_not}. Without a private network namespace a run could reach the "
            "network and write to your files; pass --allow-network to run it anyway (hooks and MCP servers stay off)"
        )
    contain = why_not is None
    stop = stop or threading.Event()
    answer = _record(claude, locations, prompts, contain, timeout, say, stop)
    if "error" in answer and contain and allow_network:
        # The namespace was made but the overlays could not be mounted (an old kernel, a file
        # system overlayfs refuses): the user allowed an uncontained run.
        say(f"the sandbox failed ({answer['error']}); running without it as --allow-network allows")
        contain = False
        answer = _record(claude, locations, prompts, contain, timeout, say, stop)
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


def _record(
    claude: ClaudeCode,
    locations: Locations,
    prompts: list[tuple[str, str]],
    contain: bool,
    timeout: float,
    say: Progress,
    stop: threading.Event,
) -> dict[str, Any]:
    scratch = Path(tempfile.mkdtemp(prefix="skilldeck-compare-"))
    try:
        plan = plan_for(claude, locations, prompts, contain, scratch, timeout)
        bootstrap = f"import sys; sys.path.insert(0, {str(ENGINE_ROOT)!r}); from engine.compare.inside import main; main()"
        argv = [sys.executable, "-I", "-c", bootstrap]
        if contain:
            argv = ["unshare", "-n", "-r", "-m", "--propagation", "private", *argv]
        say(f"running Claude Code {claude.version} {'in a private namespace' if contain else 'ON THE HOST NETWORK'}")
        return _run(argv, json.dumps(plan), timeout, stop)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _wait(proc: subprocess.Popen[bytes], plan: bytes, timeout: float, stop: threading.Event) -> None:
    """Hand the plan over and wait for the run, looking every STOP_POLL_S whether it was cancelled
    (the caller then kills its process group)."""
    deadline = time.monotonic() + timeout
    given: bytes | None = plan
    while True:
        try:
            # Retrying communicate() after its timeout is supported; the input goes once.
            proc.communicate(given, timeout=max(0.0, min(STOP_POLL_S, deadline - time.monotonic())))
            return
        except subprocess.TimeoutExpired:
            given = None
        if stop.is_set():
            raise CompareError("the comparison was cancelled; Claude Code was stopped")
        if time.monotonic() >= deadline:
            raise CompareError(f"the comparison run did not finish within {timeout:.0f} s; it was stopped")


def _run(argv: list[str], plan: str, timeout: float, stop: threading.Event) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=err, start_new_session=True)
        try:
            _wait(proc, plan.encode(), timeout, stop)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        out.seek(0)
        text = out.read(ANSWER_BYTES + 1)
        if proc.returncode != 0 or not text:
            err.seek(0)
            raise CompareError(f"the comparison run failed: {err.read(4000).decode(errors='replace').strip()[-800:]}")
    if len(text) > ANSWER_BYTES:
        raise CompareError("Claude Code sent more than skilldeck reads back")
    try:
        answer = json.loads(text)
    except ValueError:
        raise CompareError("the comparison run answered no JSON") from None
    return answer if isinstance(answer, dict) else {"error": "the comparison run answered no JSON object"}
