"""The moments `make bench` (tests/bench/bench_tui.py) asks a real `skilldeck` process to note.

With SKILLDECK_FIRST_PAINT_FILE or SKILLDECK_FIRST_SKILLS_FILE set, the app writes the wall
clock time of the first frame, or of the first frame that shows skills (with the details of the
first), into that file, then exits. Unset, nothing here does anything.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from textual.app import App


class BenchMarks:
    def __init__(self, app: App[None]) -> None:
        self.app = app
        self._skills_marked = False

    def first_paint(self) -> bool:
        """True when the bench asked for the first frame (the app then exits instead of loading)."""
        mark = os.environ.get("SKILLDECK_FIRST_PAINT_FILE")
        if mark:
            self._mark_and_exit(mark)
        return bool(mark)

    def first_skills(self) -> None:
        """Called each time the tiers show skills: the first one is the moment asked for."""
        mark = os.environ.get("SKILLDECK_FIRST_SKILLS_FILE")
        if mark and not self._skills_marked:
            self._skills_marked = True
            self.app.call_after_refresh(self._mark_and_exit, mark)

    def _mark_and_exit(self, mark: str) -> None:
        Path(mark).write_text(repr(time.time()))
        self.app.exit()
