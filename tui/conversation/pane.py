"""The conversation pane: a run's messages, streamed answers, tool calls, forks and errors.

Almost everything here is someone else's text: a model's answer and tool calls, a tool's result
(a file a tool read), a skill's prompt, an API error. Each goes through `printable` (tui/untrusted.py
says why at each widget) and into a `Text` or `Content`, never parsed as markup: a model naming
a skill `[/b]` would otherwise crash the app. Answers are MarkdownParts, which do it themselves."""

from __future__ import annotations

import json
import re

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.suggester import SuggestFromList
from textual.widgets import Collapsible, Input, Static
from textual.worker import Worker, WorkerState

from engine import (
    Added,
    Block,
    Call,
    Failed,
    Fork,
    Message,
    Preparing,
    Request,
    Result,
    RunEvent,
    Sending,
    Skill,
    Streamed,
    json_printable,
    listing_in_messages,
    offline_request,
    parse_fork_result,
    printable,
)
from tui.conversation.answer import MarkdownPart, StreamedAnswer, rich_markdown
from tui.conversation.composer import Composer
from tui.conversation.session import RunSession
from tui.conversation.text import first_sentence, offline_summary, verdict_of
from tui.conversation.waiting import WaitingLine
from tui.deck import Deck
from tui.untrusted import content

OFFLINE_NOTE = (
    "Offline: nothing is sent. Set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for another server) to run against a model."
)
EMPTY_NOTE = "Nothing here yet: enter on a skill runs it; type /name args below; ctrl+p for the palette."


class ConversationPane(Vertical):
    # ctrl+t and ctrl+r are the app's bindings (app.toggle_meta, app.retry): they work from any focus.

    def __init__(self, deck: Deck, backend: str | None = None, model: str | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # The session runs what the user asks for; its workers are this pane's and end with it.
        self.session = RunSession(deck, self, self, backend, model)
        self.waiting = WaitingLine(id="conversation-waiting")
        self._answer: StreamedAnswer | None = None
        self.answers: list[StreamedAnswer | MarkdownPart] = []
        # Each block's parts are made with it: a result can arrive before Textual has mounted the
        # block (a Skill call answers at once), and a Static can be updated before it is mounted.
        self._calls: dict[str, tuple[Collapsible, Static]] = {}
        # Each call's title: what it is, and what was decided ("allowed once", "denied by rule X").
        self._titles: dict[str, tuple[str, str]] = {}
        self._fork: tuple[Collapsible, Static] | None = None
        self.failed = False
        self._fork_steps: list[str] = []
        self._typed: dict[str, Skill] = {}
        # The last request sent: its system prompt, tools and skill listing show with the meta toggle.
        self.last_request: Request | None = None
        self._sent_context: Static | None = None
        self.offline = False
        # The call the user is being asked about (its title changes with the answer).
        self._asking: str | None = None
        self._empty_shown = True

    def compose(self) -> ComposeResult:
        yield Static(id="conversation-note")
        yield Static(Text(EMPTY_NOTE, "dim"), id="conversation-empty")
        yield VerticalScroll(id="conversation-log")
        yield self.waiting
        yield Static(id="conversation-status")
        yield Static(id="composer-hint")
        composer = Composer(lambda: self.session.running, placeholder="message or /skill args (esc leaves)", id="composer")
        # Snapshots turn the blink off: a run leaves the focus here, and a blinking cursor drew two ways.
        composer.cursor_blink = self.session.deck.blink
        yield composer

    def on_mount(self) -> None:
        # Follow the conversation as it grows, until the user scrolls up (Textual's anchor).
        self.transcript.anchor()

    @property
    def transcript(self) -> VerticalScroll:
        return self.query_one("#conversation-log", VerticalScroll)

    @property
    def settled(self) -> bool:
        """Every answer drawn in full."""
        return all(answer.settled for answer in self.answers)

    def set_offline(self, offline: bool) -> None:
        self.offline = offline
        self.query_one("#conversation-note", Static).update(Text(OFFLINE_NOTE, "yellow") if offline else "")
        self.query_one("#conversation-note", Static).display = offline

    def set_status(self, model: str, backend: str, tokens: int, preapproved: str | None) -> None:
        active = f" · pre-approved: {preapproved}" if preapproved else ""
        status = printable(f"{model} · {backend} · {tokens:,} tokens{active}")
        self.query_one("#conversation-status", Static).update(Text(status, "dim"))

    def set_skills(self, skills: list[Skill]) -> None:
        """The skills a user may type: completed in the composer, their hints shown above it."""
        self._typed = {s.name: s for s in skills}
        # The Input draws a suggestion as it is: a name with controls in it (from a folder name)
        # is offered as shown (it cannot be typed anyway; the tiers tree runs it).
        self.query_one("#composer", Input).suggester = SuggestFromList(
            [f"/{printable(s.name)} " for s in skills], case_sensitive=True
        )

    def on_input_changed(self, event: Input.Changed) -> None:
        hint = self.query_one("#composer-hint", Static)
        name = event.value[1:].split(" ", 1)[0] if event.value.startswith("/") else ""
        skill = self._typed.get(name)
        if skill is None:
            hint.display = False
            return
        args = f" {skill.argument_hint}" if skill.argument_hint else ""
        named = f"  (named: {', '.join(skill.arguments)})" if skill.arguments else ""
        hint.update(
            Text.assemble(
                (printable(f"/{skill.name}{args}"), "bold"),
                printable(named),
                (printable("  " + first_sentence(skill.description)), "dim"),
            )
        )
        hint.display = True

    def clear(self) -> None:
        for answer in self.answers:
            if isinstance(answer, StreamedAnswer):
                answer.abandon()
        self.answers.clear()
        removal = self.transcript.remove_children()

        async def forget() -> None:
            # Textual's list of a widget's displayed children is kept until next asked, and
            # nothing asks an empty log: the whole cleared conversation stayed alive until the
            # next message (28 answer parts after three answers).
            await removal
            self.transcript.displayed_children  # noqa: B018

        self.call_next(forget)
        self._calls.clear()
        self._titles.clear()
        self._answer = self._fork = None
        self._sent_context = self.last_request = None
        self.end_run()
        self._show_empty(True)

    def show_history(self, messages: list[Message]) -> None:
        """A resumed conversation, as it was."""
        if messages:
            self._show_empty(False)
        results = {b.tool_use_id: b for m in messages if m.kind == "tool" for b in m.blocks if b.type == "tool_result"}
        for message in messages:
            if message.role == "assistant" and offline_request(message.text) is not None:
                self._offline_answer(message.text)
                continue
            if message.role == "assistant":
                if message.text:
                    answer = MarkdownPart(message.text, classes="answer")
                    self.answers.append(answer)
                    self._mount(answer)
                for call in (b for b in message.blocks if b.type == "tool_use"):
                    self._past_call(call, results.get(call.id))
                continue
            fork = parse_fork_result(message.text) if message.kind == "fork-result" else None
            if fork is not None:
                # As it showed live: the command, the fork's block with its answer, the result line.
                if message.command:
                    self._typed_command(message.command)
                forked, said = fork
                self._fork = self._fork_block(forked, rich_markdown(printable(said)), done=True)
            self._message(message)

    # Events from the runner (on the app's loop) ------------------------------------------------
    def on_run(self, event: RunEvent) -> None:
        if isinstance(event, Preparing):
            self.waiting.preparing(event.skill)
            return
        self._show_empty(False)
        if not isinstance(event, Sending | Added):
            # Something came back (text, a call, an error, a fork): the request is not pending any more.
            self.waiting.stop()
        if isinstance(event, Added):
            if event.message.role == "assistant":
                self.waiting.stop()
            if event.message.role == "user" and event.message.kind in ("text", "command"):
                self.transcript.anchor()  # the user spoke: follow again, even after scrolling up
            self._message(event.message)
        elif isinstance(event, Streamed):
            if not self.offline:
                self._text(event.delta)
            # Offline, the answer is the request as JSON: summed up once it is complete (_message).
        elif isinstance(event, Sending):
            # A new request: the failure before it is no longer the last word (ctrl+r would re-send it).
            self.failed = False
            self.last_request = event.request
            self.waiting.start(event.request.model)
            if self.has_class("show-meta"):
                self._show_context()
        elif isinstance(event, Call):
            self._call(event)
        elif isinstance(event, Result):
            self._result(event)
        elif isinstance(event, Fork):
            self._end_answer()
            if event.phase == "start":
                if event.by == "user":
                    # As an inline run shows its command: the user's line, then what it started.
                    self._typed_command(f"/{event.skill} {event.args}".rstrip())
                self._fork_steps = []
                self._fork = self._fork_block(event.skill, Text("the subagent is working…", "dim"))
            elif event.phase == "step" and self._fork is not None:
                self._fork_steps.append(printable(event.result))
                steps = "\n".join(self._fork_steps[-8:])
                self._fork[1].update(Text.assemble(("the subagent is working…\n", "dim"), steps))
            elif self._fork is not None:
                block, body = self._fork
                block.title = _fork_title(event.skill, done=True)  # type: ignore[assignment]  # a Content title is not parsed
                shown = Text("\n".join(self._fork_steps), "dim")
                result = rich_markdown(printable(event.result))
                body.update(Group(shown, Text(), result) if self._fork_steps else result)
        elif isinstance(event, Failed):
            self._end_answer()
            self.failed = True
            error = printable(event.error.message)  # a server's words
            self._mount(Static(Text(f"{error}   ctrl+r: retry" if event.error.retryable else error, "bold red"), classes="error"))

    def _call(self, event: Call) -> None:
        self._end_answer()
        # json.dumps escapes C0 controls; json_printable escapes DEL and C1 too: the same JSON value.
        body = Static(Text(json_printable(json.dumps(event.input, indent=2, ensure_ascii=False))), classes="tool-input")
        if event.name == "Skill":
            # The model chose a skill itself (Claude Code shows these as the skill, not as a tool).
            args = event.input.get("args")
            label = f"model invoked /{event.input.get('skill', '')}{f' {args}' if args else ''}"
            classes = f"tool skill-call {event.decision}"
        else:
            label, classes = event.name, f"tool {event.decision}"
        verdict = verdict_of(event.decision, event.reason)
        result = Static(classes="tool-result")
        result.display = False
        # A Collapsible parses a str title as markup; a Content is taken as it is.
        block = Collapsible(body, result, title=_call_title(label, verdict), collapsed=True, classes=classes)  # type: ignore[arg-type]
        self._calls[event.id] = (block, result)
        self._titles[event.id] = (label, verdict)
        if event.decision == "ask":
            self._asking = event.id
        self._mount(block)

    def _past_call(self, call: Block, result: Block | None) -> None:
        """A call of a resumed conversation, drawn as it was live: the same block, its verdict
        (saved with its result) and the user's answer, then its result."""
        decided = result.decided if result is not None else {}
        self._call(Call(call.id, call.name, call.input, decided.get("decision", ""), decided.get("reason", "")))
        if "answer" in decided:
            self._asking = call.id
            self.answered(decided["answer"])
        self._asking = None
        if result is not None:
            self._result(Result(call.id, result.text, result.is_error))

    def answered(self, answer: str) -> None:
        """The user's answer to the approval of the call being asked about: "once", "always" or "deny"."""
        call, self._asking = self._asking, None
        if call is None or call not in self._calls:
            return
        label, _ = self._titles[call]
        verdict = {"once": "allowed once", "always": "allowed always"}.get(answer, "denied by you")
        self._titles[call] = (label, verdict)
        self._calls[call][0].title = _call_title(label, verdict)  # type: ignore[assignment]

    def _result(self, event: Result) -> None:
        if event.id not in self._calls:
            return
        block, result = self._calls[event.id]
        result.update(Text(printable(event.text[:4000]), "red" if event.is_error else ""))
        result.display = True
        label, verdict = self._titles[event.id]
        if verdict.startswith("denied"):
            return  # the result is the refusal the title already names
        done = "launched" if block.has_class("skill-call") else "done"
        block.title = _call_title(label, verdict, "error" if event.is_error else done)  # type: ignore[assignment]

    def _show_context(self) -> None:
        """What every request carries besides the messages, at the top of the log."""
        request = self.last_request
        if request is None:
            return
        skill_tool = next((t for t in request.tools if t["name"] == "Skill"), None)
        text = Text.assemble(
            ("sent with every request, hidden in Claude Code\n", "dim"),
            ("model  ", "bold"), printable(request.model) + "\n",
            ("tools  ", "bold"), printable(", ".join(t["name"] for t in request.tools)) + "\n",
            ("system ", "bold"), printable(request.system) + "\n",
        )  # fmt: skip
        if skill_tool is not None:
            text.append("\nthe Skill tool's description\n", "bold")
            text.append(printable(skill_tool["description"]) + "\n")
        listed = listing_in_messages(request.messages)
        if listed is not None:
            listing = listed[1]
            where = "a system message after the first user message"
            text.append(f"\nthe skill listing, {where} ({len(listing):,} characters)\n", "bold")
            text.append(printable(listing))
        if self._sent_context is None:
            self._sent_context = Static(text, classes="meta context")
            self.transcript.mount(self._sent_context, before=0)
        else:
            self._sent_context.update(text)

    def _mount(self, widget: Static | Collapsible | MarkdownPart) -> None:
        self.transcript.mount(widget)

    def _message(self, message: Message) -> None:
        # An answer ends with its message, or at the next one when it was cancelled: it stays where
        # it is, and the next answer follows the message after it.
        self._end_answer()
        if message.role == "assistant":
            if self.offline and message.text:
                self._offline_answer(message.text)
            return
        if message.kind == "tool":
            return
        if message.kind == "fork-result":
            if self._fork is None:
                self._mount(Static(Text(printable(message.text)), classes="fork-result"))
                return
            # The fork's block already shows the answer; the message as the model gets it (a typed
            # fork's as Claude Code sends it) is meta.
            self._mount(Static(Text(printable(message.text.split("\n", 1)[0]), "dim"), classes="fork-result"))
            for sent in message.sent_texts:
                self._mount(Static(Text.assemble(("sent as\n", "dim"), printable(sent)), classes="meta"))
            self._fork = None
            return
        if message.kind == "command":
            # Shown as Claude Code shows it: the typed command; the tags as sent go with the meta toggle.
            name = re.search(r"<command-name>(.*?)</command-name>", message.text, re.S)
            args = re.search(r"<command-args>(.*?)</command-args>", message.text, re.S)
            self._typed_command(" ".join(m.group(1) for m in (name, args) if m))
            self._mount(Static(Text.assemble(("sent as\n", "dim"), printable(message.text)), classes="meta"))
            return
        label = "sent to the model, hidden in Claude Code" if message.meta else "you"
        widget = Static(Text.assemble((label + "\n", "dim"), printable(message.text)), classes="meta" if message.meta else "user")
        self._mount(widget)

    def _fork_block(self, skill: str, content: RenderableType, done: bool = False) -> tuple[Collapsible, Static]:
        body = Static(content, classes="fork-body")
        block = Collapsible(body, title=_fork_title(skill, done), collapsed=False, classes="fork")  # type: ignore[arg-type]
        self._mount(block)
        return block, body

    def _typed_command(self, typed: str) -> None:
        self._mount(Static(Text.assemble(("you\n", "dim"), (printable(typed), "bold")), classes="user"))

    def _text(self, delta: str) -> None:
        if self._answer is None:
            self._answer = StreamedAnswer(self.transcript)
            self.answers.append(self._answer)
        self._answer.write(delta)

    def _end_answer(self) -> None:
        if self._answer is not None:
            self._answer.finish()
        self._answer = None

    def _offline_answer(self, text: str) -> None:
        """The offline backend's answer (the request as JSON) as a summary a person reads, with
        the whole request, wrapped, behind ctrl+t."""
        request = offline_request(text)
        if request is None:
            self._mount(Static(Text(printable(text)), classes="offline-summary"))
            return
        self._mount(Static(offline_summary(request), classes="offline-summary"))
        full = json.dumps(request, indent=2, ensure_ascii=False)
        shown = Text.assemble(("the full request, as it would be sent\n", "dim"), json_printable(full))
        self._mount(Static(shown, classes="meta offline-request"))

    def _show_empty(self, shown: bool) -> None:
        """The note on what to do, while the conversation is empty (checked for every delta: kept cheap)."""
        if shown != self._empty_shown:
            self._empty_shown = shown
            self.query_one("#conversation-empty").display = shown

    def end_run(self, cancelled: bool = False) -> None:
        """The run stopped (cancelled, replaced by a new one, ended): nothing is awaited any more,
        and its answer is closed, so that the next run's answer starts below the next question.
        A cancel is marked where the answer stopped."""
        self.waiting.stop()
        self._end_answer()
        self._asking = None
        if cancelled:
            self._mount(Static(Text("cancelled: the answer stops here", "dim italic"), classes="cancelled"))

    # Keys -------------------------------------------------------------------------------------
    def action_toggle_meta(self) -> None:
        self.toggle_class("show-meta")
        shown = self.has_class("show-meta")
        if shown:
            self._show_context()
        self.app.notify("Showing what is sent to the model" if shown else "Hiding meta messages", timeout=1.5)

    def action_retry(self) -> None:
        if self.failed:
            self.failed = False
            self.session.retry()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.query_one(Composer).remember(text)
            self.session.submit(text)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self.session.worker and event.state in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            # However it ended (a cancel says nothing to the pane), the answer is closed and nothing is awaited.
            self.end_run()
        if event.worker.group == "run":
            self.refresh_bindings()  # the screen's escape (cancel) comes and goes with the run


def _call_title(*parts: str) -> Content:
    # A Content: a Collapsible parses a str title as markup. A call resumed from a transcript
    # written before verdicts were kept has none.
    return content(" · ".join(part for part in parts if part))


def _fork_title(skill: str, done: bool) -> Content:
    # A Content: a Collapsible parses a str title as markup.
    return content(f"fork /{skill} · done" if done else f"fork /{skill}")
