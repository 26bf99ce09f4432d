"""Claude Code's settings files: read, merged in precedence order, every rule remembering its file.

BEHAVIOR.md §6: managed (`managed-settings.json`, then `managed-settings.d/*.json`), the
project's `.claude/settings.local.json`, `.claude/settings.json`, and the user's `settings.json`.
Strict JSON: a file that does not parse is skipped with a diagnostic (line and column); an entry
that is not a rule is skipped with a warning. The project's own files (local and project scope)
approve nothing until the workspace is trusted (engine/permissions/trust.py): their deny and ask rules hold,
their allow rules are kept for display but do not allow. Nothing here writes; see `settings_edit`.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog.diagnostics import Sink
from ..catalog.jsonfile import read_json
from ..catalog.locations import Locations
from ..catalog.model import Diagnostic
from .rules import Rule, parse_rule
from .trust import Trust, workspace_trust

BEHAVIORS = ("deny", "ask", "allow")
SCOPES = ("managed", "local", "project", "user")
# How deep a settings file may nest and still be read. Claude Code 2.1.328 reads (and applies the
# deny rules of) a file nested 65 levels and one that starts with a byte order mark (recorded:
# settings_project_deep, settings_project_bom, settings_user_bom): a file skilldeck skipped there
# hid a deny Claude Code applies. Python's parser recurses per level, so the bound stays well
# under its recursion limit; a deeper file is skipped and turns every allow into an ask.
SETTINGS_NESTING = 512
# The scopes a cloned repository writes: their allow rules wait for workspace trust.
PROJECT_SCOPES = ("local", "project")


@dataclass(frozen=True)
class SettingsFile:
    """One settings file Claude Code reads, and what it holds (None: absent or unusable)."""

    scope: str
    path: Path
    data: dict[str, Any] | None
    exists: bool

    @property
    def ok(self) -> bool:
        return self.data is not None


@dataclass(frozen=True)
class PlacedRule:
    """A rule as written in one settings file."""

    rule: Rule
    behavior: str
    file: Path | None
    scope: str

    @property
    def text(self) -> str:
        return self.rule.text


@dataclass(frozen=True)
class Settings:
    """What a session's settings files say, each setting taken as Claude Code takes it, with the files."""

    files: tuple[SettingsFile, ...]
    rules: tuple[PlacedRule, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    disable_skill_shell_execution: bool = False
    allow_managed_permission_rules_only: bool = False
    skill_overrides: dict[str, Any] = field(default_factory=dict)
    # The managed settings' skillOverrides alone: the only ones Claude Code applies to a
    # plugin's skills (recorded: listing_plugin_overrides).
    plugin_skill_overrides: dict[str, Any] = field(default_factory=dict)
    # skillListingBudgetFraction (0 < x <= 1) and skillListingMaxDescChars (a positive integer);
    # None when unset or invalid, which Claude Code treats alike (its schema drops a bad value).
    listing_budget_fraction: float | None = None
    listing_max_desc_chars: int | None = None
    # The `model` setting, which picks the context window that sizes the listing budget.
    model: str | None = None
    enabled_plugins: dict[str, tuple[bool, Path]] = field(default_factory=dict)
    trust: Trust = field(default_factory=lambda: Trust(False, "trust not checked"))

    def rules_for(self, behavior: str) -> list[PlacedRule]:
        return list(self._counted.get(behavior, ()))

    @functools.cached_property
    def _counted(self) -> dict[str, tuple[PlacedRule, ...]]:
        """The rules that count, by behavior: worked out once (a file may hold 100,000 rules)."""
        counted: dict[str, list[PlacedRule]] = {}
        for rule in self.rules:
            if self.ignored(rule) is None:
                counted.setdefault(rule.behavior, []).append(rule)
        return {behavior: tuple(rules) for behavior, rules in counted.items()}

    def ignored(self, rule: PlacedRule) -> str | None:
        """Why a rule written in a settings file does not count, or None when it does."""
        if self.allow_managed_permission_rules_only and rule.scope != "managed":
            return "allowManagedPermissionRulesOnly is set in managed settings"
        if rule.behavior == "allow" and rule.scope in PROJECT_SCOPES and not self.trust.trusted:
            return "this project is not trusted yet, so its own allow rules do not count (as in Claude Code)"
        return None

    @property
    def unreadable(self) -> list[SettingsFile]:
        """Files that exist but could not be used: whatever deny rules they hold are unknown."""
        return [f for f in self.files if f.exists and not f.ok]

    def file(self, scope: str) -> SettingsFile | None:
        return next((f for f in self.files if f.scope == scope), None)


def _value(files: list[SettingsFile], key: str) -> Any:
    """The value of a scalar key from the most specific file that sets it."""
    for f in files:
        if f.data is not None and key in f.data:
            return f.data[key]
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _fraction_ok(value: Any) -> bool:
    return _number(value) and 0 < value <= 1


def _count_ok(value: Any) -> bool:
    return _number(value) and float(value).is_integer() and value > 0


def _checked(files: list[SettingsFile], key: str, ok: Any, wanted: str, sink: Sink) -> Any:
    """A listing setting from the most specific file that sets it validly. Claude Code skips an
    invalid value ("Invalid setting skipped") and uses the next file's, else its default."""
    for f in files:
        if f.data is None or key not in f.data:
            continue
        value = f.data[key]
        if ok(value):
            return value
        sink.warning(
            "settings-entry", f.path, f"`{key}` is {json.dumps(value)[:40]}, not {wanted}; Claude Code skips this setting",
            f"set {key} to {wanted}, or remove it",
        )  # fmt: skip
    return None


OVERRIDE_VALUES = ("on", "name-only", "user-invocable-only", "off")


def _skill_overrides(files: list[SettingsFile], sink: Sink | None) -> dict[str, str]:
    """skillOverrides merged name by name, the most specific file winning. A file whose
    skillOverrides is not an object of known values is skipped whole, as Claude Code skips it."""
    merged: dict[str, str] = {}
    for f in reversed(files):
        value = f.data.get("skillOverrides") if f.data else None
        if value is None:
            continue
        bad = None if isinstance(value, dict) else "is not an object"
        if bad is None:
            wrong = [k for k, v in value.items() if v not in OVERRIDE_VALUES]
            bad = f"gives {wrong[0]!r} the value {json.dumps(value[wrong[0]])[:40]}" if wrong else None
        if bad is not None:
            if sink is None:
                continue
            sink.warning(
                "settings-entry", f.path, f"`skillOverrides` {bad}; Claude Code skips this setting in this file",
                f"map skill names to one of: {', '.join(OVERRIDE_VALUES)}",
            )  # fmt: skip
            continue
        merged.update({str(k): v for k, v in value.items()})
    return merged


def read_settings(locations: Locations) -> Settings:
    sink = Sink()
    files: list[SettingsFile] = []
    rules: list[PlacedRule] = []
    for scope, path in locations.settings_files():
        # os.path.lexists answers False where Path.exists raises (a .claude folder we may not
        # enter); read_json says why such a file could not be read.
        data = read_json(path, sink, "settings-invalid", "settings file", SETTINGS_NESTING, bom=True)
        exists = data is not None or os.path.lexists(path)
        if data is not None and not isinstance(data, dict):
            sink.error("settings-invalid", path, "a settings file must hold a JSON object; it is skipped", "{ }")
            data = None
        files.append(SettingsFile(scope, path, data, exists))
        if data is None:
            continue
        permissions = data.get("permissions", {})
        if not isinstance(permissions, dict):
            sink.warning("settings-entry", path, "`permissions` must be an object; ignored", '"permissions": {"allow": []}')
            continue
        for behavior in BEHAVIORS:
            entries = permissions.get(behavior, [])
            if not isinstance(entries, list):
                sink.warning(
                    "settings-entry", path, f"`permissions.{behavior}` must be a list; ignored", f'"{behavior}": ["Skill(name)"]'
                )
                continue
            for entry in entries:
                rule = parse_rule(entry) if isinstance(entry, str) else None
                if rule is None:
                    sink.warning(
                        "settings-entry",
                        path,
                        f"`permissions.{behavior}` entry {entry!r} is not a rule; skipped",
                        "write Tool or Tool(specifier), e.g. Bash(git diff *)",
                    )
                    continue
                rules.append(PlacedRule(rule, behavior, path, scope))
    enabled: dict[str, tuple[bool, Path]] = {}
    for f in reversed(files):
        plugins = f.data.get("enabledPlugins") if f.data else None
        if isinstance(plugins, dict):
            for key, value in plugins.items():
                enabled[key] = (value is True, f.path)
                if not isinstance(value, bool):
                    # Claude Code skips the entry ("Invalid setting skipped"; recorded:
                    # plugin_default_enabled): the plugin stays off.
                    sink.warning(
                        "settings-entry", f.path,
                        f"enabledPlugins gives `{key}` the value {json.dumps(value)[:40]}, not true or false: Claude Code "
                        "skips this entry and does not load the plugin", f'"{key}": true',
                    )  # fmt: skip
    managed_only = any(f.scope == "managed" and f.data and f.data.get("allowManagedPermissionRulesOnly") is True for f in files)
    overrides = _skill_overrides(files, sink)
    fraction = _checked(files, "skillListingBudgetFraction", _fraction_ok, "a number above 0 and at most 1", sink)
    max_desc = _checked(files, "skillListingMaxDescChars", _count_ok, "a whole number above 0", sink)
    model = _value(files, "model")
    return Settings(
        files=tuple(files),
        rules=tuple(rules),
        diagnostics=tuple(sink.items),
        disable_skill_shell_execution=_value(files, "disableSkillShellExecution") is True,
        allow_managed_permission_rules_only=managed_only,
        skill_overrides=overrides,
        plugin_skill_overrides=_skill_overrides([f for f in files if f.scope == "managed"], None),
        listing_budget_fraction=None if fraction is None else float(fraction),
        listing_max_desc_chars=None if max_desc is None else int(max_desc),
        model=model if isinstance(model, str) and model.strip() else None,
        enabled_plugins=enabled,
        trust=workspace_trust(locations),
    )
