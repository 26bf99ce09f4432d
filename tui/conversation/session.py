"""A conversation's run session: launching skills and messages, asking, cancelling, retrying,
new and resumed sessions. Owned by the conversation pane; its workers are the pane's.

The runner is async and runs on the app's own event loop (an async worker): the SDK's network
reads never block the UI, and the runner's events reach the pane directly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from textual.dom import DOMNode
from textual.worker import Worker

from engine import (
    Added,
    Backend,
    Catalog,
    Failed,
    Message,
    Notice,
    Permissions,
    RunEvent,
    Runner,
    Shadowed,
    Skill,
    Usage,
    resolve_model,
    suggested_rule,
)

from ..deck import Deck
from ..heap import settle_warm
from ..screens.approve import ApproveScreen, preview
from ..screens.confirm import ConfirmScreen
from ..view import count

Step = Callable[[Runner], Awaitable[None]]


class Shows(Protocol):
    """What the session draws on: the conversation pane (tui/conversation/pane.py)."""

    def on_run(self, event: RunEvent) -> None: ...
    def answered(self, answer: str) -> None: ...
    def end_run(self, cancelled: bool = False) -> None: ...
    def clear(self) -> None: ...
    def show_history(self, messages: list[Message]) -> None: ...
    def set_offline(self, offline: bool) -> None: ...
    def set_status(self, model: str, backend: str, tokens: int, preapproved: str | None) -> None: ...


class RunSession:
    def __init__(self, deck: Deck, node: DOMNode, shows: Shows, backend: str | None, model: str | None) -> None:
        self.deck = deck
        # The pane: the workers' owner, and (as `shows`) what the events are drawn on.
        self.node, self.shows = node, shows
        self.backend_name, self.model_name = backend, model
        # Set by the app as the catalog and the settings are read; a live runner follows both.
        self.catalog: Catalog | None = None
        self.permissions: Permissions | None = None
        self.runner: Runner | None = None
        # One backend for the app's life, warmed in a thread once the catalog is in (`warm`), so
        # that the first `enter` does not pay for importing the SDK.
        self.backend: Backend | None = None
        self._last_step: Step | None = None
        # The run's worker, to tell its end from that of a run it replaced.
        self.worker: Worker[Any] | None = None
        self._tokens = 0
        # Lines of the resumed transcript that were torn or broken and so skipped.
        self.skipped = 0
        # The user said yes to running skills' `!` commands in this (untrusted) project: asked
        # once per project for the app's life, as the issue of a cloned repository's code is the
        # project, not the skill.
        self._shell_confirmed = False

    @property
    def running(self) -> bool:
        """A run is started and not over."""
        return self.worker is not None and not self.worker.is_finished

    def notify(self, message: str, **options: Any) -> None:
        self.node.app.notify(message, **options)

    def set_catalog(self, catalog: Catalog) -> None:
        first = self.catalog is None
        self.catalog = catalog
        if self.runner is not None:
            # The next request carries the new listing, as a live Claude Code session would.
            self.runner.catalog = catalog
        if first:
            self.deck.start(self.node, self.warm, "Preparing the model backend", thread=True, group="warm", name="warm")

    def set_permissions(self, permissions: Permissions) -> None:
        self.permissions = permissions

    def warm(self) -> None:
        """Thread worker: build and warm the backend runs will use."""
        backend = self.deck.workspace.backend(self.backend_name)
        backend.warm()
        if self.backend is None:
            self.backend = backend
        settle_warm()

    async def open_runner(self, resume: Path | None = None) -> Runner:
        """The conversation's runner, made now if there is none (or to resume `resume`). Making one
        reads the settings, the saved conversation and imports the SDK: in a thread, never on
        the UI loop."""
        if self.runner is not None and resume is None:
            return self.runner
        assert self.catalog is not None
        catalog, workspace = self.catalog, self.deck.workspace
        backend = self.backend
        if backend is None:
            backend = self.backend = await asyncio.to_thread(workspace.backend, self.backend_name)
        self.shows.set_offline(backend.name == "offline")

        def session(resume: Path | None) -> Runner:
            return workspace.session(
                catalog, backend=backend, ask=self._ask, emit=self._on_event, model=self.model_name,
                permissions=self.permissions, resume=resume, confirm_shell=self._confirm_shell,
            )  # fmt: skip

        self._tokens = 0
        self.skipped = 0
        try:
            self.runner = await asyncio.to_thread(session, resume)
        except OSError as exc:
            # Not a regular file, too large, unreadable: a new conversation, in its own file
            # (appending to a FIFO would block).
            self.runner = await asyncio.to_thread(session, None)
            self.notify(f"Cannot resume {resume}: {exc.strerror or exc}", title="Resume", severity="error")
            return self.runner
        if resume is not None:
            self.skipped = self.runner.skipped
            self.shows.show_history(self.runner.messages)
        self._update_status()
        return self.runner

    def _update_status(self) -> None:
        runner = self.runner
        if runner is None:
            return
        active = runner.active
        model = resolve_model((active.model if active else None) or runner.model, self.deck.workspace.locations.environ)
        pre = ", ".join(active.allowed_tools) if active and active.allowed_tools else None
        self.shows.set_status(model, runner.backend.name, self._tokens, pre)

    def _on_event(self, event: RunEvent) -> None:
        if not self.node.is_attached:
            return  # quitting mid-run: the cancelled run still closes its open tool calls
        if isinstance(event, Usage):
            self._tokens += event.input_tokens + event.output_tokens
        elif isinstance(event, Notice):
            # Not an error of the run (it goes on): a toast, which stays until read when it matters.
            timeout = 20 if event.kind == "rule-not-saved" else 8
            self.notify(event.message, title="Run", severity="warning", timeout=timeout)
        else:
            self.shows.on_run(event)
        if isinstance(event, Usage | Added):
            self._update_status()
        if isinstance(event, Failed):
            self.node.refresh_bindings()  # ctrl+r now has something to retry

    async def _ask(self, tool: str, tool_input: dict[str, Any], decision: Any) -> str:
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        # The preview reads the file an Edit or Write names: in a thread, never on the UI loop.
        shown = await asyncio.to_thread(preview, tool, tool_input, self.deck.workspace.locations.project)
        screen = ApproveScreen(tool, tool_input, decision.reason, suggested_rule(tool, tool_input), shown)

        def answered(result: str | None) -> None:
            if result == "always":  # the rule the runner writes is said by the call's title
                self.deck.note_written(self.deck.workspace.settings_path("local"))
            # The call's title says what the user chose ("allowed once", "denied by you").
            self.shows.answered(result or "deny")
            answer.set_result(result or "deny")

        self.node.app.push_screen(screen, answered)
        return await answer

    async def _confirm_shell(self, skill: str, commands: list[str]) -> bool:
        """Once per project: run a skill's `!` commands here, a folder the user has not trusted?"""
        if self._shell_confirmed:
            return True
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        shown = "\n".join(f"  {command}" for command in commands[:12])
        more = f"\n  … and {len(commands) - 12} more" if len(commands) > 12 else ""
        project = self.deck.paths(self.deck.workspace.locations.project)
        screen = ConfirmScreen(
            f"Run the commands of /{skill} in {project}?",
            f"This project is not trusted, and /{skill} runs these on your machine before the model sees it:\n"
            f"{shown}{more}\n\nYes runs them, and other skills' commands in this project, until skilldeck quits. "
            "Trusting the project (Rules pane, t) stops the question.",
        )
        self.node.app.push_screen(screen, lambda result: answer.set_result(bool(result)))
        self._shell_confirmed = await answer
        return self._shell_confirmed

    def _launch(self, step: Step) -> bool:
        if self.deck.refused_in_preview(self.node, "a skill runs"):
            return False
        if self.catalog is None:
            self.notify("Still loading…", severity="warning")
            return False
        self._last_step = step

        async def run() -> None:
            await step(await self.open_runner())

        # A run this one replaces (exclusive) is cancelled: its answer ends here, above the new question.
        self.shows.end_run()
        self.worker = self.deck.start(self.node, run(), "The run", exclusive=True, group="run", name="run")
        self.node.refresh_bindings()
        return True

    def run_skill(self, skill: Skill, shadow: object, fork: bool | None, args: str = "") -> bool:
        """Run the skill chosen in the tiers tree (inline unless `fork`, or as it says when None);
        False when it cannot run, having said why."""
        paths = self.deck.paths
        if isinstance(shadow, Shadowed):
            # Running it would run the one that hides it: say so rather than run another skill.
            winner = shadow.shadowed_by
            self.notify(
                f"This {skill.source.kind.value} /{skill.name} is shadowed: /{winner.name} runs the "
                f"{winner.source.kind.value} one ({paths(winner.path)}); this one never runs. "
                "Rename one of them to run both.",
                title="Shadowed",
                severity="warning",
                timeout=12,
            )
            return False
        if not skill.user_invocable:
            self.notify(
                f"/{skill.name} sets user-invocable: false, so a user cannot run it (the model still can)", severity="warning"
            )
            return False
        return self._launch(lambda runner: runner.invoke(skill.name, args, fork=fork))

    def submit(self, text: str) -> None:
        """Free text, or `/name args`, typed in the composer."""
        if text.startswith("/"):
            name, _, args = text[1:].partition(" ")
            self._launch(lambda runner: runner.invoke(name, args.strip()))
        else:
            self._launch(lambda runner: runner.send(text))

    def retry(self) -> None:
        # A run that stopped before the model was done (a failed request, the turn bound, a cut
        # call) goes on from where it stopped; sending the last step again would repeat the
        # user's message.
        if self.runner is not None and self.runner.stopped is not None:
            self._launch(lambda runner: runner.proceed())
        elif self._last_step is not None:
            self._launch(self._last_step)

    def cancel(self) -> None:
        worker = self.worker
        if worker is None or worker.is_finished:
            return
        worker.cancel()
        # The cancelled run's answer is closed now, and marked: the next run's text must not join it.
        self.shows.end_run(cancelled=True)
        self.node.refresh_bindings()
        self.notify("Run cancelled", title="Run")

    def new(self) -> None:
        self.cancel()
        self.shows.clear()
        self.runner = None
        if self.catalog is not None:
            # Made now, so that the status line names the model and backend before the first message.
            self.deck.start(self.node, self.open_runner(), "Starting a conversation", exclusive=True, group="run", name="new")
        self.notify("New conversation", title="Run")

    def resume(self, path: Path | None = None, then: Callable[[], None] | None = None) -> None:
        """Reopen a saved conversation (the latest when none is named) and continue it, in a
        worker (the file is read in a thread); `then` once it is shown."""
        self.cancel()
        latest = self.deck.workspace.latest_session

        async def reopen() -> None:
            found = path or await asyncio.to_thread(latest)
            if found is None or not await asyncio.to_thread(found.is_file):
                self.notify("No saved conversation to resume", severity="warning", title="Resume")
                return
            self.shows.clear()
            self.runner = None
            if (await self.open_runner(found)).transcript.path != found:
                return  # it could not be read: said so, and a new conversation starts
            if then is not None:
                then()
            messages = count(len(self.runner.messages) if self.runner else 0, "message")
            torn = f"; {self.skipped} torn or broken line(s) skipped" if self.skipped else ""
            severity = "warning" if torn else "information"
            self.notify(f"Resumed {found.stem} ({messages}{torn})", title="Resume", severity=severity)

        self.deck.start(self.node, reopen(), "Resuming the conversation", exclusive=True, group="run", name="resume")
