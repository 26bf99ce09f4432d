"""Forked skills: a fresh subagent conversation (a `Runner` of its own, with its own transcript)
whose task is the rendered skill, with its agent type's tools (Explore and Plan read-only) and the
skill's model; only its final answer comes back, while its tokens, tool calls and stops show as
steps.

`Forks` is a part of `Runner` (engine/runner.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .agents import find_agent
from .conversation import Message, Transcript
from .llm import Usage
from .model import Skill
from .runevents import Call, Failed, Fork, Notice, RunEvent
from .toolcheck import summary
from .tools import WRITE_TOOLS, builtin_tools

if TYPE_CHECKING:
    from .runnerparts import RunnerParts


class Forks:
    def _from_fork(self: RunnerParts, skill: str, event: RunEvent) -> None:
        """A fork's own conversation stays in its transcript; its tokens count, and its tool
        calls show as steps, so that the user sees the subagent working."""
        if isinstance(event, Usage):
            self.emit(event)
        elif isinstance(event, Call):
            self.emit(Fork(skill, "step", f"{event.name} {summary(event.input)} · {event.decision}"))
        elif isinstance(event, Failed):
            self.emit(Fork(skill, "step", f"stopped: {event.error.message}"))
        elif isinstance(event, Notice):
            self.emit(event)

    async def _fork(self: RunnerParts, skill: Skill, task: Message, by: str = "model", args: str = "") -> tuple[str, Path]:
        """Run the skill in a subagent; AgentError (before anything starts) when its agent is unknown."""
        agent = find_agent(self.locations, skill.agent or "general-purpose")
        tools = agent.pick(builtin_tools(), WRITE_TOOLS)
        self._forks += 1
        sub_transcript = Transcript.create(
            f"{self.transcript.session_id}-fork{self._forks}-{skill.name.replace(':', '_')}", self.locations.environ
        )
        self.emit(Fork(skill.name, "start", transcript=sub_transcript.path, by=by, args=args))
        # Imported here, not at the top: engine.runner imports this module.
        from .runner import Runner

        sub = Runner(
            locations=self.locations,
            catalog=self.catalog,
            backend=self.backend,
            permissions=self.permissions.with_allowed_tools(skill),
            transcript=sub_transcript,
            ask=self.ask,
            emit=lambda event: self._from_fork(skill.name, event),
            model=skill.model or agent.model or self.model,
            effort=skill.effort or self.effort,
            tools=tools,
            # Claude Code gives a fork the Skill tool unless its agent leaves it out; a skill
            # it runs inside cannot be called again from there (`forks`).
            skill_tool=agent.may_use("Skill", WRITE_TOOLS),
            max_turns=self.max_turns,
            forks=(*self.forks, skill.name),
            confirm_shell=self.confirm_shell,
        )
        sub._add(task)
        await sub._loop()
        answer = next((m.text for m in reversed(sub.messages) if m.role == "assistant" and m.text), "")
        if sub.stopped is not None:
            answer = f"{answer}\n\n(The subagent stopped: {sub.stopped.message})".strip()
        self.emit(Fork(skill.name, "end", answer, sub_transcript.path))
        return answer, sub_transcript.path
