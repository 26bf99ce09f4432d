"""The live line under the transcript while a request is out and nothing has come back:
"waiting for <model>… 12 s, escape cancels"."""

from __future__ import annotations

import time

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from engine import printable


class WaitingLine(Static):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Since when a request has been out with nothing back yet, and its model.
        self._since: float | None = None
        self._model = ""
        self._timer: Timer | None = None

    def on_mount(self) -> None:
        self.display = False

    def start(self, model: str) -> None:
        self.stop()
        self._since, self._model = time.monotonic(), model
        # A timer, not a wait: the line counts the seconds while the loop goes on answering keys.
        self._timer = self.set_interval(1.0, self._tick)
        self._tick()

    def _tick(self) -> None:
        if self._since is None:
            return
        seconds = int(time.monotonic() - self._since)
        self.update(Text(printable(f"waiting for {self._model}… {seconds} s, escape cancels"), "bold"))
        self.display = True

    def stop(self) -> None:
        if self._since is None:
            return  # called for every streamed delta: nothing to do is the common case
        if self._timer is not None:
            self._timer.stop()
        self._timer = self._since = None
        self.display = False
