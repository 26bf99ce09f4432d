"""Claude Code's own bundled skills, as the user's Claude Code listed them in `skilldeck compare`.

skilldeck cannot ship them (they are Claude Code's, and change with its version), yet they share
the listing's budget with the user's skills. A comparison keeps what it recorded, per project
folder: the Claude Code version, when, and each entry's name, text and place in the listing, in
`$XDG_STATE_HOME/skilldeck/claude-own/<folder hash>.json`. `Workspace.listing` puts the latest
recording in (labelled with its version), so the app counts them without running `claude` at
every start; a new comparison (with a new Claude Code) replaces it.

The file is skilldeck's own, but it is read as untrusted all the same: bounded, every field
checked, anything unexpected ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .conversation import state_dir
from .listing import Foreign
from .safeio import read_regular

READ_CAP = 512 * 1024
MAX_ENTRIES = 200
MAX_TEXT = 2_000


@dataclass(frozen=True)
class OwnSkills:
    version: str
    recorded_ms: int
    entries: tuple[Foreign, ...]

    @property
    def label(self) -> str:
        day = time.strftime("%Y-%m-%d", time.gmtime(self.recorded_ms / 1000))
        return f"Claude Code {self.version} (recorded {day})"


def own_path(environ: Mapping[str, str], project: Path) -> Path:
    digest = hashlib.sha256(str(project).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return state_dir(environ) / "claude-own" / f"{digest}.json"


def save_own(environ: Mapping[str, str], project: Path, version: str, entries: Sequence[Foreign]) -> Path | None:
    """Keep a comparison's own entries for `project` (atomically); None when it cannot be written."""
    path = own_path(environ, project)
    record = {
        "project": str(project),
        "version": version,
        "recorded_ms": int(time.time() * 1000),
        "entries": [{"name": e.name, "text": e.text, "position": e.position} for e in entries[:MAX_ENTRIES]],
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


def load_own(environ: Mapping[str, str], project: Path) -> OwnSkills | None:
    """The latest recording for `project`, or None (none yet, or not readable as one)."""
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
            entries.append(Foreign(name, text[:MAX_TEXT], max(position, 0), bundled=True))
    return OwnSkills(version[:40], recorded, tuple(entries)) if entries else None
