"""Answers kept on disk, so a re-run asks the model only what it has not answered yet.

One JSON line per answer in `<state>/evals/routing.jsonl`, keyed by `RoutingRequest.key` (see
engine/evals/requests.py for what the key covers). Only answers are kept, never failures: a
request that failed is asked again next time. The file is skilldeck's own but read as any
file is: bounded, a broken line skipped, a file that is not a regular one ignored. Reading and
writing are plain blocking calls: a caller on a UI loop runs `load` and `flush` in a thread.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular
from ..base.state import state_dir
from .outcome import RouteOutcome

# About 100,000 answers; past it the file is rewritten with the newest half.
MAX_CACHE_BYTES = 32 * 1024 * 1024


class EvalCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._kept: dict[str, RouteOutcome] = {}
        self._pending: list[str] = []
        self.loaded = False

    @classmethod
    def at(cls, environ: Mapping[str, str] | None = None) -> EvalCache:
        return cls(state_dir(environ) / "evals" / "routing.jsonl")

    def __contains__(self, key: object) -> bool:
        return key in self._kept

    def __len__(self) -> int:
        return len(self._kept)

    def load(self) -> None:
        """Read the file once; anything wrong with it only loses what was kept."""
        self.loaded = True
        try:
            data, _ = read_regular(self.path, MAX_CACHE_BYTES)
        except OSError:
            return
        for raw in data.split(b"\n"):
            try:
                record = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if isinstance(record, dict) and isinstance(record.get("key"), str):
                outcome = RouteOutcome.from_dict(record)
                if outcome is not None:
                    self._kept[record["key"]] = outcome

    def get(self, key: str) -> RouteOutcome | None:
        return self._kept.get(key)

    def put(self, key: str, outcome: RouteOutcome, **about: Any) -> None:
        """Keep an answer (a failure is never kept); written by the next `flush`."""
        if outcome.failed:
            return
        self._kept[key] = outcome
        record = {"key": key, **about, **outcome.to_dict()}
        record.pop("cached", None)
        self._pending.append(json.dumps(record, ensure_ascii=False))

    def flush(self) -> None:
        """Append what `put` kept since the last flush; never raises (an unwritable state folder
        only means the next run asks again)."""
        if not self._pending:
            return
        lines, self._pending = self._pending, []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            size = self.path.stat().st_size if self.path.is_file() else 0
            if size > MAX_CACHE_BYTES - 1024 * 1024:
                self._compact()
                return
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write("".join(line + "\n" for line in lines))
        except OSError:
            pass

    def _compact(self) -> None:
        newest = list(self._kept.items())[-len(self._kept) // 2 :]
        temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
        with open(temporary, "w", encoding="utf-8") as handle:
            for key, outcome in newest:
                record = {"key": key, **outcome.to_dict()}
                record.pop("cached", None)
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        os.replace(temporary, self.path)
