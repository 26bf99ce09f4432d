"""The model's Skill calls: the skill looked up by its exact name (a plugin skill's bare name or a
near miss suggested), refused in Claude Code's words, run inline or forked, and its text sent as
Claude Code sends it again (`_loading`). The texts are Claude Code's where a recording holds them.

`SkillCalls` is a part of `Runner` (engine/runner/loop.py): it uses the runner's catalog, permissions
and conversation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .conversation import Block, Message
from .expand import ExpansionError
from .subagents import AgentError

if TYPE_CHECKING:
    from ..catalog.model import Skill
    from .parts import RunnerParts


# What the model's Skill call gets back, in Claude Code's words: the model was trained on them,
# and the recordings (tests/oracle/recordings/invoke/run_*.json) hold them byte for byte.
SKILL_DENIED = "Skill execution blocked by permission rules"
# What an `ask` callback answers when nobody can be asked (print mode, `skilldeck run` with no
# terminal): the call is refused as Claude Code's print mode refuses it.
UNANSWERED = "unanswered"


def unanswered(tool: str, tool_input: dict[str, Any]) -> str:
    """What the model is told of a call that would be asked, in print mode. Claude Code's words
    for a Skill call (recorded: run_skill_asked); skilldeck's own for the other tools."""
    if tool == "Skill":
        name = str(tool_input.get("skill", "")).strip().removeprefix("/")
        return (
            f"Execute skill: {name}. The user can add the allow rule Skill({name}) to .claude/settings.local.json "
            "to let it run without asking."
        )
    return f"The user doesn't want to proceed with this tool use. The {tool} call was rejected."


def tool_use_error(text: str) -> str:
    """A call refused before it runs, wrapped as Claude Code wraps it."""
    return f"<tool_use_error>{text}</tool_use_error>"


def model_disabled(name: str) -> str:
    return tool_use_error(
        f"Skill {name} cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /{name} "
        "themselves \u2014 it cannot be invoked via the Skill tool. Do not replicate this skill's workflow by other "
        "means \u2014 it is reserved for explicit user invocation."
    )


def fork_recursion(name: str) -> str:
    # skilldeck's words: Claude Code refuses this too, but no recording holds its text.
    return tool_use_error(
        f"Skill {name} is the skill this subagent is running (or one it runs inside): it is not started again. "
        "Follow its instructions here instead."
    )


def fork_tool_result(name: str, answer: str) -> str:
    return f'Skill "{name}" completed (forked execution).\n\nResult:\n{answer}'


def reinvoked(name: str) -> str:
    return (
        f"(Re-invocation of /{name} \u2014 the skill instructions were previously loaded; the arguments or dynamic "
        "output below are new.)"
    )


def already_loaded(name: str, args: str) -> str:
    return f"Skill /{name} is already loaded above; instructions unchanged." + (f" Arguments: {args}" if args else "")


def edit_distance(a: str, b: str, bound: int) -> int:
    """Optimal string alignment distance (an adjacent swap counts 1), or bound + 1 when above it."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > bound:
            return bound + 1
        before, previous = previous, current
    return min(previous[len(b)], bound + 1)


def unknown_skill(name: str, names: Iterable[str]) -> str:
    """What the model is told for a name no skill has: the plugin skills it is the bare name of
    (recorded: run_skill_plugin), else the nearest name within two edits."""
    known = list(names)
    scoped = [n for n in known if ":" not in name and n.rpartition(":")[2] == name and ":" in n]
    if len(scoped) == 1:
        return f"Unknown skill: {name}. Did you mean {scoped[0]}? Invoke it by that full name."
    if scoped:
        return f"Unknown skill: {name}. Several skills match that name: {', '.join(scoped)} \u2014 invoke one by its full name."
    near = did_you_mean(name, known)
    return f"Unknown skill: {name}" + (f". Did you mean {near}?" if near else "")


def did_you_mean(name: str, names: Iterable[str], bound: int = 2) -> str | None:
    """The first name nearest to `name` within `bound` edits, as Claude Code suggests one."""
    best, best_distance = None, bound + 1
    for candidate in names:
        distance = edit_distance(name, candidate, bound)
        if distance < best_distance:
            best, best_distance = candidate, distance
    return best


class SkillCalls:
    # The runner's (RunnerParts.active), declared here too: mypy would otherwise take the
    # assignment below for this class's own attribute, always a Skill.
    active: Skill | None

    async def _skill_call(self: RunnerParts, block: Block, result: Callable[..., Block]) -> tuple[Block, list[Message]]:
        """The model's Skill call, checked in Claude Code's order (the name, the skill, a fork
        calling itself, disable-model-invocation, the rules) and answered in its words."""
        raw = str(block.input.get("skill", ""))
        name = raw.strip()
        if not name:
            return result(tool_use_error(f"Invalid skill format: {raw}"), True), []
        name = name.removeprefix("/")
        args = str(block.input.get("args") or "")
        # By its exact name: the Skill tool does not fold case (recorded: run_skill_names), and
        # its suggestion may name a skill only the user can invoke.
        skill = self.catalog.skills.get(name)
        if skill is None:
            return result(tool_use_error(unknown_skill(name, self.catalog.skills)), True), []
        if skill.name in self.forks:
            return result(fork_recursion(name), True), []
        if not skill.model_invocable:
            return result(model_disabled(skill.name), True), []
        # Rules match the name only; the arguments ride along for the pane and the approval modal.
        call = {"skill": skill.name} | ({"args": args} if args else {})
        refused = await self._permit("Skill", call, block.id, self.permissions.decide_skill_call(skill))
        if not refused and skill.context == "fork":
            refused = self._fork_refused(skill.name)
        if refused:
            return result(refused, True), []
        try:
            prompt = await self._expanded(skill, args, None)
        except (ExpansionError, OSError) as exc:
            return result(str(exc), True), []
        if prompt.context == "fork":
            try:
                answer, _path = await self._fork(skill, prompt.messages[0])
            except AgentError as exc:
                return result(str(exc), True), []
            return result(fork_tool_result(skill.name, answer)), []
        self.active = skill
        self.active_effort = skill.effort or self.active_effort
        # Only the skill's text follows the result, after its `@file` attachments (recorded:
        # run_skill_at_file): a Skill call carries no command block.
        content = next((m for m in reversed(prompt.messages) if m.kind == "skill"), prompt.messages[-1])
        attached = [m for m in prompt.messages if m.kind == "attachment"]
        return result(f"Launching skill: {skill.name}"), attached + self._loading(skill.name, args, content)

    def _loading(self: RunnerParts, name: str, args: str, content: Message) -> list[Message]:
        """The skill's text as Claude Code sends it again: when this conversation already holds
        what the skill loaded last time, an unchanged text becomes one line, a changed one comes
        after a note that says so."""
        prior = self._loaded.get(name)
        self._loaded[name] = content.text
        if prior is None or not any(m.meta and m.text == prior for m in self.messages):
            return [content]
        if prior == content.text:
            return [Message.user(already_loaded(name, args), meta=True, kind="skill")]
        return [Message.user(reinvoked(name), meta=True, kind="skill"), content]
