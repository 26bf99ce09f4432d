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
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Set by settle_imports: the process is the app's own (the `skilldeck` command, or a benchmark
# that runs the app as it does). A test suite running many apps in one process freezes nothing.
_settling = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside (imports, a one-shot load that makes few cycles), put back
    as it was after; what became garbage meanwhile is collected by the next collection."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def settle_imports() -> None:
    """Before the app runs: what the imports made. Collected first, so that no garbage is kept."""
    global _settling
    _settling = True
    gc.collect()
    gc.freeze()


def settle_warm() -> None:
    """Once the backend is warm (the SDK imported) and the first catalog is in. No collection
    first: this runs while the app is up, and a full one would be the very stall avoided here."""
    if _settling:
        gc.freeze()
