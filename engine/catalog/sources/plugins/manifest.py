"""A plugin's manifest (`.claude-plugin/plugin.json`), read and checked as Claude Code's schema does.

A manifest Claude Code's schema refuses rejects the whole plugin, except for the fields it only
shows (`description`, `author`, ...), which it drops.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Sink
from ...jsonfile import read_json

MANIFEST = Path(".claude-plugin") / "plugin.json"
MARKETPLACE = Path(".claude-plugin") / "marketplace.json"


@dataclass(frozen=True, slots=True)
class PluginRef:
    """A plugin found where Claude Code looks for one, before its manifest is read."""

    root: Path
    # The name to use when the plugin has no manifest (its folder, or its install key).
    fallback_name: str
    # A folder of a skills folder that is also a plugin (`.claude-plugin/` in it).
    skills_dir: bool = False
    # A `--plugin-dir` plugin (Claude Code's key for it is `name@inline`).
    inline: bool = False
    # Its marketplace entry when that says `"strict": false` (the entry supplies components).
    loose: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    def key(self, name: str) -> str | None:
        """The enabledPlugins key of a plugin found in a folder, by its manifest name."""
        return f"{name}@skills-dir" if self.skills_dir else f"{name}@inline" if self.inline else None


# Fields Claude Code only shows: an invalid one is dropped and the plugin still loads.
DISPLAY_FIELDS = ("$schema", "displayName", "description", "author", "homepage", "repository", "license", "keywords")
KNOWN_FIELDS = frozenset({
    *DISPLAY_FIELDS, "name", "version", "defaultEnabled", "dependencies", "metadata", "engines", "network",
    "commands", "agents", "skills", "hooks", "outputStyles", "themes", "workflows", "monitors", "mcpServers",
    "lspServers", "userConfig", "channels", "experimental",
})  # fmt: skip
# Control and bidirectional-formatting characters, which a plugin name may not hold.
_NAME_HAZARD = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
_KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _rel(value: Any, suffixes: tuple[str, ...] = ()) -> bool:
    """A path as the manifest schema wants it: relative, starting with `./`."""
    return isinstance(value, str) and value.startswith("./") and (not suffixes or value.endswith(suffixes))


def _one_or_list(value: Any, check: Any) -> bool:
    return check(value) or (isinstance(value, list) and all(check(v) for v in value))


def _command_spec(spec: Any) -> bool:
    if not isinstance(spec, dict):
        return False
    source, content = spec.get("source"), spec.get("content")
    if (source is None) == (content is None):
        return False
    return _rel(source) if source is not None else isinstance(content, str)


def _field_problem(key: str, value: Any) -> str | None:
    """Why Claude Code's manifest schema refuses `value` for `key`, or None."""
    if key in ("$schema", "displayName", "description", "repository", "license", "version"):
        return None if isinstance(value, str) else f"must be a string, not {_kind(value)}"
    if key == "homepage":
        return None if isinstance(value, str) and _URL.match(value) else "must be a URL"
    if key == "keywords":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else f"must be a list of strings, not {_kind(value)}"
    if key == "author":
        if not isinstance(value, dict):
            return f'must be an object like {{"name": "..."}}, not {_kind(value)}'
        name = value.get("name")
        if not isinstance(name, str) or not name:
            return "must have a non-empty `name`"
        if any(k in value and not isinstance(value[k], str) for k in ("email", "url")):
            return "`email` and `url` must be strings"
        return None
    if key == "defaultEnabled":
        return None if isinstance(value, bool) else f"must be true or false, not {_kind(value)}"
    if key == "dependencies":
        return None if isinstance(value, list) else f"must be a list, not {_kind(value)}"
    if key == "skills":
        ok = _one_or_list(value, lambda v: v == "." or _rel(v))
        return None if ok else 'must be "./path" (or ".") or a list of them'
    if key == "commands":
        if isinstance(value, dict):
            ok = all(_command_spec(v) for v in value.values())
            return None if ok else 'each command must have either "source" ("./path") or "content", not both'
        return None if _one_or_list(value, _rel) else 'must be "./path" or a list of them'
    if key == "agents":
        return None if _one_or_list(value, lambda v: _rel(v, (".md",))) else 'must be "./path.md" or a list of them'
    if key in ("outputStyles", "themes"):
        return None if _one_or_list(value, _rel) else 'must be "./path" or a list of them'
    if key == "hooks":
        ok = _one_or_list(value, lambda v: isinstance(v, dict) or _rel(v, (".json",)))
        return None if ok else 'must be "./hooks.json", a hooks object, or a list of them'
    if key == "mcpServers":
        ok = _one_or_list(value, lambda v: isinstance(v, dict) or _rel(v, (".json", ".mcpb", ".dxt")))
        return None if ok else 'must be "./.mcp.json", a servers object, or a list of them'
    return None


def validate_manifest(data: dict[str, Any], path: Path, sink: Sink) -> tuple[str, dict[str, Any]] | None:
    """The plugin's name and manifest as Claude Code keeps it, or None when Claude Code rejects
    the plugin. Invalid display fields are dropped (Claude Code drops them and loads the plugin)."""
    name = data.get("name")
    if not isinstance(name, str) or not name:
        fatal = ["has no `name`" if name is None else f"`name` must be a non-empty string, not {_kind(name)}"]
    elif " " in name:
        fatal = [f"`name` {name!r} contains spaces"]
    elif _NAME_HAZARD.search(name):
        fatal = ["`name` contains control or bidirectional-formatting characters"]
    else:
        fatal = []
    kept = dict(data)
    for key, value in data.items():
        problem = None if key == "name" else _field_problem(key, value)
        if problem is None:
            continue
        if key in DISPLAY_FIELDS:
            del kept[key]
            sink.warning(
                "plugin-manifest",
                path,
                f"`{key}` {problem}: Claude Code ignores the field; the plugin still loads",
                f"fix `{key}` or remove it",
            )
        else:
            fatal.append(f"`{key}` {problem}")
    if fatal:
        sink.error(
            "plugin-manifest",
            path,
            f"Claude Code rejects this plugin: {'; '.join(fatal)}. None of its skills or commands load",
            "fix the manifest; `claude plugin validate PATH` shows the same errors",
        )
        return None
    assert isinstance(name, str)
    unknown = sorted(k for k in data if k not in KNOWN_FIELDS)
    if unknown:
        sink.info(
            "plugin-manifest",
            path,
            f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(f'`{k}`' for k in unknown)}: Claude Code ignores "
            f"{'them' if len(unknown) > 1 else 'it'}",
            "remove it, or check its spelling",
        )
    if not _KEBAB.match(name):
        sink.info(
            "plugin-manifest",
            path,
            f"plugin name `{name}` is not kebab-case: Claude Code loads it, the claude.ai marketplace sync would not",
            "use lowercase letters, digits and hyphens",
        )
    return name, kept


def load_manifest(ref: PluginRef, sink: Sink) -> tuple[str, dict[str, Any]] | None:
    """The plugin's name and manifest; None when Claude Code rejects the plugin."""
    path = ref.root / MANIFEST
    if not os.path.exists(path):
        sink.info(
            "plugin-manifest",
            ref.root,
            f"no {MANIFEST}: Claude Code names this plugin by its folder, `{ref.fallback_name}`",
            f"add {MANIFEST} with a name",
        )
        return ref.fallback_name, {}
    data = read_json(path, sink, "plugin-manifest", "plugin manifest")
    if data is None:
        return None
    if not isinstance(data, dict):
        sink.error(
            "plugin-manifest",
            path,
            "the plugin manifest must be a JSON object: Claude Code rejects this plugin, none of its skills or commands load",
            '{"name": "my-plugin"}',
        )
        return None
    return validate_manifest(data, path, sink)
