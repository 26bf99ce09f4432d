"""The approval modal's preview of a hostile Edit or Write: bounded, never stuck on a FIFO."""

from __future__ import annotations

import os
from pathlib import Path

from rich.syntax import Syntax
from rich.text import Text

from tui.screens.approve import PREVIEW_BYTES, preview


def test_a_write_to_a_fifo_is_previewed_without_opening_it_for_ever(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    shown = preview("Write", {"file_path": "pipe", "content": "x"}, tmp_path)
    assert isinstance(shown, Text) and "not a regular file" in shown.plain


def test_an_edit_of_a_huge_file_is_not_read_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    with open(big, "wb") as fh:
        fh.truncate(4 * 1024**3)  # 4 GB, sparse
    shown = preview("Edit", {"file_path": str(big), "old_string": "a", "new_string": "b"}, tmp_path)
    assert isinstance(shown, Text) and "too large" in shown.plain
    assert len(shown.plain) < PREVIEW_BYTES + 1000


def test_a_relative_path_is_the_projects_not_the_process(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("old\n")
    shown = preview("Edit", {"file_path": "notes.txt", "old_string": "old", "new_string": "new"}, tmp_path)
    assert isinstance(shown, Syntax) and "-old" in shown.code and "+new" in shown.code
