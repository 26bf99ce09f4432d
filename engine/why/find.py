"""Which file a query means: a path (a SKILL.md, a skill folder, a command .md) or a name (with
or without `/`, `plugin:skill`, a `name:` label), and did-you-mean when nothing has the name."""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.model import SourceKind
from ..listing.build import Listing
from ..permissions.decide import Permissions
from ..workspace import Workspace
from .files import isdir, lexists
from .path_gates import folder_without_skill, root_hint
from .result import Outcome, Status, Why
from .trace import trace_file
from .tracer import NOT_PARSE, SKILLS_TIERS, Tracer, every_skill, named, quote

# A query longer than this is no path or name anyone typed: refused rather than stat'ed.
MAX_QUERY = 4096


def trace_why(
    workspace: Workspace,
    catalog: Catalog,
    query: str,
    *,
    listing: Listing | None = None,
    permissions: Permissions | None = None,
    cwd: Path | None = None,
    kind: str = "auto",
) -> Why:
    """`explain` with the workspace's listing and permission rules, read now unless given (the app
    passes the ones it already holds)."""
    listing = listing if listing is not None else workspace.listing(catalog)
    permissions = permissions if permissions is not None else workspace.permissions()
    return explain(catalog, query, listing, permissions, cwd=cwd, kind=kind)


def explain(
    catalog: Catalog,
    query: str,
    listing: Listing,
    permissions: Permissions,
    *,
    overrides: dict[str, Any] | None = None,
    cwd: Path | None = None,
    kind: str = "auto",
) -> Why:
    """The trace for `query`: a path (a SKILL.md, a skill folder, a command .md) or a name (with or
    without `/`, `plugin:skill`). `listing` and `permissions` are the workspace's (Workspace.listing,
    Workspace.permissions); `overrides` is skillOverrides (default: from `permissions.settings`)."""
    query = query.strip()
    tracer = Tracer(catalog, listing, permissions, quote(query))
    if overrides is None:
        overrides = dict(permissions.settings.skill_overrides)
    if not query or len(query) > MAX_QUERY or "\x00" in query:
        tracer.set("root", Status.FAILED, "this is no path or name Claude Code could load (empty, too long or with a NUL byte)")
        tracer.skip_rest("nothing to look up")
        return tracer.result("name", None, None, Outcome.NOT_FOUND, "it never loads because nothing is named that")
    base = cwd or permissions.cwd
    choice = kind if kind in ("path", "name") else _guess(catalog, query, base)
    if choice == "path":
        raw = Path(os.path.expanduser(query))
        path = Path(os.path.abspath(raw if raw.is_absolute() else base / raw))
        return _trace_path(tracer, path, overrides, permissions)
    return _trace_name(tracer, query.removeprefix("/"), overrides)


def _guess(catalog: Catalog, query: str, base: Path) -> str:
    """Path or name: a loaded name wins (`/deploy` is the command, not a folder at the top of the
    disk); then anything on disk; then what looks like a path (a separator or `.md`)."""
    bare = query.removeprefix("/")
    if named(catalog, bare) is not None or any(s.skill.name == bare for s in catalog.shadowed):
        return "name"
    raw = Path(os.path.expanduser(query))
    if lexists(raw if raw.is_absolute() else base / raw):
        return "path"
    if query.endswith(".md") or query.startswith(("./", "../", "~")) or ("/" in bare and ":" not in bare):
        return "path"
    return "name"


# Paths -------------------------------------------------------------------------------------------
def _trace_path(tracer: Tracer, path: Path, overrides: dict[str, Any], permissions: Permissions) -> Why:
    folder: Path | None = None
    file = path
    if isdir(path):
        folder = path
        file = path / "SKILL.md"
        if not lexists(file):
            return folder_without_skill(tracer, path)
    elif not lexists(path):
        tracer.set("root", Status.FAILED, f"there is no file at {path}")
        tracer.skip_rest("the file does not exist")
        return tracer.result("path", path, None, Outcome.NOT_FOUND, f"it never loads because {path} does not exist")
    skill = tracer.loaded_at(file, through_links=False)
    source = skill.source if skill is not None else tracer.holder(file)
    if source is None:
        # Outside every root, yet maybe the target of a skill folder linked into one.
        skill = tracer.loaded_at(file)
        source = skill.source if skill is not None else None
    if source is None or source.kind is SourceKind.PATH:
        roots = [f"{s.root} ({s.label})" for s in tracer.sources()]
        hint = root_hint(tracer, file, permissions.cwd, _git_root(permissions))
        tracer.set(
            "root",
            Status.FAILED,
            f"no root Claude Code scans holds this file; {hint}",
            ["checked: " + r for r in roots] or ["no roots are configured"],
        )
        tracer.skip_rest("Claude Code never finds the file")
        because = hint if hint.startswith("the plugin at") else "no root Claude Code scans holds this file"
        return tracer.result("path", file, None, Outcome.NEVER_LOADS, f"it never loads because {because}")
    if skill is not None and skill.path != file:
        found = f"Claude Code reaches this file through {skill.path}, in the {skill.source.label} tier ({skill.source.root})"
        return trace_file(tracer, skill.path, None, source, skill, overrides, "path", found)
    return trace_file(tracer, file, folder, source, skill, overrides)


def _git_root(permissions: Permissions) -> Path | None:
    dirs = permissions.repo_dirs
    return dirs[-1] if len(dirs) > 1 else None


# Names -------------------------------------------------------------------------------------------
def _trace_name(tracer: Tracer, name: str, overrides: dict[str, Any]) -> Why:
    catalog = tracer.catalog
    skill = named(catalog, name)
    if skill is not None:
        found = f"/{skill.name} comes from {skill.path}, in the {skill.source.label} tier ({skill.source.root})"
        return trace_file(tracer, skill.path, None, skill.source, skill, overrides, "name", found)
    # A `name:` label (`- folder (label)` in the listing) finds its skill; a plugin skill's folder
    # part (`lint` of `tools:lint`) is no label.
    labelled = next(
        (s for s in catalog.skills.values() if s.display_name == name != s.name and not s.name.endswith(f":{name}")), None
    )
    if labelled is not None:
        found = (
            f"`{name}` is the name: label of /{labelled.name} ({labelled.path}); "
            f"Claude Code lists it as `{labelled.name} ({name})` and the label finds it"
        )
        return trace_file(tracer, labelled.path, None, labelled.source, labelled, overrides, "name", found)
    # A file that would carry the name but did not load: trace it. Only plain parts, so that a
    # name never leads out of its root (`..:..:x`).
    parts = name.split(":")
    plain = all(p and p not in (".", "..") and "/" not in p and "\x00" not in p for p in parts)
    for source in catalog.sources if plain else ():
        if source.kind in SKILLS_TIERS and len(parts) == 1:
            candidate = source.root / name / "SKILL.md"
            if lexists(candidate):
                return trace_file(
                    tracer,
                    candidate,
                    candidate.parent,
                    source,
                    tracer.loaded_at(candidate, through_links=False),
                    overrides,
                    "name",
                )
        if source.kind is SourceKind.COMMANDS:
            candidate = source.root.joinpath(*parts[:-1], parts[-1] + ".md")
            if lexists(candidate):
                return trace_file(
                    tracer, candidate, None, source, tracer.loaded_at(candidate, through_links=False), overrides, "name"
                )
    failed = next((d for d in catalog.diagnostics if d.skill == name and d.code not in NOT_PARSE), None)
    holder = tracer.holder(failed.path) if failed is not None else None
    if failed is not None and holder is not None:
        if isdir(failed.path):
            return folder_without_skill(tracer, failed.path)
        return trace_file(tracer, failed.path, None, holder, None, overrides, "name")
    return _not_found(tracer, name)


# Did-you-mean compares at most this many names in full: difflib's ratio costs the product of the
# two lengths, and 15,000 names of 199 characters took a minute for one misspelled query.
MAX_COMPARED = 200
MAX_FUZZY = 128


def close_names(query: str, names: list[str], count: int = 3, cutoff: float = 0.6) -> list[str]:
    """Up to `count` of `names` closest to `query` (difflib's ratio, at least `cutoff`), best first.
    The cheap upper bound (quick_ratio) orders the candidates, and the full ratio is taken only
    while it could still beat the ones found, for at most MAX_COMPARED names."""
    if len(query) > MAX_FUZZY:
        return []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(query)
    bounds: list[tuple[float, str]] = []
    for candidate in names:
        if len(candidate) > MAX_FUZZY:
            continue
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() >= cutoff and (bound := matcher.quick_ratio()) >= cutoff:
            bounds.append((bound, candidate))
    bounds.sort(key=lambda pair: -pair[0])
    found: list[tuple[float, str]] = []
    for bound, candidate in bounds[:MAX_COMPARED]:
        if len(found) >= count and bound < found[count - 1][0]:
            break  # no name left can beat the ones found
        matcher.set_seq1(candidate)
        score = matcher.ratio()
        if score >= cutoff:
            found.append((score, candidate))
            found.sort(reverse=True)  # as get_close_matches: ties go to the later name
    return [candidate for _, candidate in found[:count]]


def _not_found(tracer: Tracer, name: str) -> Why:
    """Nothing has the name: the roots checked, and the nearest names (a plugin skill whose last
    part it is first, then close spellings)."""
    catalog = tracer.catalog
    labels = {
        s.display_name for s in catalog.skills.values() if s.display_name != s.name and not s.name.endswith(f":{s.display_name}")
    }
    names = sorted({s.name for s in every_skill(catalog)} | labels)
    suggestions = [n for n in names if n.endswith(f":{name}")]
    folded = name.casefold()
    suggestions += [n for n in close_names(folded, names) if n not in suggestions]
    checked = [f"{s.root} ({s.label})" for s in tracer.sources()]
    tracer.set(
        "root",
        Status.FAILED,
        f"no skill or command is named /{name} in any root Claude Code scans",
        ["checked: " + c for c in checked],
    )
    tracer.skip_rest("nothing has that name")
    hint = f"; did you mean {', '.join('/' + s for s in suggestions[:3])}?" if suggestions else ""
    return tracer.result(
        "name", None, name, Outcome.NOT_FOUND, f"it never loads because nothing is named /{name}{hint}", suggestions[:3]
    )
