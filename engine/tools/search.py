"""Glob and Grep over the working directory."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from .base import ToolContext, ToolResult, resolve, schema

MAX_RESULTS = 100


class GlobTool:
    name = "Glob"
    description = "Finds files by glob pattern (e.g. **/*.py), newest first."
    input_schema = schema(
        ["pattern"],
        pattern={"type": "string", "description": "The glob pattern to match files against"},
        path={"type": "string", "description": "The directory to search in (default: the working directory)"},
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        root = resolve(ctx, str(tool_input.get("path") or "."))

        def find() -> list[Path]:
            found = [p for p in root.glob(str(tool_input["pattern"])) if p.is_file()]
            return sorted(found, key=lambda p: -p.stat().st_mtime)

        found = await asyncio.to_thread(find)
        if not found:
            return ToolResult("No files found")
        return ToolResult("\n".join(str(p) for p in found[:MAX_RESULTS]))


class GrepTool:
    name = "Grep"
    description = "Searches file contents with a regular expression."
    input_schema = schema(
        ["pattern"],
        pattern={"type": "string", "description": "The regular expression to search for"},
        path={"type": "string", "description": "File or directory to search (default: the working directory)"},
        glob={"type": "string", "description": "Only files matching this glob, e.g. *.py"},
        output_mode={
            "type": "string",
            "enum": ["content", "files_with_matches", "count"],
            "description": "default files_with_matches",
        },
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            regex = re.compile(str(tool_input["pattern"]))
        except re.error as exc:
            return ToolResult(f"Invalid regular expression: {exc}", True)
        root = resolve(ctx, str(tool_input.get("path") or "."))
        mode = tool_input.get("output_mode") or "files_with_matches"
        pattern = str(tool_input.get("glob") or "**/*")

        def search() -> list[str]:
            files = [root] if root.is_file() else sorted(p for p in root.glob(pattern) if p.is_file() and ".git" not in p.parts)
            out: list[str] = []
            for f in files:
                try:
                    lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
                except OSError:
                    continue
                hits = [(n, line) for n, line in enumerate(lines, 1) if regex.search(line)]
                if not hits:
                    continue
                if mode == "content":
                    out += [f"{f}:{n}:{line}" for n, line in hits]
                elif mode == "count":
                    out.append(f"{f}:{len(hits)}")
                else:
                    out.append(str(f))
            return out

        found = await asyncio.to_thread(search)
        return ToolResult("\n".join(found[: MAX_RESULTS * 5]) if found else "No matches found")
