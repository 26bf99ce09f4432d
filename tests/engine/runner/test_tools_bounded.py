"""The file tools under a hostile model: FIFOs, devices, huge files, symlinks out, slow regexes.

Real files, real FIFOs, real symlinks, the real grep child process.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest

from engine import Permissions, read_settings
from engine.runner.tools import ToolContext, builtin_tools
from engine.runner.tools import search as search_module
from engine.runner.tools.base import RESULT_CAP
from tests.conftest import Tree, write


def _ctx(tree: Tree, **rules: list[str]) -> ToolContext:
    write(tree.project / ".claude" / "settings.local.json", json.dumps({"permissions": rules}))
    permissions = Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")
    return ToolContext(tree.project, permissions)


def _run(name: str, tool_input: dict[str, Any], ctx: ToolContext) -> tuple[str, bool]:
    async def go() -> tuple[str, bool]:
        result = await asyncio.wait_for(builtin_tools()[name].run(tool_input, ctx), 60)
        return result.text, result.is_error

    return asyncio.run(go())


def test_read_refuses_a_fifo_and_a_device_at_once(tree: Tree) -> None:
    os.mkfifo(tree.project / "pipe")
    (tree.project / "zero").symlink_to("/dev/zero")
    ctx = _ctx(tree)
    for name in ("pipe", "zero"):
        text, error = _run("Read", {"file_path": str(tree.project / name)}, ctx)
        assert error and "not a regular file" in text, text


def test_read_of_a_huge_file_is_bounded(tree: Tree) -> None:
    big = tree.project / "big.log"
    with open(big, "wb") as fh:
        fh.write((b"y" * 5000 + b"\n") * 3000)
        fh.truncate(2 * 1024**3)  # 2 GB, sparse: only what is read costs anything
    text, error = _run("Read", {"file_path": str(big)}, _ctx(tree))
    assert not error
    assert len(text) <= RESULT_CAP + 200
    assert "capped" in text


def test_read_of_one_endless_line_is_bounded(tree: Tree) -> None:
    big = tree.project / "one-line"
    with open(big, "wb") as fh:
        fh.truncate(256 * 1024**2)
    text, error = _run("Read", {"file_path": str(big), "offset": 2}, _ctx(tree))
    assert error and "MB" in text


def test_write_refuses_a_fifo_without_blocking(tree: Tree) -> None:
    os.mkfifo(tree.project / "pipe")
    text, error = _run("Write", {"file_path": str(tree.project / "pipe"), "content": "x"}, _ctx(tree))
    assert error, text


def test_edit_keeps_a_file_it_cannot_decode(tree: Tree) -> None:
    path = write(tree.project / "latin1.txt", b"caf\xe9 old\n")
    text, error = _run("Edit", {"file_path": str(path), "old_string": "old", "new_string": "new"}, _ctx(tree))
    assert error and "UTF-8" in text
    assert path.read_bytes() == b"caf\xe9 old\n"


@pytest.fixture
def linked(tree: Tree) -> Tree:
    write(tree.root / "outside" / "secret.txt", "password=hunter2\n")
    (tree.project / "docs").symlink_to(tree.root / "outside")
    (tree.project / "notes.txt").symlink_to(tree.root / "outside" / "secret.txt")
    write(tree.project / "README.md", "password=none\n")
    write(tree.project / "secrets" / "key.txt", "password=key\n")
    return tree


def test_glob_never_shows_what_a_symlink_leads_outside_to(linked: Tree) -> None:
    text, error = _run("Glob", {"pattern": "**/*"}, _ctx(linked, deny=["Read(./secrets/**)"]))
    assert not error
    assert "README.md" in text
    assert "secret.txt" not in text and "notes.txt" not in text and "key.txt" not in text


def test_grep_never_shows_what_a_symlink_leads_outside_to(linked: Tree) -> None:
    text, _ = _run("Grep", {"pattern": "password", "output_mode": "content"}, _ctx(linked, deny=["Read(./secrets/**)"]))
    assert "README.md" in text
    assert "hunter2" not in text and "password=key" not in text


def test_glob_with_dotdot_after_a_wildcard_is_refused(linked: Tree) -> None:
    text, error = _run("Glob", {"pattern": "*/../../*"}, _ctx(linked))
    assert error and ".." in text


def test_grep_output_is_capped(tree: Tree) -> None:
    for i in range(40):
        write(tree.project / f"f{i}.txt", "match me\n" * 2000)
    text, _ = _run("Grep", {"pattern": "match", "output_mode": "content"}, _ctx(tree))
    assert len(text) <= RESULT_CAP + 200
    assert "cut" in text


def test_a_catastrophic_regex_is_stopped(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_module, "GREP_TIMEOUT_S", 1.5)
    write(tree.project / "a.txt", "a" * 40 + "!\n")
    text, _ = _run("Grep", {"pattern": "(a+)+$"}, _ctx(tree))
    assert "stopped after 1.5 s" in text


def test_grep_skips_a_fifo_that_appears(tree: Tree) -> None:
    os.mkfifo(tree.project / "pipe")
    write(tree.project / "a.txt", "needle\n")
    text, _ = _run("Grep", {"pattern": "needle"}, _ctx(tree))
    assert text.strip().endswith("a.txt"), text


def test_grep_says_which_files_it_skipped_as_too_large(tree: Tree) -> None:
    """A file over the cap is not searched, and the result says so, naming it: "No matches found"
    alone read as if the needle were nowhere."""
    big = write(tree.project / "big.log", "needle\n")
    os.truncate(big, search_module.GREP_FILE_CAP + 1)
    text, error = _run("Grep", {"pattern": "needle"}, _ctx(tree))
    assert not error and text.startswith("No matches found")
    assert str(big) in text and "16 MB" in text and "not searched" in text
    small = write(tree.project / "small.txt", "needle\n")
    text, _ = _run("Grep", {"pattern": "needle"}, _ctx(tree))
    assert text.splitlines()[0] == str(small) and str(big) in text and "not searched" in text
