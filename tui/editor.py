"""Opening a file at a line in the user's editor."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

EDITORS_PLUS_LINE = {
    "vi",
    "vim",
    "nvim",
    "nano",
    "emacs",
    "emacsclient",
    "micro",
    "kak",
    "hx",
    "helix",
    "joe",
    "ne",
    "mcedit",
    "pico",
}
EDITORS_GOTO = {"code", "codium", "code-insiders", "cursor", "windsurf"}


def editor_command(environ: os._Environ[str] | dict[str, str], path: Path, line: int) -> list[str] | None:
    """The command that opens `path` at `line` in the user's editor, or None without one."""
    editor = environ.get("VISUAL") or environ.get("EDITOR")
    if not editor:
        return None
    argv = shlex.split(editor)
    name = Path(argv[0]).name
    if name in EDITORS_PLUS_LINE:
        return [*argv, f"+{line}", str(path)]
    if name in EDITORS_GOTO:
        return [*argv, "--goto", f"{path}:{line}"]
    if name in {"subl", "zed", "mate"}:
        return [*argv, f"{path}:{line}"]
    return [*argv, str(path)]
