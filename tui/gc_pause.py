"""Full garbage collections wait while an answer streams.

A streamed Markdown answer makes and drops widgets fast enough that Python runs a full (oldest
generation) collection every few hundred milliseconds, and each one walks every object of the app:
100-200 ms with a large catalog loaded, the biggest stalls while streaming. Young collections still
run, so short-lived cycles are freed as usual; the old generation waits until the last stream ends
(`gc.set_threshold`).

A long answer's dropped widgets are a lot of garbage (850,000 objects after the bench's 40,000
characters), collected in one go when its owner asks at the last release, just after its last
frame; the threshold stays deferred until then, or Python's own full collection ran first and the
owner's walked the whole heap a second time for nothing (0.9 s, then 0.2 s).

Tried: freezing the heap while held (`gc.freeze`), so that the collection at the end walks only
what the stream made. It walked 30% fewer objects but took as long, 1.2-1.6 s against 1.4 s in
interleaved runs: freeing the garbage is most of the work, not walking the live heap.
"""

from __future__ import annotations

import gc

_holders = 0
_saved: tuple[int, int, int] | None = None
_collect_due = False
# Large enough that no full collection is due during any stream; the next one after is normal.
_DEFERRED = 1_000_000


def hold() -> None:
    global _holders, _saved
    if _holders == 0:
        _saved = gc.get_threshold()
        gen0, gen1, _ = _saved
        gc.set_threshold(gen0, gen1, _DEFERRED)
    _holders += 1


def release(collect: bool = False) -> bool:
    """Whether that was the last hold (no stream runs now). With `collect`, a full collection runs
    when the last hold ends, before the threshold is restored."""
    global _holders, _collect_due
    if _holders == 0:
        return False
    _holders -= 1
    _collect_due = _collect_due or collect
    if _holders == 0:
        _end()
    return _holders == 0


def end_all() -> None:
    """The app is closing: end every hold, so a stream cut off mid-way leaves full collections
    on their normal schedule."""
    global _holders, _collect_due
    if _holders:
        _holders, _collect_due = 0, False
        _end()


def _end() -> None:
    global _collect_due
    if _collect_due:
        _collect_due = False
        gc.collect()
    if _saved is not None:
        gc.set_threshold(*_saved)


def holding() -> bool:
    return _holders > 0
