"""What keeps watching safe on hostile trees: folder chains too deep for watchdog, its threads' deaths, and lost events.

watchdog adds a recursive inotify watch with `os.walk`, which recurses once per folder level, so
a chain of about 1,000 folders (inside a skill, say) raises RecursionError, in the caller when the
watch is added, in watchdog's own thread when the chain is moved in later. The watcher then
watches such a tree folder by folder down to the depth the scan reads (`shallow_folders`), and
a dead watchdog thread is logged, not printed over the app (the watcher recovers from it), and so
are the RuntimeWarnings watchdog raises when a folder comes and goes while its watch is added or
removed: each printed the repr of a whole watch group (kilobytes per warning, hundreds of
kilobytes on stderr in 20 s of churn); each is now one short line in the log.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TextIO

from ..catalog.scan import MAX_DEPTH, MAX_DIRS_PER_ROOT

if TYPE_CHECKING:
    from watchdog.observers.api import ObservedWatch

log = logging.getLogger("engine.reload.watch")
# How deep a tree too deep for a recursive watch is followed: the scan never looks deeper.
SHALLOW_DEPTH = MAX_DEPTH + 1


_hook_lock = threading.Lock()
_hooked = False


def quiet_watchdog_threads() -> None:
    """Route the death of a watchdog thread, and watchdog's warnings, to the log instead of stderr,
    where Python prints them by default (over the app's screen). The watcher notices the dead
    thread and recovers (see `_healthy`); other threads' exceptions and other modules' warnings
    still go where they went."""
    global _hooked
    with _hook_lock:
        if _hooked:
            return
        _hooked = True
        previous = threading.excepthook

        def hook(args: threading.ExceptHookArgs) -> None:
            if args.thread is not None and type(args.thread).__module__.startswith("watchdog."):
                # The exception carries its type and traceback (threading takes all three from
                # sys.exc_info(), so the value is never None here).
                log.warning("a watchdog thread died", exc_info=args.exc_value)
                return
            previous(args)

        threading.excepthook = hook
        shown = warnings.showwarning

        def show(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if f"{os.sep}watchdog{os.sep}" in filename:
                # Its first sentence, without the watch's repr: what happened, in one short line.
                text = str(message).split(" for watch ", 1)[0].split("\n", 1)[0][:200]
                log.warning("watchdog: %s: %s", category.__name__, text)
                return
            shown(message, category, filename, lineno, file, line)

        warnings.showwarning = show


class _Overflow(logging.Handler):
    """watchdog says only in its log that the kernel's event queue overflowed (its events were
    lost); each watcher listening here then reads everything again, or it would miss changes."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.listeners: list[Callable[[], None]] = []
        self.guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" not in record.getMessage():
            return
        with self.guard:
            listeners = list(self.listeners)
        for listener in listeners:
            listener()


_overflow = _Overflow()
logging.getLogger("watchdog.observers.inotify_c").addHandler(_overflow)


def on_overflow(listener: Callable[[], None]) -> Callable[[], None]:
    """Call `listener` (from watchdog's thread) whenever inotify lost events; returns the undo."""
    with _overflow.guard:
        _overflow.listeners.append(listener)

    def remove() -> None:
        with _overflow.guard, contextlib.suppress(ValueError):
            _overflow.listeners.remove(listener)

    return remove


class Shallow(NamedTuple):
    """The folder-by-folder watches that stand for one recursive watch (see WatchHandle._schedule_shallow)."""

    watches: list[ObservedWatch]


def shallow_folders(root: str, depth: int = SHALLOW_DEPTH, limit: int = MAX_DIRS_PER_ROOT) -> list[str]:
    """`root` and the folders below it down to `depth` levels, at most `limit` of them; an
    iterative walk (no recursion), symlinks not followed, unreadable folders skipped."""
    out = [root]
    level = [root]
    for _ in range(depth):
        below: list[str] = []
        for folder in level:
            with contextlib.suppress(OSError), os.scandir(folder) as it:
                below += [e.path for e in it if e.is_dir(follow_symlinks=False)]
        if not below:
            break
        out += below[: limit - len(out)]
        if len(out) >= limit:
            break
        level = below
    return out
