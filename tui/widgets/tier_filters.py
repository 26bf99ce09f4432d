"""The tiers tree's filters (`t`): what each shows, for the tree's title, and which rows it keeps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine import Severity

from ..usage import UNUSED_DAYS, UsageBook
from ..view import CatalogView, TierView

FILTERS = {
    "all": "",
    "errors": "skills with errors",
    "problems": "skills with errors or warnings",
    "unused": f"skills not used in {UNUSED_DAYS} days",
}


def wanted_skills(name: str, view: CatalogView, usage: UsageBook | None) -> Callable[[Path], bool]:
    """Whether filter `name` keeps the skill at a path (every one until the transcripts are read)."""
    if name == "errors":
        return lambda path: view.worst(path) is Severity.ERROR
    if name == "problems":
        return lambda path: view.worst(path) is not None
    if name == "unused" and usage is not None and usage.ready:
        names = {s.path: s.name for t in view.tiers for s in (*t.skills, *t.deferred)}
        return lambda path: path in names and usage.unused(names[path])
    return lambda path: True


def wanted_tier(name: str, tier: TierView) -> bool:
    """Whether filter `name` shows a tier none of whose skills it keeps: a tier whose errors are in
    files that load no skill still shows, with its counts."""
    if name == "unused":
        return False
    return bool(tier.errors) if name == "errors" else bool(tier.errors or tier.warnings)
