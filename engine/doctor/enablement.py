"""Enabled, installed and for which project: enabledPlugins in every settings file against the
install records of installed_plugins.json (`scope`, `projectPath`), as Claude Code decides them
(recorded: plugin_off_by_project, plugin_project_scope_elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular_text
from ..catalog.diagnostics import Sink
from ..catalog.jsonfile import read_json
from ..catalog.sources.plugins import MANIFEST, applicable_install
from ..permissions.settings import SettingsFile
from .findings import Findings
from .state import PluginState

# The folder-found plugins' marketplaces: never in installed_plugins.json.
FOLDER_MARKETPLACES = ("inline", "skills-dir")


def line_of(path: Path, key: str) -> int | None:
    """The line of `"key"` in a settings file (bounded: a settings file is a few kilobytes)."""
    try:
        text = read_regular_text(path, 4 * 1024 * 1024, errors="replace")
    except (OSError, ValueError):
        return None
    at = text.find(json.dumps(key))
    return None if at < 0 else text.count("\n", 0, at) + 1


def where(f: SettingsFile, key: str) -> str:
    line = line_of(f.path, key)
    return f"{f.path}:{line}" if line else str(f.path)


def scope_flag(f: SettingsFile) -> str:
    return f" --scope {f.scope}" if f.scope in ("user", "project", "local") else ""


def check_enablement(state: PluginState, out: Findings) -> None:
    for key in state.all_keys():
        _, at, market = key.partition("@")
        if not at or market in FOLDER_MARKETPLACES:
            continue
        _one(state, key, out)


def _one(state: PluginState, key: str, out: Findings) -> None:
    named = state.enabled_in(key)
    for f, value in named:
        if not isinstance(value, bool):
            out.add(
                "warning",
                "enabled-not-boolean",
                f"{where(f, key)} gives `{key}` the value {json.dumps(value)[:40]}: only true enables a plugin",
                f'set "{key}": true (or false) in {f.path}',
                plugin=key,
                path=f.path,
            )
    effective = named[0] if named else None
    on = effective is not None and effective[1] is True
    records = state.installed.get(key, [])
    record = applicable_install(records, state.locations)
    if not records:
        for f, value in named:
            if value is not True:
                continue
            asked = " (the repository asks for it: a teammate without it lacks its skills)" if f.scope == "project" else ""
            out.add(
                "warning" if f is named[0][0] else "info",
                "enabled-not-installed",
                f"`{key}` is enabled in {where(f, key)} but not installed{asked}: Claude Code loads none of it",
                f"claude plugin install {key}{scope_flag(f)}",
                plugin=key,
                path=f.path,
            )
        return
    if record is None:
        other = next((r for r in records if isinstance(r.get("projectPath"), str)), records[0])
        out.add(
            "warning" if on else "info",
            "installed-elsewhere",
            f"`{key}` is installed only for {other.get('projectPath', '?')} (scope {other.get('scope', '?')}): no install "
            f"record applies to {state.locations.project}, so Claude Code loads none of it here",
            f"claude plugin install {key} --scope user",
            plugin=key,
            path=state.registry_path,
        )
        return
    if len(records) > 1 or record.get("scope") in ("project", "local"):
        enabler = f"enabled by {effective[0].path}" if on and effective else "not enabled"
        out.add(
            "info",
            "install-scope",
            f"`{key}`: of {len(records)} install record(s), the one with scope {record.get('scope', 'user')}"
            + (f" for {record['projectPath']}" if record.get("projectPath") else "")
            + f" applies here; {enabler}",
            "",
            plugin=key,
            path=state.registry_path,
        )
    if on:
        return
    if effective is None:
        default = _default_enabled(record)
        # Recorded (plugin_default_enabled): defaultEnabled true does not load an installed plugin
        # that no settings file names.
        note = f" (its plugin.json's defaultEnabled: {json.dumps(default)} does not enable it)" if default is not None else ""
        out.add(
            "warning",
            "installed-not-enabled",
            f"`{key}` is installed but no settings file enables it{note}: Claude Code loads none of its skills",
            f"claude plugin enable {key} --scope user",
            plugin=key,
            path=Path(str(record["installPath"])),
        )
        return
    f = effective[0]
    on_elsewhere = [g for g, v in named[1:] if v is True]
    over = f", over {on_elsewhere[0].path} which enables it" if on_elsewhere else ""
    fix = f"claude plugin enable {key}{scope_flag(f)}" if f.scope != "managed" else "ask your administrator (managed settings)"
    out.add(
        "warning",
        "switched-off",
        f"`{key}` is switched off by {where(f, key)}{over}: Claude Code loads none of its skills",
        fix,
        plugin=key,
        path=f.path,
    )


def _default_enabled(record: dict[str, Any]) -> Any:
    root = Path(str(record["installPath"]))
    if not root.is_absolute():
        return None
    data = read_json(root / MANIFEST, Sink(), "plugin-manifest", "plugin manifest")
    return data.get("defaultEnabled") if isinstance(data, dict) else None
