"""What changed between two catalog snapshots, skill by skill and diagnostic by diagnostic."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.model import Diagnostic, Severity, Skill

# Fields that say where a file sits rather than what it says.
_IGNORED = {"inode", "stamp", "body_offset", "source"}
_COMPARED = tuple(f.name for f in fields(Skill) if f.name not in _IGNORED)


def changed_fields(old: Skill, new: Skill) -> tuple[str, ...]:
    out = [name for name in _COMPARED if getattr(old, name) != getattr(new, name)]
    if old.source.kind != new.source.kind or old.source.root != new.source.root:
        out.append("source")
    if "body_chars" in out:
        out[out.index("body_chars")] = "body"
    elif not out and old.stamp != new.stamp:
        # Rewritten with the same fields and body length: the body may still differ.
        out.append("body")
    return tuple(out)


@dataclass(frozen=True)
class CatalogDiff:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    diagnostics_added: tuple[Diagnostic, ...] = ()
    diagnostics_cleared: tuple[Diagnostic, ...] = ()
    elapsed_ms: float = 0.0
    # Settings files written since the last snapshot (their rules, overrides and budget settings
    # may have changed even when no skill did): a change the app and `watch` must show.
    settings: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (
            self.added or self.removed or self.changed or self.diagnostics_added or self.diagnostics_cleared or self.settings
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": {name: list(f) for name, f in self.changed.items()},
            "diagnostics_added": len(self.diagnostics_added),
            "diagnostics_cleared": len(self.diagnostics_cleared),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "settings": list(self.settings),
        }

    def summary(self) -> str:
        """One line for a toast: `+1 skill, 2 changed, 1 error fixed`."""
        parts = []
        if self.added:
            parts.append(f"+{len(self.added)} skill{'s' if len(self.added) > 1 else ''}")
        if self.removed:
            parts.append(f"-{len(self.removed)} skill{'s' if len(self.removed) > 1 else ''}")
        if self.changed:
            parts.append(f"{len(self.changed)} changed")
        for severity, word in ((Severity.ERROR, "error"), (Severity.WARNING, "warning")):
            new = sum(d.severity is severity for d in self.diagnostics_added)
            fixed = sum(d.severity is severity for d in self.diagnostics_cleared)
            if new:
                parts.append(f"{new} new {word}{'s' if new > 1 else ''}")
            if fixed:
                parts.append(f"{fixed} {word}{'s' if fixed > 1 else ''} fixed")
        if self.settings:
            parts.append(f"{len(self.settings)} settings file{'s' if len(self.settings) > 1 else ''} changed")
        return ", ".join(parts) or "no visible change"


def _key(d: Diagnostic) -> tuple[Any, ...]:
    return (d.severity, d.code, d.path, d.line, d.column, d.message, d.hint, d.skill)


def diff(old: Catalog, new: Catalog, elapsed_ms: float = 0.0) -> CatalogDiff:
    added = tuple(n for n in new.skills if n not in old.skills)
    removed = tuple(n for n in old.skills if n not in new.skills)
    changed: dict[str, tuple[str, ...]] = {}
    for name, skill in new.skills.items():
        before = old.skills.get(name)
        if before is not None and before is not skill:
            what = changed_fields(before, skill)
            if what:
                changed[name] = what
    # Diagnostics of files that were not read again are the very same objects: set those
    # aside by identity and compare only the rest by content.
    kept = {id(d) for d in old.diagnostics} & {id(d) for d in new.diagnostics}
    old_rest = tuple(d for d in old.diagnostics if id(d) not in kept)
    new_rest = tuple(d for d in new.diagnostics if id(d) not in kept)
    old_diags = Counter(_key(d) for d in old_rest)
    new_diags = Counter(_key(d) for d in new_rest)
    added_d = _take(new_diags - old_diags, new_rest)
    cleared_d = _take(old_diags - new_diags, old_rest)
    return CatalogDiff(added, removed, changed, added_d, cleared_d, elapsed_ms)


def _take(pool: Counter[tuple[Any, ...]], diagnostics: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    """The diagnostics counted in `pool`, as many times as counted, in their original order."""
    out = []
    for d in diagnostics:
        key = _key(d)
        if pool[key] > 0:
            pool[key] -= 1
            out.append(d)
    return tuple(out)
