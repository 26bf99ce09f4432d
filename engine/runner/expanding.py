"""Making a skill ready to send: its file read again, its `!` commands run (in a thread, killed
with their process group when the run is cancelled), and in a project the user has not trusted,
those commands shown to the user first (`confirm_shell`).

`Expanding` is a part of `Runner` (engine/runner/loop.py).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..catalog.model import Skill
from .events import Preparing
from .expand import ExpansionError, ShellMode
from .invoke import Prompt, build_prompt
from .shell import CommandStop

if TYPE_CHECKING:
    from .parts import RunnerParts


class Expanding:
    async def _expanded(self: RunnerParts, skill: Skill, args: str, fork: bool | None, typed: bool = False) -> Prompt:
        """What invoking the skill sends, its allowed `!` commands run. In a thread: the skill file
        is read again and each command may take up to 120 s, while the app's loop keeps drawing.
        Cancelling the run (`escape`) kills the running command's process group at once."""
        await self._confirm_shell(skill, args, fork, typed)
        self.emit(Preparing(skill.name, args))
        stop = CommandStop()
        try:
            return await asyncio.to_thread(self._prompt, skill, args, fork, typed, stop)
        except asyncio.CancelledError:
            stop.stop()
            raise

    async def _confirm_shell(self: RunnerParts, skill: Skill, args: str, fork: bool | None, typed: bool) -> None:
        """In a project the user has not trusted, the commands the skill would run are shown to
        the user first (a preview runs nothing); ExpansionError when the user says no."""
        if self.confirm_shell is None or self.permissions.settings.trust.trusted:
            return
        preview = await asyncio.to_thread(self._prompt, skill, args, fork, typed, None, "preview")
        commands = [run.command for run in preview.shell if run.decision == "allow"]
        if commands and not await self.confirm_shell(skill.name, commands):
            raise ExpansionError(
                f"/{skill.name} was not run: you chose not to run its commands in this project, which is not "
                "trusted (trust it in the Rules pane, or with skilldeck trust --yes, to stop being asked)"
            )

    def _prompt(
        self: RunnerParts,
        skill: Skill,
        args: str,
        fork: bool | None,
        typed: bool = False,
        stop: CommandStop | None = None,
        shell: ShellMode = "execute",
    ) -> Prompt:
        return build_prompt(
            self.locations,
            self.catalog,
            skill.name,
            args,
            fork=fork,
            session_id=self.transcript.session_id,
            permissions=self.permissions,
            shell=shell,  # a real run: the allowed `!` commands run, as in Claude Code
            typed=typed,  # typed: the arguments trimmed as Claude Code trims a typed command's
            stop=stop,
        )
