"""Plugins: `--plugin-dir` folders and what Claude Code has installed and enabled, made tiers.

Where plugins are found (`folders.py`, `installed.py`), how a manifest is read (`manifest.py`)
and which skills and commands a plugin holds (`entries.py`) each have their own module; this
one puts them together, in Claude Code's order, and caches the result.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from ....permissions.settings import Settings, read_settings
from ...diagnostics import Sink
from ...loadcache import LoadCache
from ...locations import Locations
from ...model import Diagnostic, LoadedFrom, Source, SourceKind
from ...scan import real_folder
from ...skillfile import Entry
from .. import Tier
from .entries import PluginEntries, plugin_entries
from .folders import plugin_dir_refs, skills_dir_folders, skills_dir_plugins
from .installed import applicable_install, install_records, installed_plugins
from .manifest import DISPLAY_FIELDS, KNOWN_FIELDS, MANIFEST, MARKETPLACE, PluginRef, load_manifest, validate_manifest
from .marketplace import COMPONENT_FIELDS, MarketEntry, known_marketplaces_file, loose_manifest, market_entry, marketplace_folder
from .preview import marketplace_refs


class PluginResult(NamedTuple):
    tiers: tuple[Tier, ...]
    diagnostics: tuple[Diagnostic, ...]
    first_order: int
    # Plugins in a skills folder that enabledPlugins switches off (`name@skills-dir: false`).
    off: tuple[Path, ...] = ()


def plugin_tiers(
    locations: Locations, sink: Sink, first_order: int, cache: LoadCache | None = None, off: list[Path] | None = None
) -> list[Tier]:
    """The plugin tiers; `off` receives the skills-folder plugins switched off, whose own
    SKILL.md Claude Code then hides too (recorded: plugin_off_skills_dir)."""
    if cache is not None:
        known = cache.plugins
        if isinstance(known, PluginResult) and known.first_order == first_order:
            sink.items.extend(known.diagnostics)
            if off is not None:
                off.extend(known.off)
            return list(known.tiers)
    local = Sink()
    switched: list[Path] = []
    tiers, inputs, direct = _plugin_tiers(locations, local, first_order, cache, switched)
    sink.items.extend(local.items)
    if off is not None:
        off.extend(switched)
    if cache is not None:
        cache.plugins = PluginResult(tuple(tiers), tuple(local.items), first_order, tuple(switched))
        cache.plugin_inputs = tuple(inputs)
        cache.plugin_direct = tuple(direct)
    return tiers


def _settings(locations: Locations) -> Settings | None:
    try:
        return read_settings(locations)
    except OSError:
        # installed_plugins reads them again and says why they cannot be read.
        return None


def _switched_off(ref: PluginRef, name: str, settings: Settings | None, sink: Sink) -> bool:
    """A `--plugin-dir` or skills-folder plugin that enabledPlugins switches off (`name@inline`,
    `name@skills-dir` set to false): Claude Code loads none of it (recorded: plugin_off_inline)."""
    key = ref.key(name)
    state = settings.enabled_plugins.get(key) if settings is not None and key is not None else None
    if state is None or state[0]:
        return False
    sink.info(
        "plugin-off",
        ref.root,
        f'plugin `{key}` is switched off by {state[1]} (`"{key}": false` in enabledPlugins): Claude Code loads none of '
        "its skills or commands" + (", nor the SKILL.md beside its .claude-plugin" if ref.skills_dir else ""),
        f'remove `"{key}": false` from {state[1]}, or set it to true',
    )
    if ref.skills_dir and os.path.lexists(ref.root / "SKILL.md"):
        sink.info(
            "plugin-off",
            ref.root / "SKILL.md",
            f"Claude Code does not load this SKILL.md: the plugin `{key}` it sits in is switched off by {state[1]}",
            f'remove `"{key}": false` from {state[1]}, or set it to true',
        )
    return True


def _plugin_tiers(
    locations: Locations, sink: Sink, first_order: int, cache: LoadCache | None, off: list[Path]
) -> tuple[list[Tier], list[str], list[Entry]]:
    """Every plugin's commands, then every plugin's skills: Claude Code lists all plugin commands
    before any plugin skill (a command beats a skill of the same name)."""
    settings = _settings(locations)
    refs: list[PluginRef] = []
    inputs = [str(p) for _, p in locations.settings_files()]
    inputs += [str(locations.installed_plugins_file()), str(known_marketplaces_file(locations))]
    inputs += [str(p) for p in locations.plugin_dirs]
    preview = locations.marketplace is not None
    if locations.marketplace is not None:
        inputs.append(str(locations.marketplace / MARKETPLACE))
        refs.extend(marketplace_refs(locations.marketplace, sink))
    for folder in () if preview else locations.plugin_dirs:
        refs.extend(plugin_dir_refs(folder, sink))
    if not preview:
        refs.extend(installed_plugins(locations, sink, settings))
    # A new plugin in a skills folder shows as a new `.claude-plugin` path, which drops the
    # cached plugins (LoadCache.invalidate); other edits in skills folders do not.
    for folder in () if preview else skills_dir_folders(locations):
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
            if _switched_off(ref, name, settings, sink):
                if ref.skills_dir:
                    off.append(ref.root)
                continue
            if ref.loose is not None:
                loose = loose_manifest(ref.root, name, ref.loose, manifest, sink)
                if loose is None:
                    continue
                manifest = loose
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
        label = f"preview: plugin {name}" if preview else f"plugin {name}"
        order = first_order + len(skill_tiers)
        source = Source(SourceKind.PLUGIN, ref.root, label, order, plugin=name, preview=preview)
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
    if ref.loose is not None:
        # Components a "strict": false marketplace entry names add to the default folders.
        return plugin_entries(ref, name, manifest, sink, cache, reals, commands_add=True)
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
    "COMPONENT_FIELDS",
    "DISPLAY_FIELDS",
    "KNOWN_FIELDS",
    "MANIFEST",
    "MARKETPLACE",
    "MarketEntry",
    "PluginEntries",
    "PluginRef",
    "PluginResult",
    "applicable_install",
    "install_records",
    "installed_plugins",
    "known_marketplaces_file",
    "load_manifest",
    "market_entry",
    "marketplace_folder",
    "marketplace_refs",
    "plugin_dir_refs",
    "plugin_entries",
    "plugin_tiers",
    "skills_dir_folders",
    "skills_dir_plugins",
    "validate_manifest",
]
