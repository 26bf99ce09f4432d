"""Workspace trust: whether a project's own settings may approve anything.

A fresh clone is not trusted: Claude Code ignores the `allow` rules in its `.claude/settings.json`
and `.claude/settings.local.json` until the user accepts the trust dialog for that folder (it
records the answer in its global config, `~/.claude.json` or `$CLAUDE_CONFIG_DIR/.claude.json`,
as `projects[<folder>].hasTrustDialogAccepted`). A repository's `"allow": ["Bash"]` must not
run anything on the strength of having been cloned. skilldeck reads Claude Code's record, and
keeps its own (`<state>/trusted-projects.json`) for a user who trusts a folder in skilldeck;
it never writes Claude Code's file.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.bounds import json_too_deep
from ..base.safeio import read_regular
from ..base.state import state_dir
from ..catalog.locations import Locations

# Claude Code's global config keeps history per project and can grow to many megabytes.
CONFIG_CAP = 64 * 1024 * 1024


@dataclass(frozen=True)
class Trust:
    """Whether Claude Code trusts the project folder, and what says so."""

    trusted: bool
    # Where the answer comes from: the file that records it, or why there is none.
    source: str


def claude_config_file(locations: Locations) -> Path:
    """Claude Code's global config file for these locations."""
    configured = locations.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser() / ".claude.json"
    user = locations.user
    return user.parent / ".claude.json" if user.name == ".claude" else user / ".claude.json"


def skilldeck_trust_file(locations: Locations) -> Path:
    return state_dir(locations.environ) / "trusted-projects.json"


def _load(path: Path, *, deep_ok: bool = False) -> Any:
    """The JSON value in `path`, None when it cannot be read. `deep_ok` skips the nesting count
    before parsing: json.loads stops deep nesting itself (RecursionError), and on a 60 MB
    ~/.claude.json the count took 2.2 s of every reload; only use it where the result is read
    a level or two deep, never walked."""
    try:
        data, _ = read_regular(path, CONFIG_CAP)
        text = data.decode("utf-8")
        return None if not deep_ok and json_too_deep(text) else json.loads(text, parse_constant=_not_json)
    except (OSError, ValueError, RecursionError):
        return None


def _not_json(name: str) -> Any:
    # NaN and Infinity are no JSON: Claude Code's JSON.parse rejects the whole file, so its trust
    # and usage records are not there for it either.
    raise ValueError(f"{name} is not JSON")


# The last config read, by file identity: it is read again after every reload (for usage
# scores and trust) and can hold megabytes of history, so an unchanged file is not parsed twice.
_last_config: tuple[tuple[str, int, int, int], dict[str, Any]] | None = None


def _kept(data: dict[str, Any]) -> dict[str, Any]:
    """The parts of the config skilldeck reads: kept whole, a 60 MB file of history held 180 MB
    for as long as the app ran."""
    kept: dict[str, Any] = {}
    if "skillUsage" in data:
        kept["skillUsage"] = data["skillUsage"]
    projects = data.get("projects")
    if isinstance(projects, dict):
        kept["projects"] = {
            folder: {"hasTrustDialogAccepted": entry.get("hasTrustDialogAccepted")}
            for folder, entry in projects.items()
            if isinstance(entry, dict) and "hasTrustDialogAccepted" in entry
        }
    return kept


def claude_config(locations: Locations) -> dict[str, Any]:
    """What skilldeck reads of Claude Code's global config (`skillUsage`, and each project's
    `hasTrustDialogAccepted`), shared: do not change it; empty when missing, unreadable or not
    an object."""
    global _last_config
    path = claude_config_file(locations)
    try:
        st = os.stat(path)
        key = (str(path), st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        return {}
    last = _last_config
    if last is not None and last[0] == key:
        return last[1]
    data = _load(path, deep_ok=True)
    config = _kept(data) if isinstance(data, dict) else {}
    _last_config = (key, config)
    return config


def _folders(locations: Locations) -> list[str]:
    """The project and each folder above it up to its repository's root: trust given there
    covers the project, trust given above the repository does not (recorded, tests/oracle)."""
    folders = locations.project_dirs()
    seen = [*folders, *(Path(os.path.realpath(f)) for f in folders)]
    return list(dict.fromkeys(str(p) for p in seen))


def workspace_trust(locations: Locations) -> Trust:
    config = claude_config_file(locations)
    # Read through the cache: settings are read on every reload, and this file can be huge.
    projects = claude_config(locations).get("projects")
    if isinstance(projects, dict):
        for folder in _folders(locations):
            entry = projects.get(folder)
            if isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True:
                return Trust(True, f"trusted in Claude Code ({config})")
    mine = skilldeck_trust_file(locations)
    trusted = _load(mine)
    if isinstance(trusted, list) and any(folder in trusted for folder in _folders(locations)):
        return Trust(True, f"trusted in skilldeck ({mine})")
    return Trust(False, f"not trusted: neither {config} nor {mine} records trust for {locations.project}")


def trust_workspace(locations: Locations) -> Path:
    """Record in skilldeck's own file that the user trusts this project (atomically)."""
    path = skilldeck_trust_file(locations)
    path.parent.mkdir(parents=True, exist_ok=True)
    current = _load(path)
    folders = [f for f in current if isinstance(f, str)] if isinstance(current, list) else []
    project = str(locations.project)
    if project not in folders:
        folders.append(project)
    import tempfile

    fd, temp = tempfile.mkstemp(prefix=".trusted-projects.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(folders, fh, indent=2)
            fh.write("\n")
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    return path
