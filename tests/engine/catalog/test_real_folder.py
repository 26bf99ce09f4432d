"""`real_folder` is `os.path.realpath` with the folders above a path remembered: the same answer
through links (absolute, relative, up and back), missing names, loops, files and odd spellings."""

from __future__ import annotations

import os
from pathlib import Path

from engine.catalog.scan import real_folder


def test_real_folder_is_realpath(tmp_path: Path) -> None:
    d = str(tmp_path)
    os.makedirs(f"{d}/a/b/c")
    (tmp_path / "file").write_text("x")
    os.symlink(f"{d}/a/b", f"{d}/lnk")
    os.symlink("../a", f"{d}/a/b/up")
    os.symlink("loop", f"{d}/loop")
    paths = [
        f"{d}/a/b/c", f"{d}/lnk/c", f"{d}/lnk", f"{d}/a/b/up/b/c", f"{d}/missing/x", f"{d}/loop/x", f"{d}/a/../a/b",
        f"{d}/lnk/c/..", f"{d}/a/b/c/", f"{d}/file/x", f"{d}/./a", "/", "rel/x", ".",
    ]  # fmt: skip
    known: dict[str, str] = {}
    for path in paths + paths:  # the second time from what the first remembered
        assert real_folder(path, known) == os.path.realpath(path), path
    # A folder replaced by a link between two loads: each load has its own memory.
    os.rename(f"{d}/a/b/c", f"{d}/c2")
    os.symlink(f"{d}/c2", f"{d}/a/b/c")
    assert real_folder(f"{d}/a/b/c", {}) == f"{os.path.realpath(d)}/c2"
