"""The catalog: every loaded skill by effective name, the ones that lost a clash, and why.

Built once per load from the tiers in precedence order, then never changed, so it can be
handed to another thread as is.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from .diagnostics import Sink
from .loadcache import Loaded
from .model import Diagnostic, LoadedFrom, LoadStats, Severity, Shadowed, Skill, Source, SourceKind
from .skillfile import Entry, load_entry
from .sources import Tier

Progress = Callable[[int, int], None]
log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())


@dataclass(frozen=True)
class Catalog:
    skills: Mapping[str, Skill]
    shadowed: tuple[Shadowed, ...]
    diagnostics: tuple[Diagnostic, ...]
    sources: tuple[Source, ...]
    stats: LoadStats = field(default_factory=LoadStats)

    def get(self, name: str) -> Skill | None:
        """Look a skill up as Claude Code does: a leading `/` is ignored; exact name first."""
        name = name.strip().removeprefix("/")
        found = self.skills.get(name)
        if found is not None:
            return found
        folded = name.casefold()
        for skill in self.skills.values():
            if skill.name.casefold() == folded:
                return skill
        return None

    def model_invocable(self) -> list[Skill]:
        return [s for s in self.skills.values() if s.model_invocable]

    def user_invocable(self) -> list[Skill]:
        return [s for s in self.skills.values() if s.user_invocable]

    def shadowing(self, skill: Skill) -> list[Shadowed]:
        """The skills that `skill` hides."""
        return [s for s in self.shadowed if s.shadowed_by is skill]

    def shadowed_entry(self, path: Path) -> Shadowed | None:
        return next((s for s in self.shadowed if s.skill.path == path), None)

    def diagnostics_for(self, path: Path) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.path == path]

    def counts(self) -> dict[Severity, int]:
        out = dict.fromkeys(Severity, 0)
        for d in self.diagnostics:
            out[d.severity] += 1
        return out


def _load_one(entry: Entry, tier: Tier, sink: Sink) -> Skill | None:
    """`load_entry`, which turns every bad file it knows of into diagnostics; anything it did not
    foresee still stays on this one file, so that every other skill loads."""
    try:
        return load_entry(entry, tier.source, tier.loaded_from, sink)
    except Exception as exc:
        log.exception("loading %s failed", entry.path)
        sink.error(
            "load-failed",
            entry.path,
            f"skilldeck failed on this file ({type(exc).__name__}: {str(exc)[:200]}); it is not loaded",
            "this is a skilldeck bug: please report it with the file",
            skill=entry.stem,
        )
        return None


def _load(entry: Entry, tier: Tier, sink: Sink, memo: dict[tuple[Entry, LoadedFrom], Loaded] | None) -> Skill | None:
    """Read one file, or take it from `memo` when it was read before and has not changed."""
    if memo is None:
        return _load_one(entry, tier, sink)
    key = (entry, tier.loaded_from)
    known = memo.get(key)
    if known is None:
        local = Sink()
        known = Loaded(_load_one(entry, tier, local), tuple(local.items))
        memo[key] = known
    sink.items.extend(known.diagnostics)
    skill = known.skill
    if skill is not None and skill.source is not tier.source and skill.source != tier.source:
        # A tier appeared or went before this one: same file, new position.
        skill = replace(skill, source=tier.source)
    return skill


def build(
    tiers: Iterable[Tier],
    sink: Sink,
    progress: Progress | None = None,
    started: float | None = None,
    memo: dict[tuple[Entry, LoadedFrom], Loaded] | None = None,
) -> Catalog:
    started = time.perf_counter() if started is None else started
    tiers = list(tiers)
    total = sum(len(t.entries) for t in tiers)
    skills: dict[str, Skill] = {}
    shadowed: list[Shadowed] = []
    by_inode: dict[tuple[int, int], Skill] = {}
    done = 0
    for tier in tiers:
        for entry in tier.entries:
            done += 1
            if progress is not None and done % 200 == 0:
                progress(done, total)
            skill = _load(entry, tier, sink, memo)
            if skill is None:
                continue
            first = by_inode.get(skill.inode) if skill.inode else None
            if first is not None:
                sink.info(
                    "duplicate-file",
                    skill.path,
                    f"same file as {first.path} (already loaded as /{first.name}); loaded once",
                    "nothing to do unless you meant two different skills",
                    skill=skill.name,
                )
                continue
            if skill.inode:
                by_inode[skill.inode] = skill
            winner = skills.get(skill.name)
            if winner is None:
                skills[skill.name] = skill
                continue
            shadowed.append(Shadowed(skill, winner))
            quiet = skill.source.kind is SourceKind.BUNDLED
            (sink.info if quiet else sink.warning)(
                "shadowed",
                skill.path,
                f"/{skill.name} is shadowed by the {winner.source.label} skill at {winner.path}; this one never runs",
                "rename one of the two folders if both should be available",
                skill=skill.name,
            )
    if progress is not None:
        progress(total, total)
    stats = LoadStats(files_read=done, tiers=len(tiers), elapsed_ms=(time.perf_counter() - started) * 1000)
    return Catalog(
        skills=MappingProxyType(skills),
        shadowed=tuple(shadowed),
        diagnostics=tuple(sink.items),
        sources=tuple(t.source for t in tiers),
        stats=stats,
    )
