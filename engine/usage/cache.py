"""What earlier runs read of each transcript, so that the next one reads only what changed.

Keyed by the file's path, size and modification time: an unchanged file is not opened; a file
that grew (Claude Code appends) is read on from where the last run stopped, once its first bytes
show it is the same file; any other change is read again from the start. The cache lives in
skilldeck's state folder, is written whole to a temporary file and renamed over the old one, and
a cache that cannot be read (torn, foreign, too large) is ignored: it only saves time.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..base.safeio import open_regular, read_regular
from .records import Progress, Use

VERSION = 2
HEAD = 4096
# Past this the cache is not read (it grows with the uses found, a few dozen bytes each).
MAX_CACHE = 256 * 1024 * 1024


def head_hash(path: str) -> str:
    fd, _ = open_regular(path)
    try:
        return hashlib.blake2b(os.read(fd, HEAD), digest_size=16).hexdigest()
    finally:
        os.close(fd)


class UsageCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.files: dict[str, dict[str, Any]] = {}
        if path is not None:
            try:
                data = json.loads(read_regular(path, MAX_CACHE)[0])
                if isinstance(data, dict) and data.get("version") == VERSION and isinstance(data.get("files"), dict):
                    self.files = data["files"]
            except (OSError, ValueError, UnicodeDecodeError):
                self.files = {}

    def resume(self, path: str, st: os.stat_result) -> tuple[Progress, bool]:
        """Where to start reading `path`, and whether the file is unchanged (nothing to read)."""
        entry = self.files.get(path)
        if not isinstance(entry, dict):
            return Progress(), False
        try:
            progress = _progress(entry["progress"])
            if entry["size"] == st.st_size and entry["mtime_ns"] == st.st_mtime_ns:
                return progress, True
            if st.st_size > entry["size"] and entry["head"] == head_hash(path):
                return progress, False
        except (KeyError, TypeError, ValueError, OSError):
            pass
        return Progress(), False

    def keep(self, path: str, st: os.stat_result, progress: Progress) -> None:
        try:
            head = head_hash(path)
        except OSError:
            return
        self.files[path] = {
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
            "head": head,
            "progress": {
                "offset": progress.offset,
                "uses": [asdict(use) for use in progress.uses],
                "pending": progress.pending,
                "caveat": progress.caveat,
                "session": progress.session,
                "cwd": progress.cwd,
            },
        }

    def forget_others(self, seen: set[str]) -> None:
        self.files = {path: entry for path, entry in self.files.items() if path in seen}

    def save(self) -> str | None:
        """Write the cache; a reason when it could not be written (the report goes on without)."""
        if self.path is None:
            return None
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"version": VERSION, "files": self.files}, separators=(",", ":")))
            os.replace(tmp, self.path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            why = exc.strerror or str(exc)
            return f"the usage cache {self.path} could not be written ({why}); the next run reads every transcript again"
        return None


def _progress(data: dict[str, Any]) -> Progress:
    return Progress(
        offset=int(data["offset"]),
        uses=[Use(**use) for use in data["uses"]],
        pending={str(k): int(v) for k, v in data["pending"].items()},
        caveat=str(data["caveat"]),
        session=str(data.get("session", "")),
        cwd=str(data.get("cwd", "")),
    )
