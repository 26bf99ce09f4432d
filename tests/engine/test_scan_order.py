"""A skills folder's entries come out in Claude Code's order (`localeCompare`) whether or not the
scan needed to sort them: names of lower-case letters, digits and `-` are already in that order
when listed by code point, any other name makes the scan sort by collation key."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.diagnostics import Sink
from engine.scan import entry_order, scan_skills_root
from engine.sources.collate import collation_key


def test_plain_names_sort_the_same_by_code_point_and_by_collation() -> None:
    rng = random.Random(7)
    alphabet = "-0123456789abcdefghijklmnopqrstuvwxyz"
    for _ in range(2000):
        names = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(30)})
        assert sorted(names, key=collation_key) == names


@pytest.mark.parametrize(
    "names",
    [
        ["a-b", "a0", "ab", "a", "b-1", "b10", "b2", "1n", "10n", "-h"],
        ["a-b", "_u", "-h", "Zeta", "alpha", "éa", "ea", "b.c", "b-c", "bc"],
    ],
)
def test_a_folder_lists_in_collation_order(tmp_path: Path, names: list[str]) -> None:
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "SKILL.md").write_text(f"---\ndescription: {name}\n---\n")
    for namespace in ("", "tools"):
        found = scan_skills_root(tmp_path, Sink(), namespace)
        assert [e.stem for e in found] == [e.stem for e in sorted(found, key=entry_order)]
        assert sorted(e.path.parent.name for e in found) == sorted(names)
