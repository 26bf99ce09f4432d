"""The tools a run may call, with Claude Code's names and input schemas.

Claude Code 2.1.328 offers Bash, Edit, Read and Write (and Skill) by default; it offers Glob and
Grep only where there is no Bash (a bare `deny: ["Bash"]`, an agent without it), recorded in
tests/oracle/recordings/invoke/run_deny_bash_tool.json. skilldeck offers the same:
`builtin_tools()` holds all six and `offered()` picks what one conversation gets.
"""

from __future__ import annotations

from collections.abc import Iterable

from .base import Tool, ToolContext, ToolResult
from .files import EditTool, ReadTool, WriteTool
from .search import GlobTool, GrepTool
from .shell import BashTool

# What a read-only agent (Explore, Plan) may not have: Claude Code gives them every other tool.
WRITE_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
# Offered only where Bash is not.
SEARCH_TOOLS = ("Glob", "Grep")


def builtin_tools() -> dict[str, Tool]:
    tools: list[Tool] = [BashTool(), EditTool(), GlobTool(), GrepTool(), ReadTool(), WriteTool()]
    return {t.name: t for t in tools}


def offered(tools: dict[str, Tool], denied: Iterable[str] = ()) -> dict[str, Tool]:
    """The tools a conversation is offered: none a bare deny rule names, and Glob and Grep only
    when Bash is not there (as Claude Code offers them)."""
    out = {name: tool for name, tool in tools.items() if name not in set(denied)}
    if "Bash" in out:
        out = {name: tool for name, tool in out.items() if name not in SEARCH_TOOLS}
    return out


__all__ = ["SEARCH_TOOLS", "WRITE_TOOLS", "Tool", "ToolContext", "ToolResult", "builtin_tools", "offered"]
