"""Forked skills: a fresh subagent conversation (a `Runner` of its own, with its own transcript)
whose task is the rendered skill, with its agent type's tools (Explore and Plan read-only) and the
skill's model; only its final answer comes back, while its tokens, tool calls and stops show as
steps.

Bounds (a model that calls a forked skill 64 times in one answer, each fork doing the same, made
2,349 requests in 120 s): forks run one at a time; one answer starts at most MAX_FORKS_PER_ANSWER
of them and one run (a user message, a typed skill, a 'continue') MAX_FORKS_PER_RUN; every
request of a run, its forks' included, counts against MAX_REQUESTS_PER_RUN, past which the run
stops and says so ('continue' goes on with a new budget). A refused call gets a result that says
why, so the model can do the work itself.

`Forks` is a part of `Runner` (engine/runner/loop.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..catalog.model import Skill
from ..llm import Error, Usage
from ..permissions.toolcheck import summary
from .conversation import Message, Transcript
from .events import Call, Failed, Fork, Notice, RunEvent
from .skillcalls import tool_use_error
from .subagents import find_agent
from .tools import WRITE_TOOLS, builtin_tools

if TYPE_CHECKING:
    from .parts import RunnerParts


# Ten forks in one answer is more than any recorded session asked for; a run's 300 requests are a
# dozen full runs of MAX_TURNS answers.
MAX_FORKS_PER_ANSWER = 10
MAX_FORKS_PER_RUN = 30
MAX_REQUESTS_PER_RUN = 300


class Forks:
    def _spend_request(self: RunnerParts) -> Error | None:
        """Count a request against the run's budget; the error that stops the run when it is spent."""
        if self.budget.requests >= MAX_REQUESTS_PER_RUN:
            return Error(
                "request-limit",
                f"Stopped after {MAX_REQUESTS_PER_RUN} requests in this run, its forked skills' included (skilldeck's "
                "bound on one run). Send 'continue' (or press ctrl+r in the app) to let the model go on.",
                True,
            )
        self.budget.requests += 1
        return None

    def _fork_refused(self: RunnerParts, name: str) -> str | None:
        """Why the model's call of forked skill `name` is not started, or None when it may be."""
        if self.answer_forks >= MAX_FORKS_PER_ANSWER:
            why = f"this answer already started {MAX_FORKS_PER_ANSWER} forked skills (skilldeck's bound on one answer)"
            then = "Call it again in a later answer, after these results come back, or do the work here."
        elif self.budget.forks >= MAX_FORKS_PER_RUN:
            why = f"this run already started {MAX_FORKS_PER_RUN} forked skills (skilldeck's bound on one run)"
            then = "Do the work here instead."
        else:
            return None
        return tool_use_error(f"Not started: the skill {name} runs as a forked skill, and {why}. {then}")

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
        self.answer_forks += 1
        self.budget.forks += 1
        sub_transcript = Transcript.create(
            f"{self.transcript.session_id}-fork{self._forks}-{skill.name.replace(':', '_')}", self.locations.environ
        )
        # The conversation already said it is not being saved: its forks are not saved either.
        sub_transcript.told = bool(self.transcript.problem)
        self.emit(Fork(skill.name, "start", transcript=sub_transcript.path, by=by, args=args))
        # A runner of this runner's own kind (engine.runner.loop imports this module: no import back).
        sub = type(self)(
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
        sub.budget = self.budget
        sub._add(task)
        await sub._loop()
        answer = next((m.text for m in reversed(sub.messages) if m.role == "assistant" and m.text), "")
        if sub.stopped is not None:
            answer = f"{answer}\n\n(The subagent stopped: {sub.stopped.message})".strip()
        self.emit(Fork(skill.name, "end", answer, sub_transcript.path))
        return answer, sub_transcript.path
