"""What a trace says: each gate's status and sentence, the outcome, and the verdict."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The gates, in the order Claude Code meets them.
GATES = ("root", "reserved", "size", "parse", "dedup", "shadowing", "overrides", "invocation", "permissions", "budget")


class Status(enum.StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_APPLICABLE = "n/a"


@dataclass(frozen=True, slots=True)
class Gate:
    name: str
    status: Status
    sentence: str
    # The diagnostics or details behind the sentence, one line each.
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"gate": self.name, "status": self.status.value, "sentence": self.sentence, "notes": list(self.notes)}


class Outcome(enum.StrEnum):
    LISTED = "listed"  # in the listing with its text
    NAME_ONLY = "name-only"  # in the listing by name (budget or skillOverrides)
    CONDITIONAL = "conditional"  # listed once a file matching `paths:` is touched
    HIDDEN = "hidden"  # loaded; only typing /name runs it
    NEVER_LOADS = "never-loads"
    NOT_FOUND = "not-found"


@dataclass(frozen=True, slots=True)
class Why:
    query: str
    kind: str  # "path" or "name"
    path: Path | None
    name: str | None
    gates: tuple[Gate, ...]
    outcome: Outcome
    verdict: str
    suggestions: tuple[str, ...] = ()
    # The listing line exactly as sent (the verdict quotes it cut to a sentence's length).
    line: str | None = None

    @property
    def loads(self) -> bool:
        return self.outcome not in (Outcome.NEVER_LOADS, Outcome.NOT_FOUND)

    def gate(self, name: str) -> Gate | None:
        return next((g for g in self.gates if g.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "kind": self.kind,
            "path": str(self.path) if self.path else None,
            "name": self.name,
            "loads": self.loads,
            "outcome": self.outcome.value,
            "verdict": self.verdict,
            "gates": [g.to_dict() for g in self.gates],
            "suggestions": list(self.suggestions),
            "line": self.line,
        }
