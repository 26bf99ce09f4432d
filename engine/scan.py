"""The bounded, cycle-safe walk of skills and commands folders.

Claude Code only looks at `<skills>/<dir>/SKILL.md`. Everything else a user may have put in a
skills folder (a loose `foo.md`, a `skill.md`, a skill nested one level too deep, a dangling
symlink) is reported here instead of being skipped silently. The walk is bounded: depth 6, 2,000
folders per root that are not skills (skill folders are never bounded: Claude Code loads them
all), cycles detected by canonical path. Hidden folders load, as in Claude Code
2.1.328 (`.hidden/SKILL.md` is the skill `.hidden`, `commands/.x.md` the command `.x`); a skills
folder named `synced` is reserved for Claude Code's account sync and never loads.

Each result is in Claude Code's order: `localeCompare` of the names (sources/collate.py).
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import NamedTuple

from .diagnostics import Sink
from .model import Diagnostic
from .skillfile import Entry
from .sources.collate import collation_key

MAX_DEPTH = 6
# Claude Code finds commands at any depth (recorded: load_commands_edge); this only stops a
# runaway tree.
MAX_COMMAND_DEPTH = 32
RESERVED_DIR = "synced"
# What Claude Code keeps of a plugin skill's folder name: the rest becomes `-` (`.x` is `-x`).
_PLUGIN_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def plugin_skill_stem(folder: str) -> str:
    return _PLUGIN_UNSAFE.sub("-", folder)


def entry_order(entry: Entry) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], str]:
    return collation_key(f"{entry.namespace}:{entry.stem}" if entry.namespace else entry.stem)


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

    def enter(self, path: str) -> bool:
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
                f"skilldeck stopped after {MAX_DIRS_PER_ROOT:,} folders without a SKILL.md; Claude Code has no such bound "
                "and still loads the skills past this point, which skilldeck does not show",
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


def _scandir(path: str | Path, sink: Sink) -> list[os.DirEntry[str]] | None:
    try:
        with os.scandir(path) as it:
            return sorted(it, key=lambda e: e.name)
    except PermissionError:
        sink.error(
            "unreadable",
            Path(path),
            "cannot list this folder (permission denied); nothing in it loads",
            f"chmod a+rx {path}",
        )
    except OSError as exc:
        sink.error("unreadable", Path(path), f"cannot list this folder: {exc.strerror}", "check the folder")
    return None


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


class NameResult(NamedTuple):
    """What one name in a skills folder gave: kept between loads until that name changes."""

    entries: tuple[Entry, ...]
    diagnostics: tuple[Diagnostic, ...]
    # Folders the walk entered for this name, for the per-root bound.
    dirs: int
    # The real path of the folder when the name is a symlink (its edits happen there).
    link: str | None


def scan_skills_root(
    root: Path,
    sink: Sink,
    namespace: str = "",
    name_from_frontmatter: bool = False,
    cache: dict[str, NameResult] | None = None,
) -> list[Entry]:
    """Find `<root>/<dir>/SKILL.md`, and explain everything else found in `root`.

    With `cache`, names already in it are taken from it unread, and the names read now are
    added to it: a reload after one folder changed re-reads that folder only.
    """
    if root_problem(root, sink):
        return []
    walk = _Walk(root, sink)
    chain = (os.path.realpath(root),)
    entries = _scandir(root, sink)
    if entries is None:
        return []
    found: list[Entry] = []
    for entry in entries:
        name = entry.name
        if not namespace and name.casefold() == RESERVED_DIR:
            _reserved(Path(entry.path), sink)
            continue
        known = cache.get(name) if cache is not None else None
        if known is None:
            local = Sink()
            before = walk.dirs
            walk.sink = local
            try:
                found_here = _scan_name(entry, root, walk, local, namespace, name_from_frontmatter, chain)
                link = os.path.realpath(entry.path) if entry.is_symlink() else None
            except (OSError, RuntimeError) as exc:
                # A name that changed under the walk (deleted, replaced) or a chain of links
                # deep enough to exhaust realpath's recursion: a finding about this name only.
                local.warning("unreadable", Path(entry.path), f"cannot scan this entry: {_reason(exc)}; skipped", "load again")
                found_here, link = [], None
            walk.sink = sink
            known = NameResult(tuple(found_here), tuple(local.items), walk.dirs - before, link)
            if cache is not None and not walk.stopped:
                cache[name] = known
        else:
            walk.dirs += known.dirs
            if walk.dirs > MAX_DIRS_PER_ROOT:
                walk.stop()
        if walk.stopped:
            break
        found.extend(known.entries)
        sink.items.extend(known.diagnostics)
    found.sort(key=entry_order)
    return found


def _reserved(path: Path, sink: Sink) -> None:
    try:
        is_dir = os.path.isdir(path)
    except ValueError:
        is_dir = False
    if is_dir:
        sink.warning(
            "reserved-name",
            path,
            "a skills folder named `synced` is reserved for Claude Code's account sync: Claude Code skips it",
            f"rename the folder (mv {path} {path.parent}/<another-name>)",
            skill=path.name,
        )


def _scan_name(
    entry: os.DirEntry[str],
    root: Path,
    walk: _Walk,
    sink: Sink,
    namespace: str,
    name_from_frontmatter: bool,
    chain: tuple[str, ...],
) -> list[Entry]:
    if _symlink_problem(entry, sink):
        return []
    if _is_dir(entry):
        # Only folders without a SKILL.md count toward the bound: Claude Code loads every skill
        # folder however many there are (recorded: load_many), and the bound is there for the
        # walk that explains the other folders.
        is_skill = _has_skill_file(entry.path)
        if not is_skill and not walk.enter(entry.path):
            return []
        if is_skill:
            stem = plugin_skill_stem(entry.name) if namespace else entry.name
            if stem != entry.name:
                sink.info(
                    "renamed",
                    Path(entry.path),
                    f"Claude Code names this skill /{namespace}:{stem}: in a plugin's skill folder name, characters "
                    "other than letters, digits, _ and - become -",
                    f"rename the folder to {stem}",
                    skill=f"{namespace}:{stem}",
                )
            return [Entry(Path(entry.path, "SKILL.md"), stem, namespace, name_from_frontmatter)]
        _explain_dir(Path(entry.path), walk, sink, chain)
    elif entry.name.lower().endswith(".md"):
        _loose_markdown(Path(entry.path), root, sink)
    return []


def single_skill(skill_dir: Path, namespace: str = "", name_from_frontmatter: bool = False) -> Entry:
    return Entry(skill_dir / "SKILL.md", skill_dir.name, namespace, name_from_frontmatter)


def _loose_markdown(path: Path, root: Path, sink: Sink) -> None:
    if path.name == "SKILL.md":
        sink.warning(
            "loose-markdown",
            path,
            "SKILL.md directly in a skills folder is not a skill: each skill needs its own folder",
            f"move it to {root}/<skill-name>/SKILL.md",
        )
    elif path.name.lower() == "readme.md":
        sink.info("loose-markdown", path, "README.md in a skills folder is not loaded (that is fine)", "")
    else:
        sink.warning(
            "loose-markdown",
            path,
            f"{path.name} is not a skill: Claude Code only loads <folder>/SKILL.md here",
            f"move it to {root}/{path.stem}/SKILL.md (or to .claude/commands/ for a command)",
        )


def _explain_dir(skill_dir: Path, walk: _Walk, sink: Sink, chain: tuple[str, ...]) -> None:
    """A folder in a skills root without SKILL.md: say what is wrong with it."""
    if os.path.lexists(skill_dir / ".claude-plugin"):
        # A plugin kept in a skills folder: the plugin loader reads it (sources.plugins).
        return
    listing = _scandir(skill_dir, sink)
    real = _cycle_free(str(skill_dir), chain, sink) if listing is not None else None
    if listing is None or real is None:
        return
    for entry in listing:
        if entry.name.lower() == "skill.md" and entry.name != "SKILL.md":
            sink.error(
                "skill-file-lowercase",
                Path(entry.path),
                f"the file is named {entry.name}; Claude Code only loads SKILL.md (upper case) on Linux",
                f"git mv {entry.name} SKILL.md (or mv on a case-sensitive disk)",
                skill=skill_dir.name,
            )
            return
    nested = _find_nested(listing, walk, sink, 2, (*chain, real))
    if nested:
        for path in nested:
            rel = path.parent.relative_to(skill_dir.parent)
            sink.warning(
                "too-deep",
                path,
                f"SKILL.md found at {rel}/, deeper than Claude Code looks (<skills>/<name>/SKILL.md); not loaded",
                f"move {path.parent.name}/ up to {skill_dir.parent}/{path.parent.name}/",
            )
        return
    sink.warning(
        "not-a-skill-dir",
        skill_dir,
        "this folder has no SKILL.md, so Claude Code ignores it",
        f"add {skill_dir.name}/SKILL.md, or move the folder out of the skills folder",
    )


def _find_nested(listing: list[os.DirEntry[str]], walk: _Walk, sink: Sink, depth: int, chain: tuple[str, ...]) -> list[Path]:
    """SKILL.md files below a folder that should have held one itself."""
    out: list[Path] = []
    for entry in listing:
        if entry.name.startswith(".") or _symlink_problem(entry, sink) or not _is_dir(entry):
            continue
        if not walk.enter(entry.path):
            break
        real = _cycle_free(entry.path, chain, sink)
        if real is None:
            continue
        if _has_skill_file(entry.path):
            out.append(Path(entry.path, "SKILL.md"))
        elif depth < MAX_DEPTH:
            sub = _scandir(entry.path, sink)
            if sub:
                out.extend(_find_nested(sub, walk, sink, depth + 1, (*chain, real)))
    return out


def scan_commands_root(root: Path, sink: Sink, namespace: str = "") -> list[Entry]:
    """`commands/**/*.md`: each file a command; a subfolder adds `folder:` to the name.

    As in Claude Code, every folder is walked (hidden ones too), and a folder holding a
    `SKILL.md` (any case) is one command in the skill format, named by the folder: the other
    `.md` files beside it are not commands, the folders below it still are searched.
    """
    if root_problem(root, sink):
        return []
    walk = _Walk(root, sink)
    found: list[Entry] = []
    _walk_commands(root, (), walk, sink, namespace, found, (os.path.realpath(root),))
    found.sort(key=entry_order)
    return found


def _walk_commands(
    folder: Path, parts: tuple[str, ...], walk: _Walk, sink: Sink, namespace: str, found: list[Entry], chain: tuple[str, ...]
) -> None:
    if len(parts) > MAX_COMMAND_DEPTH:
        return
    listing = _scandir(folder, sink)
    if listing is None:
        return
    ns = ":".join(p for p in (namespace, *parts) if p)
    files: list[os.DirEntry[str]] = []
    folders: list[os.DirEntry[str]] = []
    for entry in listing:
        if _symlink_problem(entry, sink):
            continue
        if _is_dir(entry):
            folders.append(entry)
        elif entry.name.endswith(".md"):
            files.append(entry)
        elif entry.name.lower().endswith(".md"):
            sink.warning(
                "not-loaded",
                Path(entry.path),
                f"{entry.name} is not a command: Claude Code only reads files ending in .md (lower case)",
                f"rename it to {entry.name[:-3]}.md",
            )
    skill_files = [f for f in files if f.name.lower() == "skill.md"]
    if skill_files:
        # The folder is one command in the skill format, named by the folder (at the top of
        # commands/, by that folder: `commands`).
        chosen = next((f for f in skill_files if f.name == "SKILL.md"), skill_files[0])
        stem = parts[-1] if parts else folder.name
        parent_ns = ":".join(p for p in (namespace, *parts[:-1]) if p)
        command = f"{parent_ns}:{stem}" if parent_ns else stem
        found.append(Entry(Path(chosen.path), stem, parent_ns, False, True))
        for other in files:
            if other is not chosen:
                sink.info(
                    "not-loaded",
                    Path(other.path),
                    f"{other.name} sits beside {chosen.name}: Claude Code loads this folder as the one command "
                    f"/{command} and not this file",
                    "move it to its own folder if it should be a command of its own",
                )
    else:
        found.extend(Entry(Path(f.path), f.name[:-3], ns, False, False) for f in files)
    for entry in folders:
        if not walk.enter(entry.path):
            return
        real = _cycle_free(entry.path, chain, sink)
        if real is not None:
            _walk_commands(Path(entry.path), (*parts, entry.name), walk, sink, namespace, found, (*chain, real))
