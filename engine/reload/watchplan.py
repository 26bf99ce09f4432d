"""Where the watcher puts its watches: one recursive watch for a folder and what is under it (a
--plugin-dir marketplace and its 150 plugins are one watch, not 151), and for a folder that does
not exist yet, a watch on its nearest existing parent, so that its creation is seen.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..catalog.assembly import Catalog
from ..catalog.loadcache import under


def plugin_roots(catalog: Catalog | None) -> tuple[Path, ...] | None:
    if catalog is None:
        return None
    return tuple(s.root for s in catalog.sources if s.kind.value == "plugin")


def nearest_existing(path: Path) -> Path | None:
    for folder in (path, *path.parents):
        if os.path.isdir(folder):  # pathlib's is_dir raises on EACCES (Python 3.11)
            return folder
    return None


def covered_targets(recursive: set[str]) -> set[str]:
    """The recursive targets already inside another one's watch: a --plugin-dir marketplace and
    its 150 plugins are one watch, not 151 (watchdog runs a thread per watch). A target reached
    through a symlink below the outer folder is not covered (a recursive watch does not follow
    links), nor one whose outer folder does not exist."""
    out: set[str] = set()
    ordered = sorted(recursive)
    real: dict[str, str] = {}
    for index, target in enumerate(ordered):
        for outer in reversed(ordered[:index]):
            if under(target, outer) and target != outer and os.path.isdir(outer):
                real_outer = real.get(outer) or real.setdefault(outer, os.path.realpath(outer))
                if os.path.realpath(target) == os.path.join(real_outer, os.path.relpath(target, outer)):
                    out.add(target)
                break
    return out
