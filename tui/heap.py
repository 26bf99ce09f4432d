"""What lives as long as the app, moved out of the garbage collector's sight (`gc.freeze`).

Every full collection walks every object the collector tracks. Once the model backend is warm
and a catalog of 2,000 skills is in, that is some 270,000 objects and 150-200 ms with the UI loop
stopped, a few times a minute while an answer streams (`make bench`, bench_conversation.py).
Most of them never become garbage: the modules of the imports (textual, then the SDK with its
pydantic models, imported in a thread when the backend warms) and the first catalog. `gc.freeze`
(public CPython) moves what exists at that moment into a generation no collection walks; the
collector is otherwise unchanged, and a frozen object that is dropped later is still freed by its
reference count (only one caught in a reference cycle would stay). A collection then walks
about a third as many objects.

What remains (20-50 ms at 15,000 skills) CPython runs whenever its count comes due, which is
often inside a frame: the frame of a pane key (60-90 ms of Textual's layout and repaint) became a
stall of 100-130 ms. So once settled, the full collection comes at CPython's own pace but between
frames (`collect_between_frames`, on a timer of the app's), and CPython's trigger, set far off,
only catches what a timer cannot (a loop held for a long time). CPython 3.14's collector is
incremental and counts otherwise: it is left as it is.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

# Set by settle_imports: the process is the app's own (the `skilldeck` command, or a benchmark
# that runs the app as it does). A test suite running many apps in one process freezes nothing.
_settling = False
# Collections of the middle generation per full one: CPython's own default pace.
FULL_EVERY = 10
# CPython's own trigger for a full collection, moved out of the way once settled.
FULL_FALLBACK = 1000
# How often the app looks whether a full collection is due.
CHECK_EVERY_S = 0.25
# And how long the user must have left the keys and the mouse alone for it to run.
QUIET_S = 0.5
_generational = sys.version_info < (3, 14)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside (imports, a one-shot load that makes few cycles), put back
    as it was after; what became garbage meanwhile is collected by the next full collection.

    What was made inside joins the oldest generation unwalked: left young, the first allocation
    after walks all of it at once (the engine's imports: 15,000 objects, 2 ms of every command).
    `gc.freeze` then `gc.unfreeze` move the generations there by splicing lists; not in the app's
    process, whose frozen objects (settle_imports) must stay frozen."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not _settling:
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()


def settle_imports() -> None:
    """Before the app runs: what the imports made. Collected first, so that no garbage is kept."""
    global _settling, _frozen_blocks
    _settling = True
    gc.collect()
    gc.freeze()
    _frozen_blocks = sys.getallocatedblocks()
    if _generational:
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, FULL_FALLBACK)


# How much of the heap a full collection walks is measured in memory blocks (CPython's own
# counter, `sys.getallocatedblocks`), never by listing the objects: `gc.get_objects` hands out
# references to objects other threads are still building, and a tuple the loading thread was
# growing then failed to grow ("SystemError: Objects/tupleobject.c:927: bad argument to internal
# function", the load of 6,154 skills stopped at 399 files). Blocks count all small objects, not
# only those the collector tracks: a proxy for CPython's "long-lived total", read in a moment.
# The blocks that existed at the last freeze (walked by no collection) ...
_frozen_blocks = 0
# ... those beyond them after the last full collection, and the count of middle collections at
# which to look again whether the heap grew enough.
_kept_after_full = 0
_look_again_at = FULL_EVERY


def _unfrozen_blocks() -> int:
    return max(sys.getallocatedblocks() - _frozen_blocks, 0)


def collect_between_frames() -> bool:
    """On the UI loop, between frames: the full collection CPython would have run by now, so that
    it never lands inside a frame. CPython's rule: FULL_EVERY middle collections since the last
    full one, and the heap grown by a quarter since (a full collection of a freshly loaded
    catalog, not yet frozen, is 80 ms: it waits until it pays). Never walks the heap (see
    `_frozen_blocks`): other threads build objects meanwhile."""
    global _kept_after_full, _look_again_at
    if not (_settling and _generational and gc.isenabled()):
        return False
    middle = gc.get_count()[2]
    if middle < _look_again_at:
        return False
    if _unfrozen_blocks() - _kept_after_full < _kept_after_full // 4:
        _look_again_at = middle + FULL_EVERY
        return False
    gc.collect()
    _kept_after_full, _look_again_at = _unfrozen_blocks(), FULL_EVERY
    return True


# When the user last pressed a key or used the mouse.
_last_input = float("-inf")


def note_input() -> None:
    global _last_input
    _last_input = time.monotonic()


def collect_when_idle() -> bool:
    """`collect_between_frames`, but not while the user is pressing keys: a full collection (tens
    of milliseconds at 15,000 skills) would hold the next key's frame, so it waits for the first
    pause of QUIET_S (CPython's own trigger, set far off, still catches a burst that never ends)."""
    if time.monotonic() - _last_input < QUIET_S:
        return False
    return collect_between_frames()


def settle_warm() -> None:
    """Once the backend is warm (the SDK imported) and the first catalog is in. No collection
    first: this runs while the app is up, and a full one would be the very stall avoided here."""
    global _kept_after_full, _frozen_blocks
    if _settling:
        gc.freeze()
        # Frozen, the oldest generation is empty: it has grown since by all it holds.
        _frozen_blocks, _kept_after_full = sys.getallocatedblocks(), 0
