"""One comparison with Claude Code as the app runs it: in a daemon thread, so that the worker
waiting on it can give up at once when cancelled (C again, the pane closed) and quitting the app
never waits for Claude Code long. A cancelled run is stopped: Claude Code's process group is
killed and its scratch folder removed, within a second, also when the app quits mid-run."""

from __future__ import annotations

import atexit
import threading
import time
from dataclasses import dataclass

from textual.worker import get_current_worker

from engine import CompareError, Comparison, ComparisonCache, Locations, compare_with_claude, find_claude

# How often the waiting worker looks whether it was cancelled.
POLL_S = 0.1
# How long a cancel waits for the run to kill Claude Code and remove its scratch folder.
CLEANUP_S = 3.0
# The attempts still running, stopped at exit: their threads are daemons, which would die with
# the interpreter before they could clean up, and Claude Code runs in a session of its own.
_running: set[Attempt] = set()


@dataclass(frozen=True)
class Compared:
    key: tuple[str, str, str]
    comparison: Comparison
    # True when it came from the cache (the listing has not changed since it ran).
    kept: bool = False


class Attempt:
    def __init__(self, claude: str | None, locations: Locations, cache: ComparisonCache, generation: int) -> None:
        self.claude = claude
        self.locations = locations
        self.cache = cache
        # The listing's generation when it started: a result for an older one is stale.
        self.generation = generation
        # What it does now, for the progress line (set in the helper thread, read by the UI's timer).
        self.said = "finding Claude Code"
        self.started = time.monotonic()
        self.done = threading.Event()
        self.stop = threading.Event()
        self._outcome: Compared | str | None = None
        self._error: Exception | None = None

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def _say(self, text: str) -> None:
        self.said = text

    def _run(self) -> None:
        try:
            claude = find_claude(self.claude, self.locations.environ)
            key = ComparisonCache.key(claude, self.locations)
            kept = self.cache.get(key)
            if kept is not None:
                self._outcome = Compared(key, kept, kept=True)
            else:
                self.said = f"running Claude Code {claude.version} offline"
                compared = compare_with_claude(claude, self.locations, progress=self._say, stop=self.stop)
                self._outcome = Compared(key, compared)
        except CompareError as exc:
            self._outcome = str(exc)
        except Exception as exc:  # handed to the worker, whose error policy reports it
            self._error = exc
        finally:
            _running.discard(self)
            self.done.set()

    def cancel(self) -> None:
        """Stop the run and wait (briefly) until Claude Code is killed and its folder removed."""
        self.stop.set()
        self.done.wait(CLEANUP_S)

    def wait(self) -> Compared | str | None:
        """In the worker's thread: the comparison (Compared), why it cannot run (str), or None once
        cancelled; anything else it raised is raised again for the error policy."""
        worker = get_current_worker()
        _running.add(self)
        threading.Thread(target=self._run, name="skilldeck-compare", daemon=True).start()
        while not self.done.wait(POLL_S):
            if worker.is_cancelled:
                self.cancel()
                return None
        if self._error is not None:
            raise self._error
        return self._outcome


@atexit.register
def _stop_all() -> None:
    for attempt in list(_running):
        attempt.cancel()
