"""The Grep tool's search, run in a child process that the tool can kill.

A model chooses the regular expression, and Python's `re` has no timeout: `(a+)+$` on a long
line runs for ever. The parent walks and filters the files (permissions, symlinks), then runs
this file with `python -I -S` (standard library only, nothing of the project imported, so it
starts in tens of milliseconds) and kills it when its time is up. Results are written and
flushed file by file, so what was found before the kill is kept.

stdin: {"pattern": str, "files": [str], "mode": "content"|"files_with_matches"|"count",
"file_cap": int, "ignore_case": bool}. stdout: result lines.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys


def _read(path: str, cap: int) -> str | None:
    # A file may have been swapped for a FIFO or grown since the parent looked: check again.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > cap:
            return None
        return os.read(fd, cap + 1)[:cap].decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


def main() -> None:
    job = json.load(sys.stdin)
    regex = re.compile(job["pattern"], re.IGNORECASE if job.get("ignore_case") else 0)
    mode = job["mode"]
    out = sys.stdout
    for path in job["files"]:
        text = _read(path, job["file_cap"])
        if text is None or "\x00" in text[:8192]:
            continue  # unreadable, too large, or binary
        hits = [(n, line) for n, line in enumerate(text.splitlines(), 1) if regex.search(line)]
        if not hits:
            continue
        if mode == "content":
            out.write("".join(f"{path}:{n}:{line[:2000]}\n" for n, line in hits))
        elif mode == "count":
            out.write(f"{path}:{len(hits)}\n")
        else:
            out.write(path + "\n")
        out.flush()


if __name__ == "__main__":
    main()
