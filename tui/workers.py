"""The one way the app starts a worker, and the one error policy for all of them.

Textual ends the app when a worker raises (its `exit_on_error` default): a user's bad file, a
settings edit that cannot be written, a model server that answers garbage would close the app
with a traceback. Every worker goes through `start` instead: what it raises becomes an error toast
that says what failed and where the details are, and the traceback is appended to a log under
the state folder (`$XDG_STATE_HOME/skilldeck/errors.log`, kept under LOG_CAP bytes). A cancelled
worker is not a failure. tests/tui/test_house.py checks that nothing calls `run_worker` directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from textual.dom import DOMNode
from textual.worker import Worker

from engine import printable, state_dir

T = TypeVar("T")
LOG_CAP = 1_000_000  # bytes; past it the log starts again


def error_log(environ: Mapping[str, str]) -> Path:
    return state_dir(environ) / "errors.log"


def _log(environ: Mapping[str, str], what: str, error: BaseException) -> Path | None:
    """Append the failure to the error log; None when even that cannot be written."""
    path = error_log(environ)
    entry = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {what}\n{''.join(traceback.format_exception(error))}\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_size > LOG_CAP:
                path.unlink()
        # O_NOFOLLOW: a symlink planted at the log's place is not written through.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as out:
            out.write(entry)
    except OSError:
        return None
    return path


def _report(node: DOMNode, environ: Mapping[str, str], what: str, error: BaseException) -> None:
    """On the UI loop: the toast, once the log has the details."""
    logged = _log(environ, what, error)
    where = f" Details: {logged}" if logged else ""
    message = printable(f"{what} failed: {type(error).__name__}: {error}.{where}")
    node.app.notify(message, title="Error", severity="error", timeout=20)


def start(
    node: DOMNode,
    work: Callable[[], T] | Callable[[], Awaitable[T]] | Awaitable[T],
    *,
    what: str,
    environ: Mapping[str, str],
    thread: bool = False,
    **options: Any,
) -> Worker[T | None]:
    """Run `work` as a worker of `node` (Textual's `run_worker` options pass on); if it raises,
    the user is told what (`what`, e.g. "Reading the settings files") and the app goes on."""
    guarded: Any
    if thread:
        call: Any = work

        def guarded() -> T | None:
            try:
                return call()  # type: ignore[no-any-return]
            except Exception as error:
                node.app.call_from_thread(_report, node, environ, what, error)
                return None

    else:

        async def guarded() -> T | None:
            try:
                if inspect.isawaitable(work):
                    return await work
                outcome = work()
                return await outcome if inspect.isawaitable(outcome) else outcome
            except asyncio.CancelledError:
                raise
            except Exception as error:
                _report(node, environ, what, error)
                return None

    return node.run_worker(guarded, thread=thread, exit_on_error=False, **options)
