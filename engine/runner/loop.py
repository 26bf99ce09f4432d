"""The agent loop: stream a response, decide and run each tool call, repeat; skills inline or forked.

Inline (BEHAVIOR.md §5): the visible command message and the meta skill prompt join the
conversation; the skill's `allowed-tools` are pre-approved and its `model` used until the next
user message. Fork: a fresh subagent conversation whose task is the rendered skill, with its
agent type's tools (Explore and Plan read-only) and the skill's model; only its final answer
comes back. Every message is appended to the transcript as it completes; a cancelled run
closes any open tool call with a result, so the transcript stays a valid conversation.

The model is not trusted: a call whose input is not a JSON object, names no tool, or does not
fit the tool's schema gets an error result; a tool that raises gets one too; every result is cut
at RESULT_CAP; a call in an answer that did not stop for tool use (cut by max_tokens) never runs.
A run ends after `max_turns` answers and says so (`Failed` with kind "turn-limit"); `proceed()`
goes on. What is sent is always rebuilt into a conversation the API accepts (`api_messages`).

The model's Skill calls (engine/runner/skillcalls.py) and forks (engine/runner/forks.py) are parts of `Runner`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..catalog.model import Skill
from ..listing.build import budget_from_env, build_listing
from ..llm import Backend, Error, Request, Stop, TextDelta, ToolUse, Usage, resolve_model, unfinished, with_listing
from ..permissions.decide import Decision, Permissions
from ..permissions.settings_edit import SettingsEditError, add_scoped_rule
from ..permissions.toolcheck import SKILL_SCHEMA, bounded, check_input, suggested_rule
from .conversation import Block, Message, Transcript, api_messages, closing_results, fork_result_message
from .events import Added, Ask, Call, ConfirmShell, Emit, Failed, Fork, Notice, Result, RunEvent, Sending, Streamed
from .expand import ExpansionError
from .expanding import Expanding
from .forks import Forks
from .invoke import not_typeable, session_effort
from .parts import RunBudget
from .skillcalls import SKILL_DENIED, UNANSWERED, SkillCalls, tool_use_error, unanswered
from .subagents import AgentError
from .tools import Tool, ToolContext, builtin_tools, offered
from .tools.base import api_spec
from .verdicts import Verdicts

# Re-exported for the engine's tests; the app and the CLI import them from `engine`.
__all__ = [
    "SKILL_SCHEMA", "Added", "Ask", "Call", "Emit", "Failed", "Fork", "Notice", "Result", "RunEvent", "Runner", "Sending",
    "Streamed", "suggested_rule",
]  # fmt: skip

MAX_TURNS = 25
# skilldeck's own words for the Skill tool (never Claude Code's): the listing itself is a system
# message in `messages`, where Claude Code 2.1.328 sends it, not in this description.
SKILL_DESCRIPTION = (
    "Execute a skill within the main conversation. The skills available are listed in a system message of this "
    "conversation, one `- name: description` line each; `skill` is a name from that listing."
)


def no_such_tool(name: str, denied: bool) -> str:
    if denied:
        return tool_use_error(
            f"Error: No such tool available: {name}. {name} is disabled for this session, in subagents as well as here."
        )
    return tool_use_error(f"Error: No such tool available: {name}")


class Runner(SkillCalls, Forks, Expanding, Verdicts):
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
        max_turns: int = MAX_TURNS,
        forks: tuple[str, ...] = (),
        confirm_shell: ConfirmShell | None = None,
    ) -> None:
        self.locations = locations
        self.catalog = catalog
        self.backend = backend
        self.permissions = permissions
        self.transcript = transcript
        self.ask = ask
        self.emit = emit
        self.model = model
        # The session's effort, sent with every request as Claude Code sends it (its default,
        # or $CLAUDE_CODE_EFFORT_LEVEL); a skill's `effort:` replaces it while the skill is active.
        self.effort = effort or session_effort(locations)
        self.tools = tools if tools is not None else builtin_tools()
        self.skill_tool = skill_tool
        self.max_turns = max_turns
        self.messages: list[Message] = []
        self._tool_specs: list[dict[str, Any]] | None = None
        # The inline skill whose pre-approvals and model hold until the next user message.
        self.active: Skill | None = None
        # The model a typed skill's `model:` sets until the next user message. A skill the model
        # calls keeps the session's model (recorded: run_skill_model), as in Claude Code.
        self.active_model: str | None = None
        # The effort a skill's `effort:` sets until the next user message, typed or called by the
        # model (recorded: typed_effort, run_skill_model: a later skill without one keeps it).
        self.active_effort: str | None = None
        self._forks = 0
        # What this run has spent (requests, forks; shared with its forks) and the forks this answer started.
        self.budget = RunBudget()
        self.answer_forks = 0
        # The forked skills this conversation runs inside (the innermost last): calling one of
        # them again from here would run it forever.
        self.forks = forks
        # Asked before a skill's `!` commands run in an untrusted project (None: they run, as in
        # `skilldeck run`, which is the user's explicit command, and Claude Code's print mode).
        self.confirm_shell = confirm_shell
        # What the model's Skill calls loaded, by skill: the same skill again is sent as Claude
        # Code sends it (a note when its text changed, a line instead of the text when not).
        self._loaded: dict[str, str] = {}
        # What this conversation has seen of each file (Read, Write, Edit results depend on it).
        self._seen: dict[Path, bool] = {}
        self._listing: tuple[Catalog, str] | None = None
        # Lines of a resumed conversation that were torn or broken, and so skipped.
        self.skipped = 0
        # Why the last run stopped before the model was done (a failed request, the turn bound):
        # `proceed()` goes on from there.
        self.stopped: Error | None = None

    # Conversation ---------------------------------------------------------------------------
    def resume(self, path: Path) -> int:
        """Continue a saved conversation: its messages become this run's history. Torn or broken
        lines are skipped (their count is returned); tool calls left without results (skilldeck
        was killed mid-tool) are closed with an error result, on disk too, so the conversation
        can be sent again."""
        self.messages, skipped = Transcript.read(path)
        closing = closing_results(self.messages, "Not run to the end: skilldeck stopped during this call.")
        if closing is not None:
            self._add(closing)
        return skipped

    def _add(self, message: Message, **extra: Any) -> None:
        self.messages.append(message)
        if unsaved := self.transcript.append(message, **extra):
            self.emit(Notice("not-saved", unsaved))
        self.emit(Added(message))

    async def send(self, text: str) -> None:
        """A user message: ends any inline skill's temporary context, then the model answers."""
        self.active = None
        self.active_model = None
        self.active_effort = None
        self._add(Message.user(text))
        await self._loop()

    async def proceed(self) -> None:
        """Let the model go on from where the run stopped (the turn bound, a failed request),
        without a new user message."""
        if self.messages:
            await self._loop()

    async def invoke(self, name: str, args: str = "", fork: bool | None = None) -> None:
        """The user typed `/name args`."""
        self.active = None
        self.active_model = None
        self.active_effort = None
        self.stopped = None
        self.budget = RunBudget()
        # Found as Claude Code finds a typed /name: the exact name or a `name:` label, and refused
        # in its words when only the model may invoke the skill (recorded: typed_*).
        wanted = name.strip().removeprefix("/")
        skill = self.catalog.skills.get(wanted) or self.catalog.labelled(wanted)
        if skill is None:
            self.emit(Failed(Error("unknown-skill", f"Unknown skill: {wanted}", False)))
            return
        if not skill.user_invocable:
            self.emit(Failed(Error("not-user-invocable", not_typeable(skill.name), False)))
            return
        try:
            prompt = await self._expanded(skill, args, fork, True)
        except (ExpansionError, OSError) as exc:
            self.emit(Failed(Error("expansion", str(exc), False)))
            return
        if prompt.context == "fork":
            try:
                result, path = await self._fork(skill, prompt.messages[0], by="user", args=args)
            except AgentError as exc:
                self.emit(Failed(Error("agent", str(exc), False)))
                return
            typed = f"/{skill.name} {args}".rstrip()
            message = Message.user(fork_result_message(skill.name, result), kind="fork-result", command=typed)
            self._add(message, fork_transcript=str(path))
            return
        for message in prompt.messages:
            self._add(message)
        # What the skill loaded counts for the model's later Skill calls of it (recorded:
        # run_typed_then_called).
        loaded = [m.text for m in prompt.messages if m.kind == "skill"]
        if loaded:
            self._loaded[skill.name] = loaded[-1]
        self.active = skill
        self.active_model = skill.model
        self.active_effort = skill.effort
        await self._loop()

    # The loop ----------------------------------------------------------------------------------
    def offered(self) -> dict[str, Tool]:
        """The tools the model is offered now (a bare deny rule takes one away; Claude Code
        offers Glob and Grep only without Bash)."""
        return offered(self.tools, self.permissions.denied_tools())

    def offers_skill(self) -> bool:
        return self.skill_tool and "Skill" not in self.permissions.denied_tools()

    def request(self) -> Request:
        model = resolve_model(self.active_model or self.model, self.locations.environ)
        # In name order as Claude Code sends them, the Skill tool last; its listing is a system
        # message after the conversation's first user message (recorded: every invoke case).
        tools = [api_spec(t) for t in sorted(self.offered().values(), key=lambda t: t.name)]
        messages = api_messages(self.messages)
        if self.offers_skill():
            tools.append({"name": "Skill", "description": SKILL_DESCRIPTION, "input_schema": SKILL_SCHEMA})
            messages = with_listing(messages, self.listing_text())
        system = self.system_prompt()
        return Request(model, system, messages, tools, effort=self.active_effort or self.effort)

    def system_prompt(self) -> str:
        """skilldeck's own system prompt (never Claude Code's): the main conversation's, or a
        fork's, which says that only its last answer goes back."""
        where = f"Working directory: {self.locations.project}"
        if not self.forks:
            return f"You are Claude, running skills through skilldeck.\n{where}"
        return (
            f"You are a subagent that skilldeck started to run the skill /{self.forks[-1]} on its own. The user "
            "message is the skill's task. Only your last answer goes back to the conversation that started you, "
            f"so make it complete: what you found or did, and anything left undone.\n{where}"
        )

    def listing_text(self) -> str:
        """The skill listing this conversation sends. It depends only on the catalog (a new object
        after each reload): built once per catalog, not per request; with thousands of skills it
        costs milliseconds."""
        if self._listing is None or self._listing[0] is not self.catalog:
            listing = build_listing(self.catalog.skills.values(), budget_from_env(self.locations.environ))
            self._listing = (self.catalog, listing.text)
        return self._listing[1]

    async def _loop(self) -> None:
        self.stopped = None
        if not self.forks:
            self.budget = RunBudget()
        try:
            for _ in range(self.max_turns):
                if not await self._turn():
                    return
            self._stop(
                Error(
                    "turn-limit",
                    f"Stopped after {self.max_turns} turns (skilldeck's bound on one run) while the model was still "
                    "calling tools. Send 'continue' (or press ctrl+r in the app) to let it go on.",
                    True,
                )
            )
        except asyncio.CancelledError:
            self._close_open_calls()
            raise

    def _stop(self, error: Error) -> None:
        self.stopped = error
        self.emit(Failed(error))

    async def _turn(self) -> bool:
        """One answer and its tool calls; True when the model should be asked again."""
        blocks: list[Block] = []
        broken: dict[str, str] = {}
        text: list[str] = []
        stop = "end_turn"
        self.answer_forks = 0
        if (spent := self._spend_request()) is not None:
            self._stop(spent)
            return False
        request = self.request()
        self.emit(Sending(request))
        async for event in self.backend.stream(request):
            if isinstance(event, TextDelta):
                text.append(event.text)
                self.emit(Streamed(event.text))
            elif isinstance(event, ToolUse):
                blocks.append(Block("tool_use", id=event.id, name=event.name, input=event.input))
                if event.error:
                    broken[event.id] = event.error
            elif isinstance(event, Stop):
                stop = event.reason
            elif isinstance(event, Usage):
                self.emit(event)
            elif isinstance(event, Error):
                if "".join(text).strip():
                    self._add(Message("assistant", [Block("text", "".join(text))]))
                self._stop(event)
                return False
        answer = "".join(text)
        if not answer.strip() and not blocks:
            # Nothing to keep: an empty assistant message is one the API refuses ever after.
            empty = Error("empty", "The model answered with nothing (no text, no tool call). Retry, or rephrase.", True)
            self._stop(unfinished(stop) or empty)
            return False
        self._add(Message("assistant", ([Block("text", answer)] if answer.strip() else []) + blocks))
        if not blocks:
            if stop == "max_tokens":
                self.emit(Notice("cut", f"The answer was cut off at the output limit ({request.max_tokens} tokens)."))
            elif (reason := unfinished(stop)) is not None:
                self._stop(reason)
            return False
        if stop != "tool_use":
            # A call cut by max_tokens may hold half a command: it never runs, and gets a result
            # that says so (a tool_use without one would make the conversation unsendable).
            why = "the answer was cut off by max_tokens inside it" if stop == "max_tokens" else f"the answer stopped with {stop}"
            not_run = f"Not run: {why}, so its input may be incomplete."
            self._add(
                Message("user", [Block("tool_result", not_run, tool_use_id=b.id, is_error=True) for b in blocks], kind="tool")
            )
            names = ", ".join(b.name for b in blocks)
            kind = "max-tokens" if stop == "max_tokens" else "stop"
            self._stop(
                Error(kind, f"The model's tool call ({names}) was not run: {why}. Send 'continue' to let it try again.", True)
            )
            return False
        results: list[Block] = []
        after: list[Message] = []
        for block in blocks:
            result, extra = await self._checked_call(block, broken.get(block.id, ""))
            results.append(result)
            after.extend(extra)
        self._add(Message("user", results, kind="tool"))
        for message in after:
            self._add(message)
        return True

    def _close_open_calls(self) -> None:
        """After a cancel, answer every tool call left without a result, so that the
        conversation (and the transcript) can be sent again as it is."""
        closing = closing_results(self.messages, "Cancelled by the user")
        if closing is not None:
            self._add(closing)

    # Tool calls ----------------------------------------------------------------------------------
    async def _permit(self, name: str, tool_input: dict[str, Any], call_id: str, decision: Decision | None = None) -> str | None:
        """None when the call may run, else the error the model receives."""
        if decision is None:
            permissions = self.permissions.with_allowed_tools(self.active) if self.active else self.permissions
            # In a thread: deciding reads the disk (real paths, wildcards, a repository's git config): a call can slow it.
            decision = await asyncio.to_thread(permissions.decide, name, tool_input)
        self._announce(call_id, name, tool_input, decision)
        if decision.decision == "allow":
            return None
        if decision.decision == "deny":
            return self._refusal(name, tool_input, decision)
        answer = await self._asked(call_id, name, tool_input, decision)
        if answer == UNANSWERED:
            return unanswered(name, tool_input)
        if answer == "deny":
            return f"The user doesn't want to proceed with this tool use. The {name} call was rejected."
        if answer == "always":
            rule = suggested_rule(name, tool_input)
            try:
                # In a thread: an edit may wait for another editor (its lock, an empty file).
                await asyncio.to_thread(add_scoped_rule, self.locations, "local", rule, "allow")
            except (SettingsEditError, OSError) as exc:
                # The user did approve this call: it runs once; the rule just is not remembered.
                self.emit(Notice("rule-not-saved", f"Allowed once; the rule {rule} was not saved: {exc}"))
            else:
                self.permissions = await asyncio.to_thread(Permissions.load, self.locations)
        return None

    def _refusal(self, name: str, tool_input: dict[str, Any], decision: Decision) -> str:
        """What the model is told for a denied call: Claude Code's words where it was recorded
        (run_denials), skilldeck's own otherwise."""
        if decision.mode == "plan" and name in ("Edit", "Write"):
            target = self.permissions.targets(name, tool_input)[0]
            return f"Cannot write to {target} while in plan mode."
        if not decision.mode:
            if name == "Skill":
                return SKILL_DENIED
            if name == "Bash":
                return f"Permission to use Bash with command {tool_input.get('command', '')} has been denied."
            if name in ("Read", "Edit", "Write"):
                return tool_use_error("File is in a directory that is denied by your permission settings.")
        return f"Permission to use {name} has been denied ({decision.reason})."

    async def _checked_call(self, block: Block, broken: str) -> tuple[Block, list[Message]]:
        """`_call`, for any call a model may send: a call whose input did not arrive as a JSON
        object, names no tool we have, or does not fit the tool's schema is answered with an
        error (no permission asked, nothing run); a tool that raises becomes an error result."""

        def refuse(text: str) -> tuple[Block, list[Message]]:
            self.emit(Result(block.id, text, True))
            return Block("tool_result", text, tool_use_id=block.id, is_error=True), []

        if broken:
            return refuse(f"The {block.name} call was not run: {broken}. Call it again with a JSON object as its input.")
        schema = (
            SKILL_SCHEMA
            if block.name == "Skill" and self.offers_skill()
            else getattr(self.offered().get(block.name), "input_schema", None)
        )
        if schema is None:
            return refuse(no_such_tool(block.name, block.name in self.permissions.denied_tools()))
        problem = check_input(block.name, block.input, schema)
        if problem:
            return refuse(tool_use_error(problem))
        try:
            return await self._call(block)
        except (asyncio.CancelledError, KeyboardInterrupt):
            raise
        except Exception as exc:
            return refuse(f"The {block.name} tool failed: {type(exc).__name__}: {exc}")

    async def _call(self, block: Block) -> tuple[Block, list[Message]]:
        def result(text: str, error: bool = False) -> Block:
            text = bounded(text)
            self.emit(Result(block.id, text, error))
            return Block("tool_result", text, tool_use_id=block.id, is_error=error, decided=self._verdict_of(block.id))

        if block.name == "Skill" and self.offers_skill():
            return await self._skill_call(block, result)
        tool = self.offered().get(block.name)
        if tool is None:
            return result(no_such_tool(block.name, block.name in self.permissions.denied_tools()), True), []
        refused = await self._permit(block.name, block.input, block.id)
        if refused:
            return result(refused, True), []
        outcome = await tool.run(block.input, ToolContext(self.locations.project, self.permissions, self._seen))
        return result(outcome.text, outcome.is_error), []
