"""A plugin's skills and commands: its `skills/` and `commands/` folders and the paths its manifest names."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from ...diagnostics import Sink
from ...loadcache import LoadCache
from ...scan import real_folder, scan_commands_root, scan_skills_root, single_skill
from ...skillfile import Entry
from .manifest import MANIFEST, PluginRef


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


class PluginEntries(NamedTuple):
    commands: list[Entry]
    skills: list[Entry]
    # The files the manifest names directly (not found by scanning a folder).
    direct: list[Entry]
    # Manifest fields (`description`, `argumentHint`, `model`) that override a command file's.
    overrides: dict[Path, dict[str, Any]]


def _real_folder(path: str, reals: dict[str, str] | None) -> str:
    return os.path.realpath(path) if reals is None else real_folder(path, reals)


def plugin_entries(
    ref: PluginRef,
    name: str,
    manifest: dict[str, Any],
    sink: Sink,
    cache: LoadCache | None = None,
    reals: dict[str, str] | None = None,
    commands_add: bool = False,
) -> PluginEntries:
    """The plugin's commands and skills, each in Claude Code's order.

    `reals`: real paths of folders already resolved in this load (scan.real_folder).

    Skills: `skills/<folder>/SKILL.md` named `plugin:<folder>` (characters other than letters,
    digits, `_` and `-` become `-`; `name:` is only a label), then the manifest's `skills` paths;
    a path that is itself a skill folder is named by its `name:`. Commands: `commands/`, or the
    manifest's `commands` paths instead of it; with `commands_add` (the paths come from a
    `"strict": false` marketplace entry) after it (recorded: plugin_strict_false).
    """
    root = ref.root
    manifest_path = root / MANIFEST
    skills: list[Entry] = []
    commands: list[Entry] = []
    direct: list[Entry] = []
    seen: set[str] = set()

    def skills_in(folder: Path, linked: set[str]) -> list[Entry]:
        return scan_skills_root(folder, sink, name, False, cache.root(folder, name) if cache else None, linked)

    real_folders: dict[str, str] = {}

    def real(path: Path, linked: set[str] | None) -> str:
        # The file's real path, for finding one file reached twice. A realpath costs an lstat
        # per component (about twelve at 15,000 skills); the folder above the skill is resolved
        # once, and the skill's own folder and file only looked at (two lstats) unless a link.
        # A scan already looked at both: it says which entries are links (`linked`).
        text = str(path)
        if linked is not None:
            if text in linked:
                return os.path.realpath(path)
            # A scan's `<root>/<folder>/SKILL.md` (a Path's text: no doubled or trailing
            # separator), split by hand: os.path.split twice cost as much as the rest.
            head, _, file_name = text.rpartition(os.sep)
            parent, _, folder = head.rpartition(os.sep)
            if parent:
                known = real_folders.get(parent)
                if known is None:
                    known = real_folders[parent] = _real_folder(parent, reals)
                if known != os.sep:
                    return f"{known}{os.sep}{folder}{os.sep}{file_name}"
        skill_dir, file_name = os.path.split(path)
        parent, folder = os.path.split(skill_dir)
        if linked is None and (os.path.islink(skill_dir) or os.path.islink(path)):
            return os.path.realpath(path)
        known = real_folders.get(parent)
        if known is None:
            known = real_folders[parent] = _real_folder(parent, reals)
        return os.path.join(known, folder, file_name)

    def add(into: list[Entry], found: list[Entry], linked: set[str] | None = None) -> None:
        for entry in found:
            key = real(entry.path, linked)
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
    linked: set[str] = set()
    add(skills, skills_in(root / "skills", linked), linked)
    for rel in listed:
        path = _resolve(root, rel, "skills", manifest_path, sink)
        if path is None:
            continue
        if os.path.lexists(path / "SKILL.md"):
            direct.append(single_skill(path, name, True))
            add(skills, direct[-1:])
        else:
            linked = set()
            add(skills, skills_in(path, linked), linked)

    overrides: dict[Path, dict[str, Any]] = {}
    listed_commands = manifest.get("commands")
    if commands_add:
        add(commands, scan_commands_root(root / "commands", sink, name))
    elif "commands" in manifest and os.path.isdir(root / "commands"):
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
    elif not commands_add:
        add(commands, scan_commands_root(root / "commands", sink, name))
    return PluginEntries(commands, skills, direct, overrides)
