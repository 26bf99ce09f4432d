"""Strict JSON files (plugin manifests, settings) read with a diagnostic instead of a traceback.

Every such file may come from a cloned repository: it may be a FIFO, `/dev/zero`, gigabytes
long, or nested a thousand levels (which makes `json` raise RecursionError). Each case is a
diagnostic on that file and the file is skipped; nothing a file holds raises out of here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..base.bounds import MAX_NESTING, json_too_deep
from ..base.safeio import NotRegularFile, TooLarge, read_regular
from .diagnostics import Sink

# Real settings files and manifests are a few KB; the corpus's marketplace.json is 45 KB.
MAX_JSON_BYTES = 4 * 1024 * 1024


def _not_json(name: str) -> Any:
    # Python reads NaN and Infinity; JSON (and Claude Code's JSON.parse) does not: a file holding
    # them is skipped by Claude Code, so it must not count here either.
    raise ValueError(f"{name} is not JSON")


def read_json(path: Path, sink: Sink, code: str, what: str, depth: int = MAX_NESTING, bom: bool = False) -> Any | None:
    """The parsed file, or None when it is absent or cannot be used (then with an error). `depth`:
    the deepest nesting read; `bom`: a leading byte order mark is skipped, not an error."""
    try:
        data, _ = read_regular(path, MAX_JSON_BYTES)
    except FileNotFoundError:
        return None
    except NotRegularFile as exc:
        sink.error(code, path, f"this {what} is {exc.strerror}; it is skipped", "replace it with a regular file")
        return None
    except TooLarge as exc:
        sink.error(code, path, f"this {what} is {exc.strerror}; it is skipped", "a real one is a few kilobytes: check it")
        return None
    except OSError as exc:
        sink.error(code, path, f"cannot read this {what}: {exc.strerror or exc}; it is skipped", "check the file's permissions")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        sink.error(code, path, f"this {what} is not UTF-8 (byte {exc.start}); it is skipped", "save the file as UTF-8")
        return None
    if bom:
        text = text.removeprefix("\ufeff")
    if json_too_deep(text, depth):
        sink.error(
            code,
            path,
            f"this {what} nests more than {depth} levels deep; skilldeck does not parse it, so it is skipped",
            "a real one nests a few levels: check where it came from",
        )
        return None
    try:
        return json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        sink.error(
            code,
            path,
            f"this {what} is not valid JSON: {exc.msg}; it is skipped",
            "fix the JSON (no comments or trailing commas)",
            line=exc.lineno,
            column=exc.colno,
        )
    except (ValueError, RecursionError, MemoryError) as exc:
        # ValueError: an integer of more than 4,300 digits (Python's int max-str-digits).
        sink.error(code, path, f"this {what} cannot be read: {str(exc)[:200]}; it is skipped", "check the numbers in it")
    return None
