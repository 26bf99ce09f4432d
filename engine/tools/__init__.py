"""The tools a run may call, with Claude Code's names and input schemas."""

from __future__ import annotations

from .base import Tool, ToolContext, ToolResult
from .files import EditTool, ReadTool, WriteTool
from .search import GlobTool, GrepTool
from .shell import BashTool

READ_ONLY = ("Read", "Glob", "Grep")


def builtin_tools() -> dict[str, Tool]:
    tools: list[Tool] = [ReadTool(), GlobTool(), GrepTool(), BashTool(), WriteTool(), EditTool()]
    return {t.name: t for t in tools}


__all__ = ["READ_ONLY", "Tool", "ToolContext", "ToolResult", "builtin_tools"]
