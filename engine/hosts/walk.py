"""How a host walks one skills folder: how deep, whether hidden folders and symlinks count, and
whether a skill folder may hold more skills. Bounded in folders and depth, whatever a repository
plants (a symlink loop, a million folders): past a bound the walk stops and says so."""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

SKILL_FILE = "SKILL.md"
MAX_FOLDERS = 50_000
MAX_DEPTH = 24
# A stat of `SKILL.md` finds only that name where names are case-sensitive (Linux); on macOS or
# Windows it would find a `skill.md` that no agent reads, so there the folder is listed instead.
EXACT_NAMES = sys.platform.startswith("linux")


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
    files: list[str]  # as strings: a Path each would cost more than the walk itself
    stopped: str = ""  # why the walk ended early ("" when it did not)


def walk(root: Path, rules: WalkRules, limit: int = MAX_FOLDERS) -> Walked:
    """Every SKILL.md under `root` the rules reach, in a fixed order (names sorted at each level).
    One scandir per folder and no stat for a plain one (a folder's own inode comes with its entry):
    15,000 skill folders are walked at the floor's pace."""
    out = Walked([])
    try:
        info = os.stat(root)
    except OSError:
        return out
    seen: set[tuple[int, int]] = {(info.st_dev, info.st_ino)}
    budget = [limit]
    _folder(os.fspath(root), info.st_dev, 0, rules, seen, budget, out, out.files)
    return out


def _folder(
    folder: str,
    dev: int,
    depth: int,
    rules: WalkRules,
    seen: set[tuple[int, int]],
    budget: list[int],
    out: Walked,
    found: list[str],
) -> None:
    if budget[0] <= 0:
        out.stopped = f"stopped after {MAX_FOLDERS:,} folders"
        return
    budget[0] -= 1
    leaf = (rules.depth is not None and depth >= rules.depth) or depth >= MAX_DEPTH
    if (leaf or not rules.nested) and EXACT_NAMES:
        # Only the folder's own SKILL.md can count (a leaf), or finding it ends this folder: one
        # stat instead of a listing (Gemini CLI and Copilot CLI over 15,000 skill folders).
        own = os.path.join(folder, SKILL_FILE)
        if _is_skill_file(own, rules):
            found.append(own)
            return
        if leaf:
            return
    skill: os.DirEntry[str] | None = None
    folders: list[tuple[str, str, int, int]] = []
    try:
        with os.scandir(folder) as it:
            for entry in it:
                name = entry.name
                if name == SKILL_FILE:
                    skill = entry
                elif (rules.hidden or name[0] != ".") and name not in rules.skip:
                    key = _subfolder(entry, dev, rules)
                    if key is not None:
                        folders.append((name, entry.path, *key))
    except OSError:
        return
    if skill is not None and _counts(skill, rules):
        found.append(skill.path)
        if not rules.nested:
            return
    if leaf:
        return
    for _, path, sub_dev, ino in sorted(folders):
        if rules.once:
            if (sub_dev, ino) in seen:
                continue
            seen.add((sub_dev, ino))
        _folder(path, sub_dev, depth + 1, rules, seen, budget, out, found)


def _subfolder(entry: os.DirEntry[str], dev: int, rules: WalkRules) -> tuple[int, int] | None:
    """The (device, inode) of a folder to enter, or None for a file or a link the rules skip. A
    plain folder's inode is in its entry; only a link's target needs a stat."""
    try:
        if not entry.is_dir():
            return None
        if entry.is_symlink():
            if not rules.follow_folders:
                return None
            info = entry.stat()
            return info.st_dev, info.st_ino
    except OSError:
        return None
    return dev, entry.inode()


def _is_skill_file(path: str, rules: WalkRules) -> bool:
    try:
        info = os.stat(path) if rules.file_links else os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(info.st_mode)


def _counts(entry: os.DirEntry[str], rules: WalkRules) -> bool:
    try:
        if entry.is_symlink() and not rules.file_links:
            return False
        return entry.is_file()
    except OSError:
        return False
