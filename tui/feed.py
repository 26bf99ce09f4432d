"""Where the app's catalogs come from: the first load, the watcher's snapshots and reloads.

Every read happens in a thread (the load worker, or the watcher's own thread); what reaches the
UI loop is a finished CatalogView in a CatalogLoaded message, plus LoadProgress on the way.
"""

from __future__ import annotations

import time
from functools import partial

from textual.dom import DOMNode

from engine import Catalog, CatalogDiff, WatchHandle, agent_roots

from .deck import Deck
from .lens import display, place_of
from .messages import CatalogArriving, CatalogLoaded, LoadProgress
from .view import CatalogView, build_view

# The least time between two progress messages: each one repaints the screen, and the UI loop's
# time is taken from the thread that reads.
PROGRESS_EVERY_S = 0.25


class CatalogFeed:
    def __init__(self, deck: Deck, node: DOMNode, watch: bool, budget: int | None) -> None:
        self.deck = deck
        # The node the messages go to, and that owns the load worker.
        self.node = node
        # Follow the disk (engine.reload.watch) unless told not to.
        self.watch_disk = watch
        self.budget = budget
        self._watch: WatchHandle | None = None
        self._stopped = False
        self._reload_pending = False
        # Claude Code's latest catalog: another agent's view is made from the same place again.
        self.last: Catalog | None = None

    @property
    def watching(self) -> bool:
        return self._watch is not None

    def load(self, reload: bool = False) -> None:
        """Read every tier in a worker (the first time, start watching them as well)."""
        work = partial(self._load, reload)
        self.deck.start(self.node, work, "Loading the skills", thread=True, exclusive=True, group="load", name="load")

    def reload(self) -> None:
        if self._watch is not None:
            # The watcher forgets what it read and reads everything again in its own thread.
            self._reload_pending = True
            self._watch.reload_all()
        else:
            self.load(reload=True)

    def stop(self) -> None:
        # The first load may still be making the watcher in its thread: it stops it when done.
        self._stopped = True
        if self._watch is not None:
            self._watch.stop()

    def _load(self, reload: bool) -> None:
        started = time.perf_counter()
        workspace = self.deck.workspace
        last = 0.0
        # The whole catalog once shown (the watcher hands it over before it adds its watches).
        shown: Catalog | None = None

        def view(catalog: Catalog) -> CatalogView:
            return build_view(catalog, workspace.listing(catalog, self.budget))

        def whole(catalog: Catalog) -> None:
            nonlocal shown
            shown = self.last = catalog
            self.node.post_message(
                CatalogLoaded(self.shown(catalog), (time.perf_counter() - started) * 1000, reload, runs=catalog)
            )

        def progress(done: int, total: int) -> None:
            nonlocal last
            if done == total or time.perf_counter() - last >= PROGRESS_EVERY_S:
                last = time.perf_counter()
                self.node.post_message(LoadProgress(done, total))

        def partial(catalog: Catalog) -> None:
            # The first skills of a large catalog while the rest is read, then (from the watcher)
            # the whole one before its watches are added. A reload keeps the last catalog on
            # screen until the new one is whole.
            if catalog.reading is None:
                whole(catalog)
            elif not reload:
                self.node.post_message(CatalogArriving(view(catalog)))

        if self.watch_disk and self._watch is None:
            # Every agent's skill folders too: the panes may show another agent's view (tui/lens.py).
            also = agent_roots(place_of(workspace))
            watch = workspace.watch(self._on_disk_change, progress=progress, partial=partial, also=also)
            self._watch = watch
            if self._stopped:
                # The app quit while the first load read the disk: the watcher it made must not
                # outlive it (its thread and inotify watches).
                watch.stop()
                return
            catalog = watch.catalog
            assert catalog is not None
        else:
            catalog = workspace.load(progress=progress, partial=partial)
        if shown is None:
            # Changes found after the whole catalog was shown came to _on_disk_change as a diff.
            whole(catalog)

    def shown(self, catalog: Catalog) -> CatalogView:
        """The panes' view of Claude Code's `catalog`, or of the agent chosen instead (in a thread)."""
        workspace = self.deck.workspace
        return build_view(*display(workspace, self.deck.agents.key, catalog, lambda c: workspace.listing(c, self.budget)))

    def show_agent(self) -> None:
        """The chosen agent's view of the last catalog, in a worker (`A`, the palette)."""
        last = self.last
        if last is None:
            return

        def work() -> None:
            started = time.perf_counter()
            view = self.shown(last)
            self.node.post_message(CatalogLoaded(view, (time.perf_counter() - started) * 1000, False, runs=last))

        self.deck.start(self.node, work, "Reading the agent's view", thread=True, exclusive=True, group="lens", name="lens")

    def _on_disk_change(self, catalog: Catalog, change: CatalogDiff) -> None:
        """Called in the watcher's thread: build the view there, hand it to the UI."""
        reload, self._reload_pending = self._reload_pending, False
        self.last = catalog
        self.node.post_message(CatalogLoaded(self.shown(catalog), change.elapsed_ms, reload, change, runs=catalog))
