"""The trace under way: the gates set so far, and the lookups every gate shares."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from pathlib import Path

from ..catalog.assembly import Catalog
from ..catalog.model import Diagnostic, Skill, Source, SourceKind
from ..listing.build import Listing
from ..permissions.decide import Permissions
from .files import real, under
from .result import GATES, Gate, Outcome, Status, Why

# Sentences quote file text (a description, a rule): cut so that one gate stays one sentence.
QUOTE_MAX = 300
# Tiers whose folders Claude Code reads as skills folders (where `synced` applies).
SKILLS_TIERS = (SourceKind.MANAGED, SourceKind.USER, SourceKind.PROJECT, SourceKind.ADD_DIR)
# Diagnostics that describe where the file sits, when it loads or who beat it, not what is in it.
NOT_PARSE = frozenset({"duplicate-file", "shadowed", "name-mismatch", "deferred", "scoped"})


def quote(text: object, limit: int = QUOTE_MAX) -> str:
    value = str(text)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def clause(message: str) -> str:
    """A diagnostic's message as the end of a sentence (`Cannot read` -> `cannot read`, `YAML` kept)."""
    text = quote(message.rstrip(". "), 200)
    keep = text[1:2].isupper() or text.startswith("Claude")
    return text if keep else text[:1].lower() + text[1:]


def notes_of(diags: Iterable[Diagnostic]) -> list[str]:
    """Diagnostics as gate notes; the Agent Skills spec findings are left to the diagnostics pane,
    since they say what other clients do, not Claude Code."""
    return [f"{d.severity.value} {d.code}: {d.message}" for d in diags if not d.code.startswith("spec-")]


def every_skill(catalog: Catalog) -> Iterable[Skill]:
    yield from catalog.skills.values()
    for shadowed in catalog.shadowed:
        yield shadowed.skill
    yield from getattr(catalog, "deferred", ())


def named(catalog: Catalog, name: str) -> Skill | None:
    """The skill Claude Code would run for `name`: a loaded one, else a deferred one of that name."""
    found = catalog.get(name)
    if found is not None:
        return found
    folded = name.casefold()
    deferred = tuple(getattr(catalog, "deferred", ()))
    return next((s for s in deferred if s.name == name), None) or next((s for s in deferred if s.name.casefold() == folded), None)


class Tracer:
    def __init__(self, catalog: Catalog, listing: Listing, permissions: Permissions, query: str) -> None:
        self.catalog = catalog
        self.listing = listing
        self.permissions = permissions
        self.query = query
        self.gates: dict[str, Gate] = {}
        self._by_real: dict[Path, Skill] | None = None

    def set(self, name: str, status: Status, sentence: str, notes: Iterable[str] = ()) -> None:
        self.gates[name] = Gate(name, status, sentence, tuple(quote(n) for n in notes))

    def skip_rest(self, why: str) -> None:
        for name in GATES:
            self.gates.setdefault(name, Gate(name, Status.NOT_APPLICABLE, f"not reached: {why}"))

    def result(
        self,
        kind: str,
        path: Path | None,
        name: str | None,
        outcome: Outcome,
        verdict: str,
        suggestions: Iterable[str] = (),
        line: str | None = None,
    ) -> Why:
        gates = tuple(self.gates[g] for g in GATES if g in self.gates)
        return Why(self.query, kind, path, name, gates, outcome, verdict, tuple(suggestions), line)

    # Finding the skill ------------------------------------------------------------------------
    def loaded_at(self, file: Path, through_links: bool = True) -> Skill | None:
        """The skill loaded from `file` (the winner or a shadowed one), as found or, with
        `through_links`, from a path that leads to the same file."""
        # Compared as text: a Path comparison rebuilds both paths' parts, 9 ms a trace on 15,000 skills.
        target = str(file)
        for skill in every_skill(self.catalog):
            if str(skill.path) == target:
                return skill
        if not through_links:
            return None
        if self._by_real is None:
            # Once per trace: a skill reached through a symlinked folder is this file too.
            self._by_real = {}
            for skill in every_skill(self.catalog):
                self._by_real.setdefault(real(skill.path), skill)
        return self._by_real.get(real(file))

    def sources(self) -> list[Source]:
        """The roots Claude Code reads (skilldeck's own bundled skills are not Claude Code's)."""
        return [s for s in self.catalog.sources if s.kind not in (SourceKind.BUNDLED, SourceKind.PATH)]

    def holder(self, path: Path) -> Source | None:
        for source in self.catalog.sources:
            if under(path, source.root) or under(real(path), real(source.root)):
                return source
        return None

    def diagnostics(self, *paths: Path) -> list[Diagnostic]:
        by_path = _diagnostics_by_path(self.catalog)
        out: list[Diagnostic] = []
        for path in paths:
            out.extend(by_path.get(str(path), ()))
        return out


# The diagnostics of the last catalog traced, by path as text: Catalog.diagnostics_for compares
# every diagnostic's Path, 27 ms a call on a tree with 15,000 of them, and a catalog never changes.
_last_index: tuple[weakref.ref[Catalog], dict[str, list[Diagnostic]]] | None = None


def _diagnostics_by_path(catalog: Catalog) -> dict[str, list[Diagnostic]]:
    global _last_index
    last = _last_index
    if last is not None and last[0]() is catalog:
        return last[1]
    index: dict[str, list[Diagnostic]] = {}
    for diag in catalog.diagnostics:
        index.setdefault(str(diag.path), []).append(diag)
    _last_index = (weakref.ref(catalog), index)
    return index
