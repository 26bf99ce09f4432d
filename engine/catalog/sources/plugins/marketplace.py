"""A marketplace's entry for an installed plugin, read from the files Claude Code reads.

`<config>/plugins/known_marketplaces.json` says where each marketplace lives (a local folder for
a `directory` source, else its clone at `installLocation`); that folder's
`.claude-plugin/marketplace.json` lists its plugins. An entry with `"strict": false` supplies the
plugin's components itself (recorded: plugin_strict_false).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from ...diagnostics import Sink
from ...jsonfile import read_json
from ...locations import Locations
from ...model import Diagnostic
from .manifest import MANIFEST, MARKETPLACE

# The entry fields that name components: with `"strict": false` and a plugin.json beside them,
# Claude Code reports a conflict and loads nothing of the plugin (recorded: plugin_strict_false).
COMPONENT_FIELDS = (
    "commands", "agents", "skills", "hooks", "mcpServers", "lspServers", "outputStyles", "themes", "syntaxHighlighting",
)  # fmt: skip


class MarketEntry(NamedTuple):
    # The marketplace's folder (its clone, or the local folder it was added from).
    folder: Path
    # Whether the marketplace was added from a local folder (Claude Code then reads plugins there).
    directory: bool
    # The plugin's entry in marketplace.json, or None when the marketplace does not list it.
    entry: dict[str, Any] | None


def known_marketplaces_file(locations: Locations) -> Path:
    return locations.user / "plugins" / "known_marketplaces.json"


def marketplace_folder(record: Any) -> tuple[Path, bool] | None:
    """Where a known_marketplaces.json record's marketplace lives, and whether it is a local folder."""
    if not isinstance(record, dict):
        return None
    source = record.get("source")
    if isinstance(source, dict) and source.get("source") == "directory" and isinstance(source.get("path"), str):
        return Path(source["path"]), True
    location = record.get("installLocation")
    return (Path(location), False) if isinstance(location, str) and location else None


# A marketplace.json read in this load: its plugins by name, and what reading it reported.
Listings = dict[Path, tuple[dict[str, dict[str, Any]], tuple[Diagnostic, ...]]]


def market_entry(
    locations: Locations, key: str, sink: Sink, known: Any = None, listings: Listings | None = None
) -> MarketEntry | None:
    """The entry for `name@marketplace` in its marketplace's manifest (None: the marketplace is unknown).
    `listings` keeps each manifest read for the next plugin of the same marketplace (150 plugins of
    one marketplace read and parsed its 150-entry manifest 150 times); what reading it reported is
    reported again for each, as when each read it."""
    name, _, marketplace = key.partition("@")
    if known is None:
        known = read_json(known_marketplaces_file(locations), sink, "plugin-manifest", "marketplace registry")
    where = marketplace_folder(known.get(marketplace) if isinstance(known, dict) else None)
    if where is None:
        return None
    folder, directory = where
    path = folder / MARKETPLACE
    read = listings.get(path) if listings is not None else None
    if read is None:
        local = Sink()
        read = (_by_name(read_json(path, local, "plugin-manifest", "marketplace manifest")), tuple(local.items))
        if listings is not None:
            listings[path] = read
    by_name, reported = read
    sink.items.extend(reported)
    return MarketEntry(folder, directory, by_name.get(name))


def _by_name(listing: Any) -> dict[str, dict[str, Any]]:
    """The manifest's plugin entries by name, the first entry of a name winning (as a search from the top)."""
    plugins = listing.get("plugins") if isinstance(listing, dict) else None
    out: dict[str, dict[str, Any]] = {}
    for item in plugins if isinstance(plugins, list) else []:
        # Only a text name can equal the `name@marketplace` key's (a list as name is no key).
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            out.setdefault(item["name"], item)
    return out


def local_source(found: MarketEntry | None) -> Path | None:
    """A plugin of a marketplace added from a local folder: Claude Code reads the plugin where
    the marketplace lists it, not the copy recorded as installed (recorded: plugin_installed)."""
    if found is None or not found.directory or found.entry is None or not isinstance(found.entry.get("source"), str):
        return None
    return Path(os.path.normpath(found.folder / found.entry["source"]))


def loose_manifest(root: Path, name: str, entry: dict[str, Any], manifest: dict[str, Any], sink: Sink) -> dict[str, Any] | None:
    """The components a `"strict": false` entry gives the plugin, over its own manifest; None when
    Claude Code refuses the plugin (a plugin.json and entry components both: a conflict)."""
    fields = {k: entry[k] for k in COMPONENT_FIELDS if k in entry}
    if not fields:
        return manifest
    if os.path.lexists(root / MANIFEST):
        sink.error(
            "plugin-manifest",
            root / MANIFEST,
            f'plugin `{name}` has a plugin.json and its marketplace entry ("strict": false) names its '
            f"{', '.join(f'`{k}`' for k in fields)}: Claude Code reports a conflict and loads none of the plugin",
            'set "strict": true in the marketplace entry, or move the component paths into one of the two',
        )
        return None
    sink.info(
        "plugin-manifest",
        root,
        f'plugin `{name}` has no plugin.json; its marketplace entry ("strict": false) names its '
        f"{', '.join(f'`{k}`' for k in fields)}, which Claude Code loads beside the default folders",
        "",
    )
    return {**manifest, **fields}
