"""The tiers of a workspace in Claude Code's precedence order, with the files each holds."""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import Sink
from ..loadcache import LoadCache
from ..locations import Locations
from ..model import LoadedFrom, Source, SourceKind
from ..scan import scan_commands_root, scan_skills_root, single_skill
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


def collect(locations: Locations, sink: Sink, cache: LoadCache | None = None) -> list[Tier]:
    """Every tier, highest precedence first: managed, user, project (nearest first), add-dir,
    plugins, legacy commands (user, then project), bundled. With `cache`, what did not change
    since the last call is reused (see LoadCache)."""
    plan: list[tuple[SourceKind, Path, str, LoadedFrom]] = [
        (SourceKind.MANAGED, locations.managed_skills(), "managed", LoadedFrom.SKILLS),
        (SourceKind.USER, locations.user_skills(), "user", LoadedFrom.SKILLS),
    ]
    for folder in locations.project_dirs():
        plan.append(
            (SourceKind.PROJECT, folder / ".claude" / "skills", _project_label("project", folder, locations), LoadedFrom.SKILLS)
        )
    for folder in locations.add_dirs:
        plan.append((SourceKind.ADD_DIR, folder / ".claude" / "skills", f"add-dir {folder.name or folder}", LoadedFrom.SKILLS))

    tiers: list[Tier] = []
    for kind, root, label, loaded_from in plan:
        source = _intern(Source(kind, root, label, len(tiers)), cache)
        names = cache.root(root) if cache is not None else None
        tiers.append(Tier(source, tuple(scan_skills_root(root, sink, cache=names)), loaded_from))

    tiers.extend(plugin_tiers(locations, sink, first_order=len(tiers), cache=cache))

    commands = [(locations.user_commands(), "commands (user)")]
    for folder in locations.project_dirs():
        commands.append((folder / ".claude" / "commands", _project_label("commands (project)", folder, locations)))
    for root, label in commands:
        source = _intern(Source(SourceKind.COMMANDS, root, label, len(tiers)), cache)
        tiers.append(Tier(source, _commands(root, sink, cache), LoadedFrom.COMMANDS))

    bundled = locations.bundled_skills()
    if bundled is not None:
        source = _intern(Source(SourceKind.BUNDLED, bundled, "bundled", len(tiers)), cache)
        names = cache.root(bundled) if cache is not None else None
        tiers.append(Tier(source, tuple(scan_skills_root(bundled, sink, cache=names)), LoadedFrom.BUNDLED))
    return tiers


def path_tiers(paths: list[Path], sink: Sink) -> list[Tier]:
    """`skilldeck validate PATH ...`: a SKILL.md, a skill folder, or a folder of skills."""
    tiers: list[Tier] = []
    for raw in paths:
        path = Path(raw).absolute()
        # os.path, whose checks answer False on errors where pathlib's raise (EACCES).
        if os.path.isfile(path):
            entries: tuple = (single_skill(path.parent),) if path.name == "SKILL.md" else ()
            if not entries:
                sink.warning(
                    "not-a-skill-dir", path, "only SKILL.md files can be validated one by one", "pass the skill's folder"
                )
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
