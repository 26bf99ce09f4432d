"""Read, Write and Edit (exact string replacement), as Claude Code's tools behave, bounded.

Every path may be hostile: a FIFO, `/dev/zero`, a file of gigabytes. Reads go through
engine.base.safeio (regular files only) and stop at their line and character limits however big the
file is; writes refuse anything that is not a regular file.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from ...base.safeio import open_regular, read_regular, write_regular
from .base import RESULT_CAP, ToolContext, ToolResult, resolve, schema

# Claude Code 2.1.328 reads every line and shows each whole (recorded: run_read_sizes); what
# bounds a Read here is RESULT_CAP, after which the result says how to read on.
READ_LIMIT = 10**9
LINE_CAP = RESULT_CAP
# How far into a file a Read may scan to reach its offset, and the largest file Edit rewrites.
SCAN_CAP = 64 * 1024 * 1024
EDIT_CAP = 16 * 1024 * 1024


def _number(value: Any, default: int) -> int | None:
    """A positive line number or count from a model's input; None when it is not one."""
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        return None
    return int(min(value, 10**9))


def _read_lines(path: Path, start: int, limit: int) -> tuple[list[str], bool, int | None]:
    """Lines start..start+limit-1 (1-based) of a regular file, each cut at LINE_CAP; whether the
    output stopped at RESULT_CAP; and how many lines the file has (None when the read stopped
    before its end). Lines are counted as Claude Code counts them: what follows the last newline
    is a line too, so "a\n" has two, the second empty, and an empty file has none. Reads in
    blocks: a huge file costs only what is shown (or, past its end, what is counted)."""
    fd, _ = open_regular(path)
    lines: list[str] = []
    size = 0
    number = 0
    pending = b""
    scanned = 0

    def keep(raw: bytes) -> bool:
        """Number one line, keep it when it is in range; False once the result is full."""
        nonlocal number, size
        number += 1
        if number < start or len(lines) >= limit:
            return True
        line = raw.decode("utf-8", "replace").removesuffix("\r")[:LINE_CAP]
        size += len(line) + 8
        if size > RESULT_CAP:
            return False
        lines.append(line)
        return True

    try:
        while True:
            block = os.read(fd, 1 << 16)
            scanned += len(block)
            if scanned > SCAN_CAP:
                if number < start:
                    raise OSError(
                        27, f"line {start} is not within the first {SCAN_CAP // 2**20} MB of the file, which is all a Read scans"
                    )
                return lines, True, None
            if not block:
                if scanned and not keep(pending):
                    return lines, True, None
                return lines, False, number
            pending += block
            *complete, pending = pending.split(b"\n")
            if len(pending) > LINE_CAP * 4:
                pending = pending[: LINE_CAP * 4]  # a line without end: keep what can be shown
            for raw in complete:
                if not keep(raw):
                    return lines, True, None
            if len(lines) >= limit and number >= start + limit:
                # Everything asked for is here; the count is only needed past the end.
                return lines, False, None
    finally:
        os.close(fd)


class ReadTool:
    name = "Read"
    description = "Reads a file from the local filesystem. file_path should be absolute; offset and limit select lines."
    input_schema = schema(
        ["file_path"],
        file_path={"type": "string", "description": "The absolute path to the file to read"},
        offset={"type": "number", "description": "The line number to start reading from"},
        limit={"type": "number", "description": "The number of lines to read"},
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        path = resolve(ctx, str(tool_input["file_path"]))
        start, limit = _number(tool_input.get("offset"), 1), _number(tool_input.get("limit"), READ_LIMIT)
        if start is None or limit is None:
            return ToolResult("offset and limit must be positive numbers", True)
        result, seen = await asyncio.to_thread(read_result, path, ctx.cwd, start, limit)
        if seen is not None:
            ctx.seen[path] = seen
        return result


def read_result(path: Path, cwd: Path, start: int = 1, limit: int = READ_LIMIT) -> tuple[ToolResult, bool | None]:
    """What Claude Code's Read answers for lines start..start+limit-1 of `path` (blocking: read in
    a worker thread), and whether the model now holds the whole file (None: nothing was read)."""
    start = max(start, 1)
    try:
        lines, cut, total = _read_lines(path, start, limit)
    except FileNotFoundError:
        return ToolResult(f"File does not exist. Note: your current working directory is {cwd}.", True), None
    except IsADirectoryError:
        return ToolResult(f"EISDIR: illegal operation on a directory, read '{path}'", True), None
    except OSError as exc:
        if os.path.isdir(path):
            return ToolResult(f"EISDIR: illegal operation on a directory, read '{path}'", True), None
        return ToolResult(f"Error reading {path}: {exc.strerror or exc}", True), None
    # What the model was told, in Claude Code's words (recorded: run_tool_results).
    if total == 0:
        return ToolResult("<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>"), True
    if not lines and total is not None and start > total:
        return ToolResult(
            f"<system-reminder>Warning: the file exists but is shorter than the provided offset ({start}). "
            f"The file has {total} lines.</system-reminder>"
        ), None
    seen = start == 1 and not cut and total is not None and len(lines) == total
    # Numbered as Claude Code numbers them: the line number, a tab, the line.
    text = "\n".join(f"{n}\t{line}" for n, line in enumerate(lines, start))
    if cut:
        text += f"\n\n[... the rest was not shown: the result is capped at {RESULT_CAP:,} characters; read on with offset]"
    return ToolResult(text), seen


# Claude Code's note after a write or an edit whose result the model holds in full.
CURRENT = " (file state is current in your context \u2014 no need to Read it back)"


def tool_use_error(text: str) -> ToolResult:
    """An input the tool refuses, wrapped as Claude Code wraps its validation errors."""
    return ToolResult(f"<tool_use_error>{text}</tool_use_error>", True)


class WriteTool:
    name = "Write"
    description = "Writes a file to the local filesystem, replacing it if it exists."
    input_schema = schema(
        ["file_path", "content"],
        file_path={"type": "string", "description": "The absolute path to the file to write"},
        content={"type": "string", "description": "The content to write to the file"},
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        path = resolve(ctx, str(tool_input["file_path"]))
        existed = os.path.lexists(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(write_regular, path, str(tool_input["content"]).encode("utf-8", "surrogatepass"))
        except OSError as exc:
            return ToolResult(f"Error writing {path}: {exc.strerror or exc}", True)
        ctx.seen[path] = True
        if existed:
            return ToolResult(f"The file {path} has been updated successfully.{CURRENT}")
        return ToolResult(f"File created successfully at: {path}{CURRENT}")


class EditTool:
    name = "Edit"
    description = "Performs exact string replacements in files. old_string must be unique unless replace_all is true."
    input_schema = schema(
        ["file_path", "old_string", "new_string"],
        file_path={"type": "string", "description": "The absolute path to the file to modify"},
        old_string={"type": "string", "description": "The text to replace"},
        new_string={"type": "string", "description": "The text to replace it with"},
        replace_all={"type": "boolean", "default": False, "description": "Replace all occurrences"},
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        path = resolve(ctx, str(tool_input["file_path"]))
        old, new = str(tool_input["old_string"]), str(tool_input["new_string"])
        if old == new:
            return tool_use_error("No changes to make: old_string and new_string are exactly the same.")
        if not old and not os.path.lexists(path):
            # An empty old_string on a file that is not there makes it, as in Claude Code.
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                await asyncio.to_thread(write_regular, path, new.encode("utf-8", "surrogatepass"))
            except OSError as exc:
                return ToolResult(f"Error writing {path}: {exc.strerror or exc}", True)
            ctx.seen[path] = True
            return ToolResult(f"The file {path} has been updated successfully.{CURRENT}")
        if not old:
            return ToolResult("old_string is empty: give the exact text to replace.", True)
        try:
            data, st = await asyncio.to_thread(read_regular, path, EDIT_CAP)
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return ToolResult(f"Error reading {path}: not UTF-8 text, so it is not edited", True)
        except FileNotFoundError:
            return tool_use_error(f"File does not exist. Note: your current working directory is {ctx.cwd}.")
        except OSError as exc:
            return ToolResult(f"Error reading {path}: {exc.strerror or exc}", True)
        count = text.count(old)
        if count == 0:
            return tool_use_error(f"String to replace not found in file.\nString: {old}")
        every = bool(tool_input.get("replace_all"))
        if count > 1 and not every:
            return tool_use_error(
                f"Found {count} matches of the string to replace, but replace_all is false. To replace all "
                "occurrences, set replace_all to true. To replace only one occurrence, please provide more "
                f"context to uniquely identify the instance.\nString: {old}"
            )
        try:
            await asyncio.to_thread(
                write_regular,
                path,
                (text.replace(old, new) if every else text.replace(old, new, 1)).encode("utf-8"),
                st.st_mode & 0o777,
            )
        except OSError as exc:
            return ToolResult(f"Error writing {path}: {exc.strerror or exc}", True)
        # The note that the model's copy is current only when it held the whole file (after a
        # partial Read it does not: recorded, run_tool_results).
        note = CURRENT if ctx.seen.get(path) else ""
        if every:
            return ToolResult(f"The file {path} has been updated. All occurrences were successfully replaced.{note}")
        return ToolResult(f"The file {path} has been updated successfully.{note}")
