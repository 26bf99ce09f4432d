"""Claude Code as a host: the door to Claude Code's own rules in the hosts' shared terms.

Its rules are built where the rest of skilldeck uses them, and this module is the one place that
names them: where it looks and which folder wins a clash (catalog/locations, catalog/sources/tiers,
catalog/assembly), how it reads a file and repairs its frontmatter (catalog/skillfile,
catalog/frontmatter/cctext), what it sends the model and how it spends its budget
(listing/build), and how the model calls a skill (runner/skillcalls, the Skill tool). `roots` and
`read` answer as the other hosts do; `view` settles and renders through the catalog and the
listing, so that a view of Claude Code is exactly what the rest of skilldeck shows."""

from __future__ import annotations

from pathlib import Path

from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..catalog.model import Severity, Skill, Source, SourceKind
from ..listing.build import Listing
from ..workspace import Workspace, load_paths
from .model import HostSkill, HostView, Place, Refusal, Root, Scope, Status, Verdict
from .walk import WalkRules

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

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]:
        """Where Claude Code looks, in the order a name clash is decided (the first wins)."""
        loc = self.locations or locations_for(place)
        found = [(loc.managed_skills(), Scope.USER), (loc.user_skills(), Scope.USER)]
        found += [(p, Scope.PROJECT) for p in (*loc.project_skills(), *loc.add_dir_skills())]
        found += [(loc.user_commands(), Scope.USER), *((p, Scope.PROJECT) for p in loc.project_commands())]
        return [(Root(path, scope, folder_kind(path, place)), WalkRules(depth=1, hidden=True)) for path, scope in found]

    def read(self, data: bytes, path: str, root: Root, file: tuple[int, int] | None = None) -> HostSkill | Refusal:
        """One SKILL.md as Claude Code reads it (from the disk: its reader bounds its own read)."""
        catalog = load_paths([Path(path)])
        for skill in catalog.skills.values():
            return HostSkill(skill.name, skill.description, skill.path, root)
        errors = [d for d in catalog.diagnostics if d.severity is Severity.ERROR]
        if not errors:
            return Refusal("Claude Code does not load it", "see `skilldeck why` for every gate")
        return Refusal(errors[0].message, errors[0].hint, errors[0].line)

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
        if skill.source.kind is SourceKind.BUNDLED:
            continue  # skilldeck's own skills: never Claude Code's
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
