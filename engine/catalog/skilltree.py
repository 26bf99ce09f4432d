"""The files of one skill folder, for the details view: a bounded, iterative listing.

A skill folder may hold a node_modules of 100,000 files, or a chain of folders 1,000 deep on
which the recursive `os.walk` of Python 3.11 raises RecursionError (in the app's worker, which
ended the app). This listing stops at a depth and a count, and says when it did.
"""

from __future__ import annotations

import os
from pathlib import Path

from .scan import MAX_DEPTH


def skill_files(base_dir: Path, limit: int = 500, depth: int = MAX_DEPTH) -> tuple[list[str], bool]:
    """The files of a skill folder other than SKILL.md, relative and sorted by folder, for a
    details view: hidden names skipped, symlinks not followed, at most `limit` files and `depth`
    levels (a skill may hold a node_modules, or a chain of folders 1,000 deep, on which a
    recursive os.walk raises RecursionError). True when something was left out."""
    out: list[str] = []
    pending = [(base_dir, Path(), 0)]
    cut = False
    # Folders count too: a skill holding a million empty folders must not be walked whole.
    budget = limit * 100
    while pending:
        folder, rel, level = pending.pop(0)
        budget -= 1
        if budget < 0:
            return out, True
        try:
            with os.scandir(folder) as it:
                entries = sorted((e for e in it if not e.name.startswith(".")), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if level + 1 < depth:
                    pending.append((Path(entry.path), rel / entry.name, level + 1))
                else:
                    cut = True
            elif not (level == 0 and entry.name == "SKILL.md"):
                if len(out) >= limit:
                    return out, True
                out.append(str(rel / entry.name))
    return out, cut
