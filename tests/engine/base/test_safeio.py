"""Bounded reads: FIFOs, devices and folders are refused at once, big files by their cap."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.base.safeio import NotRegularFile, TooLarge, read_regular, read_regular_text


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile) as caught:
        read_regular(fifo)
    assert caught.value.kind == "FIFO"


def test_a_symlink_to_dev_zero_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "SKILL.md"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotRegularFile) as caught:
        read_regular(link)
    assert caught.value.kind == "character device"


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NotRegularFile):
        read_regular(tmp_path)


def test_the_cap_is_inclusive(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_regular(path, cap=100)[0] == b"x" * 100
    with pytest.raises(TooLarge) as caught:
        read_regular(path, cap=99)
    assert "99 bytes" in str(caught.value.strerror)


def test_text_keeps_strict_decoding_unless_asked(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"a\xffb")
    with pytest.raises(UnicodeDecodeError):
        read_regular_text(path)
    assert read_regular_text(path, errors="replace") == "a\ufffdb"


def test_writing_refuses_a_fifo_without_waiting_for_a_reader(tmp_path: Path) -> None:
    from engine.base.safeio import write_regular

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        write_regular(fifo, b"x")
    path = tmp_path / "f"
    path.write_bytes(b"a long old text")
    write_regular(path, b"new")
    assert path.read_bytes() == b"new"
