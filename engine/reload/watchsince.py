"""What was written while the first load ran, before the watches were in place.

The watcher reads first and watches after (engine/reload/watch.py), so that the first skills of a
large catalog can be shown before the watches of its thousands of folders are added. A file
written in between raised no event: it is found here by its change time instead (the kernel
stamps every write, rename, create and delete with the inode's and the folder's ctime).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..catalog.loadcache import LoadCache

# Timestamps come from the kernel's coarse clock, which can lag the real one by a tick (1 to
# 10 ms): a write just after `since` may carry a stamp just before it. Re-reading a file that
# changed just before the load is harmless; missing one that changed after it is not.
MARGIN_NS = 50_000_000


def _changed(path: str, after: int) -> bool:
    """Written (or created, renamed, deleted) after `after`, or gone."""
    try:
        return os.stat(path).st_ctime_ns >= after
    except (OSError, ValueError):
        return True


def _appeared_or_changed(path: str, after: int) -> bool:
    """For a path that may not exist: changed if it is there, else if its nearest existing
    folder changed (it came and went, or went, in the meantime)."""
    if os.path.lexists(path):
        return _changed(path, after)
    parent = os.path.dirname(path)
    while parent and not os.path.isdir(parent) and parent != os.path.dirname(parent):
        parent = os.path.dirname(parent)
    return bool(parent) and _changed(parent, after)


def _names(root: str) -> set[str] | None:
    try:
        return set(os.listdir(root))
    except (OSError, ValueError):
        return None


def _skills_folders(cache: LoadCache, after: int) -> Iterable[str]:
    """Names that came, went or changed in each skills folder the load listed."""
    for root, names in cache.roots.items():
        if _appeared_or_changed(root, after):
            now = _names(root)
            if now is None:
                yield root
                continue
            # A folder added or removed (the cache keeps one result per name it saw).
            yield from (os.path.join(root, name) for name in now.symmetric_difference(names))
        for name, result in names.items():
            folder = os.path.join(root, name)
            # A SKILL.md created, replaced or removed in a folder changes the folder's ctime.
            if _changed(folder, after) or (result.link is not None and _changed(result.link, after)):
                yield folder


def written_since(cache: LoadCache, tracked: Iterable[str], since_ns: int) -> set[str]:
    """The paths to read again: every file the load read, every folder it listed and every path
    the watcher follows (settings, plugin registries, tier roots) that changed after `since_ns`."""
    after = since_ns - MARGIN_NS
    stale = set(_skills_folders(cache, after))
    for entry, _ in cache.files:
        if _changed(str(entry.path), after):
            stale.add(str(entry.path))
    for entries, _ in cache.commands.values():
        # A command file added beside others (commands/ns/new.md) changes its folder only.
        for folder in {str(entry.path.parent) for entry in entries}:
            if _changed(folder, after):
                stale.add(folder)
    for root in cache.commands:
        if _appeared_or_changed(root, after):
            stale.add(root)
    # Skills folders were compared name by name above: forgetting one whole would read all of
    # it again. Files that were not there at the load show up as a change of their folder.
    for path in {*tracked, *cache.plugin_inputs} - set(cache.roots):
        if _appeared_or_changed(path, after):
            stale.add(path)
    return stale
