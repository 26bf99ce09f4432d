"""A marketplace folder previewed (`--marketplace DIR`): the plugins its
`.claude-plugin/marketplace.json` lists, read where installing them would read them.

Claude Code 2.1.328 loads nothing from a marketplace folder given as `--plugin-dir`; a
marketplace added from a local folder (`claude plugin marketplace add DIR`) has each installed
plugin read at DIR/<source> (see marketplace.py, local_source). This is that, for every plugin at once, before
anything is installed. The file comes from whoever published the marketplace: each `source` must
stay inside DIR (no absolute path, no `..` out, no symlink out); a source Claude Code would fetch
from the network (github, git, url, npm, pip) cannot be previewed offline and is said so.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...diagnostics import Sink
from ...jsonfile import read_json
from .manifest import MARKETPLACE, PluginRef

# More plugins than any real marketplace lists (the largest known has about 150): the rest is not read.
MAX_PLUGINS = 2000
_REMOTE_PREFIXES = ("http://", "https://", "git@", "git+", "ssh://", "github:")


def marketplace_refs(folder: Path, sink: Sink) -> list[PluginRef]:
    """Each plugin of the marketplace at `folder` whose files are inside it, in the file's order."""
    manifest = folder / MARKETPLACE
    if not _inside(manifest, folder):
        sink.error(
            "plugin-manifest",
            manifest,
            f"--marketplace: {MARKETPLACE} leads outside {folder} (a symlink); it is not read",
            "give the folder that really holds the marketplace",
        )
        return []
    data = read_json(manifest, sink, "plugin-manifest", "marketplace manifest")
    if data is None:
        if not os.path.lexists(manifest):
            sink.error(
                "plugin-manifest",
                folder,
                f"--marketplace: no {MARKETPLACE} here, so there is nothing to preview",
                "give the folder whose .claude-plugin/ holds marketplace.json (a single plugin: --plugin-dir)",
            )
        return []
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, list):
        sink.error("plugin-manifest", manifest, "`plugins` is not a list: Claude Code refuses this marketplace", "")
        return []
    if len(plugins) > MAX_PLUGINS:
        sink.warning("plugin-manifest", manifest, f"{len(plugins):,} plugins: only the first {MAX_PLUGINS:,} are previewed", "")
    metadata = data.get("metadata")
    root = metadata.get("pluginRoot") if isinstance(metadata, dict) else None
    refs: list[PluginRef] = []
    seen: set[str] = set()
    for index, item in enumerate(plugins[:MAX_PLUGINS]):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip():
            sink.error("plugin-manifest", manifest, f"plugins[{index}] has no `name`: it cannot be installed", "")
            continue
        if name in seen:
            sink.warning("plugin-manifest", manifest, f"plugin `{name}` is listed twice: the first is previewed", "")
            continue
        seen.add(name)
        where = _source(folder, manifest, name, item.get("source"), root if isinstance(root, str) else None, sink)
        if where is not None:
            refs.append(PluginRef(where, name))
    return refs


def _source(folder: Path, manifest: Path, name: str, source: Any, root: str | None, sink: Sink) -> Path | None:
    """The folder a plugin's `source` names, when it is one inside the marketplace; else None, said."""
    if isinstance(source, dict) or (isinstance(source, str) and source.startswith(_REMOTE_PREFIXES)):
        kind = source.get("source", "?") if isinstance(source, dict) else "url"
        origin = source.get("repo") or source.get("url") or source.get("package") if isinstance(source, dict) else source
        sink.info(
            "plugin-remote",
            manifest,
            f"plugin `{name}` comes from {kind} {origin!s:.200}: Claude Code fetches it when it is installed, "
            "so it cannot be previewed offline",
            "install it to see its skills, or clone it and pass it as --plugin-dir",
        )
        return None
    if not isinstance(source, str) or not source.strip():
        sink.error("plugin-manifest", manifest, f"plugin `{name}` has no `source`: it cannot be installed", "")
        return None
    if os.path.isabs(source) or source.startswith("~"):
        sink.warning(
            "plugin-manifest",
            manifest,
            f"plugin `{name}`: source {source} is an absolute path; a marketplace's plugins are previewed only "
            "from inside its folder",
            "write it relative to the marketplace folder, starting with ./",
        )
        return None
    relative = source if source.startswith(("./", "../")) or root is None else os.path.join(root, source)
    path = Path(os.path.normpath(folder / relative))
    if not _inside(path, folder):
        sink.warning(
            "plugin-manifest",
            manifest,
            f"plugin `{name}`: source {source} leads outside the marketplace folder ({folder}); it is not previewed",
            "keep each plugin inside the marketplace folder",
        )
        return None
    if not os.path.isdir(path):
        sink.error(
            "plugin-manifest",
            manifest,
            f"plugin `{name}`: source {source} is not a folder ({path}); installing it would fail",
            "fix the path, relative to the marketplace folder",
        )
        return None
    return path


def _inside(path: Path, folder: Path) -> bool:
    """Whether `path`, every symlink followed, is in `folder` (itself followed)."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False
