"""The process that records: started by seal.py (inside `unshare -n -r -m` when contained), it
reads a plan as JSON on stdin, sets the sandbox up, runs each planned `claude` against its own
recording server, side by side, and writes what each sent, reported and logged as JSON on
stdout. Everything it keeps is bounded; a run past its deadline is killed with its group.
A plan of kind "probe" (claude.py) runs `claude --version` and `claude --help` the same way,
with a throwaway home, and answers what each printed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .claude import XDG, child_environ
from .sandbox import SandboxError, contain
from .server import RecordingServer

# What is read back of a run's own output: the stream (its init event and result), the debug
# log (what it skipped and why), the last of stderr (a login request, a crash).
STREAM_BYTES = 8 * 1024 * 1024
DEBUG_BYTES = 8 * 1024 * 1024
STDERR_BYTES = 8 * 1024


def read_bounded(path: Path, limit: int, tail: bool = False) -> str:
    try:
        with open(path, "rb") as handle:
            if tail:
                handle.seek(max(0, os.fstat(handle.fileno()).st_size - limit))
            return handle.read(limit).decode(errors="replace")
    except OSError:
        return ""


def stream_events(text: str) -> dict[str, dict[str, Any]]:
    """The stream-json init and result events (the first of each)."""
    out: dict[str, dict[str, Any]] = {}
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            kind = "init" if (event.get("type"), event.get("subtype")) == ("system", "init") else event.get("type")
            if kind in ("init", "result") and kind not in out:
                out[kind] = event
    return out


def run_one(plan: dict[str, Any], run: dict[str, Any], folder: Path, deadline: float) -> dict[str, Any]:
    folder.mkdir(parents=True)
    debug, out, err = folder / "debug.log", folder / "stream.jsonl", folder / "stderr.txt"
    with RecordingServer() as server:
        env = child_environ(run["environ"], server.url)
        # Flag settings outrank every settings file: no hook runs, no `!` command of a skill runs,
        # and a settings `env` cannot point the run elsewhere or give it another key.
        settings = {"disableAllHooks": True, "disableSkillShellExecution": True,
                    "env": {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": env["ANTHROPIC_API_KEY"]}}  # fmt: skip
        argv = [plan["claude"], "-p", run["prompt"], "--output-format", "stream-json", "--verbose", "--debug-file", str(debug),
                "--no-session-persistence", "--strict-mcp-config", "--settings", json.dumps(settings), *run["args"]]  # fmt: skip
        started = time.monotonic()
        with open(out, "wb") as stdout, open(err, "wb") as stderr:
            proc = subprocess.Popen(
                argv, cwd=run["cwd"], env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, start_new_session=True
            )
            status = _wait_group(proc, max(1.0, deadline - time.monotonic()))
        requests = list(server.requests)
    events = stream_events(read_bounded(out, STREAM_BYTES))
    return {
        "key": run["key"],
        "exit": status,
        "seconds": round(time.monotonic() - started, 2),
        "requests": requests,
        "dropped": server.dropped,
        "keys": sorted(server.keys),
        "init": events.get("init", {}),
        "result": events.get("result", {}),
        "debug": read_bounded(debug, DEBUG_BYTES).splitlines(),
        "stderr": read_bounded(err, STDERR_BYTES, tail=True),
    }


def baseline_run(run: dict[str, Any], scratch: Path) -> dict[str, Any]:
    """An empty home and project: what Claude Code lists of its own and which reminders it adds.
    Each baseline run has its own (two may run side by side)."""
    empty = scratch / f"empty-{run['key']}"
    home, project = empty / "home", empty / "project"
    (home / ".claude").mkdir(parents=True)
    project.mkdir(parents=True)
    environ = {k: v for k, v in run["environ"].items() if k != "CLAUDE_CONFIG_DIR"}
    return {**run, "cwd": str(project), "environ": {**environ, "HOME": str(home)}, "args": []}


def seal(plan: dict[str, Any], scratch: Path) -> list[str] | str:
    """The folders put behind overlays (none when not contained), or why the sandbox failed."""
    if not plan["contain"]:
        return []
    try:
        return [str(p) for p in contain(scratch, [Path(f) for f in plan["overlays"]])]
    except (SandboxError, OSError) as exc:
        return f"cannot set the sandbox up: {exc}"


def probe_one(claude: str, flag: str, env: dict[str, str], folder: Path, limit: int, deadline: float) -> str | None:
    """What `claude FLAG` printed (its first `limit` bytes), or None when it did not finish in time."""
    out = folder / f"probe{flag}.txt"
    with open(out, "wb") as stdout:
        proc = subprocess.Popen([claude, flag], cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=stdout,
                                stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        finished = _wait_group(proc, max(0.1, deadline - time.monotonic())) is not None
    return read_bounded(out, limit) if finished else None


def _wait_group(proc: subprocess.Popen[bytes], timeout: float) -> int | None:
    """The exit status of `proc` (started in a session of its own), None when it outlived
    `timeout`. Whatever it started goes with it (its group), finished or not."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def probe(plan: dict[str, Any], scratch: Path) -> dict[str, Any]:
    overlaid = seal(plan, scratch)
    if isinstance(overlaid, str):
        return {"error": overlaid}
    # A home of its own, empty: a probe has no need of the user's config, and whatever it writes
    # there goes with the scratch folder.
    home = scratch / "probe-home"
    home.mkdir()
    env = {k: v for k, v in child_environ(plan["environ"], "http://127.0.0.1:9").items() if k not in ("CLAUDE_CONFIG_DIR", *XDG)}
    env["HOME"] = str(home)
    deadline = time.monotonic() + plan["timeout"]
    said: dict[str, str] = {}
    for flag in plan["flags"]:
        try:
            text = probe_one(plan["claude"], flag, env, home, int(plan["bytes"]), deadline)
        except OSError as exc:
            return {"error": f"{flag} failed: {exc}"}
        if text is None:
            return {"error": f"{flag} did not finish within {plan['timeout']:.0f} s; it was stopped"}
        said[flag] = text
    return {"contained": plan["contain"], "overlaid": overlaid, "probes": said}


def record(plan: dict[str, Any], scratch: Path) -> dict[str, Any]:
    overlaid = seal(plan, scratch)
    if isinstance(overlaid, str):
        return {"error": overlaid}
    deadline = time.monotonic() + plan["timeout"]
    runs = [baseline_run(r, scratch) if r.get("baseline") else r for r in plan["runs"]]
    results: list[dict[str, Any]] = [{} for _ in runs]

    def work(index: int) -> None:
        try:
            results[index] = run_one(plan, runs[index], scratch / f"run{index}", deadline)
        except OSError as exc:
            results[index] = {"key": runs[index]["key"], "error": f"{plan['claude']}: {exc}"}

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(runs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"contained": plan["contain"], "overlaid": overlaid, "runs": results}


def main() -> int:
    plan = json.loads(sys.stdin.read(16 * 1024 * 1024))
    work = probe if plan.get("kind") == "probe" else record
    if plan["contain"]:
        # Made before the tmpfs covers it: an empty folder outside every overlaid one.
        scratch = Path(plan["scratch"])
        answer = work(plan, scratch)
    else:
        with tempfile.TemporaryDirectory(prefix="skilldeck-compare-") as tmp:
            answer = work(plan, Path(tmp))
    sys.stdout.write(json.dumps(answer))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
