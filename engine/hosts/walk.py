"""How a host walks one skills folder: how deep, whether hidden folders and symlinks count, and
whether a skill folder may hold more skills. Bounded in folders and depth, whatever a repository
plants (a symlink loop, a million folders): past a bound the walk stops and says so."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SKILL_FILE = "SKILL.md"
MAX_FOLDERS = 50_000
MAX_DEPTH = 24


@dataclass(frozen=True)
class WalkRules:
    depth: int | None = None  # folders below the root that may hold a SKILL.md (0: the root only)
    hidden: bool = False  # read folders whose name starts with `.`
    skip: frozenset[str] = frozenset()  # folder names never read (node_modules, ...)
    follow_folders: bool = True  # enter a folder that is a symlink
    file_links: bool = True  # a SKILL.md that is a symlink to a file counts
    nested: bool = True  # look inside a folder that has its own SKILL.md
    once: bool = True  # a folder reached twice (a symlink loop) is read once


@dataclass
class Walked:
    files: list[Path]
    stopped: str = ""  # why the walk ended early ("" when it did not)


def _is_file(path: Path, rules: WalkRules) -> bool:
    try:
        if path.is_symlink() and not rules.file_links:
            return False
        return path.is_file()
    except OSError:
        return False


def walk(root: Path, rules: WalkRules, limit: int = MAX_FOLDERS) -> Walked:
    """Every SKILL.md under `root` the rules reach, in a fixed order (names sorted at each level)."""
    out = Walked([])
    seen: set[tuple[int, int]] = set()
    budget = [limit]
    for path in _folder(root, 0, rules, seen, budget, out):
        out.files.append(path)
    return out


def _folder(
    folder: Path, depth: int, rules: WalkRules, seen: set[tuple[int, int]], budget: list[int], out: Walked
) -> Iterator[Path]:
    if budget[0] <= 0:
        out.stopped = f"stopped after {MAX_FOLDERS:,} folders"
        return
    budget[0] -= 1
    try:
        info = folder.stat()
    except OSError:
        return
    if rules.once:
        key = (info.st_dev, info.st_ino)
        if key in seen:
            return
        seen.add(key)
    has_skill = _is_file(folder / SKILL_FILE, rules)
    if has_skill:
        yield folder / SKILL_FILE
        if not rules.nested:
            return
    if (rules.depth is not None and depth >= rules.depth) or depth >= MAX_DEPTH:
        return
    try:
        with os.scandir(folder) as entries:
            names = sorted((e.name, e.is_symlink()) for e in entries if e.is_dir())
    except OSError:
        return
    for name, link in names:
        if (name.startswith(".") and not rules.hidden) or name in rules.skip or (link and not rules.follow_folders):
            continue
        yield from _folder(folder / name, depth + 1, rules, seen, budget, out)
