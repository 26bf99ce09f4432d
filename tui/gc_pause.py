"""Full garbage collections wait while an answer streams; a long one's garbage is collected in
small steps as it goes.

A streamed Markdown answer makes and drops widgets fast enough that Python runs a full (oldest
generation) collection every few hundred milliseconds, and each one walks every object of the app:
100-200 ms with a large catalog loaded, the biggest stalls while streaming. Young collections still
run, so short-lived cycles are freed as usual; the old generation waits until the last stream ends
(`gc.set_threshold`), and then collects on Python's normal schedule.

A long answer drops a lot of garbage (850,000 objects after the bench's 40,000 characters), and
collected in one go at its end that was a 1.2-1.7 s stall. So the heap is frozen when the first
stream starts (`gc.freeze`: the objects move aside, unwalked), and a long answer calls `step`
every few ticks: a full collection that walks only what was made since the last step (16-33 ms),
then a freeze of what is left. Garbage frozen while it was still alive (the blocks of the part
being drawn at each step) waits for the last release, which thaws the heap and collects it all
at once: 0.36-0.51 s for that answer.
"""

from __future__ import annotations

import gc

_holders = 0
_saved: tuple[int, int, int] | None = None
_stepped = False  # a step froze what may become garbage: collect at the end
# Large enough that no full collection is due during any stream; the next one after is normal.
_DEFERRED = 1_000_000


def hold() -> None:
    global _holders, _saved
    if _holders == 0:
        _saved = gc.get_threshold()
        gen0, gen1, _ = _saved
        gc.set_threshold(gen0, gen1, _DEFERRED)
        gc.freeze()
    _holders += 1


def step() -> None:
    """Collect what was dropped since the last step (only the objects made since are walked), and
    freeze the rest."""
    global _stepped
    if _holders:
        gc.collect()
        gc.freeze()
        _stepped = True


def release() -> bool:
    """Whether that was the last hold (no stream runs now). After a step, the last release
    collects everything once (its owner calls it when a pause suits)."""
    global _holders
    if _holders == 0:
        return False
    _holders -= 1
    if _holders == 0:
        _end(collect=True)
    return _holders == 0


def end_all() -> None:
    """The app is closing: end every hold, so a stream cut off mid-way leaves nothing frozen."""
    global _holders
    if _holders:
        _holders = 0
        _end(collect=False)


def _end(collect: bool) -> None:
    global _stepped
    gc.unfreeze()
    if _stepped and collect:
        # Also resets the old generation's count of long-lived objects, which the steps left
        # as small as what they walked: Python would otherwise run a full collection soon after.
        gc.collect()
    _stepped = False
    if _saved is not None:
        gc.set_threshold(*_saved)


def holding() -> bool:
    return _holders > 0
