"""The app's peak memory as a user's session makes it (bench_tui.py, `make bench`): `skilldeck`
spawned in a terminal of its own (a pty), watching the disk as it does by default, until its
title counts every skill; then each pane shown and a search typed, as someone looking around
would; the process's peak resident size (the kernel's VmHWM) once it is quiet again."""

from __future__ import annotations

import os
import pty
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

# What is typed once the catalog is in: every pane, then a search, then back.
KEYS: Sequence[bytes] = (b"2", b"3", b"4", b"5", b"1", b"/", b"godot", b"\x1b", b"1")


def _status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb(exe: Path, flags: list[str], count: int, timeout: float = 180) -> float:
    """Peak resident MB of `exe flags...` once it shows `count` skills and has been looked around in."""
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="48")
    main, child = pty.openpty()
    proc = subprocess.Popen([str(exe), *flags], env=env, stdin=child, stdout=child, stderr=child, close_fds=True)
    os.close(child)
    drawn = bytearray()
    loaded = f"{count:,} skills".encode()
    # Set once the app shows the whole catalog, or once it has closed its side (then it never will).
    shown = threading.Event()

    def drain() -> None:
        # Read what it draws, as a terminal does: a full pty buffer would stop the app.
        try:
            while True:
                try:
                    data = os.read(main, 65536)
                except OSError:  # EIO: the child closed its side
                    return
                if not data:
                    return
                drawn.extend(data)
                if not shown.is_set() and loaded in drawn[-len(data) - len(loaded) :]:
                    shown.set()
        finally:
            shown.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + timeout
        if not shown.wait(timeout) or loaded not in drawn:
            raise SystemExit(f"skilldeck did not show {count:,} skills")
        for key in KEYS:
            time.sleep(1.0)  # the measure's own pace: a key a second, as a user reads each pane
            os.write(main, key)
        # Quiet again: the peak no longer moves for two seconds (sampled twice a second).
        last, still = -1.0, 0
        while still < 4 and time.monotonic() < deadline:
            time.sleep(0.5)  # the sampling interval of the measure
            now = _status_mb(proc.pid, "VmHWM:")
            still = still + 1 if now == last else 0
            last = now
        return last
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(timeout=5)
        os.close(main)
