"""What the app shows, computed from a `Catalog` off the UI thread.

Widgets re-project this snapshot; nothing here imports textual, so it is cheap to test.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine import BUNDLED_DIR, Catalog, Diagnostic, Listing, Severity, Shadowed, Skill, Source, SourceKind

from .search import SearchIndex

# One word per severity on every pane (the CLI's tally says "note" too).
SEVERITY_WORD = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def reading(done: int, total: int) -> str:
    """The title's status while the first load reads the skills: the count the load bar shows."""
    return f"reading the skills: {done:,} of {total:,} files" if done < total else "making the listing"


def count(n: int, word: str) -> str:
    """`1 error`, `2 errors`: a number and its noun, in the right number."""
    return f"{n:,} {word if n == 1 else word + 's'}"


@dataclass(frozen=True)
class PathDisplay:
    """Shortens paths for the screen: `~` for home, labels for known roots (the demo folder)."""

    aliases: tuple[tuple[str, str], ...] = ()

    @classmethod
    def default(cls, extra: Iterable[tuple[Path, str]] = ()) -> PathDisplay:
        pairs = [(str(p), label) for p, label in extra]
        pairs.append((str(BUNDLED_DIR), "<bundled>"))
        pairs.append((str(Path.home()), "~"))
        return cls(tuple(pairs))

    def in_text(self, text: str) -> str:
        """Shorten every known path inside a message."""
        for prefix, label in self.aliases:
            if prefix in text:
                text = text.replace(prefix + os.sep, label + os.sep).replace(prefix, label)
        return text

    def __call__(self, path: Path | str) -> str:
        text = str(path)
        for prefix, label in self.aliases:
            if text == prefix:
                return label
            if text.startswith(prefix + os.sep):
                return label + text[len(prefix) :]
        return text


@dataclass(frozen=True)
class TierView:
    source: Source
    skills: tuple[Skill, ...]
    shadowed: tuple[Shadowed, ...]
    errors: int
    warnings: int
    # Skills Claude Code adds only later in a session (`paths:`, nested folders): `Catalog.deferred`.
    deferred: tuple[Skill, ...] = ()
    # Claude Code's own skills by name, as a comparison recorded them (Listing.own_from): counted
    # in the budget, never loaded by skilldeck.
    own: tuple[str, ...] = ()
    # Each path's row: its skills, then the deferred ones, then the shadowed ones. Made with the
    # view in the load worker: for 15,000 skills it took 0.1 s of the UI loop at every snapshot.
    rows: dict[Path, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        paths = [*(s.path for s in self.skills), *(s.path for s in self.deferred), *(e.skill.path for e in self.shadowed)]
        object.__setattr__(self, "rows", {path: i for i, path in enumerate(paths)})

    @property
    def empty(self) -> bool:
        return not (self.skills or self.shadowed or self.deferred or self.own or self.errors or self.warnings)


@dataclass(frozen=True)
class CatalogView:
    catalog: Catalog
    tiers: tuple[TierView, ...]
    listing: Listing
    diagnostics_by_path: dict[Path, tuple[Diagnostic, ...]] = field(default_factory=dict)
    # Built with the rest in the load worker: 15,000 skills take some 60 ms, too long for the UI loop.
    search: SearchIndex = field(default_factory=lambda: SearchIndex(()))

    def diagnostics_for(self, path: Path) -> tuple[Diagnostic, ...]:
        return self.diagnostics_by_path.get(path, ())

    def worst(self, path: Path) -> Severity | None:
        diags = self.diagnostics_for(path)
        for severity in (Severity.ERROR, Severity.WARNING):
            if any(d.severity is severity for d in diags):
                return severity
        return None


def _owner(path: Path, roots: Sequence[tuple[str, Source]]) -> Source | None:
    text = str(path)
    for root, source in roots:
        if text == root or text.startswith(root + os.sep):
            return source
    return None


# Tier kinds that are shown even when empty, so a user sees where skills *would* come from.
ALWAYS_SHOWN = frozenset({SourceKind.MANAGED, SourceKind.USER, SourceKind.PROJECT})


def build_view(catalog: Catalog, listing: Listing) -> CatalogView:
    """The panes' view of a catalog and its listing (`Workspace.listing`, which reads settings:
    build both in a worker)."""
    skills_by_source: dict[Source, list[Skill]] = defaultdict(list)
    for skill in catalog.skills.values():
        skills_by_source[skill.source].append(skill)
    deferred_by_source: dict[Source, list[Skill]] = defaultdict(list)
    for skill in catalog.deferred:
        deferred_by_source[skill.source].append(skill)
    shadowed_by_source: dict[Source, list[Shadowed]] = defaultdict(list)
    for entry in catalog.shadowed:
        shadowed_by_source[entry.skill.source].append(entry)

    # Longest roots first, so a plugin inside a project folder owns its own diagnostics.
    roots = sorted(((str(s.root), s) for s in catalog.sources), key=lambda r: -len(r[0]))
    counts: dict[Source, list[int]] = defaultdict(lambda: [0, 0])
    by_path: dict[Path, list[Diagnostic]] = defaultdict(list)
    for diag in catalog.diagnostics:
        by_path[diag.path].append(diag)
        if diag.severity is Severity.INFO:
            continue
        owner = _owner(diag.path, roots)
        if owner is not None:
            counts[owner][0 if diag.severity is Severity.ERROR else 1] += 1

    tiers = []
    for source in catalog.sources:
        errors, warnings = counts.get(source, (0, 0))
        tier = TierView(
            source,
            tuple(skills_by_source.get(source, ())),
            tuple(shadowed_by_source.get(source, ())),
            errors,
            warnings,
            tuple(deferred_by_source.get(source, ())),
        )
        if not tier.empty or (source.kind in ALWAYS_SHOWN and source.label in ("managed", "user", "project")):
            tiers.append(tier)
    own = tuple(e.name for e in listing.entries if e.override == "foreign")
    if listing.own_from and own:
        # "Claude Code 2.1.328 (recorded 2026-11-25)": the version names the tier, the day its place.
        version, _, day = listing.own_from.partition(" (")
        source = Source(SourceKind.BUNDLED, Path(f"({day} by skilldeck compare"), f"{version}'s own", order=1_000_000)
        tiers.append(TierView(source, (), (), 0, 0, own=own))
    search = SearchIndex(catalog.skills.values(), (s.skill for s in catalog.shadowed))
    return CatalogView(catalog, tuple(tiers), listing, {p: tuple(d) for p, d in by_path.items()}, search)
