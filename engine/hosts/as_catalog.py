"""A HostView in the shapes the app's panes already read (a Catalog and a Listing), so that the
tiers, details, diagnostics and listing panes show another agent's world unchanged: each root a
tier, each skill it sends a skill, each refused or switched-off file a diagnostic."""

from __future__ import annotations

from pathlib import Path

from ..catalog.assembly import Catalog
from ..catalog.model import Diagnostic, LoadedFrom, Severity, Shadowed, Skill, Source, SourceKind
from ..listing.build import Listing, ListingEntry
from .model import HostSkill, HostView, Root, Scope, Status

_KINDS = {Scope.PROJECT: SourceKind.PROJECT, Scope.USER: SourceKind.USER, Scope.OWN: SourceKind.BUNDLED}
_NOT_SENT = {
    Status.OFF: ("agent-off", Severity.WARNING),
    Status.REFUSED: ("agent-refused", Severity.ERROR),
    Status.HIDDEN: ("agent-not-sent", Severity.WARNING),
    Status.NAMES_ONLY: ("agent-not-sent", Severity.WARNING),
}


def _source(root: Root, order: int, title: str) -> Source:
    return Source(_KINDS[root.scope], root.path, f"{title}: {root.kind or root.scope.value}", order=order)


def host_catalog(view: HostView) -> Catalog:
    """The view as a catalog: a skill's key is its name, and a host that sends one name twice
    (Codex lists every copy) gets `name (2)`, `name (3)` for the later copies."""
    sources: dict[Path, Source] = {}
    for root in view.roots:
        sources.setdefault(root.path, _source(root, len(sources), view.title))

    def skill(item: HostSkill) -> Skill:
        source = sources.setdefault(item.root.path, _source(item.root, len(sources), view.title))
        return Skill(item.name, item.name, item.description, "description", source, LoadedFrom.SKILLS, item.path)

    skills: dict[str, Skill] = {}
    for item in view.listed:
        key, n = item.name, 1
        while key in skills:
            n += 1
            key = f"{item.name} ({n})"
        skills[key] = skill(item)
    shadowed: list[Shadowed] = []
    diagnostics: list[Diagnostic] = []
    by_name = {s.name: s for s in skills.values()}
    for verdict in view.verdicts:
        if verdict.status is Status.SHADOWED and verdict.skill is not None and verdict.name in by_name:
            shadowed.append(Shadowed(skill(verdict.skill), by_name[verdict.name]))
        elif verdict.status in _NOT_SENT:
            code, severity = _NOT_SENT[verdict.status]
            diagnostics.append(Diagnostic(severity, code, verdict.path, f"{view.title}: {verdict.why}", verdict.fix,
                                          skill=verdict.name))  # fmt: skip
    for note in view.notes:
        diagnostics.append(
            Diagnostic(Severity.INFO, "agent-not-sent", view.roots[0].path if view.roots else Path("."), f"{view.title}: {note}")
        )
    return Catalog(skills, tuple(shadowed), tuple(diagnostics), tuple(sources.values()))


# Each agent's budget for its skills block, as the listing pane names it (docs/agents.md).
BUDGETS = {
    "codex": "budget 5,440 tokens: a line costs its UTF-8 bytes + 1, over 4; descriptions are cut to fit",
    "gemini": "no budget: every skill is sent whole",
    "opencode": "no budget: every skill is sent whole",
    "copilot": "budget 15,050 UTF-16 units of <skill> elements; the rest by name only",
}


def host_listing(view: HostView) -> Listing:
    """The block as the listing pane's text. A host without a budget gets an endless one; a cut
    entry is marked trimmed."""
    status = {(v.path, v.name): v.status for v in view.verdicts}
    entries = []
    for item in view.listed:
        cut = status.get((item.path, item.name)) in (Status.CUT, Status.NAMES_ONLY)
        line = f"- {item.name}: {item.description}"
        entries.append(ListingEntry(item.name, line, line, cut, False))
    text = view.block if view.block is not None else f"({view.title} sends no skills block here)"
    used = len(text)
    said = [BUDGETS.get(view.host, ""), *view.logs]
    source = f"{view.title} {view.version}: " + "; ".join(x for x in said if x)
    return Listing(
        text, tuple(entries), float(max(used, 1)), used, used, source, by_name={e.name: e for e in entries}, agent=view.title
    )


def host_shapes(view: HostView) -> tuple[Catalog, Listing]:
    return host_catalog(view), host_listing(view)
