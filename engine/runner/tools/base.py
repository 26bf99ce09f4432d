"""What every tool has: a name, a description, an input schema, and a way to run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...permissions.pathreach import expand_path

if TYPE_CHECKING:
    from ...permissions.decide import Permissions

# The most any tool result may hold (characters): about 25,000 tokens, as Claude Code bounds a
# read. A tool that finds more says how much it left out.
RESULT_CAP = 100_000


@dataclass(frozen=True)
class ToolContext:
    cwd: Path
    # The rules the call was decided under: a search shows only what they let the model read
    # (a symlink in the project must not carry a Glob or Grep outside it).
    permissions: Permissions | None = None
    # What this conversation has seen of each file (shared by its calls, one per conversation):
    # True when a Read showed all of it or a Write or Edit set it, False after a partial Read.
    # An Edit's result says the model's copy is current only when it held the whole file, as
    # Claude Code's does.
    seen: dict[Path, bool] = field(default_factory=dict)

    @property
    def home(self) -> Path:
        return self.permissions.home if self.permissions else Path.home()

    def may_show(self, found: Path, root: Path) -> bool:
        """Whether a file that a search found may be shown to the model."""
        return self.permissions.readable(found, root) if self.permissions else True


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
    """The absolute path a call names, `~` expanded the way the permission check expanded it."""
    return expand_path(path, ctx.cwd, ctx.home)


def capped(text: str, cap: int = RESULT_CAP, what: str = "characters") -> str:
    """`text` cut to `cap` characters, saying how much was left out."""
    if len(text) <= cap:
        return text
    return text[:cap] + f"\n\n[... {len(text) - cap:,} more {what} not shown: the result was cut at {cap:,}]"


def api_spec(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
