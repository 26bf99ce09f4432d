"""What every walk of a skills or commands folder shares: its bounds (depth, folders explained per root),
cycle detection by canonical path, listing a folder and judging a symlink without ever raising,
a root that cannot be scanned, and Claude Code's order of the entries found."""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Callable
from itertools import islice, pairwise
from pathlib import Path
from stat import S_ISLNK

from ..diagnostics import Sink
from ..skillfile import Entry
from ..sources.collate import collation_key

MAX_DEPTH = 6


def entry_order(entry: Entry) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], str]:
    return collation_key(f"{entry.namespace}:{entry.stem}" if entry.namespace else entry.stem)


# Lower-case letters, digits and `-`: their collation weights rise with their code points (checked
# below), so names made of them alone sort the same by either.
_PLAIN_NAME = re.compile(r"[-0-9a-z]+")


def _plain_names_sort_alike() -> bool:
    chars = "-0123456789abcdefghijklmnopqrstuvwxyz"
    keys = [collation_key(c) for c in chars]
    return keys == sorted(keys) and len({k[0] for k in keys}) == len(chars)


_PLAIN_ORDER = _plain_names_sort_alike()


def disk_order_ties(found: list[Entry], folder: Path) -> None:
    """Put the entries whose names `localeCompare` cannot tell apart (`0`, `٠` and `०`; an NFC
    and an NFD `é`) in the order the disk lists their folders in `folder`, as Claude Code's
    stable sort of what it read leaves them (recorded: order_scripts); `found` is sorted by
    entry_order, whose last tiebreak, the name, is then undone for them only."""
    keys = [entry_order(e)[:3] for e in found]
    if all(a != b for a, b in pairwise(keys)):
        return
    try:
        with os.scandir(folder) as it:
            disk = {e.name: i for i, e in enumerate(islice(it, MAX_NAMES_PER_ROOT))}
    except OSError:
        return
    start = 0
    for end in range(1, len(found) + 1):
        if end == len(found) or keys[end] != keys[start]:
            if end - start > 1:
                found[start:end] = sorted(found[start:end], key=lambda e: disk.get(_first_part(e.path, folder), len(disk)))
            start = end


def _first_part(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).parts[0]
    except (ValueError, IndexError):
        return ""


def in_collation_order(found: list[Entry]) -> bool:
    """Whether the entries of one folder, listed in code point order (as `_scandir` lists them),
    are already in Claude Code's order: when every name is plain (lower-case letters, digits
    and `-`), the two orders are one, and the sort key of each of 15,000 names is not needed."""
    return (
        _PLAIN_ORDER
        and all(_PLAIN_NAME.fullmatch(e.stem) for e in found)
        and all(a.stem < b.stem and a.namespace == b.namespace for a, b in pairwise(found))
    )


# Folders without a SKILL.md that one root's walk explains (lists, and searches below for a
# skill nested too deep). Past it a folder is still checked for its SKILL.md (one lstat, as
# Claude Code does for every folder, with no bound: recorded load_many, load_many_mixed,
# plugin_many), so every skill loads; only the explaining stops. A million empty folders then
# cost one listing and one lstat each.
MAX_DIRS_PER_ROOT = 2000


class _Walk:
    """Bounds shared by one root's walk."""

    def __init__(self, root: Path, sink: Sink) -> None:
        self.root = root
        # Where per-name findings go (swapped while a name is read); the bound's own
        # diagnostic always goes to the root's sink.
        self.sink = sink
        self.root_sink = sink
        self.dirs = 0
        self.stopped = False
        self._chain: tuple[str, ...] | None = None

    def chain(self) -> tuple[str, ...]:
        """The root's real path, where every cycle check of the walk starts: looked up when a
        folder is first explained, not for every skills folder (a realpath is an lstat per
        component of a long path, three times for each of 150 plugins)."""
        if self._chain is None:
            self._chain = (os.path.realpath(self.root),)
        return self._chain

    def enter(self, path: str) -> bool:
        """Whether one more folder may be explained."""
        if self.stopped:
            return False
        self.dirs += 1
        if self.dirs > MAX_DIRS_PER_ROOT:
            self.stop()
            return False
        return True

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.root_sink.warning(
                "scan-limit",
                self.root,
                f"more than {MAX_DIRS_PER_ROOT:,} folders here have no SKILL.md: skilldeck stopped explaining them "
                "(every skill folder still loads, as in Claude Code)",
                "move the folders that are not skills out of this folder",
            )


def _cycle_free(path: str, chain: tuple[str, ...], sink: Sink) -> str | None:
    """The real path of `path`, or None (with a diagnostic) when following it would lead back
    into a folder on the current walk. Only the path being walked counts, so what one name
    finds never depends on another (which lets a reload re-read one name alone)."""
    real = os.path.realpath(path)
    for folder in chain:
        if folder == real or folder.startswith(real + os.sep):
            sink.warning(
                "symlink-cycle",
                Path(path),
                f"this folder leads back to {real}, which contains it; not followed",
                "remove the symlink or point it somewhere outside its own tree",
            )
            return None
    return real


def real_folder(path: str, known: dict[str, str]) -> str:
    """`os.path.realpath(path)`, the real paths of the folders above it taken from `known` and
    added to it: a folder that is not a link is its parent's real path and its own name (one
    lstat), where a realpath looks at every component of a long path again (150 plugins of a
    marketplace share all but the last two). Relative paths and `.`/`..` go to realpath."""
    real = known.get(path)
    if real is not None:
        return real
    head, _, name = path.rpartition(os.sep)
    if not head or not path.startswith(os.sep) or name in ("", ".", ".."):
        real = os.path.realpath(path)
    else:
        try:
            link = S_ISLNK(os.lstat(path).st_mode)
        except OSError:  # realpath takes a name it cannot look at as it is
            link = False
        if link:
            real = os.path.realpath(path)
        else:
            above = real_folder(head, known)
            real = f"{above}{name}" if above.endswith(os.sep) else f"{above}{os.sep}{name}"
    known[path] = real
    return real


# Names read from one skills folder. Claude Code reads every one; the largest public
# collections hold about 16,000 skills, so this only ends a hostile folder (a million empty
# folders: read in about 0.4 s instead of a minute), and says so.
MAX_NAMES_PER_ROOT = 100_000


def _scandir(path: str | Path, sink: Sink, limit: int | None = None) -> list[os.DirEntry[str]] | None:
    """The folder's entries by name; with `limit`, at most that many are read (in the order the
    file system gives them, so a hostile folder costs no more than `limit` entries)."""
    try:
        with os.scandir(path) as it:
            if limit is None:
                return sorted(it, key=lambda e: e.name)
            entries = list(islice(it, limit + 1))
    except PermissionError:
        sink.error(
            "unreadable",
            Path(path),
            "cannot list this folder (permission denied); nothing in it loads",
            f"chmod a+rx {path}",
        )
        return None
    except OSError as exc:
        sink.error("unreadable", Path(path), f"cannot list this folder: {exc.strerror}", "check the folder")
        return None
    if len(entries) > limit:
        sink.warning(
            "scan-limit",
            Path(path),
            f"this folder holds more than {limit:,} entries: skilldeck read {limit:,} of them (in the order the disk "
            "gives them) and stopped; Claude Code reads them all, so it may load skills skilldeck does not show",
            "split the folder, or move what is not a skill out of it",
        )
        del entries[limit:]
    return sorted(entries, key=lambda e: e.name)


def _symlink_problem(entry: os.DirEntry[str], sink: Sink) -> bool:
    """Report a dangling, looping or otherwise unusable symlink; True when the entry must be
    skipped. Any error of the kernel here is a finding about this one link, never a crash."""
    try:
        if not entry.is_symlink():
            return False
        os.stat(entry.path)
    except FileNotFoundError:
        sink.warning(
            "broken-symlink",
            Path(entry.path),
            f"symlink to {_link_target(entry.path)}, which does not exist; skipped",
            "fix the target or delete the link",
        )
        return True
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            sink.warning(
                "symlink-cycle",
                Path(entry.path),
                "this symlink loops back on itself; skipped",
                "delete the link or point it at a real folder",
            )
        else:
            # ENOTDIR (a link to /etc/hostname/x), EACCES, ENAMETOOLONG, a link deleted meanwhile...
            sink.warning(
                "broken-symlink",
                Path(entry.path),
                f"symlink to {_link_target(entry.path)}, which cannot be reached ({exc.strerror or exc}); skipped",
                "fix the target or delete the link",
            )
        return True
    return False


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or type(exc).__name__


def _link_target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "a target that went away"


def _has_skill_file(folder: str) -> bool:
    """Whether `folder/SKILL.md` exists as anything at all. A FIFO, a device or a dangling link
    named SKILL.md is a skill file that cannot be read: it is loaded (and so reported by the
    load), not mistaken for a folder without one."""
    return os.path.lexists(os.path.join(folder, "SKILL.md"))


def _skill_file_mode(folder: str) -> int | None:
    """`_has_skill_file` that also tells what the file is: its lstat mode, or None when there is
    none (a symlink named SKILL.md is S_IFLNK, whatever it points at)."""
    try:
        # `folder` is a listing's entry path, which never ends in a separator: joined by hand
        # (os.path.join is a tenth of the scan at 15,000 folders).
        return os.lstat(f"{folder}{os.sep}SKILL.md").st_mode
    except (OSError, ValueError):
        return None


# A child Path from a name the directory listing gave (one component, never `.`, `..` or a
# separator) without parsing it again: pathlib's own shortcut for that case, where this Python
# has it; joinpath, which gives the same Path, where not. A third of the cost, 15,000 times.
_CHILD = getattr(Path, "_make_child_relpath", None)


def _skill_path(root: Path, name: str) -> Path:
    """`root / name / "SKILL.md"`."""
    if _WITH_TEXT is not None:
        return _WITH_TEXT(root, name)
    if _CHILD is not None:
        return _CHILD(_CHILD(root, name), "SKILL.md")  # type: ignore[no-any-return]
    return root.joinpath(name, "SKILL.md")


def _skill_path_with_text(root: Path, name: str) -> Path:
    """Python 3.11's pathlib: the Path made from its parts in one step, with its text already
    set (the text of the root, the name and SKILL.md), where pathlib would make two Paths and
    then join a dozen parts on the first `str()` or `open()`: three quarters of what the Path
    of each of 15,000 skills cost. Only for an absolute root other than `/`, whose text is then
    exactly that; any other root gets its Path as pathlib makes it."""
    if root._root != os.sep or root._drv:  # type: ignore[attr-defined]
        return _CHILD(_CHILD(root, name), "SKILL.md")  # type: ignore[misc, no-any-return]
    text = str(root)
    if text == os.sep:
        return _CHILD(_CHILD(root, name), "SKILL.md")  # type: ignore[misc, no-any-return]
    path = type(root)._from_parsed_parts("", os.sep, [*root._parts, name, "SKILL.md"])  # type: ignore[attr-defined]
    path._str = f"{text}{os.sep}{name}{os.sep}SKILL.md"
    return path  # type: ignore[no-any-return]


def _checked_with_text() -> Callable[[Path, str], Path] | None:
    """`_skill_path_with_text` where it gives what pathlib gives (the Path, its type, its text
    and its parent, for a sample root); None elsewhere (another Python's pathlib)."""
    if sys.version_info[:2] != (3, 11) or _CHILD is None:
        return None
    try:
        for root in (Path("/a/b"), Path("/a")):
            fast, slow = _skill_path_with_text(root, "c d"), root / "c d" / "SKILL.md"
            if (fast, type(fast), str(fast), fast.parent, str(fast.parent)) != (
                slow,
                type(slow),
                str(slow),
                slow.parent,
                str(slow.parent),
            ):
                return None
    except (AttributeError, TypeError):
        return None
    return _skill_path_with_text


_WITH_TEXT = _checked_with_text()


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def root_problem(root: Path, sink: Sink) -> bool:
    """True when a root cannot be scanned (absent is not a problem, only reported when odd)."""
    # os.path's checks answer False on any error (pathlib's raise on EACCES in Python 3.11).
    if os.path.islink(root) and not os.path.exists(root):
        sink.warning(
            "broken-symlink", root, f"symlink to {_link_target(str(root))}, which does not exist", "fix or delete the link"
        )
        return True
    try:
        os.stat(root)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except OSError as exc:
        # EACCES on a folder above it (a cloned repository's .claude/ with mode 000, say): the
        # tier may hold skills, and none of them can load.
        sink.error("unreadable", root, f"cannot reach this folder: {_reason(exc)}; nothing in it loads", "check the permissions")
        return True
    except ValueError:  # a NUL byte in a path from a manifest or the command line
        return True
    if not os.path.isdir(root):
        sink.warning("not-a-skill-dir", root, "this is a file, not a folder; nothing loads from it", "make it a folder")
        return True
    return False
