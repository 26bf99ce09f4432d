"""The app's side of running skills: launching, asking, cancelling, retrying, new sessions.

The runner is async and runs on the app's own event loop (an async worker): the SDK's network
reads never block the UI, and the runner's events reach the conversation pane directly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.worker import Worker

from engine import Added, Backend, Failed, Notice, RunEvent, Runner, Shadowed, Usage, resolve_model, suggested_rule

from .conversation.pane import ConversationPane
from .screens.approve import ApproveScreen, preview
from .screens.arguments import ArgumentsScreen
from .view import count

if TYPE_CHECKING:
    from .app import SkilldeckApp

Step = Callable[[Runner], Awaitable[None]]


class RunActions:
    runner: Runner | None = None
    # One backend for the app's life, warmed in a thread once the catalog is in (warm_backend),
    # so that the first `enter` does not pay for importing the SDK.
    backend: Backend | None = None
    _last_step: Step | None = None
    # The run's worker, to tell its end from that of a run it replaced.
    run_worker_now: Worker[None] | None = None
    _tokens = 0
    # Lines of the resumed transcript that were torn or broken and so skipped.
    _skipped = 0

    def _conversation(self: SkilldeckApp) -> ConversationPane:  # type: ignore[misc]
        return self.query_one(ConversationPane)

    @property
    def running(self: SkilldeckApp) -> bool:  # type: ignore[misc]
        """A run is started and not over."""
        return any(w.group == "run" and not w.is_finished for w in self.workers)

    def _new_runner(self: SkilldeckApp, resume: Path | None = None) -> Runner:  # type: ignore[misc]
        assert self.view is not None
        backend = self.backend or self.workspace.backend(self.backend_name)
        self.backend = backend
        pane = self._conversation()
        pane.set_offline(backend.name == "offline")

        def session(resume: Path | None) -> Runner:
            return self.workspace.session(
                self.view.catalog, backend=backend, ask=self._ask, emit=self._on_run_event, model=self.model_name,
                permissions=self.permissions, resume=resume,
            )  # fmt: skip

        self._tokens = 0
        self._skipped = 0
        try:
            self.runner = session(resume)
        except OSError as exc:
            # Not a regular file, too large, unreadable: a new conversation, in its own file
            # (appending to a FIFO would block).
            self.runner = session(None)
            self.notify(f"Cannot resume {resume}: {exc.strerror or exc}", title="Resume", severity="error")
            return self.runner
        if resume is not None:
            self._skipped = self.runner.skipped
            pane.show_history(self.runner.messages)
        self._update_status()
        return self.runner

    def warm_backend(self: SkilldeckApp) -> None:  # type: ignore[misc]
        """Thread worker: build and warm the backend runs will use."""
        backend = self.workspace.backend(self.backend_name)
        backend.warm()
        if self.backend is None:
            self.backend = backend

    def _update_status(self: SkilldeckApp) -> None:  # type: ignore[misc]
        runner = self.runner
        if runner is None:
            return
        active = runner.active
        model = resolve_model((active.model if active else None) or runner.model, self.workspace.locations.environ)
        pre = ", ".join(active.allowed_tools) if active and active.allowed_tools else None
        self._conversation().set_status(model, runner.backend.name, self._tokens, pre)

    def _on_run_event(self: SkilldeckApp, event: RunEvent) -> None:  # type: ignore[misc]
        if not self.alive():
            return  # quitting mid-run: the cancelled run still closes its open tool calls
        if isinstance(event, Usage):
            self._tokens += event.input_tokens + event.output_tokens
        elif isinstance(event, Notice):
            # Not an error of the run (it goes on): a toast, which stays until read when it matters.
            timeout = 20 if event.kind == "rule-not-saved" else 8
            self.notify(event.message, title="Run", severity="warning", timeout=timeout)
        else:
            self._conversation().on_run(event)
        if isinstance(event, Usage | Added):
            self._update_status()
        if isinstance(event, Failed):
            self.refresh_bindings()  # ctrl+r now has something to retry

    async def _ask(self: SkilldeckApp, tool: str, tool_input: dict[str, Any], decision: Any) -> str:  # type: ignore[misc]
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        # The preview reads the file an Edit or Write names: in a thread, never on the UI loop.
        shown = await asyncio.to_thread(preview, tool, tool_input, self.workspace.locations.project)
        screen = ApproveScreen(tool, tool_input, decision.reason, suggested_rule(tool, tool_input), shown)

        def answered(result: str | None) -> None:
            # The call's title says what the user chose ("allowed once", "denied by you").
            self._conversation().answered(result or "deny")
            answer.set_result(result or "deny")

        self.push_screen(screen, answered)
        return await answer

    def _launch(self: SkilldeckApp, step: Step) -> None:  # type: ignore[misc]
        if self.view is None:
            self.notify("Still loading…", severity="warning")
            return
        runner = self.runner or self._new_runner()
        self._last_step = step
        self.query_one("#panes").active = "conversation"  # type: ignore[attr-defined]
        # A run this one replaces (exclusive) is cancelled: its answer ends here, above the new question.
        self._conversation().end_run()
        self.run_worker_now = self.start_worker(step(runner), "The run", exclusive=True, group="run", name="run")
        self.refresh_bindings()

    def _launch_skill(self: SkilldeckApp, fork: bool | None, args: str = "") -> None:  # type: ignore[misc]
        skill, shadow = self._current()
        if skill is None:
            self.notify("Select a skill in the tiers tree first", severity="warning")
            return
        if isinstance(shadow, Shadowed):
            # Running it would run the one that hides it: say so rather than run another skill.
            winner = shadow.shadowed_by
            self.notify(
                f"This {skill.source.kind.value} /{skill.name} is shadowed: /{winner.name} runs the "
                f"{winner.source.kind.value} one ({self.paths(winner.path)}); this one never runs. "
                "Rename one of them to run both.",
                title="Shadowed",
                severity="warning",
                timeout=12,
            )
            return
        if not skill.user_invocable:
            self.notify(
                f"/{skill.name} sets user-invocable: false, so a user cannot run it (the model still can)", severity="warning"
            )
            return
        self._launch(lambda runner: runner.invoke(skill.name, args, fork=fork))

    def action_run_inline(self: SkilldeckApp) -> None:  # type: ignore[misc]
        # As Claude Code runs a typed /name: inline, unless the skill says context: fork.
        self._launch_skill(None)

    def action_run_fork(self: SkilldeckApp) -> None:  # type: ignore[misc]
        self._launch_skill(True)

    def action_run_with_args(self: SkilldeckApp) -> None:  # type: ignore[misc]
        skill, _ = self._current()
        if skill is None:
            self.notify("Select a skill in the tiers tree first", severity="warning")
            return
        self.push_screen(ArgumentsScreen(skill), lambda args: None if args is None else self._launch_skill(None, args))

    def action_cancel_run(self: SkilldeckApp) -> None:  # type: ignore[misc]
        running = [w for w in self.workers if w.group == "run" and not w.is_finished]
        for worker in running:
            worker.cancel()
        if running:
            # The cancelled run's answer is closed now: the next run's text must not join it.
            self._conversation().end_run()
            self.refresh_bindings()
            self.notify("Run cancelled", title="Run")

    def action_new_conversation(self: SkilldeckApp) -> None:  # type: ignore[misc]
        self.action_cancel_run()
        self._conversation().clear()
        self.runner = None
        if self.view is not None:
            self._new_runner()
        self.notify("New conversation", title="Run")

    def resume_session(self: SkilldeckApp, path: Path | None = None) -> None:  # type: ignore[misc]
        """Reopen a saved conversation (the latest when none is named) and continue it."""
        path = path or self.workspace.latest_session()
        if path is None or not path.is_file():
            self.notify("No saved conversation to resume", severity="warning", title="Resume")
            return
        self.action_cancel_run()
        self._conversation().clear()
        if self._new_runner(path).transcript.path != path:
            return  # it could not be read: said so, and a new conversation starts
        self.query_one("#panes").active = "conversation"  # type: ignore[attr-defined]
        messages = count(len(self.runner.messages) if self.runner else 0, "message")
        torn = f"; {self._skipped} torn or broken line(s) skipped" if self._skipped else ""
        self.notify(f"Resumed {path.stem} ({messages}{torn})", title="Resume", severity="warning" if torn else "information")

    def on_conversation_pane_submitted(self: SkilldeckApp, message: ConversationPane.Submitted) -> None:  # type: ignore[misc]
        text = message.text
        if text.startswith("/"):
            name, _, args = text[1:].partition(" ")
            self._launch(lambda runner: runner.invoke(name, args.strip()))
        else:
            self._launch(lambda runner: runner.send(text))

    def on_conversation_pane_retry_requested(self: SkilldeckApp, message: ConversationPane.RetryRequested) -> None:  # type: ignore[misc]
        # A run that stopped before the model was done (a failed request, the turn bound, a cut
        # call) goes on from where it stopped; sending the last step again would repeat the
        # user's message.
        if self.runner is not None and self.runner.stopped is not None:
            self._launch(lambda runner: runner.proceed())
        elif self._last_step is not None:
            self._launch(self._last_step)
