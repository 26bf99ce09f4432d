"""The catalog: every loaded skill by effective name, the ones that lost a clash, and why.

Built once per load from the tiers in precedence order, then never changed, so it can be
handed to another thread as is.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import repeat
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .diagnostics import Sink
from .loadcache import Loaded
from .model import Diagnostic, LoadedFrom, LoadStats, Severity, Shadowed, Skill, Source, SourceKind
from .scan import entry_order, plugin_skill_stem
from .skillfile import Entry, load_entry
from .sources import Tier
from .sources.names import refusal
from .sources.pathsglob import covers

Progress = Callable[[int, int], None]
# Called with a snapshot of the catalog so far (`Catalog.reading` set) while a long load goes on,
# so that a screen can show the first skills of 15,000 before the last is read.
Partial = Callable[["Catalog"], None]
# The first snapshot once the reads have gone on this long (some 500 files here: more than a
# screenful of skills, 0.1 s sooner on the first screen than at 0.2 s), and at least this many
# files were read (a short load, however slow the machine, shows no half catalog before the whole
# one); then one per PARTIAL_EVERY_S.
PARTIAL_FIRST_S = 0.1
PARTIAL_FIRST_FILES = 300
PARTIAL_EVERY_S = 1.5


def _log_failure(entry: Entry) -> None:
    """Log the exception being handled. logging is imported here, on a failure only: it took
    about 10 ms of every `skilldeck list` (the logger's NullHandler keeps it off stderr, as a
    library's should)."""
    import logging

    log = logging.getLogger(__name__)
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())
    log.exception("loading %s failed", entry.path)


@dataclass(frozen=True)
class Catalog:
    """`skills`: what a session has at start, by name, in Claude Code's listing order.
    `deferred`: skills Claude Code loads only later (`Skill.activation` says when), under the
    names they would get then; they never take a name from a skill in `skills`."""

    skills: Mapping[str, Skill]
    shadowed: tuple[Shadowed, ...]
    diagnostics: tuple[Diagnostic, ...]
    sources: tuple[Source, ...]
    stats: LoadStats = field(default_factory=LoadStats)
    deferred: tuple[Skill, ...] = ()
    # (files read, files in all) in a snapshot taken while the load was still going; None once
    # every file is read. A snapshot's clashes and counts are those of the files read so far.
    reading: tuple[int, int] | None = None

    def labelled(self, label: str) -> Skill | None:
        """The skill a `name:` label finds when no skill has that name: the first whose `name:` it
        is. Claude Code runs `/beta` for the folder beta-dir with `name: beta` (recorded:
        typed_label_alias), and lists it as `- beta-dir (beta)` for that reason."""
        if label in self.skills:
            return None
        return self._by_label.get(label)

    # Lookups by label and by folded name, built on first use (the catalog never changes): a scan
    # per miss cost 10 ms on 15,000 skills, and `skilldeck why` and the runner look names up often.
    @cached_property
    def _by_label(self) -> Mapping[str, Skill]:
        index: dict[str, Skill] = {}
        for skill in self.skills.values():
            # A plugin skill's bare name (`lint` for tools:lint) is not a label: it is never listed as one.
            if not skill.name.endswith(f":{skill.display_name}"):
                index.setdefault(skill.display_name, skill)
        return index

    @cached_property
    def _by_folded(self) -> Mapping[str, Skill]:
        index: dict[str, Skill] = {}
        for skill in self.skills.values():
            index.setdefault(skill.name.casefold(), skill)
        return index

    def get(self, name: str) -> Skill | None:
        """Look a skill up as Claude Code does: a leading `/` is ignored; exact name first, then
        a `name:` label, then the name in another case."""
        name = name.strip().removeprefix("/")
        found = self.skills.get(name) or self.labelled(name)
        if found is not None:
            return found
        return self._by_folded.get(name.casefold())

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
        _log_failure(entry)
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


def _slots(tiers: list[Tier]) -> list[tuple[Entry, Tier]]:
    """Every file in listing order; tiers that share a `merge` key are sorted together by name
    (a stable sort: on equal names the earlier tier stays first, and wins)."""
    out: list[tuple[Entry, Tier]] = []
    i = 0
    while i < len(tiers):
        tier = tiers[i]
        if not tier.merge:
            # zip with repeat: the pairs made in C, not by a generator (15,000 at every reload).
            out.extend(zip(tier.entries, repeat(tier)))
            i += 1
            continue
        group: list[tuple[Entry, Tier]] = []
        while i < len(tiers) and tiers[i].merge == tier.merge:
            group.extend(zip(tiers[i].entries, repeat(tiers[i])))
            i += 1
        group.sort(key=lambda slot: entry_order(slot[0]))
        out.extend(group)
    return out


def _plugin_label(skill: Skill, entry: Entry) -> Skill:
    """A plugin skill's `name:` is a label shown as `plugin:label` (Claude Code lists
    `tools:lint (tools:renamed)`); the name stays `plugin:folder`."""
    if skill.display_name == entry.stem or skill.display_name.startswith(f"{entry.namespace}:"):
        return skill
    return replace(skill, display_name=f"{entry.namespace}:{skill.display_name}")


def _plugin_path_skill(skill: Skill, entry: Entry) -> Skill:
    """A skill folder a plugin names directly (or its top folder) is named by its `name:`,
    without a leading `plugin:`, else by the folder; as with skill folders, characters other
    than letters, digits, `_` and `-` become `-`."""
    written = skill.display_name.strip() if skill.display_name != entry.stem else ""
    written = written.removeprefix(f"{entry.namespace}:")
    name = f"{entry.namespace}:{plugin_skill_stem(written or entry.stem)}"
    return skill if name == skill.name else replace(skill, name=name, display_name=name)


def _overridden(skill: Skill, spec: Mapping[str, Any]) -> Skill:
    """A plugin command with the fields its manifest entry sets (recorded: plugin_manifest_commands)."""
    changes: dict[str, Any] = {}
    if isinstance(spec.get("description"), str):
        changes.update(description=spec["description"], description_source="frontmatter")
    if isinstance(spec.get("argumentHint"), str):
        changes["argument_hint"] = spec["argumentHint"]
    if isinstance(spec.get("model"), str):
        changes["model"] = spec["model"]
    return replace(skill, **changes) if changes else skill


def _same_file(first: Skill, later: Skill) -> bool:
    """Whether Claude Code loads `later` as a duplicate of `first` (same device and inode).
    It compares real paths, so a symlink is a duplicate and a hard link is not, except between
    two legacy commands, which it compares by inode; a plugin's skill is a duplicate only of
    another plugin's or of a user skill."""
    if first.loaded_from is LoadedFrom.COMMANDS and later.loaded_from is LoadedFrom.COMMANDS:
        return True
    if later.source.kind is SourceKind.PLUGIN and first.source.kind not in (SourceKind.USER, SourceKind.PLUGIN):
        # Plugin skills are compared with each other and with the user's skills only.
        return False
    try:
        return os.path.realpath(first.path) == os.path.realpath(later.path)
    except (OSError, ValueError):
        return True


def build(
    tiers: Iterable[Tier],
    sink: Sink,
    progress: Progress | None = None,
    started: float | None = None,
    memo: dict[tuple[Entry, LoadedFrom], Loaded] | None = None,
    trace: Trace | None = None,
    partial: Partial | None = None,
) -> Catalog:
    """The catalog Claude Code 2.1.328 would have: files read in listing order, the same file
    loaded once (the first place wins), `paths:` skills and nested skills kept aside as deferred,
    then the first skill of each name wins. An --add-dir skill whose name an earlier skill has is
    kept too, scoped (`extra:deploy`), after every other skill. With `memo` and `trace`, what
    each file gave is noted in `trace` for `rebuild` (engine/reload/rebuild.py)."""
    started = time.perf_counter() if started is None else started
    tiers = list(tiers)
    slots = _slots(tiers)
    noting = trace is not None and memo is not None
    if trace is not None:
        trace.start(tiers, slots, tuple(sink.items))
    total = len(slots)
    skills: dict[str, Skill] = {}
    shadowed: list[Shadowed] = []
    deferred: list[Skill] = []
    scoped: list[Skill] = []
    by_inode: dict[tuple[int, int], Skill] = {}
    sources = tuple(dict.fromkeys(t.source for t in tiers))
    next_partial = time.perf_counter() + PARTIAL_FIRST_S
    done = 0
    for entry, tier in slots:
        done += 1
        if progress is not None and done % 200 == 0:
            progress(done, total)
        if partial is not None and done % 100 == 0 and done > PARTIAL_FIRST_FILES and time.perf_counter() >= next_partial:
            partial(_snapshot(dict(skills), shadowed, sink, sources, deferred, done - 1, (done - 1, total), len(tiers), started))
            next_partial = time.perf_counter() + PARTIAL_EVERY_S
        start = len(sink.items)
        skill = _load_one(entry, tier, sink) if memo is None else _load(entry, tier, sink, memo)
        if noting:
            assert trace is not None and memo is not None
            trace.note(memo.get((entry, tier.loaded_from)), start)
        if skill is None:
            continue
        first = by_inode.get(skill.inode) if skill.inode else None
        if first is not None and _same_file(first, skill):
            sink.info(
                "duplicate-file",
                skill.path,
                f"same file as {first.path} (already loaded as /{first.name}); Claude Code loads it once, from there",
                "nothing to do unless you meant two different skills",
                skill=skill.name,
            )
            continue
        if skill.inode:
            by_inode[skill.inode] = skill
        if tier.loaded_from is LoadedFrom.PLUGIN and entry.is_skill_md and entry.namespace:
            skill = _plugin_path_skill(skill, entry) if entry.name_from_frontmatter else _plugin_label(skill, entry)
        if tier.overrides is not None and skill.path in tier.overrides:
            skill = _overridden(skill, tier.overrides[skill.path])
        refused = refusal(skill.name)
        if refused is not None:
            sink.warning(
                "name-refused",
                skill.path,
                f"Claude Code does not offer /{skill.name}: {refused}; it is neither listed nor typable",
                "rename the folder (or the file) to letters, digits, - and _",
                skill=skill.name,
            )
            continue
        if tier.nested:
            deferred.append(replace(skill, activation="nested"))
            continue
        if skill.paths and tier.loaded_from is LoadedFrom.SKILLS:
            deferred.append(replace(skill, activation="paths"))
            continue
        winner = skills.get(skill.name)
        if winner is None:
            skills[skill.name] = skill
            if noting:
                assert trace is not None
                trace.won[-1] = skill
            continue
        if tier.source.kind is SourceKind.ADD_DIR and tier.source.scope:
            scoped.append(skill)
            continue
        shadowed.append(Shadowed(skill, winner))
        quiet = skill.source.kind is SourceKind.BUNDLED
        (sink.info if quiet else sink.warning)(
            "shadowed",
            skill.path,
            f"/{skill.name} is shadowed by the {winner.source.label} skill at {winner.path}; Claude Code never lists this one",
            "rename one of the two folders if both should be available",
            skill=skill.name,
        )
    for skill in scoped:
        _add_scoped(skill, skills, shadowed, sink)
    waiting = {s.name: s.paths for s in deferred if s.activation == "paths"}
    deferred = [_deferred_name(skill, skills, sink, waiting) for skill in deferred]
    if progress is not None:
        progress(total, total)
    catalog = _snapshot(skills, shadowed, sink, sources, deferred, done, None, len(tiers), started)
    if trace is not None:
        trace.catalog = catalog if noting else None
    return catalog


def _snapshot(
    skills: dict[str, Skill],
    shadowed: list[Shadowed],
    sink: Sink,
    sources: tuple[Source, ...],
    deferred: list[Skill],
    files_read: int,
    reading: tuple[int, int] | None,
    tiers: int,
    started: float,
) -> Catalog:
    """The catalog of the files read so far: the whole one, or (`reading` set) a snapshot while
    the build goes on, its `skills` a copy the build no longer changes."""
    stats = LoadStats(files_read=files_read, tiers=tiers, elapsed_ms=(time.perf_counter() - started) * 1000)
    return Catalog(
        skills=MappingProxyType(skills),
        shadowed=tuple(shadowed),
        diagnostics=tuple(sink.items),
        sources=sources,
        stats=stats,
        deferred=tuple(deferred),
        reading=reading,
    )


@dataclass(eq=False)
class Trace:
    """What one build did with each file (slot), so that the next build can redo only the slots
    whose file changed (engine/reload/rebuild.py)."""

    tiers: list[Tier] = field(default_factory=list)
    slots: list[tuple[Entry, Tier]] = field(default_factory=list)
    # The memo's record each slot was built from (compared by identity: a re-read is a new one).
    loaded: list[Loaded | None] = field(default_factory=list)
    # Where the slot's file diagnostics begin in the catalog's diagnostics.
    starts: list[int] = field(default_factory=list)
    # The skill the slot put in `skills` under its own name, when it did.
    won: list[Skill | None] = field(default_factory=list)
    # The diagnostics the build started with (those of the collect).
    head: tuple[Diagnostic, ...] = ()
    catalog: Catalog | None = None

    def start(self, tiers: list[Tier], slots: list[tuple[Entry, Tier]], head: tuple[Diagnostic, ...]) -> None:
        self.tiers, self.slots, self.head, self.catalog = tiers, slots, head, None
        self.loaded, self.starts, self.won = [], [], []

    def note(self, loaded: Loaded | None, start: int) -> None:
        self.loaded.append(loaded)
        self.starts.append(start)
        self.won.append(None)


def _add_scoped(skill: Skill, skills: dict[str, Skill], shadowed: list[Shadowed], sink: Sink) -> None:
    scope = skill.source.scope
    name = f"{scope}:{skill.name}"
    unscoped = skills[skill.name]
    taken = skills.get(name)
    if taken is not None:
        shadowed.append(Shadowed(skill, taken))
        sink.warning(
            "shadowed",
            skill.path,
            f"/{skill.name} is taken by the {unscoped.source.label} skill, and its scoped name /{name} by {taken.path}: "
            "Claude Code does not offer this one",
            "rename the folder",
            skill=skill.name,
        )
        return
    skills[name] = replace(skill, name=name, scope=scope)
    sink.info(
        "scoped",
        skill.path,
        f"/{skill.name} is also the {unscoped.source.label} skill at {unscoped.path}: Claude Code keeps both and lists "
        f"this one as /{name}, for files under {scope}/",
        "rename the folder for a name of its own",
        skill=name,
    )


def _deferred_name(skill: Skill, skills: Mapping[str, Skill], sink: Sink, waiting: Mapping[str, Sequence[str]]) -> Skill:
    """A deferred skill under the name it would get when it loads, with a note saying when. A
    nested skill named as a `paths:` skill that every file under its folder activates is scoped
    too: the touch that loads it activates that one (recorded: run_nested_read_clash)."""
    if skill.activation == "paths":
        sink.info(
            "deferred",
            skill.path,
            f"a `paths:` skill: Claude Code does not list /{skill.name} at start, only once a file matching "
            f"{', '.join(skill.paths[:3])}{' ...' if len(skill.paths) > 3 else ''} is read or edited",
            "remove `paths:` for a skill listed in every session",
            skill=skill.name,
        )
        return skill
    scope = skill.source.scope
    rival = waiting.get(skill.name)
    clash = skill.name in skills or (rival is not None and covers(rival, scope))
    name = f"{scope}:{skill.name}" if clash and scope else skill.name
    also = f" (as /{scope}:{skill.name} if the `paths:` skill {skill.name} is active by then)" if rival and not clash else ""
    sink.info(
        "deferred",
        skill.path,
        f"below the start folder: Claude Code loads it as /{name} only once a file under {scope or '.'}/ is read or edited{also}",
        "start Claude Code in that folder to have it from the start",
        skill=name,
    )
    return replace(skill, name=name, scope=scope if name != skill.name else "")
