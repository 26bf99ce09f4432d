"""The live line under the transcript while a run waits: on a request that is out with nothing
back yet ("waiting for <model>… 12 s, escape cancels"), or on a skill's `!` commands, which run
before anything is sent ("running /name's commands… 3 s, escape cancels")."""

from __future__ import annotations

import time

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from engine import printable


class WaitingLine(Static):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Since when the run has been waiting, and on what.
        self._since: float | None = None
        self._what = ""
        self._timer: Timer | None = None

    def on_mount(self) -> None:
        self.display = False

    def start(self, model: str) -> None:
        self._start(f"waiting for {model}", at_once=True)

    def preparing(self, skill: str) -> None:
        # Shown from the first second: most skills have no command and are ready in milliseconds.
        self._start(f"running /{skill}'s commands", at_once=False)

    def _start(self, what: str, at_once: bool) -> None:
        self.stop()
        self._since, self._what = time.monotonic(), what
        # A timer, not a wait: the line counts the seconds while the loop goes on answering keys.
        self._timer = self.set_interval(1.0, self._tick)
        if at_once:
            self._tick()

    def _tick(self) -> None:
        if self._since is None:
            return
        seconds = int(time.monotonic() - self._since)
        self.update(Text(printable(f"{self._what}… {seconds} s, escape cancels"), "bold"))
        self.display = True

    def stop(self) -> None:
        if self._since is None:
            return  # called for every streamed delta: nothing to do is the common case
        if self._timer is not None:
            self._timer.stop()
        self._timer = self._since = None
        self.display = False
