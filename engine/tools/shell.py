"""Bash: one command in the working directory, with a timeout and an output cap."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from .base import ToolContext, ToolResult, schema

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
OUTPUT_CAP = 30_000


class BashTool:
    name = "Bash"
    description = "Executes a bash command in the working directory, with an optional timeout in milliseconds (max 600000)."
    input_schema = schema(
        ["command"],
        command={"type": "string", "description": "The command to execute"},
        timeout={"type": "number", "description": "Optional timeout in milliseconds (max 600000)"},
        description={"type": "string", "description": "What this command does, in 5-10 words"},
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        timeout = min(float(tool_input.get("timeout") or DEFAULT_TIMEOUT_MS), MAX_TIMEOUT_MS) / 1000
        proc = await asyncio.create_subprocess_exec(
            "/bin/bash", "-c", str(tool_input["command"]),
            cwd=ctx.cwd, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), timeout)
        except (TimeoutError, asyncio.CancelledError) as exc:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            if isinstance(exc, asyncio.CancelledError):
                raise
            return ToolResult(f"Command timed out after {timeout:g} s", True)
        text = out.decode("utf-8", "replace")
        if len(text) > OUTPUT_CAP:
            text = text[:OUTPUT_CAP] + f"\n\n... [{len(text) - OUTPUT_CAP} characters truncated]"
        if proc.returncode:
            return ToolResult(f"{text}\nExit code {proc.returncode}".strip(), True)
        return ToolResult(text.rstrip("\n") or "(no output)")
