"""The skilldeck app: the tiers tree on the left, details / diagnostics / listing on the right."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import App, ComposeResult, ScreenStackError, SuspendNotSupported, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, ProgressBar, TabbedContent, TabPane, Tree
from textual.worker import Worker, WorkerState

from engine import Catalog, CatalogDiff, Locations, Permissions, Severity, Skill, WatchHandle, Workspace, printable, skill_files

from . import workers
from .commands import SkillCommands
from .conversation.pane import ConversationPane
from .editor import editor_command
from .messages import BodyLoaded, CatalogLoaded, JumpToSkill, LoadProgress
from .rules.pane import RulesPane, RulesTree
from .rules_actions import RulesActions
from .run_actions import RunActions
from .screens.help import HelpScreen, key_sections
from .screens.why import open_why
from .search import SearchIndex
from .theme import LIGHT_ANSI, read_theme, write_theme
from .view import CatalogView, PathDisplay, build_view, count
from .widgets.details import SkillDetails
from .widgets.diagnostics import DiagnosticsPane, DiagnosticsTree
from .widgets.footer import KeysFooter
from .widgets.listing import ListingPane
from .widgets.search import SearchBox
from .widgets.tiers import NodeData, TiersTree

BODY_DEBOUNCE_S = 0.12
# Each tab's label, and the shorter one used below NARROW columns (at 80 the long ones were cut to `6 C`).
TAB_LABELS = {
    "details": ("2 Details", "2 Details"),
    "diagnostics": ("3 Diagnostics", "3 Diags"),
    "listing": ("4 Listing", "4 List"),
    "rules": ("5 Rules", "5 Rules"),
    "conversation": ("6 Conversation", "6 Chat"),
}
NARROW = 110
PANES = ("tiers", "details", "diagnostics", "listing", "rules")


class SkilldeckApp(RulesActions, RunActions, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "skilldeck"
    COMMANDS = App.COMMANDS | {SkillCommands}
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("slash", "search", "Search", key_display="/", id="app.search"),
        Binding("r", "reload", "Reload", id="app.reload"),
        Binding("e", "edit", "Edit", id="app.edit"),
        Binding("c", "copy_path", "Copy path", id="app.copy_path"),
        Binding("w", "why", "Why: trace the selected skill", show=False, id="app.why"),
        Binding("question_mark", "help", "Keys", key_display="?", id="app.help"),
        Binding("1", "pane('tiers')", "Tiers pane", show=False, id="app.pane.tiers"),
        Binding("2", "pane('details')", "Details pane", show=False, id="app.pane.details"),
        Binding("3", "pane('diagnostics')", "Diagnostics pane", show=False, id="app.pane.diagnostics"),
        Binding("4", "pane('listing')", "Listing pane", show=False, id="app.pane.listing"),
        Binding("5", "pane('rules')", "Rules pane", show=False, id="app.pane.rules"),
        Binding("6", "pane('conversation')", "Conversation pane", show=False, id="app.pane.conversation"),
        # The conversation's keys are the app's, so that they work from any focus (after enter
        # on a skill the focus stays in the tree); check_action shows each only where it applies.
        Binding("escape", "cancel_run", "Cancel run", id="app.cancel_run"),
        Binding("ctrl+t", "toggle_meta", "Show sent prompt", id="app.toggle_meta"),
        Binding("ctrl+r", "retry", "Retry", id="app.retry"),
        Binding("ctrl+n", "new_conversation", "New conversation", show=False, id="app.new_conversation"),
    ]

    def __init__(
        self,
        locations: Locations,
        paths: PathDisplay | None = None,
        budget: int | None = None,
        blink: bool = True,
        watch: bool = True,
        backend: str | None = None,
        model: str | None = None,
        resume: Path | None = None,
    ) -> None:
        super().__init__()
        # A saved conversation to reopen once the catalog is loaded (`skilldeck --resume`).
        self.resume_path = resume
        # The run backend (anthropic / offline; None chooses by the environment) and model.
        self.backend_name = backend
        self.model_name = model
        # Follow the disk (engine.watch) unless told not to.
        self.watch_disk = watch
        self._watch: WatchHandle | None = None
        self._reload_pending = False
        self.permissions: Permissions | None = None
        # Snapshots and screenshots turn the cursor blink off so that two runs draw the same.
        self.blink = blink
        self.workspace = Workspace(locations)
        # The theme chosen in an earlier run (tui/theme.py), read before the app's loop runs.
        self.ansi_theme_light = LIGHT_ANSI
        self._theme_saved = read_theme(locations.environ, self.available_themes)
        if self._theme_saved is not None:
            self.theme = self._theme_saved
        self.paths = paths or PathDisplay.default()
        self.budget = budget
        self.view: CatalogView | None = None
        self.search_index = SearchIndex(())
        self.selected: Path | None = None
        self._body_timer: Timer | None = None
        self.loaded_once = False
        # The skill whose body the details pane shows, for tests and screenshots to wait on.
        self.body_shown_for: Path | None = None

    # Layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield ProgressBar(id="load-progress", show_eta=False)
                yield SearchBox(id="search")
                yield TiersTree(id="tiers")
            with TabbedContent(id="panes", initial="details"):
                with TabPane("2 Details", id="details"):
                    yield SkillDetails(id="details-pane")
                with TabPane("3 Diagnostics", id="diagnostics"):
                    yield DiagnosticsPane(id="diagnostics-pane")
                with TabPane("4 Listing", id="listing"):
                    yield ListingPane(id="listing-pane")
                with TabPane("5 Rules", id="rules"):
                    yield RulesPane(id="rules-pane")
                with TabPane("6 Conversation", id="conversation"):
                    yield ConversationPane(id="conversation-pane")
        yield KeysFooter()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification, as plain text with terminal controls made visible: they name files,
        skills and rules, which a cloned repository may spell with `[/b]` or an OSC 52 sequence."""
        super().notify(printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False)

    def watch_theme(self, name: str) -> None:
        if name != self._theme_saved:
            self._theme_saved = name
            save = partial(write_theme, self.workspace.locations.environ, name)
            self.start_worker(save, "Saving the theme", thread=True, group="theme", name="theme")

    def on_resize(self, event: events.Resize) -> None:
        tabs = self.query_one(TabbedContent)
        for pane, (label, short) in TAB_LABELS.items():
            tabs.get_tab(pane).label = short if event.size.width < NARROW else label

    def on_mount(self) -> None:
        self.sub_title = printable(self.paths(self.workspace.locations.project))
        self.query_one(SearchBox).display = False
        self.query_one(TiersTree).focus()
        # Start reading only once the first frame is up: the loading thread competes for
        # the GIL, and the first screen must not wait for a large catalog.
        self.call_after_refresh(self._first_paint)

    def _first_paint(self) -> None:
        mark = os.environ.get("SKILLDECK_FIRST_PAINT_FILE")
        if mark:
            # `make bench` asks for the moment of the first frame, then for an exit.
            Path(mark).write_text(repr(time.time()))
            self.exit()
            return
        self._start_load(reload=False)

    @property
    def tree(self) -> TiersTree:
        return self.query_one(TiersTree)

    def start_worker(self, work: Any, what: str, *, thread: bool = False, **options: Any) -> Worker[Any]:
        """Every worker of the app (tui/workers.py): a failure is a message, never an exit."""
        return workers.start(self, work, what=what, environ=self.workspace.locations.environ, thread=thread, **options)

    # Loading ------------------------------------------------------------------------------
    def _start_load(self, reload: bool) -> None:
        bar = self.query_one("#load-progress", ProgressBar)
        bar.display = True
        bar.update(total=None, progress=0)
        self.start_worker(
            partial(self._load, reload), "Loading the skills", thread=True, exclusive=True, group="load", name="load"
        )

    def _load(self, reload: bool) -> None:
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            self.post_message(LoadProgress(done, total))

        if self.watch_disk and self._watch is None:
            self._watch = self.workspace.watch(self._on_disk_change, progress=progress)
            catalog = self._watch.catalog
            assert catalog is not None
        else:
            catalog = self.workspace.load(progress=progress)
        view = build_view(catalog, self.workspace.listing(catalog, self.budget))
        self.post_message(CatalogLoaded(view, (time.perf_counter() - started) * 1000, reload))

    def _on_disk_change(self, catalog: Catalog, change: CatalogDiff) -> None:
        """Called in the watcher's thread: build the view there, hand it to the UI."""
        reload, self._reload_pending = self._reload_pending, False
        view = build_view(catalog, self.workspace.listing(catalog, self.budget))
        self.post_message(CatalogLoaded(view, change.elapsed_ms, reload, change))

    def on_unmount(self) -> None:
        if self._watch is not None:
            self._watch.stop()

    def on_load_progress(self, message: LoadProgress) -> None:
        if not self.alive():
            return
        self.query_one("#load-progress", ProgressBar).update(total=max(message.total, 1), progress=message.done)

    def alive(self) -> bool:
        """False while the app is closing: messages from threads (the watcher, a settings or
        body read) may still arrive then, with no widgets left to show them."""
        if self._exit:
            return False
        try:
            for pane in (TiersTree, SkillDetails, RulesPane, ConversationPane):
                self.query_one(pane)
        except (NoMatches, ScreenStackError):
            return False
        return True

    def on_catalog_loaded(self, message: CatalogLoaded) -> None:
        if not self.alive():
            return
        view = self.view = message.view
        catalog = view.catalog
        self.search_index = view.search
        self.query_one("#load-progress", ProgressBar).display = False
        self.tree.show_view(view, self.paths, self.selected)
        self.query_one(DiagnosticsPane).show_view(view, self.paths)
        self.query_one(ListingPane).show_listing(view.listing)
        counts = catalog.counts()
        errors, warnings = count(counts[Severity.ERROR], "error"), count(counts[Severity.WARNING], "warning")
        summary = f"{count(len(catalog.skills), 'skill')} · {errors} · {warnings}"
        self.sub_title = printable(f"{self.paths(self.workspace.locations.project)} · {summary}")
        if message.reload:
            self.notify(f"Reloaded in {message.elapsed_ms:.0f} ms: {summary}", title="Reload")
        elif message.change is not None and not message.change.empty:
            self.notify(message.change.summary(), title="Changed on disk")
        first = not self.loaded_once
        self.loaded_once = True
        if self.runner is not None:
            # The next request carries the new listing, as a live Claude Code session would.
            self.runner.catalog = catalog
        self.query_one(ConversationPane).set_skills(catalog.user_invocable())
        if first:
            self.start_worker(self.warm_backend, "Preparing the model backend", thread=True, group="warm", name="warm")
        if first and self.resume_path is not None:
            self.resume_session(self.resume_path)
        # Settings files are watched with the tiers, so a new snapshot may mean new rules.
        self._load_permissions()

    @property
    def settled(self) -> bool:
        """Loaded, the details show the body of the skill under the cursor (if any), and the
        conversation's answers are drawn in full."""
        skill, _ = self._current()
        shown = skill is None or self.body_shown_for == skill.path
        return self.loaded_once and shown and self.query_one(ConversationPane).settled

    def search_index_skills(self) -> Iterable[Skill]:
        return self.view.catalog.skills.values() if self.view else ()

    # Selection and details ------------------------------------------------------------------
    @on(Tree.NodeHighlighted, "#tiers")
    def _highlighted(self, event: Tree.NodeHighlighted) -> None:
        data = event.node.data
        self.selected = data.skill.path if isinstance(data, NodeData) and data.skill else None
        if self.selected is None and isinstance(data, NodeData) and self.view is not None:
            tier = next((t for t in self.view.tiers if t.source == data.source), None)
            if tier is not None:
                self.query_one(SkillDetails).show_tier(tier, self.paths)
                return
        self._show_selected()

    @on(Tree.NodeSelected, "#tiers")
    def _chosen(self, event: Tree.NodeSelected) -> None:
        data = event.node.data
        if isinstance(data, NodeData) and data.skill is not None:
            self.action_run_inline()  # a shadowed one says which skill runs instead

    def _current(self) -> tuple[Skill | None, object]:
        data = self.tree.current
        if data is None or data.skill is None or data.skill.path != self.selected:
            return None, None
        return data.skill, data.shadow

    def _show_selected(self) -> None:
        if self.view is None or not self.alive():
            return
        skill, shadow = self._current()
        self.query_one(SkillDetails).show(self.view, skill, shadow, self.paths)  # type: ignore[arg-type]
        self.query_one(RulesPane).show_skill(skill)
        if self._body_timer is not None:
            self._body_timer.stop()
        if skill is not None:
            self._body_timer = self.set_timer(BODY_DEBOUNCE_S, partial(self._read_body_later, skill))

    def _read_body_later(self, skill: Skill) -> None:
        self.start_worker(
            partial(self._read_body, skill), f"Reading {skill.name}", thread=True, exclusive=True, group="body", name="body"
        )

    def _read_body(self, skill: Skill) -> None:
        try:
            body = skill.read_body()
        except OSError as exc:
            self.post_message(BodyLoaded(skill.path, "", [], f"{exc.strerror}: {skill.path}"))
            return
        files: list[str] = []
        if skill.path.name == "SKILL.md":
            files, cut = skill_files(skill.base_dir, limit=50)
            if cut:
                files.append("…")
        self.post_message(BodyLoaded(skill.path, body, files, None))

    def on_body_loaded(self, message: BodyLoaded) -> None:
        if not self.alive():
            return
        skill, _ = self._current()
        if skill is not None and message.path == skill.path:
            self.query_one(SkillDetails).show_body(skill, message.body, message.files, message.error)
            self.body_shown_for = skill.path

    def go_to_path(self, path: Path) -> None:
        self._close_search()
        self.query_one(TabbedContent).active = "details"
        self.selected = path
        if self.tree.select_path(path):
            self.tree.focus()

    def on_jump_to_skill(self, message: JumpToSkill) -> None:
        self.go_to_path(message.path)  # type: ignore[arg-type]

    # Search ---------------------------------------------------------------------------------
    def action_search(self) -> None:
        if self.view is None:
            self.notify("Still loading…", severity="warning")
            return
        self.tree.display = False
        self.query_one(SearchBox).open(self.search_index, self.blink)

    @on(SearchBox.Picked)
    def _picked(self, message: SearchBox.Picked) -> None:
        if message.result is None:
            self._close_search()
            self.tree.focus()
        else:
            self.go_to_path(message.result.skill.path)

    def _close_search(self) -> None:
        self.query_one(SearchBox).display = False
        self.tree.display = True

    # Actions --------------------------------------------------------------------------------
    def action_reload(self) -> None:
        if self._watch is not None:
            # The watcher forgets what it read and reads everything again in its own thread.
            self.query_one("#load-progress", ProgressBar).display = True
            self._reload_pending = True
            self._watch.reload_all()
        else:
            self._start_load(reload=True)

    def action_pane(self, name: str) -> None:
        if name == "tiers":
            self._close_search()
            self.tree.focus()
            return
        self.query_one(TabbedContent).active = name
        target = {
            "details": SkillDetails,
            "diagnostics": DiagnosticsTree,
            "listing": ListingPane,
            "rules": RulesTree,
        }.get(name)
        if target is not None:
            self.query_one(target).focus()
        elif self.running:
            # The composer would take the keys a run is steered with (escape cancels): the transcript.
            self.query_one("#conversation-log").focus()
        else:
            self.query_one("#composer").focus()

    @on(TabbedContent.TabActivated, "#panes")
    def _tab_shown(self) -> None:
        # The conversation's keys show in the footer only on its tab.
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which of the app's keys apply now: False hides one from the footer (and lets the key go
        to whatever else binds it)."""
        if action not in ("toggle_meta", "retry", "cancel_run"):
            return True
        try:
            on_tab = self.query_one(TabbedContent).active == "conversation"
            failed = self.query_one(ConversationPane).failed
        except (NoMatches, ScreenStackError):
            return False  # closing: no pane to act on
        if action == "cancel_run":
            return self.running
        return on_tab and (action == "toggle_meta" or failed)

    def _target(self) -> tuple[Path, int] | None:
        """The file (and line) the user means: a diagnostic when the diagnostics have focus,
        else the selected skill."""
        focused = self.focused
        if isinstance(focused, DiagnosticsTree) and focused.current is not None:
            diag = focused.current
            return diag.path, diag.line or 1
        if isinstance(focused, RulesTree) and focused.current is not None and focused.current.file is not None:
            return focused.current.file, 1
        skill, _ = self._current()
        return (skill.path, 1) if skill is not None else None

    def action_copy_path(self) -> None:
        target = self._target()
        if target is None:
            self.notify("Nothing selected", severity="warning")
            return
        self.copy_to_clipboard(str(target[0]))
        self.notify(f"Copied {self.paths(target[0])}", title="Copy path")

    def action_edit(self) -> None:
        target = self._target()
        if target is None:
            self.notify("Nothing selected", severity="warning")
            return
        command = editor_command(os.environ, *target)
        if command is None:
            self.notify("Set $EDITOR (or $VISUAL) to open files", severity="error", title="Edit")
            return
        try:
            with self.suspend():
                result = subprocess.run(command, check=False)
        except SuspendNotSupported:
            result = subprocess.run(command, check=False, stdin=subprocess.DEVNULL, capture_output=True)
        except OSError as exc:
            self.notify(f"Could not start {command[0]}: {exc.strerror}", severity="error", title="Edit")
            return
        self.notify(f"Edited {self.paths(target[0])} (exit {result.returncode})", title="Edit")
        if self._watch is None:
            self._start_load(reload=True)

    def action_why(self) -> None:
        open_why(self)

    def action_toggle_meta(self) -> None:
        self.query_one(ConversationPane).action_toggle_meta()

    def action_retry(self) -> None:
        self.query_one(ConversationPane).action_retry()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "run" or not self.alive():
            return
        ended = event.state in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED)
        if ended and event.worker is self.run_worker_now:
            # However it ended (a cancel says nothing to the pane), the answer is closed and nothing is awaited.
            self.query_one(ConversationPane).end_run()
        self.refresh_bindings()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(key_sections(self.BINDINGS)))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Reload", "Read every tier from disk again", self.action_reload)
        yield SystemCommand("Search skills", "Fuzzy search over names, descriptions and paths", self.action_search)
        yield SystemCommand("Resume conversation", "Reopen the latest saved conversation and continue it", self.resume_session)
        yield SystemCommand("New conversation", "Start a new conversation (ctrl+n)", self.action_new_conversation)
