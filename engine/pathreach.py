"""Where a path in a tool call really leads: `~` expanded, `..` folded, symlinks followed.

A model (or a cloned repository's skill) writes paths; rules and the working-folder boundary
are about places. `docs -> ~/.ssh` inside the project, `../` in a glob pattern and `~/` in a
file path all lead somewhere other than the text says; these helpers say where.
"""

from __future__ import annotations

import os
from pathlib import Path

_GLOB = frozenset("*?[{")


def expand_path(path: str, cwd: Path, home: Path) -> Path:
    """`path` as an absolute path, `~` and `~/x` expanded to `home`, `..` folded (not resolved)."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    return Path(os.path.normpath(path if os.path.isabs(path) else cwd / path))


def real(path: Path) -> Path:
    """`path` with every symlink followed (as far as it exists), as the kernel would open it."""
    return Path(os.path.realpath(path))


def inside(path: Path, folders: tuple[Path, ...]) -> bool:
    return any(path == folder or path.is_relative_to(folder) for folder in folders)


def glob_reach(root: Path, pattern: str, home: Path) -> Path | None:
    """The folder a glob pattern searched from `root` can reach: its fixed leading part
    (`../../*` reaches `root/../..`, `/etc/*.conf` reaches `/etc`). None when a `..` comes after
    a wildcard (`*/../../x`), which no fixed folder bounds."""
    if pattern == "~" or pattern.startswith("~/"):
        pattern = str(home) + pattern[1:]
    parts = pattern.split("/")
    fixed: list[str] = []
    wild = False
    for part in parts:
        if wild:
            if part == "..":
                return None
            continue
        if any(ch in _GLOB for ch in part):
            wild = True
            continue
        fixed.append(part)
    if not wild and fixed:
        fixed = fixed[:-1]  # a pattern without wildcards names a file: it reaches its folder
    if pattern.startswith("/"):
        return Path(os.path.normpath("/" + "/".join(p for p in fixed if p)))
    return Path(os.path.normpath(root.joinpath(*[p for p in fixed if p]) if fixed else root))
