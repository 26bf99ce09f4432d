"""A skills folder scanned: `<skills>/<dir>/SKILL.md` found, and everything else in it explained
(loose markdown, a lower-case skill.md, a skill nested too deep, a reserved `synced` folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from stat import S_ISLNK
from typing import NamedTuple

from ..diagnostics import Sink
from ..model import Diagnostic
from ..skillfile import Entry
from .walk import (
    MAX_DEPTH,
    MAX_DIRS_PER_ROOT,
    MAX_NAMES_PER_ROOT,
    _cycle_free,
    _has_skill_file,
    _is_dir,
    _reason,
    _scandir,
    _skill_file_mode,
    _skill_path,
    _symlink_problem,
    _Walk,
    disk_order_ties,
    entry_order,
    in_collation_order,
    root_problem,
)

RESERVED_DIR = "synced"
# What Claude Code keeps of a plugin skill's folder name: the rest becomes `-` (`.x` is `-x`).
_PLUGIN_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def plugin_skill_stem(folder: str) -> str:
    return _PLUGIN_UNSAFE.sub("-", folder)


class NameResult(NamedTuple):
    """What one name in a skills folder gave: kept between loads until that name changes."""

    entries: tuple[Entry, ...]
    diagnostics: tuple[Diagnostic, ...]
    # Folders the walk entered for this name, for the per-root bound.
    dirs: int
    # The real path of the folder when the name is a symlink (its edits happen there).
    link: str | None
    # The skill's folder or its SKILL.md is a symlink (see `linked` of scan_skills_root).
    linked: bool = False


def scan_skills_root(
    root: Path,
    sink: Sink,
    namespace: str = "",
    name_from_frontmatter: bool = False,
    cache: dict[str, NameResult] | None = None,
    linked: set[str] | None = None,
) -> list[Entry]:
    """Find `<root>/<dir>/SKILL.md`, and explain everything else found in `root`.

    With `cache`, names already in it are taken from it unread, and the names read now are
    added to it: a reload after one folder changed re-reads that folder only. With `linked`,
    the paths of the entries whose folder or SKILL.md is a symlink are added to it: the real
    path of every other entry is its folder's, which the caller then needs not look up again.
    """
    if root_problem(root, sink):
        return []
    walk = _Walk(root, sink)
    entries = _scandir(root, sink, MAX_NAMES_PER_ROOT)
    if entries is None:
        return []
    found: list[Entry] = []
    for entry in entries:
        name = entry.name
        if not namespace and name.casefold() == RESERVED_DIR:
            _reserved(Path(entry.path), sink)
            continue
        if cache is None:
            # Nothing to keep per name: findings go straight to the sink, in the same order
            # (the per-name record cost more than the rest of the scan at 15,000 names).
            walk.sink = sink
            try:
                found_here = _scan_name(entry, root, walk, sink, namespace, name_from_frontmatter, linked)
                if entry.is_symlink():
                    os.path.realpath(entry.path)  # as below: a link realpath cannot follow skips the name
            except (OSError, RuntimeError) as exc:
                sink.warning("unreadable", Path(entry.path), f"cannot scan this entry: {_reason(exc)}; skipped", "load again")
                continue
            found.extend(found_here)
            continue
        known = cache.get(name)
        if known is not None and known.dirs and walk.dirs + known.dirs > MAX_DIRS_PER_ROOT:
            # This name's explanation reached the bound: read it again so that a reload says
            # what a first load says.
            known = None
        if known is None:
            local = Sink()
            before = walk.dirs
            walk.sink = local
            links: set[str] = set()
            try:
                found_here = _scan_name(entry, root, walk, local, namespace, name_from_frontmatter, links)
                link = os.path.realpath(entry.path) if entry.is_symlink() else None
            except (OSError, RuntimeError) as exc:
                # A name that changed under the walk (deleted, replaced) or a chain of links
                # deep enough to exhaust realpath's recursion: a finding about this name only.
                local.warning("unreadable", Path(entry.path), f"cannot scan this entry: {_reason(exc)}; skipped", "load again")
                found_here, link = [], None
            walk.sink = sink
            known = NameResult(tuple(found_here), tuple(local.items), walk.dirs - before, link, bool(links))
            if not walk.stopped:
                cache[name] = known
        else:
            walk.dirs += known.dirs
        found.extend(known.entries)
        sink.items.extend(known.diagnostics)
        if known.linked and linked is not None:
            linked.update(str(e.path) for e in known.entries)
    if not in_collation_order(found):
        found.sort(key=entry_order)
        disk_order_ties(found, root)
    return found


def _reserved(path: Path, sink: Sink) -> None:
    try:
        is_dir = os.path.isdir(path)
    except ValueError:
        is_dir = False
    if is_dir:
        sink.warning(
            "reserved-name",
            path,
            "a skills folder named `synced` is reserved for Claude Code's account sync: Claude Code skips it",
            f"rename the folder (mv {path} {path.parent}/<another-name>)",
            skill=path.name,
        )


def _scan_name(
    entry: os.DirEntry[str],
    root: Path,
    walk: _Walk,
    sink: Sink,
    namespace: str,
    name_from_frontmatter: bool,
    linked: set[str] | None,
) -> list[Entry]:
    if _symlink_problem(entry, sink):
        return []
    if _is_dir(entry):
        # Only folders without a SKILL.md count toward the bound: Claude Code loads every skill
        # folder however many there are (recorded: load_many), and the bound is there for the
        # walk that explains the other folders.
        mode = _skill_file_mode(entry.path)
        if mode is None and not walk.enter(entry.path):
            return []
        if mode is not None:
            stem = plugin_skill_stem(entry.name) if namespace else entry.name
            if stem != entry.name:
                sink.info(
                    "renamed",
                    Path(entry.path),
                    f"Claude Code names this skill /{namespace}:{stem}: in a plugin's skill folder name, characters "
                    "other than letters, digits, _ and - become -",
                    f"rename the folder to {stem}",
                    skill=f"{namespace}:{stem}",
                )
            path = _skill_path(root, entry.name)
            if linked is not None and (S_ISLNK(mode) or entry.is_symlink()):
                linked.add(str(path))
            return [Entry(path, stem, namespace, name_from_frontmatter)]
        _explain_dir(Path(entry.path), walk, sink, walk.chain())
    elif entry.name.lower().endswith(".md"):
        _loose_markdown(Path(entry.path), root, sink)
    return []


def single_skill(skill_dir: Path, namespace: str = "", name_from_frontmatter: bool = False) -> Entry:
    return Entry(skill_dir / "SKILL.md", skill_dir.name, namespace, name_from_frontmatter)


def _loose_markdown(path: Path, root: Path, sink: Sink) -> None:
    if path.name == "SKILL.md":
        sink.warning(
            "loose-markdown",
            path,
            "SKILL.md directly in a skills folder is not a skill: each skill needs its own folder",
            f"move it to {root}/<skill-name>/SKILL.md",
        )
    elif path.name.lower() == "readme.md":
        sink.info("loose-markdown", path, "README.md in a skills folder is not loaded (that is fine)", "")
    else:
        sink.warning(
            "loose-markdown",
            path,
            f"{path.name} is not a skill: Claude Code only loads <folder>/SKILL.md here",
            f"move it to {root}/{path.stem}/SKILL.md (or to .claude/commands/ for a command)",
        )


def lowercase_skill_file(path: Path, sink: Sink) -> None:
    """A skill file spelled other than SKILL.md (skill.md, Skill.md): Claude Code 2.1.328 loads
    nothing from its folder on Linux (recorded: load_skills_dir_edge)."""
    sink.error(
        "skill-file-lowercase",
        path,
        f"the file is named {path.name}; Claude Code only loads SKILL.md (upper case) on Linux",
        f"git mv {path.name} SKILL.md (or mv on a case-sensitive disk)",
        skill=path.parent.name,
    )


def _explain_dir(skill_dir: Path, walk: _Walk, sink: Sink, chain: tuple[str, ...]) -> None:
    """A folder in a skills root without SKILL.md: say what is wrong with it."""
    if os.path.lexists(skill_dir / ".claude-plugin"):
        # A plugin kept in a skills folder: the plugin loader reads it (sources.plugins).
        return
    listing = _scandir(skill_dir, sink)
    real = _cycle_free(str(skill_dir), chain, sink) if listing is not None else None
    if listing is None or real is None:
        return
    for entry in listing:
        if entry.name.lower() == "skill.md" and entry.name != "SKILL.md":
            lowercase_skill_file(Path(entry.path), sink)
            return
    nested = _find_nested(listing, walk, sink, 2, (*chain, real))
    if nested:
        for path in nested:
            rel = path.parent.relative_to(skill_dir.parent)
            sink.warning(
                "too-deep",
                path,
                f"SKILL.md found at {rel}/, deeper than Claude Code looks (<skills>/<name>/SKILL.md); not loaded",
                f"move {path.parent.name}/ up to {skill_dir.parent}/{path.parent.name}/",
            )
        return
    sink.warning(
        "not-a-skill-dir",
        skill_dir,
        "this folder has no SKILL.md, so Claude Code ignores it",
        f"add {skill_dir.name}/SKILL.md, or move the folder out of the skills folder",
    )


def _find_nested(listing: list[os.DirEntry[str]], walk: _Walk, sink: Sink, depth: int, chain: tuple[str, ...]) -> list[Path]:
    """SKILL.md files below a folder that should have held one itself."""
    out: list[Path] = []
    for entry in listing:
        if entry.name.startswith(".") or _symlink_problem(entry, sink) or not _is_dir(entry):
            continue
        if not walk.enter(entry.path):
            break
        real = _cycle_free(entry.path, chain, sink)
        if real is None:
            continue
        if _has_skill_file(entry.path):
            out.append(Path(entry.path, "SKILL.md"))
        elif depth < MAX_DEPTH:
            sub = _scandir(entry.path, sink)
            if sub:
                out.extend(_find_nested(sub, walk, sink, depth + 1, (*chain, real)))
    return out
