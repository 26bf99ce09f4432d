"""The portability matrix: for each SKILL.md any host reached, what every host does with it
(sends it, cuts it, hides it, shadows it, switches it off, refuses it, or never reads its folder),
one line each in that host's terms, with the fix."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog.scan import real_folder
from .model import HostView, Status, Verdict

UNSEEN = "not-read"


@dataclass(frozen=True)
class Cell:
    host: str
    status: str  # a Status value, or UNSEEN
    name: str = ""
    why: str = ""
    fix: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"status": self.status, "name": self.name, "why": self.why, "fix": self.fix}


@dataclass
class Row:
    path: Path  # the SKILL.md, resolved: one row however many folders link to it
    name: str
    cells: dict[str, Cell] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"path": str(self.path), "name": self.name, "hosts": {k: c.to_dict() for k, c in self.cells.items()}}


# When a host reaches one file more than once (through two folders or a link), its best outcome
# counts: the row says what the user gets.
_RANK = [Status.LISTED, Status.CUT, Status.NAMES_ONLY, Status.HIDDEN, Status.SHADOWED, Status.OFF, Status.REFUSED]


def _best(verdicts: list[Verdict]) -> Verdict:
    return min(verdicts, key=lambda v: _RANK.index(v.status))


def _real(path: Path, known: dict[str, str] | None = None) -> Path:
    """The path resolved; `path` itself when it is already real (the catalog's own Path, not a
    second one per row: 9 MB at 15,000 skills). With `known`, the folders above are resolved once
    for every file in them (catalog.scan.real_folder), not a realpath of every component per file."""
    try:
        text = str(path)
        real = real_folder(text, known) if known is not None else os.path.realpath(path)
    except (OSError, ValueError):
        return path
    return path if real == text else Path(real)


def reads(view: HostView) -> str:
    """The folders a host reads, as users write them (deduplicated, in its order)."""
    kinds = list(dict.fromkeys(root.kind for root in view.roots if root.kind))
    return ", ".join(kinds) if kinds else "no folder here"


def _root_folders(view: HostView) -> list[Path]:
    """The real paths of the host's roots that are folders, looked up once per matrix (they were
    looked up, a stat and a realpath each, for every row: 15,000 skills times every root)."""
    return [_real(root.path) for root in view.roots if root.path.is_dir()]


def matrix(views: list[HostView]) -> list[Row]:
    by_host: dict[str, dict[Path, list[Verdict]]] = {}
    rows: dict[Path, Row] = {}
    known: dict[str, str] = {}
    for view in views:
        mine = by_host.setdefault(view.host, {})
        for verdict in view.verdicts:
            real = _real(verdict.path, known)
            mine.setdefault(real, []).append(verdict)
            rows.setdefault(real, Row(real, verdict.name))
    for view in views:
        mine = by_host[view.host]
        folders = _root_folders(view)
        # The two cells of a file the host never reads say the same for every such file: one of
        # each per host, shared (the app keeps this matrix; at 15,000 skills a text per file and
        # host was 30 MB).
        wrong_name = Cell(
            view.host,
            UNSEEN,
            "",
            f"{view.title} reads this folder but not this file: only a file named exactly SKILL.md, where its walk goes",
            "name the file SKILL.md, in a folder of its own directly in the skills folder",
        )
        elsewhere = Cell(
            view.host,
            UNSEEN,
            "",
            f"{view.title} does not read this folder; it reads {reads(view)}",
            f"put the skill folder (or a link to it) in one of: {reads(view)}",
        )
        for real, row in rows.items():
            found = mine.get(real)
            if found:
                best = _best(found)
                row.cells[view.host] = Cell(view.host, best.status.value, best.name, best.why, best.fix)
            elif any(real.is_relative_to(folder) for folder in folders):
                row.cells[view.host] = wrong_name
            else:
                row.cells[view.host] = elsewhere
    return sorted(rows.values(), key=lambda r: (r.name, str(r.path)))
