"""One shell command with a bound on time and output, for a skill's `!` commands.

A skill comes from a repository somebody cloned, so its command may never end (`yes`), may leave
a background child holding the output pipe open (`sleep 600 &`), may read the terminal, or may
print gigabytes. The command runs in its own session (process group); whatever ends the call
(the command exits, the timeout, the output cap) the whole group is killed, so nothing it
started outlives the call. Output is capped while it is read, never after.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..permissions.bash.gitconfig import guard_env

TIMEOUT_S = 120.0  # Claude Code's timeout for a `!` command
OUTPUT_CAP = 30_000  # characters kept; more is cut and says so
# After the command itself exits, a child it left in the background may still hold the pipe:
# read what is already there for this long, then stop and kill the group.
AFTER_EXIT_S = 0.5
_READ = 65_536


@dataclass(frozen=True)
class ShellResult:
    output: str  # stdout and stderr merged, trailing newlines removed, cut at the cap
    exit_code: int | None  # None when we ended the command (timeout or cap) before it exited
    timed_out: bool
    cut: bool  # the output passed the cap: it was cut there (and the command stopped if still running)

    @property
    def ok(self) -> bool:
        """Exit 0, or stopped by us at the output cap (a command that prints for ever, like `yes`)."""
        return self.exit_code == 0 or (self.exit_code is None and self.cut)


def cut_note(cap: int) -> str:
    return f"\n[output cut at {cap:,} characters]"


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # every process of the group is gone already
    except PermissionError:
        pass  # a member changed user (setuid); the ones we own are gone with the signal


class CommandStop:
    """Lets the run that started a skill's commands end them from another thread (`escape` in
    the app): `stop()` kills the running command's process group at once and no command starts
    after it. The commands run in a worker thread, so the app's loop never waits on them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self.stopped = False

    def _started(self, pgid: int) -> bool:
        with self._lock:
            if not self.stopped:
                self._groups.add(pgid)
            return not self.stopped

    def _ended(self, pgid: int) -> None:
        with self._lock:
            self._groups.discard(pgid)

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            groups = list(self._groups)
        for pgid in groups:
            _kill_group(pgid)


class CommandStopped(Exception):
    """The run was stopped while (or before) a command ran."""


def run_bounded(
    command: str, cwd: Path, timeout: float = TIMEOUT_S, cap: int = OUTPUT_CAP, stop: CommandStop | None = None
) -> ShellResult:
    """Run `command` with /bin/sh in `cwd`, stdin from /dev/null, stderr merged into stdout.
    Blocks the calling thread for at most about `timeout` + AFTER_EXIT_S seconds; `stop.stop()`
    from another thread ends it at once (CommandStopped is raised)."""
    if stop is not None and stop.stopped:
        raise CommandStopped(command)
    proc = subprocess.Popen(
        ["/bin/sh", "-c", command],
        cwd=cwd,
        # A read-only git command runs with its repository's programs switched off (gitconfig.py).
        env=guard_env(command),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: one killpg ends everything it started
    )
    assert proc.stdout is not None
    if stop is not None and not stop._started(proc.pid):
        _kill_group(proc.pid)
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    # Bytes, not characters: a UTF-8 character is at most 4 bytes, so this many bytes always
    # hold `cap` characters, and reading stops there whatever the command prints.
    byte_cap = cap * 4 + 4
    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + timeout
    selector = selectors.DefaultSelector()
    selector.register(fd, selectors.EVENT_READ)
    try:
        while size < byte_cap:
            now = time.monotonic()
            if proc.poll() is not None:
                # The command is done: what a background child still writes gets a short grace.
                deadline = min(deadline, now + AFTER_EXIT_S)
            if now >= deadline:
                break
            # Wake at least every 50 ms to notice the command's exit while a child holds the pipe.
            if not selector.select(min(deadline - now, 0.05)):
                continue
            try:
                chunk = os.read(fd, min(_READ, byte_cap - size))
            except BlockingIOError:
                continue
            if not chunk:
                # Every writer closed the pipe; the command may still be exiting (or not: it may
                # have closed its output and gone on), so wait for it, within the deadline.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(max(deadline - time.monotonic(), 0))
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        selector.close()
        ended_by_us = proc.poll() is None
        _kill_group(proc.pid)
        proc.stdout.close()
        proc.wait()
        if stop is not None:
            stop._ended(proc.pid)
    if stop is not None and stop.stopped:
        raise CommandStopped(command)
    text = b"".join(chunks).decode("utf-8", "replace")
    cut = size >= byte_cap or len(text) > cap
    text = text[:cap] + cut_note(cap) if cut else text.rstrip("\n")
    return ShellResult(text, None if ended_by_us else proc.returncode, ended_by_us and not cut, cut)


# What Claude Code's Bash tool shows for a command that printed nothing.
NO_OUTPUT = "(Bash completed with no output)"
# Commands whose exit status 1 is an answer, not a failure (no match, files differ, false test):
# Claude Code reads the last command of a list or pipeline so.
_ONE_IS_AN_ANSWER = {"grep", "rg", "egrep", "fgrep", "find", "diff", "test", "["}
_SEGMENTS = re.compile(r"&&|\|\||[;|&\n]")


def _last_segment(command: str) -> str:
    """The last command of a list or pipeline (quotes followed, so `grep 'a|b'` is one)."""
    pieces: list[str] = []
    start = 0
    quote = ""
    i = 0
    while i < len(command):
        c = command[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c == "\\":
            i += 2
            continue
        elif c in "'\"":
            quote = c
        elif c == "&" and ((i and command[i - 1] in "<>") or command[i + 1 : i + 2] == ">"):
            pass  # a redirection (2>&1, &>file), not a list
        elif m := _SEGMENTS.match(command, i):
            pieces.append(command[start:i])
            i = start = m.end()
            continue
        i += 1
    pieces.append(command[start:])
    return next((p for p in reversed(pieces) if p.strip()), command)


def exit_ok(command: str, exit_code: int | None) -> bool:
    """Whether Claude Code takes this exit status of `command` as success."""
    if exit_code == 0:
        return True
    if exit_code != 1:
        return False
    words = _last_segment(command).split()
    first = words[0] if words else ""
    if first == "git":
        sub = next((w for i, w in enumerate(words[1:], 1) if not w.startswith("-") and words[i - 1] not in ("-C", "-c")), "")
        return sub in ("diff", "grep")
    return first in _ONE_IS_AN_ANSWER


def result_text(output: str) -> str:
    """A `!` command's output as it goes into the prompt: blank lines at the start and whitespace
    at the end dropped, Claude Code's note when nothing is left."""
    text = re.sub(r"\A(?:[ \t\r]*\n)+", "", output).rstrip()
    return text or NO_OUTPUT


def failure_text(output: str) -> str:
    """What follows `Shell command failed for pattern "...": ` in Claude Code's message: the
    command's output (stdout and stderr together, as it ran) after a `[stderr]` line, if any."""
    text = output.strip()
    return f"[stderr]\n{text}" if text else ""
