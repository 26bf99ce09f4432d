"""Claude Code as a host: the same HostView as the other agents, made from the catalog and the
listing that skilldeck builds for Claude Code (catalog/ finds and reads the skills, settles clashes
by tier; listing/ writes what the model receives and spends its budget). Its rules stay there,
where the rest of skilldeck uses them; this module only says them in the hosts' shared terms."""

from __future__ import annotations

from pathlib import Path

from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..catalog.model import Severity, Skill, Source, SourceKind
from ..listing.build import Listing
from ..workspace import Workspace
from .model import HostSkill, HostView, Place, Root, Scope, Status, Verdict

KEY = "claude-code"
TITLE = "Claude Code"
VERSION = "2.1.328"

_SCOPES = {SourceKind.USER: Scope.USER, SourceKind.MANAGED: Scope.USER, SourceKind.BUNDLED: Scope.OWN}


def locations_for(place: Place) -> Locations:
    """Where Claude Code started at `place` reads: its user folder is $CLAUDE_CONFIG_DIR, else the
    place's home's `.claude` (not this process's home: a place may be someone else's)."""
    user = place.environ.get("CLAUDE_CONFIG_DIR") or str(place.home / ".claude")
    return Locations(project=place.start, user_dir=Path(user), environ=place.environ, bundled=False)


def folder_kind(path: Path, place: Place | None) -> str:
    """A folder as users write it: `.claude/skills` inside the start folder, `~/.claude/skills` in
    the home, else the whole path."""
    if place is not None:
        for base, prefix in ((place.start, ""), (place.home, "~/")):
            if path.is_relative_to(base):
                return prefix + path.relative_to(base).as_posix()
    return str(path)


def _root(source: Source, place: Place | None) -> Root:
    return Root(source.root, _SCOPES.get(source.kind, Scope.PROJECT), folder_kind(source.root, place))


class ClaudeCodeHost:
    """Claude Code, read by skilldeck's own loader. `locations` carries what a place cannot (add
    dirs, plugin dirs, bundled skills); without it they come from the place alone."""

    key = KEY
    title = TITLE
    version = VERSION
    builtin: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()

    def __init__(self, locations: Locations | None = None) -> None:
        self.locations = locations

    def view(self, place: Place, catalog: Catalog | None = None) -> HostView:
        workspace = Workspace(self.locations or locations_for(place))
        catalog = catalog if catalog is not None else workspace.load()
        listing = workspace.listing(catalog)
        return from_catalog(catalog, listing, place)


def from_catalog(catalog: Catalog, listing: Listing, place: Place | None = None) -> HostView:
    """The HostView of a catalog and its listing: every skill's status in Claude Code's terms."""

    def _host_skill(skill: Skill) -> HostSkill:
        return HostSkill(skill.name, skill.description, skill.path, _root(skill.source, place))

    listed: list[HostSkill] = []
    verdicts: list[Verdict] = []
    left_out = listing.left_out or {}
    for skill in catalog.skills.values():
        entry = listing.entry(skill.name)
        host_skill = _host_skill(skill)
        if entry is not None:
            listed.append(host_skill)
            cut = entry.trimmed or entry.capped
            why = "its description is shortened to fit the listing's budget" if cut else ""
            verdicts.append(Verdict(skill.path, host_skill.root, skill.name, Status.CUT if cut else Status.LISTED, why,
                                    "shorten the description" if cut else "", host_skill))  # fmt: skip
        else:
            why = left_out.get(skill.name) or (
                "disable-model-invocation: true: only typing /name runs it"
                if skill.disable_model_invocation
                else "not in the listing"
            )
            verdicts.append(Verdict(skill.path, host_skill.root, skill.name, Status.HIDDEN, why, "", host_skill))
    for shadow in catalog.shadowed:
        winner = shadow.shadowed_by
        host_skill = _host_skill(shadow.skill)
        why = f"shadowed by {winner.path} ({winner.source.label}), which comes first in Claude Code's precedence"
        verdicts.append(Verdict(shadow.skill.path, host_skill.root, shadow.skill.name, Status.SHADOWED, why,
                                "rename one of them", host_skill))  # fmt: skip
    loaded = {v.path for v in verdicts}
    for diagnostic in catalog.diagnostics:
        if diagnostic.severity is not Severity.ERROR or diagnostic.path in loaded:
            continue
        root = Root(diagnostic.path.parent, Scope.PROJECT, "")
        line = f" (line {diagnostic.line})" if diagnostic.line else ""
        verdicts.append(Verdict(diagnostic.path, root, diagnostic.skill or diagnostic.path.parent.name, Status.REFUSED,
                                f"{diagnostic.message}{line}", diagnostic.hint))  # fmt: skip
        loaded.add(diagnostic.path)
    roots = [_root(s, place) for s in catalog.sources]
    return HostView(KEY, TITLE, VERSION, roots, listed, verdicts, listing.text)
