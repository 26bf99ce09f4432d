"""Plugins: `--plugin-dir` folders and what Claude Code has installed and enabled, made tiers.

Where plugins are found (`folders.py`, `installed.py`), how a manifest is read (`manifest.py`)
and which skills and commands a plugin holds (`entries.py`) each have their own module; this
one puts them together, in Claude Code's order, and caches the result.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from ...diagnostics import Sink
from ...loadcache import LoadCache
from ...locations import Locations
from ...model import Diagnostic, LoadedFrom, Source, SourceKind
from ...scan import real_folder
from ...skillfile import Entry
from .. import Tier
from .entries import PluginEntries, plugin_entries
from .folders import plugin_dir_refs, skills_dir_folders, skills_dir_plugins
from .installed import installed_plugins, known_marketplaces_file
from .manifest import DISPLAY_FIELDS, KNOWN_FIELDS, MANIFEST, MARKETPLACE, PluginRef, load_manifest, validate_manifest


class PluginResult(NamedTuple):
    tiers: tuple[Tier, ...]
    diagnostics: tuple[Diagnostic, ...]
    first_order: int


def plugin_tiers(locations: Locations, sink: Sink, first_order: int, cache: LoadCache | None = None) -> list[Tier]:
    if cache is not None:
        known = cache.plugins
        if isinstance(known, PluginResult) and known.first_order == first_order:
            sink.items.extend(known.diagnostics)
            return list(known.tiers)
    local = Sink()
    tiers, inputs, direct = _plugin_tiers(locations, local, first_order, cache)
    sink.items.extend(local.items)
    if cache is not None:
        cache.plugins = PluginResult(tuple(tiers), tuple(local.items), first_order)
        cache.plugin_inputs = tuple(inputs)
        cache.plugin_direct = tuple(direct)
    return tiers


def _plugin_tiers(
    locations: Locations, sink: Sink, first_order: int, cache: LoadCache | None
) -> tuple[list[Tier], list[str], list[Entry]]:
    """Every plugin's commands, then every plugin's skills: Claude Code lists all plugin commands
    before any plugin skill (a command beats a skill of the same name)."""
    refs: list[PluginRef] = []
    inputs = [str(p) for _, p in locations.settings_files()]
    inputs += [str(locations.installed_plugins_file()), str(known_marketplaces_file(locations))]
    inputs += [str(p) for p in locations.plugin_dirs]
    for folder in locations.plugin_dirs:
        refs.extend(plugin_dir_refs(folder, sink))
    refs.extend(installed_plugins(locations, sink))
    # A new plugin in a skills folder shows as a new `.claude-plugin` path, which drops the
    # cached plugins (LoadCache.invalidate); other edits in skills folders do not.
    for folder in skills_dir_folders(locations):
        refs.extend(skills_dir_plugins(folder))
    adopted: dict[str, Path] = {}

    command_tiers: list[Tier] = []
    skill_tiers: list[Tier] = []
    direct: list[Entry] = []
    roots: set[str] = set()
    # Real paths of the folders resolved in this load: the plugins of a marketplace share them.
    reals: dict[str, str] = {}
    for ref in refs:
        inputs.append(str(ref.root))
        real = _real(ref.root, cache, reals)
        if real in roots:
            continue
        roots.add(real)
        if real != str(ref.root):
            inputs.append(real)
        try:
            loaded = _manifest(ref, real, sink, cache)
            if loaded is None:
                continue
            name, manifest = loaded
            if ref.skills_dir:
                if name in adopted:
                    sink.error(
                        "plugin-manifest",
                        ref.root / MANIFEST,
                        f"plugin name `{name}` is already the plugin at {adopted[name]}: Claude Code loads that one, "
                        "not this one",
                        'give this one another "name" in its plugin.json, or remove one of them',
                    )
                    continue
                adopted[name] = ref.root
            found = _entries(ref, name, manifest, sink, cache, reals)
        except (OSError, RuntimeError, ValueError) as exc:
            # A plugin folder that changed under the load, or paths no system call accepts
            # (a NUL byte, a chain of links too long to resolve): this plugin only is skipped.
            sink.error("plugin-manifest", ref.root, f"cannot load this plugin ({type(exc).__name__}: {exc}); skipped", "check it")
            continue
        source = Source(SourceKind.PLUGIN, ref.root, f"plugin {name}", first_order + len(skill_tiers), plugin=name)
        direct.extend(found.direct)
        command_tiers.append(Tier(source, tuple(found.commands), LoadedFrom.PLUGIN, overrides=found.overrides or None))
        skill_tiers.append(Tier(source, tuple(found.skills), LoadedFrom.PLUGIN))
    return command_tiers + skill_tiers, inputs, direct


def _real(root: Path, cache: LoadCache | None, reals: dict[str, str]) -> str:
    """The plugin root's real path, kept until the root or a folder above it changes: a saved
    SKILL.md in one of 150 plugins recomputed all of them, and a realpath each was a third of that."""
    if cache is None:
        return real_folder(str(root), reals)
    key = str(root)
    real = cache.plugin_real.get(key)
    if real is None:
        real = cache.plugin_real[key] = real_folder(key, reals)
    return real


def _manifest(ref: PluginRef, real: str, sink: Sink, cache: LoadCache | None) -> tuple[str, dict[str, Any]] | None:
    """`load_manifest`, kept (with its diagnostics) until a path in the plugin's `.claude-plugin`
    folder, or the root or a folder above it, changes (LoadCache.invalidate)."""
    if cache is None:
        return load_manifest(ref, sink)
    key = (str(ref.root), ref.fallback_name, real)
    known = cache.manifests.get(key)
    if known is None:
        local = Sink()
        known = cache.manifests[key] = (load_manifest(ref, local), tuple(local.items))
    sink.items.extend(known[1])
    return known[0]


class _Part(NamedTuple):
    name: str
    manifest: dict[str, Any]
    skills_dir: bool
    found: PluginEntries
    diagnostics: tuple[Diagnostic, ...]


def _entries(
    ref: PluginRef, name: str, manifest: dict[str, Any], sink: Sink, cache: LoadCache | None, reals: dict[str, str]
) -> PluginEntries:
    """`plugin_entries`, kept per plugin root while nothing in the plugin changed (LoadCache
    drops it on a change under the root, its real path, or its skills and commands folders).
    A manifest that names other paths is read again each time: those may be anywhere."""
    if cache is None:
        return plugin_entries(ref, name, manifest, sink, reals=reals)
    key = str(ref.root)
    known = cache.plugin_parts.get(key)
    part = known[1] if known is not None else None
    if isinstance(part, _Part) and (part.name, part.manifest, part.skills_dir) == (name, manifest, ref.skills_dir):
        sink.items.extend(part.diagnostics)
        return part.found
    local = Sink()
    found = plugin_entries(ref, name, manifest, local, cache, reals)
    sink.items.extend(local.items)
    if "skills" not in manifest and "commands" not in manifest:
        folders = {key, os.path.realpath(ref.root)}
        folders.update(os.path.realpath(ref.root / sub) for sub in ("skills", "commands"))
        cache.plugin_parts[key] = (tuple(sorted(folders)), _Part(name, manifest, ref.skills_dir, found, tuple(local.items)))
    return found


__all__ = [
    "DISPLAY_FIELDS",
    "KNOWN_FIELDS",
    "MANIFEST",
    "MARKETPLACE",
    "PluginEntries",
    "PluginRef",
    "PluginResult",
    "installed_plugins",
    "known_marketplaces_file",
    "load_manifest",
    "plugin_dir_refs",
    "plugin_entries",
    "plugin_tiers",
    "skills_dir_folders",
    "skills_dir_plugins",
    "validate_manifest",
]
