"""The skilldeck app: the tiers tree on the left, details / diagnostics / listing on the right."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from textual import events, on
from textual.app import App, ComposeResult, ScreenStackError, SystemCommand
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, ProgressBar, TabbedContent, Tabs
from textual.worker import Worker

from engine import Catalog, Locations, Permissions, Severity, Skill, Workspace, printable

from .benchmarks import BenchMarks
from .commands import SkillCommands, app_commands
from .conversation.pane import ConversationPane
from .conversation.session import RunSession
from .deck import Deck
from .editor import open_in_editor
from .evals.pane import EvalsPane
from .feed import CatalogFeed
from .heap import CHECK_EVERY_S, collect_when_idle, note_input
from .keys import APP_BINDINGS
from .lens import AgentCommands
from .messages import CatalogArriving, CatalogLoaded, JumpToSkill, LoadProgress, Notice, PermissionsLoaded
from .rules.pane import RulesPane
from .runs import RunActions
from .screens.help import HelpScreen, key_sections
from .screens.why import open_why
from .search import SearchIndex
from .tabs import FOCUS_IN, PanesApp, compose_tabs, relabel
from .target import meant_file
from .theme import LIGHT_ANSI, read_theme, write_theme
from .view import CatalogView, PathDisplay, count, reading
from .widgets.details import SkillDetails
from .widgets.diagnostics import DiagnosticsPane
from .widgets.footer import KeysFooter
from .widgets.listing import ListingPane
from .widgets.search import SearchBox
from .widgets.tiers import NodeData, TiersTree

WidgetT = TypeVar("WidgetT", bound=Widget)


class SkilldeckApp(RunActions, PanesApp):
    # Each tab's CSS lives beside its widgets.
    CSS_PATH = ["app.tcss", "conversation/conversation.tcss", "rules/rules.tcss", "evals/evals.tcss"]
    TITLE = "skilldeck"
    COMMANDS = App.COMMANDS | {SkillCommands, AgentCommands}
    BINDINGS = APP_BINDINGS

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
        self.notices: deque[Notice] = deque(maxlen=100)
        # A saved conversation to reopen once the catalog is loaded (`skilldeck --resume`).
        self.resume_path = resume
        # The run backend (anthropic / offline; None chooses by the environment) and model.
        self.backend_name, self.model_name = backend, model
        # Snapshots and screenshots turn the cursor blink off so that two runs draw the same.
        self.blink = blink
        self.workspace = Workspace(locations)
        self._kept_widgets: dict[type[Widget], Widget] = {}
        # The theme chosen in an earlier run (tui/theme.py), read before the app's loop runs.
        self.ansi_theme_light = LIGHT_ANSI
        self._theme_saved = read_theme(locations.environ, self.available_themes)
        if self._theme_saved is not None:
            self.theme = self._theme_saved
        self.paths = paths or PathDisplay.default()
        # What every pane is made with (tui/deck.py): none of them reaches back into the app.
        self.deck = Deck(self.workspace, self.paths, blink)
        self.budget = budget
        self.feed = CatalogFeed(self.deck, self, watch, budget)
        self.view: CatalogView | None = None
        self.search_index = SearchIndex(())
        self.selected: Path | None = None
        self.loaded_once = False
        self.marks = BenchMarks(self)

    # Layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield ProgressBar(id="load-progress", show_eta=False)
                yield SearchBox(id="search")
                yield TiersTree(follow=self._highlighted, usage=self.deck.usage, doctor=self.deck.doctor, id="tiers")
            yield from compose_tabs(self.deck, self.backend_name, self.model_name)
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
        """Every notification as plain text, controls made visible: a clone's names may hold `[/b]` or OSC 52."""
        self.notices.append(Notice(printable(title), printable(message), severity))
        super().notify(printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False)

    def watch_theme(self, name: str) -> None:
        if name != self._theme_saved:
            self._theme_saved = name
            save = partial(write_theme, self.workspace.locations.environ, name)
            self.start_worker(save, "Saving the theme", thread=True, group="theme", name="theme")

    def on_resize(self, event: events.Resize) -> None:
        relabel(self.panes, event.size.width)

    def on_mount(self) -> None:
        self.sub_title = self.deck.where()
        self.query_one(SearchBox).display = False
        self.query_one(TiersTree).focus()
        self.set_interval(CHECK_EVERY_S, collect_when_idle)
        # Read once the first frame is up: the loading thread competes for the GIL (a large catalog).
        self.call_after_refresh(self._first_paint)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.MouseDown | events.MouseScrollDown | events.MouseScrollUp):
            note_input()  # the full collection waits for a pause (tui/heap.py)
        await super().on_event(event)

    def _first_paint(self) -> None:
        if not self.marks.first_paint():
            self._load(reload=False)

    def _once(self, kind: type[WidgetT]) -> WidgetT:
        """A widget the app composes once: found once, not on every key (the footer asks
        `check_action` about each of its keys several times a key)."""
        found = self._kept_widgets.get(kind)
        if not isinstance(found, kind) or not found.is_attached:
            found = self._kept_widgets[kind] = self.query_one(kind)
        return found

    @property
    def runs_catalog(self) -> Catalog | None:
        """Claude Code's latest catalog, whichever agent the panes show."""
        return self.feed.last

    @property
    def tiers(self) -> TiersTree:
        return self._once(TiersTree)

    @property
    def conversation(self) -> ConversationPane:
        return self._once(ConversationPane)

    @property
    def panes(self) -> TabbedContent:
        return self._once(TabbedContent)

    @property
    def session(self) -> RunSession:
        """The conversation's run session (tui/conversation/session.py)."""
        return self.conversation.session

    @property
    def permissions(self) -> Permissions | None:
        """The settings as last read by the rules pane."""
        return self.query_one(RulesPane).permissions

    def start_worker(self, work: Any, what: str, *, thread: bool = False, **options: Any) -> Worker[Any]:
        """Every worker of the app (tui/workers.py): a failure is a message, never an exit."""
        return self.deck.start(self, work, what, thread=thread, **options)

    # Loading (tui/feed.py reads; the app shows) -------------------------------------------------
    def _load(self, reload: bool) -> None:
        bar = self.query_one("#load-progress", ProgressBar)
        bar.display = True
        bar.update(total=None, progress=0)
        self.feed.load(reload)

    def on_unmount(self) -> None:
        self.feed.stop()

    def on_load_progress(self, message: LoadProgress) -> None:
        if not self.alive():
            return
        self.query_one("#load-progress", ProgressBar).update(total=max(message.total, 1), progress=message.done)
        if not self.loaded_once:  # the title counts what the bar shows (it said 4,099 of 6,166 at 100%)
            self.sub_title = f"{self.deck.where()} · {reading(message.done, message.total)}"

    def alive(self) -> bool:
        """False while the app is closing: a thread's message (a watcher's, a read's) may still come, with no pane left."""
        try:
            return all(self.query_one(pane).is_attached for pane in (TiersTree, SkillDetails, RulesPane, ConversationPane))
        except (NoMatches, ScreenStackError):
            return False

    def on_catalog_arriving(self, message: CatalogArriving) -> None:
        """The first load of a large catalog, on the way: its first skills in the tiers at once."""
        if not self.alive() or self.loaded_once:
            return
        self._show_tiers(message.view, reading(*(message.view.catalog.reading or (0, 0))))

    def _show_tiers(self, view: CatalogView, status: str) -> None:
        self.view, self.search_index = view, view.search
        self.tiers.show_view(view, self.paths, self.selected)
        self.sub_title = f"{self.deck.where()} · {printable(status)}"
        self.marks.first_skills()

    def on_catalog_loaded(self, message: CatalogLoaded) -> None:
        if not self.alive():
            return
        # The panes show `catalog` (another agent's, tui/lens.py); a run is Claude Code's (`runs`).
        view, catalog, runs = message.view, message.view.catalog, message.runs
        self.query_one("#load-progress", ProgressBar).display = False
        self.query_one(DiagnosticsPane).show_view(view)
        self.query_one(ListingPane).show_listing(view.listing, catalog)
        if catalog is runs:  # the routing lab measures Claude Code's listing only
            self.query_one(EvalsPane).set_catalog(runs, view.listing)
        counts = catalog.counts()
        errors, warnings = count(counts[Severity.ERROR], "error"), count(counts[Severity.WARNING], "warning")
        summary = f"{count(len(catalog.skills), 'skill')} · {errors} · {warnings}"
        self._show_tiers(view, summary)
        if message.reload:
            self.notify(f"Reloaded in {message.elapsed_ms:.0f} ms: {summary}", title="Reload")
        elif message.change is not None and not message.change.empty and not self.deck.own_change(message.change):
            self.notify(message.change.summary(), title="Changed on disk")
        first, self.loaded_once = not self.loaded_once, True
        if first or message.reload or message.change is not None:  # every agent's verdicts, again
            self.deck.agents.start(self, self.workspace, runs, self.deck.start)
        self.session.set_catalog(runs)
        self.conversation.set_skills(runs.user_invocable())
        if first and self.resume_path is not None:
            self.resume_session(self.resume_path)
        # Settings files are watched with the tiers, so a new snapshot may mean new rules.
        self.query_one(RulesPane).load()

    def on_permissions_loaded(self, message: PermissionsLoaded) -> None:
        """The rules pane read the settings (the message bubbles up from it): runs decide with them."""
        try:
            session = self.session
        except NoMatches:  # the app is closing (its panes are gone): no run is left to decide
            return
        session.set_permissions(message.permissions)

    @property
    def settled(self) -> bool:
        """Loaded; the details and the rules pane show the selected skill's; the answers are drawn."""
        skill, _ = self._current()
        shown = skill is None or (self.body_shown_for == skill.path and self.query_one(SkillDetails).body_fits)
        return self.loaded_once and shown and self.conversation.settled and self.query_one(RulesPane).settled

    @property
    def body_shown_for(self) -> Path | None:
        """The skill whose body the details pane shows, for tests and screenshots to wait on."""
        return self.query_one(SkillDetails).body_shown_for

    def search_index_skills(self) -> Iterable[Skill]:
        return self.view.catalog.skills.values() if self.view else ()

    # Selection and details ------------------------------------------------------------------
    def _highlighted(self, data: NodeData | None) -> None:
        self.selected = data.skill.path if isinstance(data, NodeData) and data.skill else None
        if self.selected is None and isinstance(data, NodeData) and self.view is not None:
            tier = next((t for t in self.view.tiers if t.source == data.source), None)
            if tier is not None:
                self.query_one(SkillDetails).show_tier(tier)
                return
        self._show_selected()

    @on(TiersTree.Chosen)
    def _chosen(self, event: TiersTree.Chosen) -> None:
        if event.data.skill is not None:
            self.action_run_inline()  # a shadowed one says which skill runs instead

    def _current(self) -> tuple[Skill | None, object]:
        data = self.tiers.current
        if data is None or data.skill is None or data.skill.path != self.selected:
            return None, None
        return data.skill, data.shadow

    def _show_selected(self) -> None:
        if self.view is None or not self.alive():
            return
        skill, shadow = self._current()
        self.query_one(SkillDetails).show(self.view, skill, shadow)  # type: ignore[arg-type]
        self.query_one(RulesPane).show_skill(skill)

    def go_to_path(self, path: Path) -> None:
        self._close_search()
        self.panes.active = "details"
        self.selected = path
        if self.tiers.select_path(path):
            self.tiers.focus()

    def on_jump_to_skill(self, message: JumpToSkill) -> None:
        self.go_to_path(message.path)  # type: ignore[arg-type]

    # Search ---------------------------------------------------------------------------------
    def action_search(self) -> None:
        if self.view is None:
            self.notify("Still loading…", severity="warning")
            return
        self.tiers.display = False
        self.query_one(SearchBox).open(self.search_index, self.blink)

    @on(SearchBox.Picked)
    def _picked(self, message: SearchBox.Picked) -> None:
        if message.result is None:
            self._close_search()
            self.tiers.focus()
        else:
            self.go_to_path(message.result.skill.path)

    def _close_search(self) -> None:
        self.query_one(SearchBox).display = False
        self.tiers.display = True

    # Actions --------------------------------------------------------------------------------
    def action_reload(self) -> None:
        if self.feed.watching:
            self.query_one("#load-progress", ProgressBar).display = True
            self.feed.reload()
        else:
            self._load(reload=True)

    def action_agent(self, key: str = "") -> None:  # the next agent (`A`), or the one named (the palette)
        self.deck.agents.key = key or self.deck.agents.next_key()
        self.notify(f"The panes show what {self.deck.agents.title} sees; runs stay Claude Code's", title="Agent")
        self.feed.show_agent()

    def action_pane(self, name: str) -> None:
        if name == "tiers":
            self._close_search()
            self.tiers.focus()
            return
        self.panes.active = name
        target = FOCUS_IN.get(name)
        if target is not None:
            self._once(target).focus()
        elif self.session.running:
            # The composer would take the keys a run is steered with (escape cancels): the transcript.
            self.conversation.transcript.focus()
        else:
            self.query_one("#composer").focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        panes = self.panes
        panes.query_one(Tabs).set_class(panes in event.widget.ancestors_with_self, "-pane-focused")

    @on(TabbedContent.TabActivated, "#panes")
    def _tab_shown(self) -> None:
        # The conversation's keys show in the footer only on its tab.
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which of the app's keys apply now: False hides one from the footer (and lets the key go
        to whatever else binds it)."""
        if action not in ("toggle_meta", "retry", "cancel_run"):
            return True
        if len(self.screen_stack) > 1:
            return False  # a modal on top: its keys, not the conversation's behind it
        try:
            on_tab = self.panes.active == "conversation"
            failed = self.conversation.failed
        except (NoMatches, ScreenStackError):
            return False  # closing: no pane to act on
        if action == "cancel_run":
            return self.session.running
        return on_tab and (action == "toggle_meta" or failed)

    def _target(self, settings: bool = True) -> tuple[Path, int] | None:
        return meant_file(self.focused, self._current()[0], settings)

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
        said, failed = open_in_editor(self, os.environ, *target)
        if failed:
            self.notify(said, severity="error", title="Edit")
            return
        self.notify(f"Edited {self.paths(target[0])} ({said})", title="Edit")
        if not self.feed.watching:
            self._load(reload=True)

    def action_why(self) -> None:
        target = self._target(settings=False)
        open_why(self.deck, self, self.view, target[0] if target else None, self.permissions)

    def action_help(self) -> None:
        self.push_screen(HelpScreen(key_sections(self.BINDINGS)))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from app_commands(self, super().get_system_commands(screen))

    def _compare(self) -> None:
        self.action_pane("listing")
        self.query_one(ListingPane).action_compare()
