"""The tiers of a workspace in Claude Code's precedence order, with the files each holds."""

from __future__ import annotations

import os
from collections import deque
from dataclasses import replace
from pathlib import Path

from ..diagnostics import Sink
from ..loadcache import LoadCache
from ..locations import Locations
from ..model import LoadedFrom, Source, SourceKind
from ..scan import lowercase_skill_file, scan_commands_root, scan_skills_root, single_skill
from ..skillfile import Entry
from . import Tier
from .plugins import plugin_tiers


def _project_label(kind: str, folder: Path, locations: Locations) -> str:
    if folder == locations.project:
        return kind
    return f"{kind} ({folder.name or folder}/)"


def _intern(source: Source, cache: LoadCache | None) -> Source:
    # The same object for the same tier across reloads, so that a cached skill's source is
    # checked by identity rather than field by field.
    return cache.sources.setdefault(source, source) if cache is not None else source


def _commands(root: Path, sink: Sink, cache: LoadCache | None) -> tuple[Entry, ...]:
    if cache is None:
        return tuple(scan_commands_root(root, sink))
    known = cache.commands.get(str(root))
    if known is None:
        local = Sink()
        known = (tuple(scan_commands_root(root, local)), tuple(local.items))
        cache.commands[str(root)] = known
    sink.items.extend(known[1])
    return known[0]


def add_dir_scope(folder: Path, locations: Locations) -> str:
    """The scope Claude Code gives an --add-dir folder's clashing skills: its path from the start
    folder when inside it, else its name (with its parent's name when two added folders share
    a name)."""
    inside = _relative_inside(folder, locations.project)
    if inside:
        return inside
    name = folder.name
    twins = [d for d in locations.add_dirs if d != folder and d.name == name]
    return f"{folder.parent.name}/{name}" if twins and folder.parent.name else name


def _relative_inside(folder: Path, start: Path) -> str:
    try:
        rel = folder.relative_to(start)
    except ValueError:
        return ""
    return "/".join(rel.parts)


# Folders the search for nested `.claude/skills` never enters (build output and dependencies,
# where a skills folder is someone else's): the search stays cheap on a large repository.
_NESTED_SKIP = frozenset({"node_modules", "__pycache__", "venv", "dist", "build", "target", "vendor"})
# Claude Code finds a nested skills folder only when a file under it is touched, so it has no
# walk to copy; skilldeck's look-ahead is bounded by folders listed (a count, not a clock, so
# the same tree always gives the same answer). 20,000 lists a 15,000-skill marketplace checked
# out as the project (about 0.3 s); a larger tree is searched that far and a note says so.
MAX_NESTED_DIRS = 20_000
MAX_NESTED_DEPTH = 8


def nested_skill_roots(start: Path, limit: int = MAX_NESTED_DIRS) -> tuple[list[Path], bool]:
    """`.claude/skills` folders below the start folder (not in it), nearest first, and whether
    the search stopped at `limit` folders: Claude Code loads each once a file under its folder
    is touched. Hidden folders and dependency folders are not searched (one directory listing
    each: a folder's `.claude` is seen in its parent's listing)."""
    found: list[Path] = []
    queue: deque[tuple[str, int]] = deque([(str(start), 0)])
    listed = 0
    while queue and listed < limit:
        folder, depth = queue.popleft()
        listed += 1
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except (OSError, ValueError):
            continue
        if depth and any(e.name == ".claude" for e in entries) and os.path.isdir(os.path.join(folder, ".claude", "skills")):
            found.append(Path(folder, ".claude", "skills"))
        if depth + 1 < MAX_NESTED_DEPTH:
            children = sorted(
                e.name for e in entries if not e.name.startswith(".") and e.name not in _NESTED_SKIP and _real_dir(e)
            )
            queue.extend((os.path.join(folder, name), depth + 1) for name in children)
    return found, bool(queue)


def _nested(start: Path, sink: Sink, cache: LoadCache | None) -> list[Path]:
    known = cache.nested.get(str(start)) if cache is not None else None
    if known is None:
        roots, stopped = nested_skill_roots(start)
        if stopped:
            # Kept as the last root's marker so the cached answer gives the same note.
            roots.append(start)
        known = tuple(roots)
        if cache is not None:
            cache.nested[str(start)] = known
    if known and known[-1] == start:
        sink.info(
            "scan-limit",
            start,
            f"the search for .claude/skills folders below this folder stopped after {MAX_NESTED_DIRS:,} folders; "
            "nested skills further down (which Claude Code loads once a file there is touched) are not shown",
            "start skilldeck in the folder you work in",
        )
        return list(known[:-1])
    return list(known)


def _real_dir(entry: os.DirEntry[str]) -> bool:
    # Symlinked folders are not followed: a link back up the tree would be walked for ever.
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _next_order(tiers: list[Tier]) -> int:
    # A plugin gives two tiers (commands, skills) that share one source.
    return len({id(t.source) for t in tiers})


def collect(locations: Locations, sink: Sink, cache: LoadCache | None = None, nested: bool = True) -> list[Tier]:
    """Every tier in Claude Code 2.1.328's listing order, which is also its precedence order
    (the first of a name wins): managed, user, project (nearest folder first), --add-dir
    skills; then the legacy commands of all those places, sorted together by name; then each
    plugin's commands, then each plugin's skills; then the bundled skills. With `nested`,
    `.claude/skills` folders below the start folder come last, marked as not loaded at start.
    With `cache`, what did not change since the last call is reused (see LoadCache)."""
    if locations.marketplace is not None:
        # A preview of what installing the marketplace's plugins would give, never mixed with
        # what Claude Code loads here.
        return plugin_tiers(locations, sink, first_order=0, cache=cache)
    plan: list[tuple[SourceKind, Path, str, str]] = []
    if locations.environ.get("CLAUDE_CODE_DISABLE_POLICY_SKILLS"):
        # Claude Code then reads no managed skills (its managed commands still load).
        if os.path.isdir(locations.managed_skills()):
            sink.info(
                "not-loaded",
                locations.managed_skills(),
                "CLAUDE_CODE_DISABLE_POLICY_SKILLS is set: Claude Code loads none of these managed skills",
                "unset CLAUDE_CODE_DISABLE_POLICY_SKILLS to load them",
            )
    else:
        plan.append((SourceKind.MANAGED, locations.managed_skills(), "managed", ""))
    plan.append((SourceKind.USER, locations.user_skills(), "user", ""))
    for root in locations.project_roots("skills"):
        plan.append((SourceKind.PROJECT, root, _project_label("project", root.parent.parent, locations), ""))
    for folder in locations.add_dirs:
        label = f"add-dir {folder.name or folder}"
        plan.append((SourceKind.ADD_DIR, folder / ".claude" / "skills", label, add_dir_scope(folder, locations)))

    tiers: list[Tier] = []
    for kind, root, label, scope in plan:
        source = _intern(Source(kind, root, label, len(tiers), scope=scope), cache)
        names = cache.root(root) if cache is not None else None
        tiers.append(Tier(source, tuple(scan_skills_root(root, sink, cache=names)), LoadedFrom.SKILLS))

    commands = [
        (locations.managed / ".claude" / "commands", "commands (managed)"),
        (locations.user_commands(), "commands (user)"),
    ]
    for root in locations.project_roots("commands"):
        commands.append((root, _project_label("commands (project)", root.parent.parent, locations)))
    for folder in locations.add_dirs:
        commands.append((folder / ".claude" / "commands", f"commands (add-dir {folder.name or folder})"))
    for root, label in commands:
        source = _intern(Source(SourceKind.COMMANDS, root, label, len(tiers)), cache)
        tiers.append(Tier(source, _commands(root, sink, cache), LoadedFrom.COMMANDS, merge="commands"))

    off: list[Path] = []
    tiers.extend(plugin_tiers(locations, sink, first_order=len(tiers), cache=cache, off=off))
    if off:
        # A skills-folder plugin switched off hides the SKILL.md beside its .claude-plugin as well.
        hidden = set(off)
        for i, tier in enumerate(tiers):
            if tier.loaded_from is LoadedFrom.SKILLS and any(e.path.parent in hidden for e in tier.entries):
                tiers[i] = replace(tier, entries=tuple(e for e in tier.entries if e.path.parent not in hidden))

    bundled = locations.bundled_skills()
    if bundled is not None:
        source = _intern(Source(SourceKind.BUNDLED, bundled, "bundled", _next_order(tiers)), cache)
        names = cache.root(bundled) if cache is not None else None
        tiers.append(Tier(source, tuple(scan_skills_root(bundled, sink, cache=names)), LoadedFrom.BUNDLED))

    if nested:
        added = {folder / ".claude" / "skills" for folder in locations.add_dirs}
        for root in _nested(locations.project, sink, cache):
            folder = root.parent.parent
            if root in added:
                continue
            scope = _relative_inside(folder, locations.project)
            source = _intern(Source(SourceKind.PROJECT, root, f"nested ({scope}/)", _next_order(tiers), scope=scope), cache)
            names = cache.root(root) if cache is not None else None
            tiers.append(Tier(source, tuple(scan_skills_root(root, sink, cache=names)), LoadedFrom.SKILLS, nested=True))
    return tiers


def _lowercase_skill_file(path: Path) -> Path | None:
    """The skill file of a path given to validate when it is spelled other than SKILL.md: the
    path itself, or a file directly in the folder with no SKILL.md beside it."""
    if os.path.isfile(path):
        return path if path.name.lower() == "skill.md" and path.name != "SKILL.md" else None
    if not os.path.isdir(path) or os.path.lexists(path / "SKILL.md"):
        return None
    try:
        with os.scandir(path) as it:
            return next((Path(e.path) for e in it if e.name.lower() == "skill.md" and e.name != "SKILL.md"), None)
    except OSError:
        return None  # the scan of the folder reports it


def path_tiers(paths: list[Path], sink: Sink) -> list[Tier]:
    """`skilldeck validate PATH ...`: a SKILL.md, a skill folder, or a folder of skills."""
    tiers: list[Tier] = []
    for raw in paths:
        path = Path(raw).absolute()
        # os.path, whose checks answer False on errors where pathlib's raise (EACCES).
        lowercase = _lowercase_skill_file(path)
        if lowercase is not None:
            # A skill folder whose file is skill.md: not a skills folder holding a loose skill.md.
            lowercase_skill_file(lowercase, sink)
            entries: tuple[Entry, ...] = ()
        elif os.path.isfile(path):
            entries = (single_skill(path.parent),) if path.name == "SKILL.md" else ()
            if not entries:
                # A path that holds no skill fails validate: it is not a check that passed.
                sink.error("not-a-skill-dir", path, "only SKILL.md files can be validated one by one", "pass the skill's folder")
        elif os.path.lexists(path / "SKILL.md"):
            entries = (single_skill(path),)
        elif os.path.isdir(path):
            entries = tuple(scan_skills_root(path, sink))
        else:
            sink.error("unreadable", path, "no such file or folder", "check the path")
            entries = ()
        source = Source(SourceKind.PATH, path, str(path), len(tiers))
        tiers.append(Tier(source, entries, LoadedFrom.SKILLS))
    return tiers
