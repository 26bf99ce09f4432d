"""Claude Code's own bundled skills, as the user's Claude Code listed them in `skilldeck compare`.

skilldeck cannot ship them (they are Claude Code's, and change with its version), yet they share
the listing's budget with the user's skills. A comparison keeps what it recorded, per project
folder: the Claude Code version, which binary said it (its resolved path, size and modification
time), when, and each entry's name, text, place in the listing and whether Claude Code keeps it
whole over budget (`fixed`: its bundled prompt skills; not its `init` and `security-review`), in
`$XDG_STATE_HOME/skilldeck/claude-own/<folder hash>.json`. `Workspace.listing` puts the latest
recording in (labelled with its version), so the app counts them without running `claude` at
every start; a new comparison replaces it.

The record holds for one Claude Code: when the `claude` on PATH is another file, or the same one
changed (an upgrade), it is stale and not counted (`load_own` says None; `stale_own` says why, to
run `skilldeck compare` again). Telling costs a PATH lookup and a stat, never a run of `claude`.
A record from before FORMAT 2 is stale too: its comparison read an entry as one line, so with
Claude Code's bundled skills on it cut `claude-api` at its first newline and lost the entries
after it, and it did not say which entries are fixed.

The file is skilldeck's own, but it is read as untrusted all the same: bounded, every field
checked, anything unexpected ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular
from ..base.state import state_dir
from .build import Foreign

READ_CAP = 512 * 1024
MAX_ENTRIES = 200
MAX_TEXT = 2_000
# 2: entries keep their newlines and say whether they are `fixed`.
FORMAT = 2


@dataclass(frozen=True)
class OwnSkills:
    version: str
    recorded_ms: int
    entries: tuple[Foreign, ...]
    # The binary that listed them, as `binary_of` saw it; None when none was known.
    binary: dict[str, Any] | None = None
    format: int = FORMAT

    @property
    def label(self) -> str:
        day = time.strftime("%Y-%m-%d", time.gmtime(self.recorded_ms / 1000))
        return f"Claude Code {self.version} (recorded {day})"


def own_path(environ: Mapping[str, str], project: Path) -> Path:
    digest = hashlib.sha256(str(project).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return state_dir(environ) / "claude-own" / f"{digest}.json"


def binary_of(path: str | Path | None) -> dict[str, Any] | None:
    """What tells one Claude Code from another without running it: the file a path leads to (an
    upgrade moves a symbolic link to a new version's file), its size and modification time (an
    upgrade in place rewrites it). None when there is no such file."""
    if path is None:
        return None
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except (OSError, ValueError):
        return None
    return {"path": real, "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def claude_on_path(environ: Mapping[str, str]) -> str | None:
    # An environment without PATH finds nothing (not the app's own PATH): what the user's Claude
    # Code would be is only what their environment names.
    return shutil.which("claude", path=environ.get("PATH", ""))


def save_own(
    environ: Mapping[str, str], project: Path, version: str, entries: Sequence[Foreign], claude: Path | None = None
) -> Path | None:
    """Keep a comparison's own entries for `project` (atomically), with the binary that listed them
    (`claude`, else the `claude` on PATH); None when it cannot be written."""
    path = own_path(environ, project)
    record = {
        "project": str(project),
        "format": FORMAT,
        "version": version,
        "binary": binary_of(claude if claude is not None else claude_on_path(environ)),
        "recorded_ms": int(time.time() * 1000),
        "entries": [{"name": e.name, "text": e.text, "position": e.position, "fixed": e.fixed} for e in entries[:MAX_ENTRIES]],
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".claude-own.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(record, out, ensure_ascii=False)
            os.replace(temp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
    except OSError:
        return None
    return path


def read_own(environ: Mapping[str, str], project: Path) -> OwnSkills | None:
    """The latest recording for `project` as kept, fresh or stale; None when there is none (or not
    readable as one)."""
    try:
        data, _ = read_regular(own_path(environ, project), READ_CAP)
        record = json.loads(data)
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("project") != str(project):
        return None
    version, recorded, raw = record.get("version"), record.get("recorded_ms"), record.get("entries")
    if not isinstance(version, str) or not isinstance(recorded, int) or not isinstance(raw, list):
        return None
    entries: list[Foreign] = []
    for item in raw[:MAX_ENTRIES]:
        if not isinstance(item, dict):
            continue
        name, text, position = item.get("name"), item.get("text"), item.get("position")
        if isinstance(name, str) and isinstance(text, str) and isinstance(position, int) and 0 < len(name) <= 200:
            entries.append(Foreign(name, text[:MAX_TEXT], max(position, 0), fixed=item.get("fixed") is not False))
    binary = _binary(record.get("binary"))
    form = record.get("format")
    form = form if isinstance(form, int) and not isinstance(form, bool) else 1
    return OwnSkills(version[:40], recorded, tuple(entries), binary, form) if entries else None


def _binary(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        return None
    path, size, mtime = raw.get("path"), raw.get("size"), raw.get("mtime_ns")
    if isinstance(path, str) and isinstance(size, int) and isinstance(mtime, int):
        return {"path": path, "size": size, "mtime_ns": mtime}
    return None


def stale_own(environ: Mapping[str, str], own: OwnSkills) -> str | None:
    """Why a recording no longer holds for the user's Claude Code (the `claude` on PATH, else the
    binary that was recorded), to run `skilldeck compare` again; None while it holds."""
    if own.format < FORMAT:
        return (
            f"Claude Code's own skills recorded from Claude Code {own.version} are not counted: an older skilldeck "
            "recorded them (some may be missing or cut short); run `skilldeck compare` again to record them"
        )
    now = claude_on_path(environ)
    if now is None and own.binary is not None:
        now = own.binary["path"]
    current = binary_of(now)
    if current == own.binary:
        return None
    if own.binary is None:
        changed = f"Claude Code is now at {current['path']}" if current else "the recording names no Claude Code"
    elif current is None:
        changed = f"{own.binary['path']} is gone"
    elif current["path"] != own.binary["path"]:
        changed = f"claude on PATH is now {current['path']}"
    else:
        changed = f"{current['path']} changed since (an upgrade?)"
    return (
        f"Claude Code's own skills recorded from Claude Code {own.version} are not counted: {changed}; "
        "run `skilldeck compare` again to record them"
    )


def load_own(environ: Mapping[str, str], project: Path) -> OwnSkills | None:
    """The latest recording for `project`, while it holds for the user's Claude Code (`stale_own`);
    else None: a stale recording is not counted."""
    own = read_own(environ, project)
    return own if own is not None and stale_own(environ, own) is None else None
