"""A reload that redoes only the files that changed: the last catalog, patched (`rebuild`), and
the loader that keeps what it read for it (`IncrementalLoader`, the watcher's).

A full build walks every file of the catalog in listing order (about 100 ms at 15,000 skills,
most of a reload after one SKILL.md was saved). When the files and tiers are the same as in the
last build and the few files read again each still gives the skill that won its name, under the
same name, from the same file, nothing else in the build can come out differently: the skill is
put in its place, its diagnostics in theirs, and the rest is the last catalog. Anything else
(a file added, gone, renamed, shadowing or shadowed, deferred, refused, a duplicate) is a full
build. The churn test compares every result with a cold load.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace
from types import MappingProxyType

from ..catalog.assembly import Catalog, Partial, Progress, Trace, _load, _overridden, _plugin_label, _plugin_path_skill, build
from ..catalog.diagnostics import Sink
from ..catalog.loadcache import LoadCache, Loaded
from ..catalog.locations import Locations
from ..catalog.model import Diagnostic, LoadedFrom, LoadStats, Shadowed, Skill
from ..catalog.skillfile import Entry
from ..catalog.sources import Tier
from ..catalog.sources.names import refusal
from ..catalog.sources.tiers import collect

# More changed files than this in one reload: a full build (a checkout, a new plugin).
MAX_PATCHED = 64


def _same_tier(tier: Tier, old: Tier) -> bool:
    return tier is old or (
        (tier.source is old.source or tier.source == old.source)
        and tier.loaded_from is old.loaded_from
        and tier.nested == old.nested
        and tier.overrides == old.overrides
    )


def _same_slots(tiers: list[Tier], trace: Trace) -> list[tuple[Entry, Tier]] | None:
    """The last build's slots when `tiers` hold the same files in the same tiers (so in the same
    order), else None. Compared tier by tier: the entries of a tier the cache kept are the same
    tuple, and a re-scanned one compares its unchanged entries by identity first."""
    old = trace.tiers
    if len(tiers) != len(old):
        return None
    for tier, before in zip(tiers, old, strict=True):
        if tier is not before and (tier.entries != before.entries or tier.merge != before.merge or not _same_tier(tier, before)):
            return None
    return trace.slots


def _placed(skill: Skill, entry: Entry, tier: Tier) -> Skill:
    """The skill as build() puts it in the catalog (its tier's source, a plugin's naming, a
    manifest's overrides)."""
    if skill.source is not tier.source and skill.source != tier.source:
        skill = replace(skill, source=tier.source)
    if tier.loaded_from is LoadedFrom.PLUGIN and entry.is_skill_md and entry.namespace:
        skill = _plugin_path_skill(skill, entry) if entry.name_from_frontmatter else _plugin_label(skill, entry)
    if tier.overrides is not None and skill.path in tier.overrides:
        skill = _overridden(skill, tier.overrides[skill.path])
    return skill


def rebuild(
    tiers: list[Tier], sink: Sink, memo: dict[tuple[Entry, LoadedFrom], Loaded], trace: Trace, started: float
) -> Catalog | None:
    """The catalog `build(tiers, sink, memo=memo, trace=trace)` would give, made from the last one
    when only a few files changed in place; None when a full build is needed. `trace` is
    brought up to date when a catalog is returned."""
    last = trace.catalog
    if last is None or tuple(sink.items) != trace.head:
        return None
    slots = _same_slots(tiers, trace)
    if slots is None:
        return None
    changed: list[int] = []
    loaded = trace.loaded
    for index, (entry, tier) in enumerate(slots):
        if memo.get((entry, tier.loaded_from)) is not loaded[index]:
            changed.append(index)
            if len(changed) > MAX_PATCHED:
                return None
    skills = dict(last.skills)
    diagnostics: list[Diagnostic] = list(last.diagnostics)
    swapped: dict[int, Skill] = {}
    patches: list[tuple[int, Loaded, Skill, int]] = []
    for index in changed:
        entry, tier = slots[index]
        old, winner = trace.loaded[index], trace.won[index]
        _load(entry, tier, Sink(), memo)  # reads the file when the memo forgot it
        known = memo.get((entry, tier.loaded_from))
        if old is None or old.skill is None or winner is None or known is None or known.skill is None:
            return None
        skill = _placed(known.skill, entry, tier)
        deferred = tier.nested or (skill.paths and tier.loaded_from is LoadedFrom.SKILLS)
        if skill.name != winner.name or skill.inode != old.skill.inode or deferred or refusal(skill.name) is not None:
            return None
        skills[skill.name] = skill
        swapped[id(winner)] = skill
        patches.append((index, known, skill, len(known.diagnostics) - len(old.diagnostics)))
    shift = 0
    for index, known, _, delta in patches:
        begin = trace.starts[index] + shift
        old = trace.loaded[index]
        assert old is not None
        diagnostics[begin : begin + len(old.diagnostics)] = known.diagnostics
        shift += delta
    shadowed = tuple(Shadowed(s.skill, swapped[id(s.shadowed_by)]) if id(s.shadowed_by) in swapped else s for s in last.shadowed)
    catalog = Catalog(
        skills=MappingProxyType(skills),
        shadowed=shadowed,
        diagnostics=tuple(diagnostics),
        sources=last.sources,
        stats=LoadStats(files_read=len(slots), tiers=last.stats.tiers, elapsed_ms=(time.perf_counter() - started) * 1000),
        deferred=last.deferred,
    )
    _advance(trace, slots, patches, catalog)
    return catalog


def _advance(
    trace: Trace, slots: list[tuple[Entry, Tier]], patches: list[tuple[int, Loaded, Skill, int]], catalog: Catalog
) -> None:
    trace.slots, trace.catalog = slots, catalog
    shift, next_patch = 0, 0
    for index in range(len(trace.starts)):
        trace.starts[index] += shift
        if next_patch < len(patches) and patches[next_patch][0] == index:
            _, known, skill, delta = patches[next_patch]
            trace.loaded[index], trace.won[index] = known, skill
            shift += delta
            next_patch += 1


class IncrementalLoader:
    """Loads like `Workspace.load`, keeping what it read so that a reload after a change
    re-reads only what the change touched."""

    def __init__(self, locations: Locations) -> None:
        self.locations = locations
        self.cache = LoadCache()
        self.trace = Trace()

    def load(self, progress: Progress | None = None, partial: Partial | None = None) -> Catalog:
        started = time.perf_counter()
        sink = Sink()
        tiers = collect(self.locations, sink, self.cache)
        # One SKILL.md saved in a catalog of 15,000: the last catalog with that skill replaced,
        # instead of a build that walks all 15,000 again.
        catalog = rebuild(tiers, sink, self.cache.files, self.trace, started) if progress is None else None
        return catalog or build(tiers, sink, progress, started, self.cache.files, self.trace, partial)

    def invalidate(self, paths: Iterable[str]) -> None:
        for path in paths:
            self.cache.invalidate(path)
