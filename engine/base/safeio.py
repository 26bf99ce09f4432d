"""Reading files that a cloned repository (or a model) points us at, without trusting them.

Any path may be a FIFO (opening it blocks until a writer comes), a character device
(`/dev/zero` never ends), a socket, or a regular file of many gigabytes. Every read of a file
we did not write goes through `read_regular`: it opens without blocking, refuses anything that
is not a regular file, and never reads more than its cap. The errors are `OSError`s with a
`strerror`, so callers that already report `exc.strerror` say something useful unchanged.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

# Large enough for any real SKILL.md, settings file or manifest; small enough that a hostile
# file cannot eat the memory of a 2 GB machine. Callers with other needs pass their own cap.
DEFAULT_CAP = 8 * 1024 * 1024


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a folder: it is never read."""

    def __init__(self, path: str | Path, mode: int) -> None:
        kind = _kind(mode)
        super().__init__(errno.EINVAL, f"not a regular file (a {kind}); it is never read", str(path))
        self.kind = kind


class TooLarge(OSError):
    """The file is longer than the cap; nothing of it is returned."""

    def __init__(self, path: str | Path, size: int, cap: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {cap:,} bytes ({size:,} or more); it is not read", str(path))
        self.size = size
        self.cap = cap


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


_READ_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)


def open_regular(path: str | Path) -> tuple[int, os.stat_result]:
    """An open read-only descriptor of a regular file, and its stat. O_NONBLOCK makes opening a
    FIFO return at once (it would otherwise wait for a writer); the check on the open descriptor
    (not on the name) leaves no window for the name to be swapped between check and read."""
    fd = os.open(path, _READ_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, st.st_mode)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_regular(path: str | Path, cap: int = DEFAULT_CAP) -> tuple[bytes, os.stat_result]:
    """The whole of a regular file of at most `cap` bytes, and its stat.

    Raises `NotRegularFile`, `TooLarge`, or the `OSError` of the open (FileNotFoundError,
    PermissionError, ...). A file that grows past the cap while it is read is `TooLarge` too."""
    fd, st = open_regular(path)
    try:
        size = st.st_size
        if size > cap:
            raise TooLarge(path, size, cap)
        data = os.read(fd, size + 1)
        if len(data) != size:
            # Not the size fstat gave (the file changes as it is read): read on to its end, never
            # past the cap. The size it gave needs no second read to find the end (one system
            # call of five, 15,000 times in a load), as Node reads a file to the size it saw.
            chunks = [data]
            total = len(data)
            while chunks[-1] and total <= cap:
                chunks.append(os.read(fd, min(65536, cap + 1 - total)))
                total += len(chunks[-1])
            if total > cap:
                raise TooLarge(path, total, cap)
            data = b"".join(chunks)
    finally:
        os.close(fd)
    return data, st


def read_regular_text(path: str | Path, cap: int = DEFAULT_CAP, errors: str = "strict") -> str:
    """`read_regular` decoded as UTF-8 (UnicodeDecodeError with the default `errors`)."""
    data, _ = read_regular(path, cap)
    return data.decode("utf-8", errors)


def write_regular(path: str | Path, data: bytes, mode: int = 0o644) -> None:
    """Replace the contents of a regular file (created when absent) with `data`.

    Opening a FIFO to write would wait for a reader and a device would take anything: the file
    is opened without blocking and without truncating, checked to be a regular file, and only
    then emptied and written."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0), mode)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, st.st_mode)
        os.ftruncate(fd, 0)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
