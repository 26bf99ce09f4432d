"""Plugins: `--plugin-dir` folders, marketplaces, and what Claude Code has installed and enabled.

Claude Code records installs in `<config>/plugins/installed_plugins.json` (`{"version": 2,
"plugins": {"name@marketplace": [{"scope", "installPath", "version", "projectPath"?}]}}`; version 1
held one object per key) and enables them with `enabledPlugins: {"name@marketplace": true}` in
the settings files, the more specific file winning. A plugin is active only when both agree;
when they do not, Claude Code says nothing, so skilldeck reports it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ..diagnostics import Sink
from ..jsonfile import read_json
from ..loadcache import LoadCache
from ..locations import Locations
from ..model import Diagnostic, LoadedFrom, Source, SourceKind
from ..scan import scan_commands_root, scan_skills_root, single_skill
from ..settings import read_settings
from ..skillfile import Entry
from . import Tier

MANIFEST = Path(".claude-plugin") / "plugin.json"
MARKETPLACE = Path(".claude-plugin") / "marketplace.json"


@dataclass(frozen=True, slots=True)
class PluginRef:
    root: Path
    # The name to use when the plugin has no manifest (a marketplace entry or install key).
    fallback_name: str
    # A marketplace entry stands in for a missing plugin.json (`strict: false`).
    entry: dict[str, Any] | None = None


def _paths(value: Any, key: str, manifest: Path, sink: Sink) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    if isinstance(value, dict) and key == "commands":
        out = []
        for spec in value.values():
            src = spec.get("source") if isinstance(spec, dict) else None
            if isinstance(src, str):
                out.append(src)
        return out
    sink.error("plugin-manifest", manifest, f"`{key}` must be a path or a list of paths; ignored", f'"{key}": "./{key}/"')
    return []


def _resolve(root: Path, rel: str, key: str, manifest: Path, sink: Sink) -> Path | None:
    # os.path, not pathlib: Path.resolve raises RuntimeError on a symlink loop and Path.exists
    # PermissionError under an unreadable folder (Python 3.11); a manifest chooses these paths.
    path = Path(os.path.realpath(root / rel)) if not os.path.isabs(rel) else Path(rel)
    if not path.is_relative_to(os.path.realpath(root)):
        sink.warning(
            "plugin-manifest",
            manifest,
            f"`{key}` path {rel} points outside the plugin",
            "keep paths inside the plugin, starting with ./",
        )
    if not os.path.exists(path):
        sink.warning(
            "plugin-manifest",
            manifest,
            f"`{key}` path {rel} does not exist; nothing loads from it",
            "fix the path (relative to the plugin root, starting with ./)",
        )
        return None
    return path


def load_manifest(ref: PluginRef, sink: Sink) -> tuple[str, dict[str, Any]] | None:
    """The plugin's name and manifest; None when the manifest is broken (the plugin is skipped)."""
    path = ref.root / MANIFEST
    if not os.path.exists(path):
        return ref.fallback_name, dict(ref.entry or {})
    data = read_json(path, sink, "plugin-manifest", "plugin manifest")
    if data is None:
        return None
    if not isinstance(data, dict):
        sink.error(
            "plugin-manifest", path, "the plugin manifest must be a JSON object; the plugin is skipped", '{"name": "my-plugin"}'
        )
        return None
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        sink.error(
            "plugin-manifest",
            path,
            "the plugin manifest has no `name`, which Claude Code requires; the plugin is skipped",
            f'add "name": "{ref.fallback_name}"',
        )
        return None
    if " " in name:
        sink.warning(
            "plugin-manifest", path, f"plugin name `{name}` contains spaces; commands become awkward to type", "use kebab-case"
        )
    return name, data


def plugin_entries(
    ref: PluginRef, name: str, manifest: dict[str, Any], sink: Sink, cache: LoadCache | None = None
) -> tuple[list[Entry], list[Entry]]:
    """The plugin's skills and commands, and which of them it names directly (not found by
    scanning a folder)."""
    root = ref.root
    manifest_path = root / MANIFEST
    entries: list[Entry] = []
    direct: list[Entry] = []
    seen: set[str] = set()

    def skills_in(folder: Path) -> list[Entry]:
        return scan_skills_root(folder, sink, name, True, cache.root(folder) if cache else None)

    def add(found: list[Entry]) -> None:
        for entry in found:
            key = os.path.realpath(entry.path)
            if key not in seen:
                seen.add(key)
                entries.append(entry)

    if os.path.lexists(root / "SKILL.md"):
        direct.append(Entry(root / "SKILL.md", root.name, name, True))
        add(direct[-1:])
    add(skills_in(root / "skills"))
    for rel in _paths(manifest.get("skills"), "skills", manifest_path, sink):
        path = _resolve(root, rel, "skills", manifest_path, sink)
        if path is None:
            continue
        if os.path.lexists(path / "SKILL.md"):
            direct.append(single_skill(path, name, True))
            add(direct[-1:])
        else:
            add(skills_in(path))

    if "commands" in manifest:
        for rel in _paths(manifest.get("commands"), "commands", manifest_path, sink):
            path = _resolve(root, rel, "commands", manifest_path, sink)
            if path is None:
                continue
            if not os.path.isdir(path):
                direct.append(Entry(path, path.stem, name, False, False))
                add(direct[-1:])
            else:
                add(scan_commands_root(path, sink, name))
    else:
        add(scan_commands_root(root / "commands", sink, name))
    return entries, direct


def marketplace_plugins(folder: Path, sink: Sink) -> list[PluginRef]:
    """Every plugin a marketplace lists with a local source, so it can be browsed before install."""
    path = folder / MARKETPLACE
    data = read_json(path, sink, "plugin-manifest", "marketplace manifest")
    if data is None:
        return []
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, list):
        sink.error(
            "plugin-manifest",
            path,
            "the marketplace has no `plugins` list",
            '"plugins": [{"name": ..., "source": "./plugins/x"}]',
        )
        return []
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    plugin_root = meta.get("pluginRoot") if isinstance(meta.get("pluginRoot"), str) else ""
    refs: list[PluginRef] = []
    for i, item in enumerate(plugins):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            sink.error(
                "plugin-manifest", path, f"plugin #{i + 1} has no `name`; skipped", "give every plugin entry a name and a source"
            )
            continue
        source = item.get("source")
        if isinstance(source, str):
            rel = source if source.startswith(("./", "../", "/")) or not plugin_root else f"{plugin_root}/{source}"
            root = Path(os.path.realpath(folder / rel))
            if not os.path.isdir(root):
                sink.warning(
                    "plugin-manifest",
                    path,
                    f"plugin `{item['name']}`: source {source} is not a folder; skipped",
                    "fix the source path",
                )
                continue
            refs.append(PluginRef(root, item["name"], item))
        else:
            kind = source.get("source", "remote") if isinstance(source, dict) else type(source).__name__
            sink.info(
                "plugin-remote",
                path,
                f"plugin `{item['name']}` comes from a {kind} source; skilldeck only browses local plugins",
                f"install it with: claude plugin install {item['name']}@{data.get('name', '<marketplace>')}",
            )
    return refs


def _pick_install(records: Any, locations: Locations) -> dict[str, Any] | None:
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, list):
        return None
    records = [r for r in records if isinstance(r, dict) and isinstance(r.get("installPath"), str)]
    for record in records:
        project = record.get("projectPath")
        if isinstance(project, str) and project and Path(project) == locations.project:
            return record
    for record in records:
        if record.get("scope", "user") == "user":
            return record
    return records[0] if records else None


def installed_plugins(locations: Locations, sink: Sink) -> list[PluginRef]:
    try:
        settings = read_settings(locations)
    except OSError as exc:
        # A settings folder that cannot be reached (an unreadable .claude/): the enabled plugins
        # are unknown; the other tiers still load.
        where = Path(exc.filename) if exc.filename else locations.user / "settings.json"
        sink.error(
            "settings-invalid",
            where,
            f"cannot read the settings: {exc.strerror or exc}; no installed plugin is loaded",
            "check the permissions of the .claude folders",
        )
        return []
    sink.items.extend(settings.diagnostics)
    enabled = {k: v for k, v in settings.enabled_plugins.items() if v[0]}
    if not enabled:
        return []
    registry_path = locations.installed_plugins_file()
    registry = read_json(registry_path, sink, "plugin-manifest", "plugin registry") or {}
    installed = registry.get("plugins") if isinstance(registry, dict) else None
    if not isinstance(installed, dict):
        installed = {}
    refs: list[PluginRef] = []
    for key, (_on, settings_path) in enabled.items():
        record = _pick_install(installed.get(key), locations)
        if record is None:
            sink.warning(
                "plugin-missing",
                settings_path,
                f"plugin `{key}` is enabled here but not installed ({registry_path} has no entry); none of its skills load",
                f"claude plugin install {key}",
            )
            continue
        root = Path(record["installPath"])
        if not os.path.isdir(root):
            sink.warning(
                "plugin-missing",
                registry_path,
                f"plugin `{key}` is installed at {root}, but that folder is gone; Claude Code silently loads none of its skills",
                f"reinstall it: claude plugin uninstall {key} && claude plugin install {key}",
            )
            continue
        refs.append(PluginRef(root, key.split("@", 1)[0]))
    return refs


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
    refs: list[PluginRef] = []
    inputs = [str(p) for _, p in locations.settings_files()]
    inputs += [str(locations.installed_plugins_file()), *(str(p) for p in locations.plugin_dirs)]
    for folder in locations.plugin_dirs:
        if os.path.lexists(folder / MARKETPLACE):
            refs.extend(marketplace_plugins(folder, sink))
        elif os.path.isdir(folder):
            refs.append(PluginRef(folder, folder.name))
        else:
            sink.error("plugin-manifest", folder, "--plugin-dir: no such folder", "check the path")
    refs.extend(installed_plugins(locations, sink))

    tiers: list[Tier] = []
    direct: list[Entry] = []
    roots: set[str] = set()
    for ref in refs:
        inputs.append(str(ref.root))
        real = os.path.realpath(ref.root)
        if real in roots:
            continue
        roots.add(real)
        if real != str(ref.root):
            inputs.append(real)
        try:
            loaded = load_manifest(ref, sink)
            if loaded is None:
                continue
            name, manifest = loaded
            entries, named = plugin_entries(ref, name, manifest, sink, cache)
        except (OSError, RuntimeError, ValueError) as exc:
            # A plugin folder that changed under the load, or paths no system call accepts
            # (a NUL byte, a chain of links too long to resolve): this plugin only is skipped.
            sink.error("plugin-manifest", ref.root, f"cannot load this plugin ({type(exc).__name__}: {exc}); skipped", "check it")
            continue
        source = Source(SourceKind.PLUGIN, ref.root, f"plugin {name}", first_order + len(tiers), plugin=name)
        direct.extend(named)
        tiers.append(Tier(source, tuple(entries), LoadedFrom.PLUGIN))
    return tiers, inputs, direct
