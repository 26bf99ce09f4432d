"""What the model did with one routing request: the skill it called (or none), or why it failed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..llm import Backend, Error, Request, Stop, TextDelta, ToolUse, Usage

# The model's words are kept for the detail view, cut here: a routing answer is a sentence or two.
MAX_ANSWER_CHARS = 4_000
# Longer than any skill's name (a label is at most 256 UTF-16 units); the model's input is not trusted.
MAX_NAME_CHARS = 1_000
NONE = "none"
FAILED = "failed"


@dataclass(frozen=True, slots=True)
class RouteOutcome:
    # The name the model's first Skill call gave (as the runner reads it: trimmed, a leading `/`
    # dropped), None when it called no skill.
    skill: str | None
    # The first other tool it called when it called no skill (it went to work itself).
    tool: str | None = None
    text: str = ""
    stop: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    # Why the request failed (the backend's advice), None when it was answered.
    error: str | None = None
    error_kind: str | None = None
    cached: bool = False

    @property
    def failed(self) -> bool:
        return self.error is not None

    @property
    def label(self) -> str:
        """The routing outcome in one word: the skill's name, `none`, or `failed`."""
        if self.failed:
            return FAILED
        return self.skill or NONE

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "tool": self.tool,
            "text": self.text,
            "stop": self.stop,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "error": self.error,
            "error_kind": self.error_kind,
            "cached": self.cached,
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> RouteOutcome | None:
        """A kept answer, or None when the record is not one (a hand-edited or broken cache line)."""
        skill, tool = record.get("skill"), record.get("tool")
        text, stop = record.get("text", ""), record.get("stop", "")
        tokens = record.get("input_tokens", 0), record.get("output_tokens", 0)
        if not all(v is None or isinstance(v, str) for v in (skill, tool)):
            return None
        if not isinstance(text, str) or not isinstance(stop, str):
            return None
        if not all(isinstance(t, int) and not isinstance(t, bool) for t in tokens) or record.get("error") is not None:
            return None
        return cls(skill, tool, text[:MAX_ANSWER_CHARS], stop, tokens[0], tokens[1], cached=True)


async def ask(backend: Backend, request: Request) -> RouteOutcome:
    """Send one request and read the route from the answer; a failure is an outcome, never raised
    (the backends turn every API and transport fault into an `Error` event)."""
    skill: str | None = None
    tool: str | None = None
    called = False
    text: list[str] = []
    size = 0
    stop = ""
    tokens = (0, 0)
    async for event in backend.stream(request):
        if isinstance(event, TextDelta):
            if size < MAX_ANSWER_CHARS:
                text.append(event.text[: MAX_ANSWER_CHARS - size])
                size += len(text[-1])
        elif isinstance(event, ToolUse):
            if event.name == "Skill" and not called:
                called = True
                # A call cut short (max_tokens inside its input) names no skill: none was called.
                name = "" if event.error else str(event.input.get("skill", ""))[:MAX_NAME_CHARS].strip().removeprefix("/")
                skill = name or None
            elif tool is None and event.name != "Skill":
                tool = event.name[:200]
        elif isinstance(event, Usage):
            tokens = (event.input_tokens, event.output_tokens)
        elif isinstance(event, Stop):
            stop = event.reason
        elif isinstance(event, Error):
            return RouteOutcome(
                None,
                text="".join(text),
                error=event.message,
                error_kind=event.kind,
                input_tokens=tokens[0],
                output_tokens=tokens[1],
            )
    return RouteOutcome(skill, None if called else tool, "".join(text), stop, tokens[0], tokens[1])
