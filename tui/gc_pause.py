"""Full garbage collections wait while an answer streams.

A streamed Markdown answer makes and drops widgets fast enough that Python runs a full (oldest
generation) collection every few hundred milliseconds, and each one walks every object of the app:
100-200 ms with a large catalog loaded, the biggest stalls while streaming. Young collections still
run, so short-lived cycles are freed as usual; the old generation waits until the last stream ends
(`gc.set_threshold`), then collects on its normal schedule; after a long answer its owner collects
at once (see `StreamedAnswer`), rather than leaving the pause to land on a later key.
"""

from __future__ import annotations

import gc

_holders = 0
_saved: tuple[int, int, int] | None = None
# Large enough that no full collection is due during any stream; the next one after is normal.
_DEFERRED = 1_000_000


def hold() -> None:
    global _holders, _saved
    if _holders == 0:
        _saved = gc.get_threshold()
        gen0, gen1, _ = _saved
        gc.set_threshold(gen0, gen1, _DEFERRED)
    _holders += 1


def release() -> bool:
    """Whether that was the last hold (no stream runs now)."""
    global _holders
    if _holders == 0:
        return False
    _holders -= 1
    if _holders == 0 and _saved is not None:
        gc.set_threshold(*_saved)
    return _holders == 0
