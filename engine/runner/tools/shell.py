"""Bash: one command in the working directory, bounded in time and in output.

The command runs in its own session (process group). Everything it starts inherits the output
pipe, so waiting for end-of-file would wait for the last background child (`sleep 100 &`), and
reading everything before cutting would let `yes` fill the memory. So the output is read as it
streams and kept only up to the cap (the rest is counted and dropped); the call ends when bash
itself exits (plus a short grace for what is still in the pipe), at the timeout, or on
cancellation; and at each of those ends the whole group is ended: SIGTERM, then SIGKILL after a
short grace. A process that leaves the group on purpose (setsid) is out of reach: that would
take a cgroup or a container.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from typing import Any

from ...permissions.bash.gitconfig import guard_env
from .base import ToolContext, ToolResult, schema

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
# Claude Code's default (BASH_MAX_OUTPUT_LENGTH): 30,000 characters. Counted in bytes here, which
# is the same for ASCII and never more characters than that.
OUTPUT_CAP = 30_000
# After SIGTERM, how long the group has to exit before SIGKILL.
TERM_GRACE = 1.0
# After bash exits, how long output still in the pipe (or from a child about to finish) is read.
DRAIN_GRACE = 0.3
CHUNK = 65_536


def _signal_group(pgid: int, sig: int) -> bool:
    """Send `sig` to the group; False when no process of it is left."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class _Protocol(asyncio.subprocess.SubprocessStreamProtocol):
    """Marks when bash itself exits. (Python 3.11's `Process.wait()` also waits for every pipe to
    close, that is for the last background child: exactly the wait this tool must not make.)"""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=CHUNK, loop=loop)
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


async def _end_group(pgid: int, exited: asyncio.Event, grace: float) -> None:
    """SIGTERM the command's group, then SIGKILL whatever is left after `grace` seconds."""
    if grace > 0 and _signal_group(pgid, signal.SIGTERM):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(exited.wait(), grace)
    _signal_group(pgid, signal.SIGKILL)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(exited.wait(), grace or TERM_GRACE)


class _Collector:
    """Reads the pipe as it streams; keeps the first `cap` bytes and counts the rest."""

    def __init__(self, stream: asyncio.StreamReader, cap: int) -> None:
        self.stream = stream
        self.cap = cap
        self.kept = bytearray()
        self.dropped = 0
        self.eof = False

    async def run(self) -> None:
        while chunk := await self.stream.read(CHUNK):
            room = self.cap - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]
            self.dropped += max(len(chunk) - max(room, 0), 0)
        self.eof = True


def _timeout_seconds(value: Any) -> float:
    try:
        ms = float(value) if value not in (None, "", 0) else DEFAULT_TIMEOUT_MS
    except (TypeError, ValueError):
        ms = DEFAULT_TIMEOUT_MS
    if ms != ms or ms <= 0:  # NaN or a negative number: the default
        ms = DEFAULT_TIMEOUT_MS
    return min(ms, MAX_TIMEOUT_MS) / 1000


class BashTool:
    name = "Bash"
    description = "Executes a bash command in the working directory, with an optional timeout in milliseconds (max 600000)."
    input_schema = schema(
        ["command"],
        command={"type": "string", "description": "The command to execute"},
        timeout={"type": "number", "description": "Optional timeout in milliseconds (max 600000)"},
        description={"type": "string", "description": "What this command does, in 5-10 words"},
    )

    def __init__(self, output_cap: int = OUTPUT_CAP) -> None:
        self.output_cap = output_cap

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        command = tool_input.get("command")
        if not isinstance(command, str) or not command.strip():
            return ToolResult("Bash needs a `command` string.", True)
        timeout = _timeout_seconds(tool_input.get("timeout"))
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.subprocess_exec(
            lambda: _Protocol(loop), "/bin/bash", "-c", command,
            cwd=ctx.cwd, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
            # A read-only git command runs with its repository's programs switched off (gitconfig.py).
            env=guard_env(command),
        )  # fmt: skip
        pgid = transport.get_pid()
        assert protocol.stdout is not None
        collector = _Collector(protocol.stdout, self.output_cap)
        reader = asyncio.create_task(collector.run())
        started = time.monotonic()
        timed_out = lingering = False
        try:
            try:
                await asyncio.wait_for(protocol.exited.wait(), timeout)
            except TimeoutError:
                timed_out = True
                await _end_group(pgid, protocol.exited, TERM_GRACE)
            # bash is gone; a child it left behind may still hold the pipe open: read what is there
            # for a moment, never until its end-of-file.
            remaining = max(min(DRAIN_GRACE, timeout - (time.monotonic() - started)), 0.05)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reader), remaining)
            if not collector.eof:
                lingering = not timed_out
                await _end_group(pgid, protocol.exited, 0 if timed_out else TERM_GRACE)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(reader), TERM_GRACE)
        except asyncio.CancelledError:
            # The user pressed escape: nothing the command started may outlive the run.
            _signal_group(pgid, signal.SIGKILL)
            raise
        finally:
            if not reader.done():
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader
            transport.close()
        code = transport.get_returncode()
        return self._result(collector, code, timeout if timed_out else None, lingering, command)

    def _result(
        self, out: _Collector, code: int | None, timed_out: float | None, lingering: bool, command: str = ""
    ) -> ToolResult:
        text = out.kept.decode("utf-8", "replace").rstrip()
        notes: list[str] = []
        if out.dropped:
            notes.append(f"[output cut at {self.output_cap:,} bytes: {out.dropped:,} more bytes were not kept]")
        if lingering:
            notes.append("[background processes still holding the output were ended]")
        if timed_out is not None:
            notes.append(f"Command timed out after {timed_out:g} s; its process group was ended.")
            return ToolResult("\n".join([text, *notes]).strip(), True)
        if code and failed(command, code):
            # As Claude Code words a failure: the exit code first, then the output as it came.
            return ToolResult("\n".join(part for part in [f"Exit code {code}", text, *notes] if part), True)
        # Leading blank lines go, as in Claude Code's result (recorded: run_tool_results).
        body = "\n".join(part for part in [re.sub(r"^\s*\n", "", text), *notes] if part)
        return ToolResult(body or "(Bash completed with no output)")


# Commands whose exit status 1 is an answer, not a failure (no match, files differ, false), as
# Claude Code reads them: the output goes back as a plain result.
ANSWERING_COMMANDS = frozenset({"grep", "rg", "egrep", "fgrep", "find", "diff", "test", "["})


def failed(command: str, code: int) -> bool:
    """Whether exit status `code` of `command` is a failure. The command that counts is the first
    word of its last part (after the last `|`, `;`, `&&` or `||`), as Claude Code looks at it."""
    words = re.split(r"\|\||&&|[|;&\n]", command)[-1].split()
    name = words[0] if words else ""
    if name == "git":
        sub = next((w for i, w in enumerate(words[1:], 1) if not w.startswith("-") and words[i - 1] not in ("-C", "-c")), "")
        if sub in ("diff", "grep"):
            return code != 1
    return not (name in ANSWERING_COMMANDS and code == 1)
