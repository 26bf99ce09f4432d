"""`skilldeck watch`: follow the disk and print each change of the catalog until ctrl+c."""

from __future__ import annotations

import argparse
import json
import sys

from engine import Catalog, CatalogDiff, Workspace


def cmd_watch(args: argparse.Namespace, workspace: Workspace) -> int:
    import signal
    import threading

    from . import render

    def report(catalog: Catalog, change: CatalogDiff) -> None:
        if args.json:
            sys.stdout.write(json.dumps(change.to_dict()) + "\n")
            sys.stdout.flush()
        else:
            render.change_line(change)

    # ctrl+c ends the watch: the first one, wherever it lands (a KeyboardInterrupt inside a write
    # of a change left a traceback), and any more while the watcher stops are ignored.
    stopping = threading.Event()

    def interrupted(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stopping.set()

    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # ignored by the caller (nohup): left so
        signal.signal(signal.SIGINT, interrupted)
    handle = workspace.watch(report)
    assert handle.catalog is not None
    try:
        render.watching(handle.catalog, len(handle.polled))
        stopping.wait()
    finally:
        handle.stop()
    return 0
