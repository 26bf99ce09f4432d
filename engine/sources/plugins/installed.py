"""The plugins Claude Code has installed and enabled.

Claude Code records installs in `<config>/plugins/installed_plugins.json` (`{"version": 2,
"plugins": {"name@marketplace": [{"scope", "installPath", "version", "projectPath"?}]}}`; version 1
held one object per key) and enables them with `enabledPlugins: {"name@marketplace": true}` in
the settings files, the more specific file winning. A plugin is active only when both agree;
when they do not, Claude Code says nothing, so skilldeck reports it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...diagnostics import Sink
from ...jsonfile import read_json
from ...locations import Locations
from ...settings import read_settings
from .manifest import MARKETPLACE, PluginRef


def _pick_install(records: Any, locations: Locations) -> dict[str, Any] | None:
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, list):
        return None
    installs: list[dict[str, Any]] = [r for r in records if isinstance(r, dict) and isinstance(r.get("installPath"), str)]
    for record in installs:
        project = record.get("projectPath")
        if isinstance(project, str) and project and Path(project) == locations.project:
            return record
    for record in installs:
        if record.get("scope", "user") == "user":
            return record
    return installs[0] if installs else None


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
        local = _local_marketplace_source(locations, key, sink)
        root = local or Path(record["installPath"])
        if local is not None and local != Path(record["installPath"]):
            sink.info(
                "plugin-folder",
                Path(record["installPath"]),
                f"plugin `{key}` comes from a marketplace in a local folder: Claude Code reads it at {local}, "
                "not this installed copy",
                f"edit the plugin at {local}",
            )
            sink.info(
                "plugin-folder",
                local,
                f"plugin `{key}` is read here (its marketplace is this local folder), not from the copy at "
                f"{record['installPath']}",
                "",
            )
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


def known_marketplaces_file(locations: Locations) -> Path:
    return locations.user / "plugins" / "known_marketplaces.json"


def _local_marketplace_source(locations: Locations, key: str, sink: Sink) -> Path | None:
    """A plugin of a marketplace added from a local folder: Claude Code reads the plugin where
    the marketplace lists it, not the copy recorded as installed (recorded: plugin_installed)."""
    marketplace = key.split("@", 1)[1] if "@" in key else ""
    known = read_json(known_marketplaces_file(locations), sink, "plugin-manifest", "marketplace registry")
    entry = known.get(marketplace) if isinstance(known, dict) else None
    source = entry.get("source") if isinstance(entry, dict) else None
    if not isinstance(source, dict) or source.get("source") != "directory" or not isinstance(source.get("path"), str):
        return None
    folder = Path(source["path"])
    listing = read_json(folder / MARKETPLACE, sink, "plugin-manifest", "marketplace manifest")
    plugins = listing.get("plugins") if isinstance(listing, dict) else None
    for item in plugins if isinstance(plugins, list) else []:
        if isinstance(item, dict) and item.get("name") == key.split("@", 1)[0] and isinstance(item.get("source"), str):
            return Path(os.path.normpath(folder / item["source"]))
    return None
