"""The files Claude Code reads about plugins, read once and bounded: a file that cannot be used
(a FIFO, a huge file, bad JSON, a link where a folder should be) is a finding, never a crash."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog.diagnostics import Sink
from ..catalog.jsonfile import read_json
from ..catalog.locations import Locations
from ..catalog.sources.plugins import MARKETPLACE, install_records, known_marketplaces_file, marketplace_folder
from ..permissions.settings import SettingsFile, read_settings
from .findings import Finding


@dataclass
class Marketplace:
    name: str
    record: dict[str, Any]
    # Its folder (the clone, or the local folder it was added from) and whether it is local.
    folder: Path | None
    directory: bool
    # marketplace.json, when it could be read as an object.
    manifest: dict[str, Any] | None

    def entry(self, plugin: str) -> dict[str, Any] | None:
        plugins = self.manifest.get("plugins") if self.manifest else None
        for item in plugins if isinstance(plugins, list) else []:
            if isinstance(item, dict) and item.get("name") == plugin:
                return item
        return None


@dataclass
class PluginState:
    locations: Locations
    # Settings files, most specific first, each with its enabledPlugins (or {}).
    settings: list[SettingsFile]
    registry_path: Path
    # installed_plugins.json's plugins: key -> install records.
    installed: dict[str, list[dict[str, Any]]]
    marketplaces: dict[str, Marketplace]
    findings: list[Finding] = field(default_factory=list)

    @property
    def cache(self) -> Path:
        return self.locations.user / "plugins" / "cache"

    def enabled_in(self, key: str) -> list[tuple[SettingsFile, Any]]:
        """Every settings file that names `key` in enabledPlugins, most specific first, with its value."""
        out = []
        for f in self.settings:
            plugins = f.data.get("enabledPlugins") if f.data else None
            if isinstance(plugins, dict) and key in plugins:
                out.append((f, plugins[key]))
        return out

    def setting(self, key: str, scopes: tuple[str, ...] = ()) -> list[tuple[SettingsFile, Any]]:
        return [(f, f.data[key]) for f in self.settings if f.data and key in f.data and (not scopes or f.scope in scopes)]

    def all_keys(self) -> list[str]:
        keys = dict.fromkeys(self.installed)
        for f in self.settings:
            plugins = f.data.get("enabledPlugins") if f.data else None
            if isinstance(plugins, dict):
                keys.update(dict.fromkeys(k for k in plugins if isinstance(k, str)))
        return list(keys)


def _sink_findings(sink: Sink, out: list[Finding], marketplace: str | None = None) -> None:
    for d in sink.items:
        out.append(Finding(None, marketplace, d.severity.value, "file-unreadable", f"{d.path}: {d.message}", d.hint, d.path))


def read_state(locations: Locations) -> PluginState:
    findings: list[Finding] = []
    try:
        settings = read_settings(locations)
        files = list(settings.files)
        sink = Sink()
        sink.items.extend(d for d in settings.diagnostics if d.code == "settings-invalid")
        _sink_findings(sink, findings)
    except OSError as exc:
        files = []
        findings.append(
            Finding(
                None,
                None,
                "error",
                "file-unreadable",
                f"cannot read the settings: {exc}",
                "check the permissions of the .claude folders",
            )
        )
    sink = Sink()
    registry_path = locations.installed_plugins_file()
    registry = read_json(registry_path, sink, "plugin-manifest", "plugin registry")
    plugins = registry.get("plugins") if isinstance(registry, dict) else None
    if registry is not None and not isinstance(plugins, dict):
        findings.append(
            Finding(
                None,
                None,
                "error",
                "registry-invalid",
                f"{registry_path} has no `plugins` object: Claude Code sees no installed plugin",
                f"move {registry_path} aside and reinstall each plugin with `claude plugin install NAME@MARKETPLACE`",
                registry_path,
            )
        )
    installed = {str(k): install_records(v) for k, v in (plugins or {}).items()}
    known_path = known_marketplaces_file(locations)
    known = read_json(known_path, sink, "plugin-manifest", "marketplace registry")
    _sink_findings(sink, findings)
    marketplaces: dict[str, Marketplace] = {}
    for name, record in (known or {}).items() if isinstance(known, dict) else ():
        where = marketplace_folder(record)
        folder, directory = where if where is not None else (None, False)
        manifest = None
        if folder is not None and os.path.isdir(folder):
            local = Sink()
            data = read_json(folder / MARKETPLACE, local, "plugin-manifest", "marketplace manifest")
            if local.items:
                findings.append(
                    Finding(
                        None,
                        str(name),
                        "error",
                        "marketplace-unreadable",
                        f"{folder / MARKETPLACE}: {local.items[0].message}; Claude Code cannot offer its plugins",
                        f"claude plugin marketplace update {name}",
                        folder / MARKETPLACE,
                    )
                )
            manifest = data if isinstance(data, dict) else None
        marketplaces[str(name)] = Marketplace(str(name), record if isinstance(record, dict) else {}, folder, directory, manifest)
    return PluginState(locations, files, registry_path, installed, marketplaces, findings)
