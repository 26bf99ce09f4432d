"""What the last load read, kept so that a reload re-reads only what changed on disk.

Three levels, each dropped by `invalidate(path)` when a change touches it:
- per skills folder, the result of each name in it (`<root>/<name>`: a skill, or a finding);
- per commands folder, its whole result (command trees are small);
- per file, the loaded skill and its diagnostics.
Plugins (manifests, marketplaces, settings, the install registry) are recomputed whenever a
path they depend on changes, each plugin's own skills and commands only when a path in that
plugin changed; their skills folders still use the per-name cache. The nested
`.claude/skills` folders below the start folder are searched again when a `.claude` path changes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple, final

from .model import Diagnostic, LoadedFrom, Skill, Source
from .scan import NameResult
from .skillfile import Entry

SEP = os.sep


class Loaded(NamedTuple):
    skill: Skill | None
    diagnostics: tuple[Diagnostic, ...]


def under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + SEP)


def _manifest_touched(key: tuple[str, str, str], path: str) -> bool:
    """Whether a change at `path` may change the manifest read for `key` (root, name, real root):
    a path in its `.claude-plugin` folder, or that folder, the root or a folder above them."""
    folders = (key[0] + SEP + ".claude-plugin", key[2] + SEP + ".claude-plugin")
    return any(under(path, folder) or under(folder, path) for folder in folders)


# Final: clear() runs __init__ again, which is sound only while no subclass can change it.
@final
class LoadCache:
    def __init__(self) -> None:
        self.roots: dict[str, dict[str, NameResult]] = {}
        # The name each skills folder's entries were read under (a plugin's, or "").
        self.namespaces: dict[str, str] = {}
        self.commands: dict[str, tuple[tuple[Entry, ...], tuple[Diagnostic, ...]]] = {}
        self.files: dict[tuple[Entry, LoadedFrom], Loaded] = {}
        # Everything the plugin tiers were built from, and what they gave (see sources.plugins).
        self.plugins: object | None = None
        self.plugin_inputs: tuple[str, ...] = ()
        self.plugin_direct: tuple[Entry, ...] = ()
        self.sources: dict[Source, Source] = {}
        # The nested `.claude/skills` folders found below a start folder (sources.tiers).
        self.nested: dict[str, tuple[Path, ...]] = {}
        # Per plugin root, what its skills and commands were and the folders they came from
        # (sources.plugins): a change in one plugin of 150 recomputes that one only.
        self.plugin_parts: dict[str, tuple[tuple[str, ...], object]] = {}
        # Per plugin root, its real path, and per (root, fallback name, real path) its manifest
        # as read (name and fields, or None) with the diagnostics reading it gave.
        self.plugin_real: dict[str, str] = {}
        self.manifests: dict[tuple[str, str, str], tuple[tuple[str, dict[str, Any]] | None, tuple[Diagnostic, ...]]] = {}

    def root(self, root: Path, namespace: str = "") -> dict[str, NameResult]:
        key = str(root)
        if self.namespaces.get(key, namespace) != namespace:
            # The same folder read under another name (a plugin renamed in its manifest): what
            # was read from it carries the old `plugin:` name.
            for result in self.roots.pop(key, {}).values():
                self._forget(result.entries)
        self.namespaces[key] = namespace
        return self.roots.setdefault(key, {})

    def _forget(self, entries: Iterable[Entry]) -> None:
        for entry in entries:
            for loaded_from in LoadedFrom:
                self.files.pop((entry, loaded_from), None)

    def clear(self) -> None:
        self.__init__()

    def invalidate(self, path: str | Path) -> None:
        """Forget everything a change at `path` (a file or folder, created, changed or gone)
        may have changed."""
        path = str(path)
        if f"{SEP}.claude" in path or any(under(start, path) for start in self.nested):
            # A `.claude` folder came or went, or a whole tree moved: search again.
            self.nested.clear()
        for root in list(self.roots):
            names = self.roots[root]
            if under(root, path):
                # The skills folder itself (or a parent) appeared, moved or went away.
                for result in names.values():
                    self._forget(result.entries)
                del self.roots[root]
                continue
            if under(path, root):
                name = path[len(root) + 1 :].split(SEP, 1)[0]
                self._drop_name(names, name)
            for name, result in list(names.items()):
                # A change in a symlinked skill's target, or to a folder above it (moved, gone).
                if result.link is not None and (under(path, result.link) or under(result.link, path)):
                    self._drop_name(names, name)
        for root in list(self.commands):
            if under(root, path) or under(path, root):
                self._forget(self.commands.pop(root)[0])
        for root in [r for r in self.plugin_real if under(r, path)]:
            del self.plugin_real[root]
        for key in [k for k in self.manifests if _manifest_touched(k, path)]:
            del self.manifests[key]
        for root, (folders, _) in list(self.plugin_parts.items()):
            if any(under(path, f) or under(f, path) for f in folders):
                del self.plugin_parts[root]
        plugin_change = f"{SEP}.claude-plugin" in path or any(under(path, p) or under(p, path) for p in self.plugin_inputs)
        if self.plugins is not None and plugin_change:
            # Files a plugin names directly (its root SKILL.md, manifest paths) are not under
            # a cached skills folder, so they are forgotten with the plugins.
            self._forget(self.plugin_direct)
            self.plugins = None

    def _drop_name(self, names: dict[str, NameResult], name: str) -> None:
        result = names.pop(name, None)
        if result is not None:
            self._forget(result.entries)
