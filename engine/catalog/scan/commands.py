"""A commands folder scanned: `commands/**/*.md`, each file a command, a folder with a SKILL.md one
command in the skill format."""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import Sink
from ..skillfile import Entry
from .walk import _cycle_free, _is_dir, _scandir, _symlink_problem, _Walk, entry_order, root_problem

# Claude Code finds commands at any depth (recorded: load_commands_edge); this only stops a
# runaway tree.
MAX_COMMAND_DEPTH = 32


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
