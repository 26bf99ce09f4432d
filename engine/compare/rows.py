"""Line against line: Claude Code's side and skilldeck's, each row identical, differs (with
the difference), only in Claude Code, only in skilldeck, or Claude Code's own (its built-in
skills, which skilldeck does not load)."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

IDENTICAL, DIFFERS, ONLY_CLAUDE, ONLY_SKILLDECK, OWN = "identical", "differs", "only-claude", "only-skilldeck", "claude-own"
AGREE = frozenset({IDENTICAL, OWN})
SHOWN = 40


@dataclass(frozen=True)
class Row:
    status: str
    name: str
    claude: str | None
    skilldeck: str | None
    difference: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "name": self.name, "claude": self.claude, "skilldeck": self.skilldeck,
                "difference": self.difference}  # fmt: skip


def difference(theirs: str, ours: str) -> str:
    """Where two texts part, in words: the line and column, and a little of each from there."""
    if "\n" in theirs or "\n" in ours:
        a, b = theirs.split("\n"), ours.split("\n")
        line = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        if line >= min(len(a), len(b)):
            return f"Claude Code has {len(a)} lines, skilldeck {len(b)}"
        return f"line {line + 1}: " + difference(a[line], b[line])
    at = next((i for i, (x, y) in enumerate(zip(theirs, ours, strict=False)) if x != y), min(len(theirs), len(ours)))
    return (
        f"from character {at + 1}: Claude Code {theirs[at : at + SHOWN]!r}, skilldeck {ours[at : at + SHOWN]!r}"
        f" ({len(theirs)} and {len(ours)} characters)"
    )


def listing_rows(theirs: list[tuple[str, str]], ours: list[tuple[str, str]], own: set[str]) -> list[Row]:
    """`theirs` and `ours`: (name, line) in listing order. An entry is identical only when its
    line is the same and it stands in the same order among the entries both have."""
    mine = dict(ours)
    common_theirs = [n for n, _ in theirs if n in mine]
    names_theirs = {n for n, _ in theirs}
    common_ours = [n for n, _ in ours if n in names_theirs]
    matcher = SequenceMatcher(a=common_theirs, b=common_ours, autojunk=False)
    in_order = {common_theirs[b.a + i] for b in matcher.get_matching_blocks() for i in range(b.size)}
    where_ours = {n: i for i, (n, _) in enumerate(ours)}
    rows: list[Row] = []
    for index, (name, line) in enumerate(theirs):
        if name in own and name not in mine:
            rows.append(Row(OWN, name, line, None))
        elif name not in mine:
            rows.append(Row(ONLY_CLAUDE, name, line, None))
        elif mine[name] != line:
            rows.append(Row(DIFFERS, name, line, mine[name], difference(line, mine[name])))
        elif name not in in_order:
            moved = f"order: entry {index + 1} in Claude Code, {where_ours[name] + 1} in skilldeck"
            rows.append(Row(DIFFERS, name, line, line, moved))
        else:
            rows.append(Row(IDENTICAL, name, line, line))
    rows += [Row(ONLY_SKILLDECK, name, None, line) for name, line in ours if name not in names_theirs]
    return rows


def block_rows(theirs: list[str], ours: list[str]) -> list[Row]:
    """An invocation's text blocks, in order, one against the other."""
    rows: list[Row] = []
    for index in range(max(len(theirs), len(ours))):
        a = theirs[index] if index < len(theirs) else None
        b = ours[index] if index < len(ours) else None
        name = f"block {index + 1}"
        if a is None:
            rows.append(Row(ONLY_SKILLDECK, name, None, b))
        elif b is None:
            rows.append(Row(ONLY_CLAUDE, name, a, None))
        elif a == b:
            rows.append(Row(IDENTICAL, name, a, b))
        else:
            rows.append(Row(DIFFERS, name, a, b, difference(a, b)))
    return rows
