"""The agent loop: stream a response, decide and run each tool call, repeat; skills inline or forked.

Inline (BEHAVIOR.md §5): the visible command message and the meta skill prompt join the
conversation; the skill's `allowed-tools` are pre-approved and its `model` used until the next
user message. Fork: a fresh subagent conversation whose task is the rendered skill, with its
agent type's tools (Explore and Plan read-only) and the skill's model; only its final answer
comes back. Every message is appended to the transcript as it completes; a cancelled run
closes any open tool call with a result, so the transcript stays a valid conversation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .catalog import Catalog
from .conversation import Block, Message, Transcript, fork_result_message
from .expand import ExpansionError
from .invoke import Prompt, build_prompt
from .listing import budget_from_env, build_listing
from .llm import Backend, Error, Request, Stop, TextDelta, ToolUse, Usage, resolve_model
from .locations import Locations
from .model import Skill
from .permissions import Decision, Permissions
from .rules import format_rule
from .settings_edit import add_rule, scope_path
from .tools import READ_ONLY, Tool, ToolContext, builtin_tools
from .tools.base import api_spec

MAX_TURNS = 25
READ_ONLY_AGENTS = ("Explore", "Plan")
SKILL_SCHEMA = {
    "type": "object",
    "properties": {
        "skill": {"type": "string", "description": 'The skill name, e.g. "pdf" or "plugin:skill"'},
        "args": {"type": "string", "description": "Optional arguments for the skill"},
    },
    "required": ["skill"],
    "additionalProperties": False,
}


# Events for the caller (the app, the CLI) ---------------------------------------------------
@dataclass
class Added:
    message: Message


@dataclass
class Text:
    delta: str


@dataclass
class Call:
    id: str
    name: str
    input: dict[str, Any]
    decision: str
    reason: str


@dataclass
class Result:
    id: str
    text: str
    is_error: bool


@dataclass
class Fork:
    skill: str
    phase: str  # "start" | "step" (a tool call inside, in `result`) | "end"
    result: str = ""
    transcript: Path | None = None
    # Who started it: the user typed `/skill args` (shown as the user's line), or the model called
    # the Skill tool (shown as that tool call).
    by: str = "model"
    args: str = ""


@dataclass
class Failed:
    error: Error


@dataclass
class Sending:
    """A request is about to leave: what the model will receive (system, tools, the listing)."""

    request: Request


RunEvent = Added | Text | Call | Result | Fork | Failed | Usage | Sending
Emit = Callable[[RunEvent], None]
# Answer "once", "always" or "deny" for a tool call no rule allows.
Ask = Callable[[str, dict[str, Any], Decision], Awaitable[str]]


def suggested_rule(tool: str, tool_input: dict[str, Any]) -> str:
    """The rule an "allow always" answer writes (as Claude Code suggests, into settings.local.json)."""
    if tool == "Bash":
        return format_rule("Bash", str(tool_input.get("command", "")).strip())
    if tool == "Skill":
        return format_rule("Skill", str(tool_input.get("skill", "")).strip().removeprefix("/"))
    path = tool_input.get("file_path") or tool_input.get("path")
    if tool in ("Read", "Edit", "Write") and isinstance(path, str):
        # `//` marks an absolute path in a rule; a bare path is relative to the working folder.
        return format_rule("Edit" if tool == "Write" else tool, "/" + path if path.startswith("/") else path)
    return tool


def _summary(tool_input: dict[str, Any], width: int = 60) -> str:
    first = next(iter(tool_input.values()), "") if tool_input else ""
    text = " ".join(str(first).split())
    return text if len(text) <= width else text[: width - 1] + "…"


class Runner:
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
        tools: dict[str, Tool] | None = None,
        skill_tool: bool = True,
        max_turns: int = MAX_TURNS,
    ) -> None:
        self.locations = locations
        self.catalog = catalog
        self.backend = backend
        self.permissions = permissions
        self.transcript = transcript
        self.ask = ask
        self.emit = emit
        self.model = model
        self.tools = tools if tools is not None else builtin_tools()
        self.skill_tool = skill_tool
        self.max_turns = max_turns
        self.messages: list[Message] = []
        self._tool_specs: list[dict[str, Any]] | None = None
        # The inline skill whose pre-approvals and model hold until the next user message.
        self.active: Skill | None = None
        self._forks = 0
        self._listing: tuple[Catalog, str] | None = None

    # Conversation ---------------------------------------------------------------------------
    def resume(self, path: Path) -> None:
        """Continue a saved conversation: its messages become this run's history."""
        self.messages = Transcript.load(path)

    def _add(self, message: Message, **extra: Any) -> None:
        self.messages.append(message)
        self.transcript.append(message, **extra)
        self.emit(Added(message))

    async def send(self, text: str) -> None:
        """A user message: ends any inline skill's temporary context, then the model answers."""
        self.active = None
        self._add(Message.user(text))
        await self._loop()

    async def invoke(self, name: str, args: str = "", fork: bool | None = None) -> None:
        """The user typed `/name args`."""
        self.active = None
        skill = self.catalog.get(name)
        if skill is None:
            self.emit(Failed(Error("unknown-skill", f"Unknown skill: {name.strip().removeprefix('/')}", False)))
            return
        if not skill.user_invocable:
            self.emit(Failed(Error("not-user-invocable", f"/{skill.name} cannot be typed: it sets user-invocable: false", False)))
            return
        try:
            prompt = self._prompt(skill, args, fork)
        except ExpansionError as exc:
            self.emit(Failed(Error("expansion", str(exc), False)))
            return
        if prompt.context == "fork":
            result, path = await self._fork(skill, prompt.messages[0], by="user", args=args)
            typed = f"/{skill.name} {args}".rstrip()
            message = Message.user(fork_result_message(skill.name, result), kind="fork-result", command=typed)
            self._add(message, fork_transcript=str(path))
            return
        for message in prompt.messages:
            self._add(message)
        self.active = skill
        await self._loop()

    def _prompt(self, skill: Skill, args: str, fork: bool | None) -> Prompt:
        return build_prompt(
            self.locations,
            self.catalog,
            skill.name,
            args,
            fork=fork,
            session_id=self.transcript.session_id,
            permissions=self.permissions,
            shell="execute",  # a real run: the allowed `!` commands run, as in Claude Code
        )

    # The loop ----------------------------------------------------------------------------------
    def request(self) -> Request:
        model = resolve_model((self.active.model if self.active else None) or self.model, self.locations.environ)
        tools = [api_spec(t) for t in self.tools.values()]
        if self.skill_tool:
            tools.append({"name": "Skill", "description": self._skill_description(), "input_schema": SKILL_SCHEMA})
        system = f"You are Claude, running skills through skilldeck.\nWorking directory: {self.locations.project}"
        return Request(model, system, [m.to_api() for m in self.messages], tools)

    def _skill_description(self) -> str:
        # The listing depends only on the catalog (a new object after each reload): build it once
        # per catalog, not per request; with thousands of skills it costs milliseconds.
        if self._listing is None or self._listing[0] is not self.catalog:
            listing = build_listing(self.catalog.skills.values(), budget_from_env(self.locations.environ))
            self._listing = (self.catalog, f"Execute a skill within the main conversation.\n\n{listing.text}")
        return self._listing[1]

    async def _loop(self) -> None:
        try:
            for _ in range(self.max_turns):
                blocks: list[Block] = []
                text: list[str] = []
                stop = "end_turn"
                request = self.request()
                self.emit(Sending(request))
                async for event in self.backend.stream(request):
                    if isinstance(event, TextDelta):
                        text.append(event.text)
                        self.emit(Text(event.text))
                    elif isinstance(event, ToolUse):
                        blocks.append(Block("tool_use", id=event.id, name=event.name, input=event.input))
                    elif isinstance(event, Stop):
                        stop = event.reason
                    elif isinstance(event, Usage):
                        self.emit(event)
                    elif isinstance(event, Error):
                        if text:
                            self._add(Message("assistant", [Block("text", "".join(text))]))
                        self.emit(Failed(event))
                        return
                content = ([Block("text", "".join(text))] if text else []) + blocks
                self._add(Message("assistant", content or [Block("text", "")]))
                if stop != "tool_use" or not blocks:
                    return
                results: list[Block] = []
                after: list[Message] = []
                for block in blocks:
                    result, extra = await self._call(block)
                    results.append(result)
                    after.extend(extra)
                self._add(Message("user", results, kind="tool"))
                for message in after:
                    self._add(message)
        except asyncio.CancelledError:
            self._close_open_calls()
            raise

    def _close_open_calls(self) -> None:
        """After a cancel, answer every tool call left without a result, so that the
        conversation (and the transcript) can be sent again as it is."""
        last = self.messages[-1] if self.messages else None
        if last is None or last.role != "assistant":
            return
        pending = [b for b in last.blocks if b.type == "tool_use"]
        if pending:
            self._add(
                Message(
                    "user",
                    [Block("tool_result", "Cancelled by the user", tool_use_id=b.id, is_error=True) for b in pending],
                    kind="tool",
                )
            )

    # Tool calls ----------------------------------------------------------------------------------
    async def _permit(self, name: str, tool_input: dict[str, Any], call_id: str) -> str | None:
        """None when the call may run, else the error the model receives."""
        permissions = self.permissions.with_allowed_tools(self.active) if self.active else self.permissions
        decision = permissions.decide(name, tool_input)
        self.emit(Call(call_id, name, tool_input, decision.decision, decision.reason))
        if decision.decision == "allow":
            return None
        if decision.decision == "deny":
            return f"Permission to use {name} has been denied ({decision.reason})."
        answer = await self.ask(name, tool_input, decision)
        if answer == "deny":
            return f"The user doesn't want to proceed with this tool use. The {name} call was rejected."
        if answer == "always":
            rule = suggested_rule(name, tool_input)
            add_rule(scope_path(self.locations, "local"), rule, "allow")
            self.permissions = Permissions.load(self.locations)
        return None

    async def _call(self, block: Block) -> tuple[Block, list[Message]]:
        def result(text: str, error: bool = False) -> Block:
            self.emit(Result(block.id, text, error))
            return Block("tool_result", text, tool_use_id=block.id, is_error=error)

        if block.name == "Skill" and self.skill_tool:
            return await self._skill_call(block, result)
        tool = self.tools.get(block.name)
        if tool is None:
            return result(f"No such tool available: {block.name}", True), []
        refused = await self._permit(block.name, block.input, block.id)
        if refused:
            return result(refused, True), []
        outcome = await tool.run(block.input, ToolContext(self.locations.project))
        return result(outcome.text, outcome.is_error), []

    async def _skill_call(self, block: Block, result: Callable[..., Block]) -> tuple[Block, list[Message]]:
        raw = str(block.input.get("skill", ""))
        name = raw.strip().removeprefix("/")
        args = str(block.input.get("args") or "")
        if not name:
            return result(f"Invalid skill format: {raw}", True), []
        skill = self.catalog.get(name)
        if skill is None:
            return result(f"Unknown skill: {name}", True), []
        if not skill.model_invocable:
            return result(f"Skill {skill.name} cannot be used with Skill tool due to disable-model-invocation", True), []
        # Rules match the name only; the arguments ride along for the pane and the approval modal.
        refused = await self._permit("Skill", {"skill": skill.name} | ({"args": args} if args else {}), block.id)
        if refused:
            return result(refused, True), []
        try:
            prompt = self._prompt(skill, args, None)
        except (ExpansionError, OSError) as exc:
            return result(str(exc), True), []
        if prompt.context == "fork":
            answer, _path = await self._fork(skill, prompt.messages[0])
            return result(fork_result_message(skill.name, answer)), []
        self.active = skill
        return result(f"Launching skill: {skill.name}"), [prompt.messages[1]]

    def _from_fork(self, skill: str, event: RunEvent) -> None:
        """A fork's own conversation stays in its transcript; its tokens count, and its tool
        calls show as steps, so that the user sees the subagent working."""
        if isinstance(event, Usage):
            self.emit(event)
        elif isinstance(event, Call):
            self.emit(Fork(skill, "step", f"{event.name} {_summary(event.input)} · {event.decision}"))

    async def _fork(self, skill: Skill, task: Message, by: str = "model", args: str = "") -> tuple[str, Path]:
        self._forks += 1
        sub_transcript = Transcript.create(
            f"{self.transcript.session_id}-fork{self._forks}-{skill.name.replace(':', '_')}", self.locations.environ
        )
        self.emit(Fork(skill.name, "start", transcript=sub_transcript.path, by=by, args=args))
        tools = builtin_tools()
        if (skill.agent or "general-purpose") in READ_ONLY_AGENTS:
            tools = {k: v for k, v in tools.items() if k in READ_ONLY}
        sub = Runner(
            locations=self.locations,
            catalog=self.catalog,
            backend=self.backend,
            permissions=self.permissions.with_allowed_tools(skill),
            transcript=sub_transcript,
            ask=self.ask,
            emit=lambda event: self._from_fork(skill.name, event),
            model=skill.model or self.model,
            tools=tools,
            skill_tool=False,
            max_turns=self.max_turns,
        )
        sub._add(task)
        await sub._loop()
        answer = next((m.text for m in reversed(sub.messages) if m.role == "assistant" and m.text), "")
        self.emit(Fork(skill.name, "end", answer, sub_transcript.path))
        return answer, sub_transcript.path
