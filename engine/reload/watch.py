"""Follow the disk: a watchdog observer on every tier, an incremental reload, a diff per change.

Claude Code re-reads edited SKILL.md files but needs a restart for new skill folders and new
tier folders. Here every tier root is watched recursively, and a tier root that does not exist
yet is watched through its nearest existing parent, so creating `.claude/skills/` is seen too.
Bursts (a `git checkout` touching hundreds of files, an editor's write-then-rename) are
coalesced into one reload, which re-reads only the folders the events touched.

When the kernel refuses more inotify watches (or instances), the roots that could not be
watched are polled instead and a `watch-limit` diagnostic says how to raise the limit.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from watchdog.events import (
    DirAttribEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from ..catalog.assembly import Catalog, Partial, Progress
from ..catalog.loadcache import under
from ..catalog.locations import Locations
from ..catalog.model import Diagnostic, Severity
from .diff import CatalogDiff, diff
from .rebuild import IncrementalLoader
from .watchdeep import SHALLOW_DEPTH, Shallow, on_overflow, quiet_watchdog_threads, shallow_folders
from .watchplan import covered_targets, nearest_existing
from .watchsince import written_since

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())
# watchdog logs the inotify races it survives; without a handler Python would print them on
# the terminal (over the app). Callers that configure logging still see them.
logging.getLogger("watchdog").addHandler(logging.NullHandler())

Callback = Callable[[Catalog, CatalogDiff], None]
DEBOUNCE_S = 0.05
MAX_DELAY_S = 1.0
POLL_INTERVAL_S = 0.5
# How often an idle watcher checks that watchdog's threads are still alive.
HEALTH_CHECK_S = 0.5
# The longest `stop()` waits for the watcher's threads, all of them together (they are daemon
# threads: one still running does not keep the process alive). Each was waited for 5 s in turn,
# and once, at the end of a test run, `skilldeck watch` took over 10 s to end after ctrl+c.
STOP_WAIT_S = 3.0
_STOP = object()
_RELOAD_ALL = object()
# Event kinds that say nothing changed (watchdog reports opens and read-only closes too).
_QUIET_EVENTS = frozenset({"opened", "closed_no_write"})
# What the watches ask the kernel for: everything but opens and read-only closes. Without this
# filter every file the loader reads queues two events (30,000 at 15,000 skills, past the
# kernel's 16,384-event queue), the queue overflows, and watchdog re-walks every watched tree.
_EVENT_FILTER: list[type[FileSystemEvent]] = [
    FileCreatedEvent, DirCreatedEvent, FileDeletedEvent, DirDeletedEvent, FileMovedEvent, DirMovedEvent,
    FileModifiedEvent, DirModifiedEvent, FileClosedEvent, FileAttribEvent, DirAttribEvent,
]  # fmt: skip
# What one watched folder is watched by: the observer, and its watch (or a tree's shallow watches).
_Watch = tuple[BaseObserver, ObservedWatch | Shallow]


class _Handler(FileSystemEventHandler):
    def __init__(self, sink: queue.Queue[object], relevant: Callable[[str], bool]) -> None:
        self.sink = sink
        self.relevant = relevant

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _QUIET_EVENTS:
            return
        if event.is_directory and event.event_type == "modified":
            # watchdog adds one for the parent of every created, deleted or moved entry, which
            # has its own event: taken as a change of the whole folder it made the reload after
            # a new skill (or a new plugin in a marketplace) read every skill beside it again.
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            path = os.fsdecode(raw) if raw else ""
            if path and self.relevant(path):
                self.sink.put(path)


class WatchHandle:
    """A running watch. `catalog` is always the latest snapshot; `stop()` ends it."""

    def __init__(
        self,
        locations: Locations,
        callback: Callback,
        debounce: float,
        max_delay: float,
        progress: Progress | None = None,
        partial: Partial | None = None,
        also: tuple[Path, ...] = (),
    ) -> None:
        self.locations = locations
        # Other agents' skill folders: a change there is told though Claude Code's catalog stays.
        self.also = tuple(str(p) for p in also)
        self.callback = callback
        self.debounce = debounce
        self.max_delay = max_delay
        self.loader = IncrementalLoader(locations)
        self._events: queue.Queue[object] = queue.Queue()
        self._handler = _Handler(self._events, self._relevant)
        self._inotify: BaseObserver | None = None
        self._polling: PollingObserver | None = None
        self._watches: dict[tuple[str, bool], _Watch] = {}
        self._tracked: tuple[str, ...] = ()
        self._recursive: tuple[str, ...] = ()
        self._covered: tuple[frozenset[str], set[str]] = (frozenset(), set())
        self._watch_diagnostics: list[Diagnostic] = []
        self._force_callback = False
        quiet_watchdog_threads()
        # Lost events leave the cache stale in unknown places: read everything again.
        self._forget_overflow = on_overflow(lambda: self._events.put(_RELOAD_ALL))
        self._thread = threading.Thread(target=self._run, name="skilldeck-watch", daemon=True)
        self._stopped = threading.Event()
        self.catalog: Catalog | None = None
        self.catalog = self._first_load(progress, partial)

    # Watches ----------------------------------------------------------------------------------
    def _targets(self, catalog: Catalog | None) -> tuple[set[str], set[str]]:
        """Folders to watch recursively, and files and folders whose appearance matters."""
        loc = self.locations
        roots = [loc.managed_skills(), loc.user_skills(), loc.user_commands(), *loc.project_skills(), *loc.project_commands()]
        roots += [*loc.add_dir_skills(), *loc.plugin_dirs]
        if catalog is not None:
            roots += [s.root for s in catalog.sources if s.kind.value == "plugin"]
        recursive = {*map(str, roots), *self.also}
        for names in self.loader.cache.roots.values():
            recursive.update(r.link for r in names.values() if r.link)
        tracked = set(recursive)
        tracked.update(str(p) for _, p in loc.settings_files())
        tracked.add(str(loc.installed_plugins_file()))
        return recursive, tracked

    def _relevant(self, path: str) -> bool:
        if any(under(path, root) for root in self._recursive):
            return True
        return any(under(target, path) for target in self._tracked)

    def _plan(self) -> None:
        if self._stopped.is_set():
            # A reload under way when stop() came: no watch (or observer) is added, and none is
            # mistaken for a folder that went away and read again.
            return
        recursive, tracked = self._targets(self.catalog)
        self._recursive, self._tracked = tuple(sorted(recursive)), tuple(sorted(tracked))
        wanted: set[tuple[str, bool]] = set()
        if self._covered[0] != recursive:
            # Resolved again only when the targets change (one realpath per plugin otherwise,
            # 0.1 s per reload at 150 plugins).
            self._covered = (frozenset(recursive), covered_targets(recursive))
        covered = self._covered[1]
        for target in tracked:
            path = Path(target)
            if target in covered:
                continue
            if target in recursive and os.path.isdir(path):
                wanted.add((target, True))
                continue
            parent = nearest_existing(path if target in recursive else path.parent)
            if parent is not None:
                wanted.add((str(parent), False))
        for key in [k for k in self._watches if k not in wanted]:
            self._unschedule(key)
        for key in sorted(wanted - set(self._watches)):
            self._schedule(key)
            if key[1] and key not in self._watches:
                # The folder went away between the check and the watch: watch its parent, so
                # that its return is seen, and forget what was read from it.
                self.loader.invalidate([key[0]])
                parent = nearest_existing(Path(key[0]))
                if parent is not None and (str(parent), False) not in self._watches:
                    self._schedule((str(parent), False))

    def _schedule(self, key: tuple[str, bool]) -> None:
        path, recursive = key
        try:
            if self._inotify is None:
                from watchdog.observers.inotify import InotifyObserver

                self._inotify = InotifyObserver()
                self._inotify.start()
            watch = self._inotify.schedule(self._handler, path, recursive=recursive, event_filter=_EVENT_FILTER)
            self._watches[key] = (self._inotify, watch)
            return
        except RecursionError:
            # watchdog adds a recursive watch with os.walk, which recurses once per level: a
            # folder chain about 1,000 deep (inside a skill, say) cannot be watched that way.
            self._schedule_shallow(path)
            return
        except OSError as exc:
            if exc.errno not in (errno.ENOSPC, errno.EMFILE, errno.ENOMEM):
                log.warning("cannot watch %s: %s", path, exc)
                return
            reason = "inotify watch limit reached" if exc.errno == errno.ENOSPC else "inotify instance limit reached"
        except (ImportError, AttributeError):
            reason = "inotify is not available"
        if self._polling is None:
            self._polling = PollingObserver(timeout=POLL_INTERVAL_S)
            self._polling.start()
        watch = self._polling.schedule(self._handler, path, recursive=recursive, event_filter=_EVENT_FILTER)
        self._watches[key] = (self._polling, watch)
        self._watch_diagnostics.append(
            Diagnostic(
                Severity.WARNING,
                "watch-limit",
                Path(path),
                f"cannot watch this folder with inotify ({reason}); it is polled every "
                f"{POLL_INTERVAL_S:g} s instead, so changes show a little later",
                "raise the limits: sudo sysctl fs.inotify.max_user_watches=524288 fs.inotify.max_user_instances=1024",
            )
        )

    def _schedule_shallow(self, path: str) -> None:
        """Watch `path` and its folders down to SHALLOW_DEPTH levels one by one (deeper than any
        place Claude Code reads a skill from), for a tree too deep for a recursive watch."""
        assert self._inotify is not None
        watches = []
        for folder in shallow_folders(path):
            with contextlib.suppress(OSError, RecursionError):
                watches.append(self._inotify.schedule(self._handler, folder, recursive=False, event_filter=_EVENT_FILTER))
        self._watches[(path, True)] = (self._inotify, Shallow(watches))
        self._watch_diagnostics.append(
            Diagnostic(
                Severity.WARNING,
                "watch-limit",
                Path(path),
                f"this folder tree is too deep to watch whole; only its first {SHALLOW_DEPTH} levels are "
                "followed (skills are read from those), changes deeper down are not",
                "find and remove the very deep chain of folders (find . -mindepth 100 -type d)",
            )
        )

    def _unschedule(self, key: tuple[str, bool]) -> None:
        observer, watch = self._watches.pop(key)
        # watchdog may raise its own KeyError for a folder that churned away.
        for one in watch.watches if isinstance(watch, Shallow) else (watch,):
            with contextlib.suppress(Exception):
                observer.unschedule(one)
        self._watch_diagnostics = [d for d in self._watch_diagnostics if str(d.path) != key[0]]

    # Reloading --------------------------------------------------------------------------------
    def _with_watch_diagnostics(self, catalog: Catalog) -> Catalog:
        if not self._watch_diagnostics:
            return catalog
        return dataclasses.replace(catalog, diagnostics=catalog.diagnostics + tuple(self._watch_diagnostics))

    def _reload(self, progress: Progress | None = None) -> Catalog:
        # Watches first, then the read: anything written between the two is both read now
        # and reported by the new watch, never lost.
        self._plan()
        planned, before = self._recursive, set(self._watches)
        catalog = self.loader.load(progress)
        # The read can find folders the plan did not know: a plugin's root, a symlinked skill's
        # target. Watched only from now on, they may have changed (or gone) since they were
        # read, unseen: after watching them, what was read from them is read again. (A link to
        # a folder outside every tier, made and its target removed a moment later, stayed in
        # the catalog: seen once in four churn runs.)
        self.catalog, previous = catalog, self.catalog
        self._plan()
        self.catalog = previous
        fresh = {k[0] for k in set(self._watches) - before} | (set(self._recursive) - set(planned))
        if fresh:
            self.loader.invalidate(fresh)
            catalog = self.loader.load()
        return self._with_watch_diagnostics(catalog)

    def _first_load(self, progress: Progress | None, partial: Partial | None) -> Catalog:
        """The first read comes before the watches, so that its first skills can be shown at
        once: adding the watches of 15,000 skill folders takes longer than reading the first
        thousand of them. `partial` gets the snapshots on the way, then the whole catalog (its
        `reading` None) before the watches are added. What was written in between is found by its
        timestamps and read again; what that (or a folder that cannot be watched) changed from the
        catalog `partial` got goes to the callback as a change, as any later one does."""
        since = time.time_ns()
        first = self.catalog = self.loader.load(progress, partial)
        if partial is not None:
            partial(first)
        self._plan()
        # A target that is not a folder any more (a symlinked skill's, removed since the read)
        # cannot be watched, and leaves no timestamp to find: read what led there again.
        gone = [t for t in self._recursive if (t, True) not in self._watches and t not in self._covered[1]]
        stale = [*written_since(self.loader.cache, self._tracked, since), *gone]
        if stale:
            self.loader.invalidate(stale)
        final = self._with_watch_diagnostics(self.loader.load() if stale else first)
        if partial is not None and final is not first:
            change = diff(first, final, (time.time_ns() - since) / 1e6)
            if not change.empty:
                try:
                    self.callback(final, change)
                except Exception:
                    log.exception("watch callback failed")
        return final

    def start(self) -> WatchHandle:
        self._thread.start()
        return self

    def _healthy(self) -> bool:
        """watchdog's inotify reader thread can die on a KeyError under heavy rename/delete
        churn (a long-standing upstream race), after which no event ever arrives again."""
        observer = self._inotify
        if observer is None:
            return True
        reader = getattr(observer, "_inotify_fd", None)
        threads = [observer, *observer.emitters, *([reader] if isinstance(reader, threading.Thread) else [])]
        return all(t.is_alive() for t in threads)

    def _recover(self) -> None:
        log.warning("the inotify observer died; starting a new one and reading everything again")
        dead, self._inotify = self._inotify, None
        for key in [k for k, (observer, _) in self._watches.items() if observer is dead]:
            del self._watches[key]
        with contextlib.suppress(Exception):
            if dead is not None:  # never: only a live observer can be found unhealthy
                dead.stop()
        self._force_callback = True
        self._apply(set(), time.perf_counter(), full=True)

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                first = self._events.get(timeout=HEALTH_CHECK_S)
            except queue.Empty:
                if not self._healthy():
                    self._recover()
                continue
            if first is _STOP:
                break
            started = time.perf_counter()
            batch = {first}
            while True:
                remaining = min(self.debounce, self.max_delay - (time.perf_counter() - started))
                if remaining <= 0:
                    break
                try:
                    item = self._events.get(timeout=remaining)
                except queue.Empty:
                    break
                if item is _STOP:
                    return
                batch.add(item)
            full = _RELOAD_ALL in batch
            # Every item but the two sentinels is a path (_STOP has returned already).
            paths = {item for item in batch if isinstance(item, str)}
            if not self._healthy():
                self._recover()
                continue
            self._apply(paths, started, full)

    def _apply(self, paths: set[str], started: float, full: bool = False) -> None:
        try:
            if full:
                self.loader.cache.clear()
            self.loader.invalidate(paths)
            old, new = self.catalog, self._reload()
            self.catalog = new
            assert old is not None  # __init__ loads before the thread that calls this starts
            change = diff(old, new, (time.perf_counter() - started) * 1000)
            written = self._settings_written(paths)
            if written:
                change = replace(change, settings=written)
        except Exception:  # a watcher must outlive any one bad reload
            log.exception("reload after a change failed")
            return
        forced, self._force_callback = self._force_callback, False
        if self._stopped.is_set():
            return  # stopped meanwhile: nobody waits for this change any more
        if not change.empty or forced or any(under(path, root) for path in paths for root in self.also):
            try:
                self.callback(new, change)
            except Exception:
                log.exception("watch callback failed")

    def _settings_written(self, paths: set[str]) -> tuple[str, ...]:
        """The settings files (and installed_plugins.json) among the changed paths."""
        files = {str(p) for _, p in self.locations.settings_files()} | {str(self.locations.installed_plugins_file())}
        return tuple(sorted(files & paths))

    def reload_all(self) -> None:
        """Forget every cached read and load again, in the watch thread (the app's `r`).
        The callback then receives the new snapshot, even when nothing changed."""
        self._force_callback = True
        self._events.put(_RELOAD_ALL)

    def stop(self) -> None:
        self._forget_overflow()
        self._stopped.set()
        self._events.put(_STOP)
        deadline = time.monotonic() + STOP_WAIT_S
        # The watch thread first: it adds and removes watches (after a change), which must not
        # run while watchdog tears its observers down.
        if self._thread.is_alive():
            self._thread.join(timeout=STOP_WAIT_S)
        for observer in (self._inotify, self._polling):
            if observer is not None:
                # watchdog can raise its own KeyError while tearing down watches on folders
                # that churned away; stopping must succeed anyway.
                try:
                    observer.stop()
                except Exception:
                    log.debug("watchdog failed while stopping", exc_info=True)
        threads = [t for t in (self._thread, self._inotify, self._polling) if t is not None and t.is_alive()]
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        late = [t.name for t in threads if t.is_alive()]
        if late:
            log.warning("the watcher's threads did not end within %g s: %s", STOP_WAIT_S, ", ".join(late))

    @property
    def polled(self) -> tuple[str, ...]:
        return tuple(k[0] for k, (observer, _) in self._watches.items() if observer is self._polling)


def watch(
    locations: Locations,
    callback: Callback,
    debounce: float = DEBOUNCE_S,
    max_delay: float = MAX_DELAY_S,
    progress: Progress | None = None,
    partial: Partial | None = None,
    also: tuple[Path, ...] = (),
) -> WatchHandle:
    """Load now, then call `callback(catalog, diff)` from a thread after each change (tiers, `also`)."""
    return WatchHandle(locations, callback, debounce, max_delay, progress, partial, also).start()
