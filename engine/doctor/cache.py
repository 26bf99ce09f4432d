"""The plugin cache against its records: folders gone, folders no record names, old versions, links,
and stale copies (the cached copy differs from the marketplace's copy of the same version, or was
made from another commit than the marketplace's clone is at). Reads only, bounded; never follows
a link out of the cache."""

from __future__ import annotations

import hashlib
import os
import shlex
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from ..base.safeio import TooLarge, read_regular, read_regular_text
from ..catalog.diagnostics import Sink
from ..catalog.jsonfile import read_json
from ..catalog.sources.plugins import MANIFEST
from .findings import Findings
from .state import PluginState

# Names read per cache folder level, files and bytes hashed per plugin copy.
MAX_NAMES = 2000
MAX_FILES = 5000
MAX_BYTES = 64 * 1024 * 1024


def _names(folder: Path) -> list[str]:
    try:
        with os.scandir(folder) as it:
            return sorted(e.name for e in islice(it, MAX_NAMES) if not e.name.startswith("."))
    except (OSError, ValueError):
        return []


def rm(path: Path) -> str:
    return f"rm -rf {shlex.quote(str(path))}"


def check_cache(state: PluginState, out: Findings) -> None:
    recorded: set[str] = set()
    for key, records in state.installed.items():
        for record in records:
            path = record.get("installPath")
            if not isinstance(path, str) or not os.path.isabs(path):
                out.add(
                    "error",
                    "record-invalid",
                    f"an install record of `{key}` has no absolute installPath",
                    f"claude plugin uninstall {key} && claude plugin install {key}",
                    plugin=key,
                    path=state.registry_path,
                )
                continue
            recorded.add(os.path.normpath(path))
            _record(state, key, record, Path(path), out)
    _orphans(state, recorded, out)


def _record(state: PluginState, key: str, record: dict[str, Any], path: Path, out: Findings) -> None:
    if os.path.islink(path) or (path.is_relative_to(state.cache) and os.path.islink(path.parent)):
        target = os.path.realpath(path)
        out.add(
            "warning",
            "cache-symlink",
            f"`{key}`'s cached copy {path} is a symbolic link to {target}: what Claude Code loads can change without an update",
            f"claude plugin uninstall {key} && claude plugin install {key}",
            plugin=key,
            path=path,
        )
        return
    if not os.path.isdir(path):
        where = "for this project" if record.get("scope", "user") in ("user", "managed") else f"for {record.get('projectPath')}"
        out.add(
            "error",
            "install-folder-gone",
            f"`{key}` is recorded as installed {where} at {path}, but that folder is gone: Claude Code loads none of it",
            f"claude plugin uninstall {key} && claude plugin install {key}",
            plugin=key,
            path=path,
        )
        return
    _stale(state, key, record, path, out)


def _orphans(state: PluginState, recorded: set[str], out: Findings) -> None:
    cache = state.cache
    if os.path.islink(cache):
        out.add("warning", "cache-symlink", f"{cache} is a symbolic link to {os.path.realpath(cache)}", "", path=cache)
        return
    keys = {k.partition("@")[::2] for k in state.installed}
    for market in _names(cache):
        if os.path.islink(cache / market):
            out.add(
                "warning",
                "cache-symlink",
                f"{cache / market} is a symbolic link to {os.path.realpath(cache / market)}: what Claude Code loads "
                "from it can change without an update",
                rm(cache / market),
                marketplace=market,
                path=cache / market,
            )
            continue
        for plugin in _names(cache / market):
            folder = cache / market / plugin
            if os.path.islink(folder) or not os.path.isdir(folder):
                continue
            versions = [v for v in _names(folder) if os.path.isdir(folder / v)]
            key = f"{plugin}@{market}"
            if (plugin, market) not in keys:
                out.add(
                    "warning",
                    "cache-orphan",
                    f"{folder} holds {len(versions)} cached version(s) of `{key}`, which installed_plugins.json does "
                    "not record: Claude Code never loads it",
                    rm(folder),
                    plugin=key,
                    path=folder,
                )
                continue
            for version in versions:
                if os.path.normpath(folder / version) not in recorded:
                    out.add(
                        "info",
                        "cache-old-version",
                        f"{folder / version} is a cached version of `{key}` no install record uses",
                        rm(folder / version),
                        plugin=key,
                        path=folder / version,
                    )


def walk_files(root: Path) -> Iterator[str]:
    """The files of a plugin copy in a fixed order, not entering `.git` or a linked folder; an
    empty string last when a bound was hit (MAX_FILES files, MAX_NAMES names in one folder: a
    folder of a million entries is never listed whole)."""
    stack = [str(root)]
    count = 0
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(islice(it, MAX_NAMES + 1), key=lambda e: e.name)
        except (OSError, ValueError):
            continue
        if len(entries) > MAX_NAMES:
            yield ""
            return
        for entry in reversed(entries):
            try:
                folder_here = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if folder_here:
                if entry.name != ".git":
                    stack.append(entry.path)
                continue
            count += 1
            if count > MAX_FILES:
                yield ""
                return
            yield entry.path


def digest(root: Path) -> str | None:
    """A hash of a plugin copy's files (relative path, bytes; a link by its target); None when
    it is past the bounds (then it is not compared)."""
    h = hashlib.sha256()
    total = 0
    for path in walk_files(root):
        if not path:
            return None
        h.update(os.path.relpath(path, root).encode("utf-8", "surrogateescape") + b"\0")
        if os.path.islink(path):
            h.update(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape"))
            continue
        try:
            data, _ = read_regular(path, MAX_BYTES - total)
        except TooLarge:
            return None
        except (OSError, ValueError):
            h.update(b"unreadable")
            continue
        total += len(data)
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def _version(root: Path) -> Any:
    data = read_json(root / MANIFEST, Sink(), "plugin-manifest", "plugin manifest")
    return data.get("version") if isinstance(data, dict) else None


def _stale(state: PluginState, key: str, record: dict[str, Any], path: Path, out: Findings) -> None:
    name, _, market_name = key.partition("@")
    market = state.marketplaces.get(market_name)
    entry = market.entry(name) if market is not None else None
    if market is None or market.folder is None or market.directory or entry is None:
        return
    source = entry.get("source")
    if not isinstance(source, str):
        return
    copy = Path(os.path.normpath(market.folder / source))
    if not copy.is_relative_to(market.folder) or not os.path.isdir(copy):
        return
    version = _version(copy) or entry.get("version")
    if version is not None and version == record.get("version"):
        ours, theirs = digest(path), digest(copy)
        if ours is not None and theirs is not None and ours != theirs:
            out.add(
                "warning",
                "cache-stale",
                f"`{key}` {version}: the cached copy {path} differs from the marketplace's copy {copy} of the same "
                "version (an update says it is at the latest, since only the version string is compared)",
                f"claude plugin uninstall {key} && claude plugin install {key}",
                plugin=key,
                path=path,
            )
            return
    sha = record.get("gitCommitSha")
    head = git_head(market.folder)
    if isinstance(sha, str) and head and sha != head:
        out.add(
            "info",
            "cache-commit",
            f"`{key}` was installed from commit {sha[:12]}; the marketplace clone is now at {head[:12]}",
            f"claude plugin update {key}",
            plugin=key,
            path=path,
        )


def git_head(folder: Path) -> str | None:
    """The commit a clone's HEAD names, from .git/HEAD and its ref (loose or packed); bounded reads."""
    git = folder / ".git"
    try:
        head = read_regular_text(git / "HEAD", 4096).strip()
        if not head.startswith("ref: "):
            return head or None
        ref = head[5:].strip()
        if ".." in ref:
            return None
        try:
            return read_regular_text(git / ref, 4096).strip() or None
        except FileNotFoundError:
            packed = read_regular_text(git / "packed-refs", 4 * 1024 * 1024, errors="replace")
            for line in packed.splitlines():
                sha, _, name = line.partition(" ")
                if name == ref:
                    return sha
    except (OSError, ValueError):
        return None
    return None
