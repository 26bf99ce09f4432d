"""Plugins found in folders: `--plugin-dir` folders, and plugins kept in a skills folder.

A `--plugin-dir` is one plugin when a manifest, a SKILL.md, a server file or one of the plugin
folders (`skills/`, `commands/`, ...) is at its top; otherwise each subfolder with a manifest
is a plugin (Claude Code 2.1.328 does not read a marketplace.json there).
"""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

from ...diagnostics import Sink
from ...locations import Locations
from ...scan import MAX_NAMES_PER_ROOT
from .manifest import MANIFEST, MARKETPLACE, PluginRef

# What marks a --plugin-dir folder as one plugin rather than a folder of plugins.
_MARKER_FILES = (".claude-plugin", "SKILL.md", ".mcp.json", ".lsp.json")
_MARKER_DIRS = ("commands", "skills", "agents", "hooks", "themes", "output-styles", "monitors", "workflows")


def _is_one_plugin(folder: Path, names: list[str]) -> bool:
    """Claude Code's test: a manifest, a SKILL.md or a server file at the top, or one of the
    plugin folders (`skills/`, `commands/`, ...) that is not itself a plugin."""
    marketplace_only = os.path.lexists(folder / MARKETPLACE) and not os.path.lexists(folder / MANIFEST)
    for marker in _MARKER_FILES:
        if marker not in names or (marker == ".claude-plugin" and marketplace_only):
            continue
        if marker == ".mcp.json" and _empty_file(folder / marker):
            continue
        return True
    return any(m in names and not os.path.lexists(folder / m / MANIFEST) for m in _MARKER_DIRS)


def _empty_file(path: Path) -> bool:
    try:
        return os.path.isfile(path) and os.path.getsize(path) == 0
    except OSError:
        return False


def plugin_dir_refs(folder: Path, sink: Sink) -> list[PluginRef]:
    """A --plugin-dir: one plugin, or a folder whose subfolders with a manifest are plugins."""
    try:
        names = [n for n in os.listdir(folder) if n not in ("__MACOSX", ".DS_Store")]
    except FileNotFoundError:
        sink.error("plugin-manifest", folder, "--plugin-dir: no such folder; Claude Code loads nothing from it", "check the path")
        return []
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        sink.error("plugin-manifest", folder, f"--plugin-dir: cannot list this folder ({reason})", "check the path")
        return []
    if _is_one_plugin(folder, names):
        return [PluginRef(folder, folder.name, inline=True)]
    children: list[str] = []
    skipped: list[str] = []
    # JavaScript's default sort (UTF-16 code units), as Claude Code orders the plugins.
    for child in sorted((n for n in names if not n.startswith(".")), key=lambda n: n.encode("utf-16-be", "surrogatepass")):
        if not os.path.isdir(folder / child):
            continue
        (children if os.path.lexists(folder / child / MANIFEST) else skipped).append(child)
    note = " (its marketplace.json is not read for --plugin-dir)" if os.path.lexists(folder / MARKETPLACE) else ""
    sink.info(
        "plugin-folder",
        folder,
        f"a folder of plugins{note}: Claude Code loads {', '.join(children) or 'none of them'}",
        "",
    )
    for child in skipped:
        sink.warning(
            "plugin-manifest",
            folder / child,
            f"no {MANIFEST}: in a folder of plugins, Claude Code skips this folder",
            f"add {MANIFEST}, or pass it as --plugin-dir {folder / child}",
        )
    return [PluginRef(folder / child, child, inline=True) for child in children]


def skills_dir_folders(locations: Locations) -> list[Path]:
    """The skills folders whose subfolders may be plugins: the user's, and the start folder's."""
    user = locations.user_skills()
    project = locations.project / ".claude" / "skills"
    if os.path.realpath(project) == os.path.realpath(user):
        return [user]
    return [user, project]


def skills_dir_plugins(folder: Path) -> list[PluginRef]:
    """Subfolders of a skills folder with a `.claude-plugin` in them: Claude Code loads each as a
    plugin too (its SKILL.md, if any, is a skill as well). Hidden folders and `synced` are not.
    Only folders are checked, at most as many names as the skills scan reads (MAX_NAMES_PER_ROOT,
    which reports a folder past it): one lstat each, with strings, not Paths, at 15,000 skills."""
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in islice(it, MAX_NAMES_PER_ROOT) if _folder(e)]
    except (OSError, ValueError):
        return []
    # The folder with its separator: a listed name holds none, so each path is joined by hand
    # (os.path.join and lexists cost as much as the lstat itself, 15,000 times).
    base = os.path.join(folder, "")
    found = []
    for name in names:
        if name.startswith(".") or name.casefold() == "synced":
            continue
        try:
            os.lstat(f"{base}{name}{os.sep}.claude-plugin")
        except (OSError, ValueError):
            continue
        found.append(name)
    # Sorted once found (few, if any), not all 15,000 names of a skills folder before looking.
    found.sort(key=lambda n: n.encode("utf-16-be", "surrogatepass"))
    return [PluginRef(folder / name, name, skills_dir=True) for name in found]


def _folder(entry: os.DirEntry[str]) -> bool:
    # A symlink to a folder counts (Claude Code follows it); a file never holds `.claude-plugin`.
    try:
        return entry.is_dir()
    except OSError:
        return False
