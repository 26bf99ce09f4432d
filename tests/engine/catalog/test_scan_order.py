"""A skills folder's entries come out in Claude Code's order (`localeCompare`) whether or not the
scan needed to sort them: names of lower-case letters, digits and `-` are already in that order
when listed by code point, any other name makes the scan sort by collation key."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine.catalog.diagnostics import Sink
from engine.catalog.scan import entry_order, scan_skills_root
from engine.catalog.sources.collate import collation_key


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


def test_names_localecompare_cannot_tell_apart_keep_the_disks_order(tmp_path: Path) -> None:
    # `0`, `٠` (Arabic-Indic) and `०` (Devanagari) compare equal in ICU: Claude Code's stable sort
    # leaves them in the order it read them, the disk's (recorded on ext4: ٠ ० 0, the order
    # os.scandir gave there); the same holds for an NFC and an NFD `é`.
    names = ["b", "0", "٠", "०", "a", "é", "e\u0301", "9"]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "SKILL.md").write_text("---\ndescription: d\n---\n")
    disk = [entry.name for entry in os.scandir(tmp_path)]
    found = [e.path.parent.name for e in scan_skills_root(tmp_path, Sink(), "")]
    zeros = [n for n in disk if n in ("0", "٠", "०")]
    accents = [n for n in disk if n in ("é", "e\u0301")]
    assert found == [*zeros, "9", "a", "b", *accents]


@pytest.mark.parametrize(
    ("shuffled", "ordered"),
    [
        # Recorded: order_scripts (Claude Code 2.1.328, ICU's root collation).
        (
            ["日本", "α", "а", "😀", "z", "ａ", "$", "0", "-x", "Α", "ﬁ", "가"],
            ["-x", "😀", "$", "0", "ａ", "ﬁ", "z", "α", "Α", "а", "가", "日本"],
        ),
        (["Ⅳ", "ⅳ", "½", "²", "１", "ŉ", "ʼn"], ["１", "½", "²", "ⅳ", "Ⅳ", "ʼn", "ŉ"]),
    ],
)
def test_names_of_other_scripts_sort_as_claude_code_sorts_them(shuffled: list[str], ordered: list[str]) -> None:
    assert sorted(shuffled, key=collation_key) == ordered


def test_the_ascii_weights_kept_as_constants_are_the_tables() -> None:
    """collate_ascii.py holds what collation.txt gives the ASCII characters (read without the table)."""
    from engine.catalog.sources import collate_ascii
    from engine.catalog.sources.collate import table_ascii_weights

    primary, secondary, tertiary = table_ascii_weights()
    assert (primary, secondary, tertiary) == (collate_ascii.PRIMARY, collate_ascii.SECONDARY, collate_ascii.TERTIARY), (
        f"collation.txt changed: PRIMARY = {primary!r}\nSECONDARY = {secondary!r}\nTERTIARY = {tertiary!r}"
    )


def test_the_collation_table_is_read_only_for_a_name_that_is_not_ascii() -> None:
    import subprocess
    import sys

    code = (
        "from engine.catalog.sources import collate as c; c.collation_key('skill-a'); print(c._TABLE_DATA is None);"
        "c.collation_key('éa'); print(c._TABLE_DATA is None)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "False"]
