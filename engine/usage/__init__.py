"""Usage: which skills were really used, counted from the transcripts already on the machine.
May import base/ (bounded reads, the state folder for its cache) and catalog/locations; nothing
imports it but the engine's face.

`collect_usage` walks Claude Code's transcripts (`<config>/projects/`), reads each file as
engine/usage/transcripts.py says (streamed, bounded, cached by engine/usage/cache.py), and counts
per skill name: typed, called by the model, failed (with Claude Code's reasons), last used,
sessions and projects. Only names, counts and dates leave this package: never message text.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..base.safeio import open_regular
from ..catalog.locations import Locations
from .cache import UsageCache
from .records import Use
from .transcripts import BUILTIN_COMMANDS, read_transcript

# Bounds of the walk: Claude Code nests a subagent's file four levels under projects/.
MAX_DEPTH = 4
MAX_FILES = 200_000
DAY = 86_400.0


@dataclass(frozen=True)
class SkillUsage:
    name: str
    typed: int = 0
    model: int = 0
    failed: int = 0
    last: float | None = None
    sessions: int = 0
    projects: int = 0
    # Claude Code's reasons for the failed model calls, most frequent first, with their counts.
    reasons: tuple[tuple[str, int], ...] = ()
    in_catalog: bool = True

    @property
    def used(self) -> int:
        return self.typed + self.model

    def to_dict(self) -> dict[str, Any]:
        last = datetime.fromtimestamp(self.last, UTC).isoformat().replace("+00:00", "Z") if self.last else None
        return {
            "name": self.name,
            "typed": self.typed,
            "model": self.model,
            "failed": self.failed,
            "last": last,
            "sessions": self.sessions,
            "projects": self.projects,
            "reasons": [{"reason": reason, "count": count} for reason, count in self.reasons],
            "in_catalog": self.in_catalog,
        }


@dataclass(frozen=True)
class UsageReport:
    skills: tuple[SkillUsage, ...]
    files: int = 0
    read_bytes: int = 0
    # Files that could not be read, and why (a FIFO, no permission...), and other notes.
    notes: tuple[str, ...] = field(default_factory=tuple)

    def of(self, name: str) -> SkillUsage | None:
        return next((s for s in self.skills if s.name == name), None)


def transcript_roots(locations: Locations) -> list[Path]:
    """Where a session's transcripts are: Claude Code's `<config>/projects/`, and Codex CLI's
    `$CODEX_HOME/sessions/` (default: `.codex` beside the `.claude` config folder, in the same home:
    a test's or the demo's private home is read, never the real one)."""
    roots: list[Path] = []
    user = locations.user_dir
    if user is not None:
        roots.append(user / "projects")
    codex = locations.environ.get("CODEX_HOME")
    if codex:
        roots.append(Path(codex) / "sessions")
    elif user is not None and user.name == ".claude":
        roots.append(user.parent / ".codex" / "sessions")
    return roots


def transcript_files(root: Path) -> Iterator[str]:
    """Every `*.jsonl` under `root`, at most MAX_DEPTH folders down, symlinked folders not entered."""
    stack = [(str(root), 0)]
    found = 0
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False) and depth < MAX_DEPTH:
                        stack.append((entry.path, depth + 1))
                    elif entry.name.endswith(".jsonl") and not entry.is_dir(follow_symlinks=False):
                        # A FIFO or a device by that name is yielded too: reading refuses it with a note.
                        found += 1
                        if found > MAX_FILES:
                            return
                        yield entry.path
        except OSError:
            continue


def collect_usage(
    roots: Iterable[Path],
    catalog_names: Iterable[str] = (),
    since_days: float | None = None,
    now: float | None = None,
    cache_path: Path | None = None,
) -> UsageReport:
    """Usage of every skill in the catalog and every name the transcripts hold."""
    cache = UsageCache(cache_path)
    uses: list[Use] = []
    notes: list[str] = []
    seen: set[str] = set()
    read_bytes = 0
    for root in roots:
        for path in transcript_files(root):
            seen.add(path)
            try:
                fd, st = open_regular(path)
                os.close(fd)
                progress, unchanged = cache.resume(path, st)
                if not unchanged:
                    before = progress.offset
                    progress = read_transcript(path, progress)
                    read_bytes += progress.offset - before
                    cache.keep(path, st, progress)
            except OSError as exc:
                notes.append(f"{path}: {exc.strerror or exc}; not read")
                continue
            uses.extend(progress.uses)
    cache.forget_others(seen)
    problem = cache.save()
    if problem:
        notes.append(problem)
    now = time.time() if now is None else now
    floor = now - since_days * DAY if since_days is not None else None
    return UsageReport(_tally(uses, set(catalog_names), floor), len(seen), read_bytes, tuple(notes))


def _tally(uses: list[Use], catalog: set[str], floor: float | None) -> tuple[SkillUsage, ...]:
    counted: dict[str, list[Use]] = {name: [] for name in catalog}
    once: set[tuple[str, str]] = set()
    for use in uses:
        if floor is not None and use.at < floor:
            continue
        if use.name not in catalog and use.kind == "typed" and use.name in BUILTIN_COMMANDS:
            continue
        if use.uuid:
            # A resumed session copies earlier records (same uuid) into its new file.
            if (use.kind, use.uuid) in once:
                continue
            once.add((use.kind, use.uuid))
        counted.setdefault(use.name, []).append(use)
    out = []
    for name, found in counted.items():
        failed = [u.failed for u in found if u.failed]
        out.append(
            SkillUsage(
                name=name,
                typed=sum(u.kind == "typed" for u in found),
                model=sum(u.kind == "model" for u in found),
                failed=len(failed),
                last=max((u.at for u in found if u.at), default=None),
                sessions=len({u.session for u in found}),
                projects=len({u.project for u in found}),
                reasons=tuple(Counter(failed).most_common()),
                in_catalog=name in catalog,
            )
        )
    return tuple(sorted(out, key=lambda s: (-s.used, s.name)))


def parse_since(text: str) -> float:
    """`30d`, `12h`, `2w` or a plain number of days, as days; ValueError otherwise."""
    text = text.strip().lower()
    units = {"d": 1.0, "h": 1 / 24, "w": 7.0}
    number, unit = (text[:-1], units[text[-1]]) if text[-1:] in units else (text, 1.0)
    days = float(number) * unit
    if not days > 0 or days == float("inf"):
        raise ValueError(f"not a positive span of time: {text!r} (write 30d, 12h or 2w)")
    return days
