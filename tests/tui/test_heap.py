"""The app's process moves its long-lived objects out of the collector's sight; a process that
never ran the app as the command does (this test suite) freezes nothing. In a child process, so
that this suite's own collector is left as it is."""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import gc
from tui import heap
kept = [[] for _ in range(1000)]
heap.settle_warm()
assert gc.get_freeze_count() == 0, "froze without settle_imports"
heap.settle_imports()
before = gc.get_freeze_count()
assert before > 0
sdk = [[] for _ in range(1000)]  # what warming the backend imports and makes
heap.settle_warm()
assert gc.get_freeze_count() >= before + 1000, (before, gc.get_freeze_count())
print("ok")
"""


def test_settle_freezes_only_in_the_apps_own_process() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


FULL_BETWEEN_FRAMES = """
import gc
from tui import heap
assert not heap.collect_between_frames(), "nothing before settle_imports"
heap.settle_imports()
assert gc.get_threshold()[2] == heap.FULL_FALLBACK, "CPython's own full collection is only a fallback"

def middle_collections(count):
    for _ in range(count):
        gc.collect(1)  # each counts towards the next full one, as CPython's own do

kept = [[] for _ in range(20_000)]  # long-lived
gc.collect()  # a full one: the count starts again (and nothing below allocates much)
middle_collections(heap.FULL_EVERY - 1)
assert not heap.collect_between_frames(), "not yet due"
middle_collections(1)
assert heap.collect_between_frames() and gc.get_count()[2] == 0, "due: done, between frames"
middle_collections(heap.FULL_EVERY)
assert not heap.collect_between_frames(), "due, but the old objects hardly grew: it would not pay"
more = [[] for _ in range(20_000)]
middle_collections(1)
assert not heap.collect_between_frames(), "grown, but not looked at again before FULL_EVERY more"
middle_collections(heap.FULL_EVERY)
assert heap.collect_between_frames(), "grown by more than a quarter"
# Frozen once warm, the oldest generation starts again from nothing: what is promoted after
# (here cycles that only a collection frees) is collected when due.
heap.settle_warm()
class Cycle:
    pass
cycles = []
for _ in range(5_000):
    a, b = Cycle(), Cycle()
    a.other, b.other = b, a
    cycles.append(a)
del a, b
middle_collections(1)  # old now
cycles.clear()
middle_collections(heap.FULL_EVERY)
before = len(gc.get_objects(generation=2))
assert heap.collect_between_frames() and len(gc.get_objects(generation=2)) < before - 9_000
print("ok")
"""


def test_the_full_collection_comes_between_frames_at_cpythons_pace() -> None:
    done = subprocess.run([sys.executable, "-c", FULL_BETWEEN_FRAMES], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


WAITS_FOR_A_PAUSE = """
import gc
from tui import heap
heap.settle_imports()

def due():
    kept.extend([] for _ in range(20_000))
    for _ in range(heap.FULL_EVERY):
        gc.collect(1)

kept = []
gc.collect()
due()
heap.note_input()
assert not heap.collect_when_idle(), "a key was just pressed: the collection waits"
assert gc.get_count()[2] >= heap.FULL_EVERY, "and nothing was collected in full"
heap.QUIET_S = 0.0  # the pause has come (the app's timer looks again every CHECK_EVERY_S)
assert heap.collect_when_idle() and gc.get_count()[2] == 0, "done once the user pauses"
print("ok")
"""


def test_the_full_collection_waits_for_a_pause_in_the_keys() -> None:
    done = subprocess.run([sys.executable, "-c", WAITS_FOR_A_PAUSE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


WHILE_A_THREAD_BUILDS = """
import gc, sys, threading
from tui import heap
heap.settle_imports()
sys.setswitchinterval(1e-6)  # hand the interpreter between the threads as often as it can
failed = []

def items():
    for n in range(20_000):
        if n % 2_000 == 0:
            gc.collect()  # what any thread's allocations may start: the half-built tuple grows old
        yield n

def load():
    try:
        for _ in range(100):
            tuple(items())  # a tuple grown in place while it is built, as a loader's are
    except SystemError as exc:
        failed.append(exc)

loader = threading.Thread(target=load)
loader.start()
while loader.is_alive():
    heap._look_again_at = 0  # due at every look: the measure of the heap runs each time
    heap.collect_between_frames()
loader.join()
assert not failed, failed
print("ok")
"""


def test_the_collection_between_frames_never_breaks_what_another_thread_is_building() -> None:
    """Issue 34, major 4: listing the heap (`gc.get_objects`) on the UI thread handed out a
    reference to a tuple the loading thread was still growing, which then failed with
    "SystemError: Objects/tupleobject.c:927: bad argument to internal function"."""
    done = subprocess.run([sys.executable, "-c", WHILE_A_THREAD_BUILDS], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


PAUSED_THEN_OLD = """
import gc
from tui import heap
with heap.collector_paused():
    assert not gc.isenabled()
    made = [[] for _ in range(20_000)]  # what the engine's imports make: long-lived
assert gc.isenabled(), "put back as it was"
assert gc.get_count()[0] < 1_000, "not left young, for the next allocation to walk all at once"
assert gc.get_freeze_count() == 0, "moved to the oldest generation, not frozen"
assert sum(1 for o in gc.get_objects(generation=2) if o.__class__ is list and not o) >= 20_000
heap.settle_imports()
frozen = gc.get_freeze_count()
with heap.collector_paused():
    more = [[] for _ in range(1_000)]
assert gc.get_freeze_count() == frozen, "the app's frozen objects stay frozen"
print("ok")
"""


def test_what_is_made_with_the_collector_paused_joins_the_old() -> None:
    done = subprocess.run([sys.executable, "-c", PAUSED_THEN_OLD], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
