"""Start inside.py sealed off: in a fresh user, network and mount namespace (`unshare -n -r -m`)
where the kernel allows it, handed a plan as JSON, killed with its whole process group at its
deadline or when cancelled. Both the probes of `claude` (claude.py) and the recording runs
(record.py) go through here, so that no `claude` process ever starts outside the sandbox."""

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
from pathlib import Path
from typing import Any

# The whole of a comparison's time with Claude Code: finding and probing it (claude.py: the check
# for namespaces, `--version` and `--help` in one sealed process) and then recording it (record.py:
# the check again, the sealed runs, and a second try without the sandbox when allowed) share it.
COMPARE_TIMEOUT_S = 60.0
PROBE_TIMEOUT_S = 10.0
RECORD_TIMEOUT_S = COMPARE_TIMEOUT_S - PROBE_TIMEOUT_S
# How often a waiting run looks whether it was cancelled.
STOP_POLL_S = 0.1
# The longest the check for private namespaces may take (it is bounded by the caller's budget too).
CHECK_TIMEOUT_S = 10.0
# What inside.py may answer: its runs' requests are bounded there; this bounds the whole.
ANSWER_BYTES = 128 * 1024 * 1024
ENGINE_ROOT = Path(__file__).resolve().parents[2]


class CompareError(Exception):
    """The comparison cannot run (exit 2): no claude, too old, a login, no sandbox, a timeout."""


def can_contain(timeout: float = CHECK_TIMEOUT_S) -> str | None:
    """None when a private user, network and mount namespace can be made here; else why not."""
    if sys.platform != "linux":
        return "private namespaces need Linux"
    if shutil.which("unshare") is None:
        return "the unshare command is missing (util-linux)"
    try:
        probe = subprocess.run(
            ["unshare", "-n", "-r", "-m", "true"], capture_output=True, timeout=max(0.1, min(timeout, CHECK_TIMEOUT_S))
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed: {exc}"
    if probe.returncode != 0:
        return f"the kernel refuses a private namespace ({probe.stderr.decode(errors='replace').strip()[:200]})"
    return None


def refusal(why_not: str) -> CompareError:
    return CompareError(
        f"cannot run Claude Code sealed off: {why_not}. Without a private network namespace a run could reach the "
        "network and write to your files; pass --allow-network to run it anyway (hooks and MCP servers stay off)"
    )


def run_sealed(plan: dict[str, Any], contain: bool, timeout: float, stop: threading.Event | None = None) -> dict[str, Any]:
    """inside.py's JSON answer to `plan`, run in a private namespace when `contain`, with a scratch
    folder of its own (removed after); CompareError when it fails, is cancelled or runs past `timeout`."""
    scratch = Path(tempfile.mkdtemp(prefix="skilldeck-compare-"))
    try:
        plan = {**plan, "contain": contain, "scratch": str(scratch)}
        bootstrap = f"import sys; sys.path.insert(0, {str(ENGINE_ROOT)!r}); from engine.compare.inside import main; main()"
        argv = [sys.executable, "-I", "-c", bootstrap]
        if contain:
            argv = ["unshare", "-n", "-r", "-m", "--propagation", "private", *argv]
        return _run(argv, json.dumps(plan), timeout, stop or threading.Event())
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
