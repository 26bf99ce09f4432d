"""What the parts of `Runner` (`SkillCalls`, `Forks`) use of the runner they are part of.

The parts live in their own modules to keep runner.py small, and engine.runner.loop imports them, so
they cannot import `Runner` back to type their `self`. They type it with this protocol instead
(mypy checks that `Runner` satisfies it wherever a part's method is called on a runner).
It also holds `RunBudget`, which a run shares with its forks; otherwise only for type checking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from ..catalog.assembly import Catalog
    from ..catalog.locations import Locations
    from ..catalog.model import Skill
    from ..llm import Backend, Error
    from ..permissions.decide import Decision, Permissions
    from .conversation import Message, Transcript
    from .events import Ask, ConfirmShell, Emit, RunEvent
    from .expand import ShellMode
    from .invoke import Prompt
    from .shell import CommandStop
    from .tools.base import Tool


@dataclass
class RunBudget:
    """What one run has spent, shared by its forks (and theirs)."""

    requests: int = 0
    forks: int = 0


class RunnerParts(Protocol):
    # A part makes a runner of the same kind (a fork's) as `type(self)(...)`: no import of
    # engine.runner.loop, which imports the parts.
    def __init__(
        self,
        *,
        locations: Locations,
        catalog: Catalog,
        backend: Backend,
        permissions: Permissions,
        transcript: Transcript,
        ask: Ask,
        emit: Emit,
        model: str | None = None,
        effort: str | None = None,
        tools: dict[str, Tool] | None = None,
        skill_tool: bool = True,
        max_turns: int = ...,
        forks: tuple[str, ...] = (),
        confirm_shell: ConfirmShell | None = None,
    ) -> None: ...

    locations: Locations
    catalog: Catalog
    backend: Backend
    permissions: Permissions
    transcript: Transcript
    ask: Ask
    confirm_shell: ConfirmShell | None
    emit: Emit
    model: str | None
    effort: str
    max_turns: int
    forks: tuple[str, ...]
    messages: list[Message]
    active: Skill | None
    active_effort: str | None
    stopped: Error | None
    _forks: int
    budget: RunBudget
    answer_forks: int
    _loaded: dict[str, str]

    def _add(self, message: Message, **extra: Any) -> None: ...

    async def _permit(
        self, name: str, tool_input: dict[str, Any], call_id: str, decision: Decision | None = None
    ) -> str | None: ...

    async def _expanded(self, skill: Skill, args: str, fork: bool | None, typed: bool = False) -> Prompt: ...

    async def _confirm_shell(self, skill: Skill, args: str, fork: bool | None, typed: bool) -> None: ...

    def _prompt(
        self,
        skill: Skill,
        args: str,
        fork: bool | None,
        typed: bool = False,
        stop: CommandStop | None = None,
        shell: ShellMode = "execute",
    ) -> Prompt: ...

    def _from_fork(self, skill: str, event: RunEvent) -> None: ...

    def _fork_refused(self, name: str) -> str | None: ...

    async def _fork(self, skill: Skill, task: Message, by: str = "model", args: str = "") -> tuple[str, Path]: ...

    def _loading(self, name: str, args: str, content: Message) -> list[Message]: ...

    async def _loop(self) -> None: ...
