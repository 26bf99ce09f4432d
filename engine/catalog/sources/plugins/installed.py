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

from ....permissions.settings import Settings, read_settings
from ...diagnostics import Sink
from ...jsonfile import read_json
from ...locations import Locations
from .manifest import PluginRef
from .marketplace import Listings, known_marketplaces_file, local_source, market_entry


def applicable_install(records: Any, locations: Locations) -> dict[str, Any] | None:
    """The install record Claude Code uses in this project: one made for this project (`projectPath`,
    scope `project` or `local`), else a `user` (or `managed`) one. A record made for another project
    does not apply here: Claude Code loads nothing of the plugin (recorded: plugin_project_scope_elsewhere)."""
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
        if record.get("scope", "user") in ("user", "managed"):
            return record
    return None


def install_records(records: Any) -> list[dict[str, Any]]:
    if isinstance(records, dict):
        records = [records]
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def installed_plugins(locations: Locations, sink: Sink, settings: Settings | None = None) -> list[PluginRef]:
    try:
        settings = settings or read_settings(locations)
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
    registry_path = locations.installed_plugins_file()
    if not enabled and not os.path.lexists(registry_path):
        return []
    registry = read_json(registry_path, sink, "plugin-manifest", "plugin registry") or {}
    installed = registry.get("plugins") if isinstance(registry, dict) else None
    if not isinstance(installed, dict):
        installed = {}
    _not_enabled(locations, installed, settings, sink)
    known = read_json(known_marketplaces_file(locations), sink, "plugin-manifest", "marketplace registry") if enabled else None
    refs: list[PluginRef] = []
    listings: Listings = {}
    for key, (_on, settings_path) in enabled.items():
        record = applicable_install(installed.get(key), locations)
        elsewhere = [r for r in install_records(installed.get(key)) if isinstance(r.get("projectPath"), str)]
        if record is None and elsewhere:
            other = elsewhere[0]
            sink.warning(
                "plugin-scope",
                Path(str(other.get("installPath") or registry_path)),
                f"plugin `{key}` is installed only for the project {other['projectPath']} (scope "
                f"{other.get('scope', '?')}), not this one: Claude Code loads none of it here, though {settings_path} enables it",
                f"claude plugin install {key} --scope user (or --scope project in this project)",
            )
            continue
        if record is None:
            sink.warning(
                "plugin-missing",
                settings_path,
                f"plugin `{key}` is enabled here but not installed ({registry_path} has no entry); none of its skills load",
                f"claude plugin install {key}",
            )
            continue
        found = market_entry(locations, key, sink, known, listings)
        local = local_source(found)
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
        entry = found.entry if found is not None and found.entry is not None and found.entry.get("strict") is False else None
        refs.append(PluginRef(root, key.split("@", 1)[0], loose=entry))
    return refs


def _not_enabled(locations: Locations, installed: dict[str, Any], settings: Settings, sink: Sink) -> None:
    """Installed plugins that no settings file enables, or that a settings file switches off:
    Claude Code loads none of them and says nothing (recorded: plugin_off_by_project)."""
    for key, records in installed.items():
        state = settings.enabled_plugins.get(key)
        if state is not None and state[0]:
            continue
        record = applicable_install(records, locations)
        if record is None:
            continue
        where = Path(record["installPath"])
        if state is None:
            sink.info(
                "plugin-off",
                where,
                f"plugin `{key}` is installed but no settings file enables it: Claude Code loads none of its skills or commands",
                f"claude plugin enable {key} --scope user",
            )
        else:
            sink.info(
                "plugin-off",
                where,
                f"plugin `{key}` is installed but switched off by {state[1]} (its enabledPlugins entry is not true, and "
                "it is the most specific file that names it): Claude Code loads none of its skills or commands",
                f'set "{key}": true in {state[1]}, or remove the entry there',
            )
