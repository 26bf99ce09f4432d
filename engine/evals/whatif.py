"""What-if on the listing, with no model: disable a skill, shorten a description, raise the
budget, and see which skills gain or lose their description, and which would lose theirs next.

Every listing here is `Workspace.listing` (engine/listing/build.py's budget logic, the settings'
budget share, skillOverrides, usage scores) of a changed copy of the catalog: nothing of the
budget logic is repeated. A disabled skill is the skill with `disable-model-invocation: true`
(left out of the listing, its name still counting for labels, as in Claude Code).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.model import Skill
from ..listing.build import Listing
from ..workspace import Workspace


@dataclass(frozen=True, slots=True)
class DisableSkill:
    skill: str


@dataclass(frozen=True, slots=True)
class ShortenDescription:
    """The skill's listed text (description, then ` - when_to_use`) cut to `chars` characters."""

    skill: str
    chars: int


@dataclass(frozen=True, slots=True)
class RaiseBudget:
    chars: float


ListingChange = DisableSkill | ShortenDescription | RaiseBudget


@dataclass(frozen=True)
class WhatIf:
    before: Listing
    after: Listing
    # Skills whose description shows after and did not before, and the other way round.
    gained: tuple[str, ...]
    lost: tuple[str, ...]
    # Skills in the listing before and not after (disabled), and the other way round.
    removed: tuple[str, ...]
    added: tuple[str, ...]
    # After the change, the skills whose descriptions would go first if the listing grew.
    next_to_lose: tuple[str, ...]

    @property
    def headroom(self) -> float:
        """Characters left under the budget after the change (negative: over it)."""
        return self.after.budget - self.after.used

    def to_dict(self) -> dict[str, Any]:
        return {
            "gained": list(self.gained),
            "lost": list(self.lost),
            "removed": list(self.removed),
            "added": list(self.added),
            "next_to_lose": list(self.next_to_lose),
            "headroom": self.headroom,
            "before": {"used": self.before.used, "budget": self.before.budget},
            "after": {"used": self.after.used, "budget": self.after.budget},
        }


def next_to_lose(listing: Listing, count: int = 3) -> tuple[str, ...]:
    """The skills showing a description that the budget logic would give up first as the listing
    grows: it keeps descriptions greedily, highest usage score first, then in listing order, so
    the last ones it kept (lowest score, latest in the listing) go first. A shorter description
    further down may still fit where a longer one did not: this is the order, not a promise."""
    kept = [(i, e) for i, e in enumerate(listing.entries) if not e.trimmed and not e.fixed and e.override == "on"]
    kept.sort(key=lambda pair: (pair[1].score, -pair[0]))
    return tuple(e.name for _, e in kept[:count])


def compare_listings(before: Listing, after: Listing, count: int = 3) -> WhatIf:
    """What changed from one listing to another (pure: no disk, no model)."""
    shown_before = {e.name for e in before.entries if not e.trimmed}
    shown_after = {e.name for e in after.entries if not e.trimmed}
    names_before = [e.name for e in before.entries]
    names_after = [e.name for e in after.entries]
    listed_after, listed_before = set(names_after), set(names_before)
    return WhatIf(
        before,
        after,
        tuple(n for n in names_after if n in shown_after and n not in shown_before and n in listed_before),
        tuple(n for n in names_before if n in shown_before and n not in shown_after and n in listed_after),
        tuple(n for n in names_before if n not in listed_after),
        tuple(n for n in names_after if n not in listed_before),
        next_to_lose(after, count),
    )


def changed_catalog(catalog: Catalog, changes: Sequence[ListingChange]) -> Catalog:
    """The catalog with each skill change applied (a budget change is not a catalog change)."""
    skills = dict(catalog.skills)
    for change in changes:
        if isinstance(change, RaiseBudget):
            continue
        skill = skills.get(change.skill)
        if skill is None:
            raise KeyError(change.skill)
        if isinstance(change, DisableSkill):
            skills[change.skill] = replace(skill, disable_model_invocation=True)
        else:
            skills[change.skill] = _shortened(skill, change.chars)
    return replace(catalog, skills=skills)


def _shortened(skill: Skill, chars: int) -> Skill:
    text = skill.description + (f" - {skill.when_to_use}" if skill.when_to_use else "")
    return replace(skill, description=text[: max(0, chars)], when_to_use=None)


def what_if(
    workspace: Workspace,
    catalog: Catalog,
    changes: Sequence[ListingChange],
    *,
    model: str | None = None,
    count: int = 3,
    before: Listing | None = None,
) -> WhatIf:
    """The listing before and after `changes`; a `KeyError` names a skill the catalog lacks.
    `before`: the current listing when the caller has it (it is built otherwise)."""
    budget = next((c.chars for c in reversed(changes) if isinstance(c, RaiseBudget)), None)
    if before is None:
        before = workspace.listing(catalog, model=model)
    after = workspace.listing(changed_catalog(catalog, changes), budget, model=model)
    return compare_listings(before, after, count)
