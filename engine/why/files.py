"""The few looks at the disk a trace takes: `lstat`, `stat` and `realpath`, never a read.

Each answers False or None where `os` would raise (a NUL byte, a name too long, a loop of
links), so that no query and no file tree can crash a trace.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..catalog.model import Source


def lexists(path: Path) -> bool:
    try:
        return os.path.lexists(path)
    except (ValueError, OSError):  # a NUL byte, a name too long
        return False


def isdir(path: Path) -> bool:
    try:
        return os.path.isdir(path)
    except (ValueError, OSError):
        return False


def real(path: Path) -> Path:
    try:
        return Path(os.path.realpath(path))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a chain of links deep enough to exhaust it
        return path


def under(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def relative(path: Path, source: Source) -> tuple[str, ...]:
    """`path`'s parts below the root of `source`, as found or through links; () when outside it."""
    for base, target in ((source.root, path), (real(source.root), real(path))):
        if under(target, base):
            return target.relative_to(base).parts
    return ()


def size(file: Path) -> int | None:
    """The size of a regular file, links followed; None for anything else."""
    try:
        st = os.stat(file)
    except (OSError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None
