"""Each tool call's verdict, kept with its result (`Block.decided`): the decision and its reason,
and the user's answer to an ask, so that a resumed conversation shows each call as it was."""

from __future__ import annotations

from typing import Any

from ..permissions.decide import Decision
from .events import Ask, Call, Emit


class Verdicts:
    """A part of Runner (engine/runner/loop.py): announces each call and remembers what was decided."""

    emit: Emit
    ask: Ask

    def _verdicts(self) -> dict[str, dict[str, str]]:
        # Made on first use: the runner's own __init__ is left as it is.
        return self.__dict__.setdefault("_verdict_log", {})  # type: ignore[no-any-return]

    def _announce(self, call_id: str, name: str, tool_input: dict[str, Any], decision: Decision) -> None:
        self.emit(Call(call_id, name, tool_input, decision.decision, decision.reason))
        self._verdicts()[call_id] = {"decision": decision.decision, "reason": decision.reason}

    async def _asked(self, call_id: str, name: str, tool_input: dict[str, Any], decision: Decision) -> str:
        answer = await self.ask(name, tool_input, decision)
        self._verdicts().setdefault(call_id, {})["answer"] = answer
        return answer

    def _verdict_of(self, call_id: str) -> dict[str, str]:
        """The call's verdict, for its result block (and forgotten: the result keeps it)."""
        return self._verdicts().pop(call_id, {})
