"""What a pane reads once in a worker and others wait for (the transcripts' usage, every agent's
verdicts): a problem when the read failed, and the listeners told when either comes in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Book:
    problem: str | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def _failed(self, why: str) -> None:
        self.problem = why
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()
