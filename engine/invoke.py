"""What invoking a skill sends: the messages (visible and meta), model and pre-approved tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog
from .conversation import Message, command_message, new_session_id
from .expand import ShellMode, ShellRun, expand
from .locations import Locations
from .model import Skill
from .permissions import Permissions


class InvocationError(Exception):
    """The skill cannot be invoked; the message is Claude Code's (or says why)."""


@dataclass
class Prompt:
    skill: Skill
    args: str
    session_id: str
    # "inline": the messages join the conversation. "fork": they are a fresh subagent's task.
    context: str
    messages: list[Message]
    model: str | None
    allowed_tools: tuple[str, ...]
    agent: str | None
    shell: list[ShellRun] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill.name,
            "args": self.args,
            "session_id": self.session_id,
            "context": self.context,
            "agent": self.agent,
            "model": self.model,
            "allowed_tools": list(self.allowed_tools),
            "messages": [
                {"role": m.role, "meta": m.meta, "visible": m.visible, "kind": m.kind, "text": m.text} for m in self.messages
            ],
            "shell": [
                {
                    "pattern": r.pattern,
                    "command": r.command,
                    "decision": r.decision,
                    "reason": r.reason,
                    "ran": r.ran,
                    "exit_code": r.exit_code,
                    "cut": r.cut,
                }
                for r in self.shell
            ],
        }


def build_prompt(
    locations: Locations,
    catalog: Catalog,
    name: str,
    args: str = "",
    *,
    fork: bool | None = None,
    session_id: str | None = None,
    permissions: Permissions | None = None,
    shell: ShellMode = "preview",
) -> Prompt:
    """What invoking `name` sends. `shell="preview"` (the default) runs none of the skill's `!`
    commands: each is shown with what the rules decide. A real run passes `shell="execute"`:
    the allowed commands run (blocking this thread up to 2 minutes each), as in Claude Code."""
    skill = catalog.get(name)
    if skill is None:
        raise InvocationError(f"Unknown skill: {name.strip().removeprefix('/')}")
    permissions = permissions or Permissions.load(locations)
    running = permissions.with_allowed_tools(skill)
    session_id = session_id or new_session_id()

    def check(command: str) -> tuple[str, str]:
        decision = running.decide("Bash", {"command": command})
        return decision.decision, decision.reason

    expansion = expand(
        skill,
        args,
        session_id=session_id,
        project_dir=locations.project,
        check=check,
        shell_disabled=permissions.settings.disable_skill_shell_execution,
        shell=shell,
    )
    forked = skill.context == "fork" if fork is None else fork
    if forked:
        messages = [Message.user(expansion.text, kind="skill")]
        agent = skill.agent or "general-purpose"
    else:
        messages = [command_message(skill.name, args), Message.user(expansion.text, meta=True, kind="skill")]
        agent = None
    return Prompt(
        skill,
        args,
        session_id,
        "fork" if forked else "inline",
        messages,
        skill.model,
        skill.allowed_tools,
        agent,
        expansion.shell,
    )
