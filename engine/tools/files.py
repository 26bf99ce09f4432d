"""Read, Write and Edit (exact string replacement), as Claude Code's tools behave."""

from __future__ import annotations

import asyncio
from typing import Any

from .base import ToolContext, ToolResult, resolve, schema

READ_LIMIT = 2000
LINE_CAP = 2000


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
        try:
            text = await asyncio.to_thread(path.read_text, encoding="utf-8", errors="replace")
        except OSError as exc:
            return ToolResult(f"Error reading {path}: {exc.strerror}", True)
        lines = text.splitlines()
        start = max(int(tool_input.get("offset") or 1), 1)
        limit = int(tool_input.get("limit") or READ_LIMIT)
        chosen = lines[start - 1 : start - 1 + limit]
        # cat -n style, as Claude Code returns it: right-aligned numbers, a tab, the line.
        return ToolResult("\n".join(f"{n:>6}\t{line[:LINE_CAP]}" for n, line in enumerate(chosen, start)))


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
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(path.write_text, str(tool_input["content"]), encoding="utf-8")
        except OSError as exc:
            return ToolResult(f"Error writing {path}: {exc.strerror}", True)
        return ToolResult(f"File created successfully at: {path}")


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
            return ToolResult("No changes to make: old_string and new_string are exactly the same.", True)
        try:
            text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        except OSError as exc:
            return ToolResult(f"Error reading {path}: {exc.strerror}", True)
        count = text.count(old)
        if count == 0:
            return ToolResult(f"String to replace not found in file.\nString: {old}", True)
        if count > 1 and not tool_input.get("replace_all"):
            return ToolResult(
                f"Found {count} matches of the string to replace, but replace_all is false. To replace all "
                "occurrences, set replace_all to true. To replace only one occurrence, please provide more "
                "context to uniquely identify the instance.",
                True,
            )
        await asyncio.to_thread(path.write_text, text.replace(old, new), encoding="utf-8")
        return ToolResult(f"The file {path} has been updated.")
