"""Strict JSON files (plugin manifests, settings) read with a diagnostic instead of a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .diagnostics import Sink


def read_json(path: Path, sink: Sink, code: str, what: str) -> Any | None:
    """The parsed file, or None when it is absent or broken (broken files get an error)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        sink.error(code, path, f"cannot read this {what}: {exc}", "check the file's permissions and encoding")
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        sink.error(
            code,
            path,
            f"this {what} is not valid JSON: {exc.msg}; it is skipped",
            "fix the JSON (no comments or trailing commas)",
            line=exc.lineno,
            column=exc.colno,
        )
        return None
