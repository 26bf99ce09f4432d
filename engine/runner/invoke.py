"""What invoking a skill sends: the messages (visible and meta), model and pre-approved tools."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.fields import effort_level
from ..catalog.locations import Locations
from ..catalog.model import LoadedFrom, Skill
from ..permissions.decide import Permissions
from .conversation import Message, api_messages, command_message, new_session_id
from .expand import ShellMode, ShellRun, expand, has_base_dir
from .mentions import Mention, attachments
from .shell import CommandStop

# The effort a session runs at when neither the environment nor the skill says (Claude Code
# 2.1.328 with its default model, as recorded: output_config.effort "medium").
SESSION_EFFORT = "medium"


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
    # The request's output_config.effort: the skill's `effort:`, else the session's.
    effort: str | None = None
    # The skill text's `@file` mentions: attached (a Read call and result before the command
    # block) or left out, and why.
    mentions: list[Mention] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill.name,
            "args": self.args,
            "session_id": self.session_id,
            "context": self.context,
            "agent": self.agent,
            "model": self.model,
            "allowed_tools": list(self.allowed_tools),
            "effort": self.effort,
            "messages": [
                {"role": m.role, "meta": m.meta, "visible": m.visible, "kind": m.kind, "text": m.text} for m in self.messages
            ],
            # The messages exactly as the request carries them (a typed skill's two messages are
            # one user message with two text blocks, as Claude Code sends them).
            "sent": api_messages(self.messages),
            "mentions": [{"mention": m.text, "path": str(m.path), "attached": m.attached, "why": m.why} for m in self.mentions],
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


def parse_typed(text: str) -> tuple[str, str]:
    """`/name args` as typed: the name, and the arguments trimmed as Claude Code trims them."""
    body = text.strip().removeprefix("/")
    found = re.match(r"(\S*)(.*)", body, re.S)
    name, args = (found.group(1), found.group(2)) if found else (body, "")
    return name, args.strip()


def session_effort(locations: Locations) -> str:
    """The session's effort level: $CLAUDE_CODE_EFFORT_LEVEL, else Claude Code's default."""
    return effort_level(locations.environ.get("CLAUDE_CODE_EFFORT_LEVEL")) or SESSION_EFFORT


def plugin_data_dir(locations: Locations, skill: Skill) -> Path | None:
    """A plugin's ${CLAUDE_PLUGIN_DATA}: `<plugins>/data/<id>`, its id `name@marketplace` (an
    installed plugin, from its cache folder) or `name@inline` (a --plugin-dir one), every
    character but letters, digits, `-` and `_` written `-`."""
    name = skill.source.plugin
    if name is None or skill.loaded_from is not LoadedFrom.PLUGIN:
        return None
    override = locations.environ.get("CLAUDE_CODE_PLUGIN_CACHE_DIR")
    plugins = Path(override) if override else locations.user / "plugins"
    market = "inline"
    try:
        parts = skill.source.root.relative_to(plugins / "cache").parts
        market = parts[0] if parts else market
    except ValueError:
        pass
    return plugins / "data" / re.sub(r"[^a-zA-Z0-9\-_]", "-", f"{name}@{market}")


def granted_tools(skill: Skill, project: Path) -> tuple[str, ...]:
    """The skill's allowed-tools rules as Claude Code reads them: ${CLAUDE_SKILL_DIR} is the
    skill's folder (a command file has none: its rules naming it are dropped) and
    ${CLAUDE_PROJECT_DIR} the project folder."""
    rules = skill.allowed_tools
    if has_base_dir(skill):
        rules = tuple(r.replace("${CLAUDE_SKILL_DIR}", str(skill.base_dir)) for r in rules)
    else:
        rules = tuple(r for r in rules if "CLAUDE_SKILL_DIR" not in r)
    return tuple(r.replace("${CLAUDE_PROJECT_DIR}", str(project)) for r in rules)


def not_typeable(name: str) -> str:
    """Claude Code's answer to typing /name for a `user-invocable: false` skill."""
    return f'This skill can only be invoked by Claude, not directly by users. Ask Claude to use the "{name}" skill for you.'


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
    typed: bool = False,
    stop: CommandStop | None = None,
) -> Prompt:
    """What invoking `name` sends. `shell="preview"` (the default) runs none of the skill's `!`
    commands: each is shown with what the rules decide. A real run passes `shell="execute"`:
    the allowed commands run (blocking this thread up to 2 minutes each), as in Claude Code.
    `typed=True`: the user typed /name, so a skill only the model may invoke is refused with
    Claude Code's words, and the arguments are trimmed as Claude Code trims them."""
    wanted = name.strip().removeprefix("/")
    # A typed name must be the skill's own or its `name:` label, case and all: Claude Code runs no
    # /Deploy for a skill named deploy (it hands the text to the model as a plain message instead).
    skill = (catalog.skills.get(wanted) or catalog.labelled(wanted)) if typed else catalog.get(name)
    if skill is None:
        raise InvocationError(f"Unknown skill: {wanted}")
    if typed:
        if not skill.user_invocable:
            raise InvocationError(not_typeable(skill.name))
        args = args.strip()
    permissions = permissions or Permissions.load(locations)
    granted = granted_tools(skill, locations.project)
    if granted != skill.allowed_tools:
        skill = replace(skill, allowed_tools=granted)
    running = permissions.with_allowed_tools(skill)
    session_id = session_id or new_session_id()

    effort = skill.effort or session_effort(locations)

    def check(command: str) -> tuple[str, str]:
        decision = running.decide("Bash", {"command": command})
        return decision.decision, decision.said or decision.reason

    expansion = expand(
        skill,
        args,
        session_id=session_id,
        project_dir=locations.project,
        check=check,
        shell_disabled=permissions.settings.disable_skill_shell_execution,
        shell=shell,
        effort=effort,
        plugin_data=plugin_data_dir(locations, skill),
        stop=stop,
    )
    forked = skill.context == "fork" if fork is None else fork
    if forked:
        # What Claude Code attaches to a forked skill's task is not recorded: nothing is.
        messages = [Message.user(expansion.text, kind="skill")]
        agent = skill.agent or "general-purpose"
        mentions: list[Mention] = []
    else:
        attached, mentions = attachments(expansion.text, locations.project, locations.home(), _reader(running))
        messages = [*attached, command_message(skill, args), Message.user(expansion.text, meta=True, kind="skill")]
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
        effort,
        mentions,
    )


def _reader(permissions: Permissions) -> Callable[[Path], tuple[bool, str]]:
    """Whether an `@file` mention may be read without asking, and why not."""

    def may_read(path: Path) -> tuple[bool, str]:
        decision = permissions.decide("Read", {"file_path": str(path)})
        if decision.decision == "allow":
            return True, ""
        return False, f"Read would be {'denied' if decision.decision == 'deny' else 'asked'}: {decision.reason}"

    return may_read
