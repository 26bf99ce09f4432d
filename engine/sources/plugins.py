"""Plugins: `--plugin-dir` folders and what Claude Code has installed and enabled.

A `--plugin-dir` is one plugin when a manifest, a SKILL.md, a server file or one of the plugin
folders (`skills/`, `commands/`, ...) is at its top; otherwise each subfolder with a manifest
is a plugin (Claude Code 2.1.328 does not read a marketplace.json there). A manifest Claude Code's
schema refuses rejects the whole plugin, except for the fields it only shows (`description`,
`author`, ...), which it drops.

Claude Code records installs in `<config>/plugins/installed_plugins.json` (`{"version": 2,
"plugins": {"name@marketplace": [{"scope", "installPath", "version", "projectPath"?}]}}`; version 1
held one object per key) and enables them with `enabledPlugins: {"name@marketplace": true}` in
the settings files, the more specific file winning. A plugin is active only when both agree;
when they do not, Claude Code says nothing, so skilldeck reports it.
"""

from __future__ import annotations

import os
import re
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
    # The name to use when the plugin has no manifest (its folder, or its install key).
    fallback_name: str
    # A folder of a skills folder that is also a plugin (`.claude-plugin/` in it).
    skills_dir: bool = False


def _paths(value: Any, key: str, manifest: Path, sink: Sink) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
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
        # Reported at the missing path, as Claude Code logs it; the message names the manifest.
        sink.error(
            "plugin-manifest",
            path,
            f"{manifest} names `{key}` {rel}, which does not exist: Claude Code reports a load failure and "
            "loads nothing from it; the plugin's other paths still load",
            "fix the path (relative to the plugin root, starting with ./)",
        )
        return None
    return path


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
        problem = "has no `name`" if name is None else f"`name` must be a non-empty string, not {_kind(name)}"
        fatal = [problem]
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


class PluginEntries(NamedTuple):
    commands: list[Entry]
    skills: list[Entry]
    # The files the manifest names directly (not found by scanning a folder).
    direct: list[Entry]
    # Manifest fields (`description`, `argumentHint`, `model`) that override a command file's.
    overrides: dict[Path, dict[str, Any]]


def plugin_entries(
    ref: PluginRef, name: str, manifest: dict[str, Any], sink: Sink, cache: LoadCache | None = None
) -> PluginEntries:
    """The plugin's commands and skills, each in Claude Code's order.

    Skills: `skills/<folder>/SKILL.md` named `plugin:<folder>` (characters other than letters,
    digits, `_` and `-` become `-`; `name:` is only a label), then the manifest's `skills` paths;
    a path that is itself a skill folder is named by its `name:`. Commands: `commands/`, or the
    manifest's `commands` paths instead of it.
    """
    root = ref.root
    manifest_path = root / MANIFEST
    skills: list[Entry] = []
    commands: list[Entry] = []
    direct: list[Entry] = []
    seen: set[str] = set()

    def skills_in(folder: Path) -> list[Entry]:
        return scan_skills_root(folder, sink, name, False, cache.root(folder) if cache else None)

    def add(into: list[Entry], found: list[Entry]) -> None:
        for entry in found:
            key = os.path.realpath(entry.path)
            if key not in seen:
                seen.add(key)
                into.append(entry)

    listed = _paths(manifest.get("skills"), "skills", manifest_path, sink)
    has_skills_dir = os.path.isdir(root / "skills")
    if os.path.lexists(root / "SKILL.md") and "." not in listed and "./" not in listed:
        if has_skills_dir or listed:
            sink.info(
                "not-loaded",
                root / "SKILL.md",
                "Claude Code does not load this SKILL.md: the plugin has a skills folder"
                + (" or lists its skills in the manifest" if listed else ""),
                f'move it to {root}/skills/<name>/SKILL.md, or add "." to `skills` in {MANIFEST}',
            )
        else:
            # With no skills folder and no skills in the manifest, Claude Code reads the
            # plugin's top folder as a skills path: its SKILL.md is the plugin's one skill.
            listed = ["."]
            sink.info(
                "plugin-folder",
                root / "SKILL.md",
                "no skills folder: Claude Code loads this SKILL.md at the plugin's top as its one skill",
                "",
            )
    add(skills, skills_in(root / "skills"))
    for rel in listed:
        path = _resolve(root, rel, "skills", manifest_path, sink)
        if path is None:
            continue
        if os.path.lexists(path / "SKILL.md"):
            direct.append(single_skill(path, name, True))
            add(skills, direct[-1:])
        else:
            add(skills, skills_in(path))

    overrides: dict[Path, dict[str, Any]] = {}
    listed_commands = manifest.get("commands")
    if "commands" in manifest and os.path.isdir(root / "commands"):
        sink.info(
            "not-loaded",
            root / "commands",
            f"{MANIFEST} sets `commands`, so Claude Code does not load this folder",
            'add "./commands" to `commands` in the manifest to load both',
        )
    if isinstance(listed_commands, dict):
        # A map names each command by its key; its other fields override the file's.
        for key, spec in listed_commands.items():
            source = spec.get("source") if isinstance(spec, dict) else None
            if not isinstance(source, str):
                sink.info(
                    "not-loaded",
                    manifest_path,
                    f"command `{key}` is written inline in the manifest: Claude Code offers it as /{name}:{key}; "
                    "skilldeck does not show inline commands",
                    "put it in a file and name it with `source` to see it here",
                )
                continue
            path = _resolve(root, source, "commands", manifest_path, sink)
            if path is None:
                continue
            if os.path.isdir(path):
                add(commands, scan_commands_root(path, sink, name))
                continue
            direct.append(Entry(path, str(key), name, False, False))
            add(commands, direct[-1:])
            overrides[path] = spec
            set_fields = [f"`{k}`" for k in ("description", "argumentHint", "model") if isinstance(spec.get(k), str)]
            sink.info(
                "plugin-manifest",
                path,
                f"{MANIFEST} names this file /{name}:{key}"
                + (f" and sets its {', '.join(set_fields)} over the file's" if set_fields else "")
                + ", as Claude Code reads it",
                "",
                skill=f"{name}:{key}",
            )
    elif "commands" in manifest:
        for rel in _paths(listed_commands, "commands", manifest_path, sink):
            path = _resolve(root, rel, "commands", manifest_path, sink)
            if path is None:
                continue
            if not os.path.isdir(path):
                direct.append(Entry(path, path.stem, name, False, False))
                add(commands, direct[-1:])
            else:
                add(commands, scan_commands_root(path, sink, name))
    else:
        add(commands, scan_commands_root(root / "commands", sink, name))
    return PluginEntries(commands, skills, direct, overrides)


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
        return [PluginRef(folder, folder.name)]
    children: list[str] = []
    skipped: list[str] = []
    # JavaScript's default sort (UTF-16 code units), as Claude Code orders the plugins.
    for child in sorted((n for n in names if not n.startswith(".")), key=lambda n: n.encode("utf-16-be")):
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
    return [PluginRef(folder / child, child) for child in children]


def skills_dir_folders(locations: Locations) -> list[Path]:
    """The skills folders whose subfolders may be plugins: the user's, and the start folder's."""
    user = locations.user_skills()
    project = locations.project / ".claude" / "skills"
    if os.path.realpath(project) == os.path.realpath(user):
        return [user]
    return [user, project]


def skills_dir_plugins(folder: Path) -> list[PluginRef]:
    """Subfolders of a skills folder with a `.claude-plugin` in them: Claude Code loads each as a
    plugin too (its SKILL.md, if any, is a skill as well). Hidden folders and `synced` are not."""
    try:
        names = os.listdir(folder)
    except (OSError, ValueError):
        return []
    refs = []
    for name in sorted(names, key=lambda n: n.encode("utf-16-be")):
        if name.startswith(".") or name.casefold() == "synced":
            continue
        if os.path.lexists(folder / name / ".claude-plugin"):
            refs.append(PluginRef(folder / name, name, skills_dir=True))
    return refs


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
            found = plugin_entries(ref, name, manifest, sink, cache)
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
