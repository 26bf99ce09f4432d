"""What every tool has: a name, a description, an input schema, and a way to run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


@dataclass(frozen=True)
class ToolContext:
    cwd: Path


@dataclass(frozen=True)
class ToolResult:
    text: str
    is_error: bool = False


class Tool(Protocol):
    name: str
    description: str
    input_schema: dict[str, Any]

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult: ...


def schema(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def resolve(ctx: ToolContext, path: str) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else ctx.cwd / p


def api_spec(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
