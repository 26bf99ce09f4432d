"""Which plugin copies Claude Code loads here: the installed ones whose record applies to this
project (read where a local marketplace lists them), and the folder-found ones a load saw."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from ..catalog.assembly import Catalog
from ..catalog.diagnostics import Sink
from ..catalog.model import SourceKind
from ..catalog.sources.plugins import MarketEntry, applicable_install, plugin_dir_refs, skills_dir_folders, skills_dir_plugins
from ..catalog.sources.plugins.marketplace import local_source
from .state import PluginState


class Copy(NamedTuple):
    key: str
    root: Path
    # Its marketplace entry when it says "strict": false.
    loose: dict[str, object] | None
    installed: bool


def plugin_copies(state: PluginState, catalog: Catalog | None) -> list[Copy]:
    out: list[Copy] = []
    recorded = {Path(str(r["installPath"])) for rs in state.installed.values() for r in rs if r.get("installPath")}
    for key, records in state.installed.items():
        record = applicable_install(records, state.locations)
        if record is None:
            continue
        name, _, market_name = key.partition("@")
        market = state.marketplaces.get(market_name)
        entry = market.entry(name) if market is not None else None
        local = None
        if market is not None and market.folder is not None:
            local = local_source(MarketEntry(market.folder, market.directory, entry))
        root = local or Path(str(record["installPath"]))
        # A relative installPath would be read from wherever skilldeck runs: never a plugin here.
        if root.is_absolute() and os.path.isdir(root) and not os.path.islink(root):
            loose = entry if entry is not None and entry.get("strict") is False else None
            out.append(Copy(key, root, loose, True))
    # An installed copy the doctor does not read (a link, another project's) is not a folder plugin.
    known = {c.root for c in out} | recorded
    # Folder plugins as Claude Code finds them, loaded or not (a rejected manifest loads nothing).
    refs = [ref for folder in state.locations.plugin_dirs for ref in plugin_dir_refs(folder, Sink())]
    refs += [ref for folder in skills_dir_folders(state.locations) for ref in skills_dir_plugins(folder)]
    for ref in refs:
        if ref.root not in known:
            known.add(ref.root)
            out.append(Copy(ref.key(ref.fallback_name) or ref.fallback_name, ref.root, None, False))
    for source in catalog.sources if catalog is not None else ():
        if source.kind is SourceKind.PLUGIN and source.root not in known:
            known.add(source.root)
            kind = "skills-dir" if source.root.parent.name == "skills" else "inline"
            out.append(Copy(f"{source.plugin}@{kind}", source.root, None, False))
    return out
