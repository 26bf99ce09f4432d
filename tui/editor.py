"""Opening a file at a line in the user's editor."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported

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


# Without a terminal to hand over (a headless app under test), the editor cannot be interactive:
# it runs detached from input, and is not waited on for longer than this.
HEADLESS_TIMEOUT_S = 30


def open_in_editor(app: App[Any], environ: os._Environ[str] | dict[str, str], path: Path, line: int) -> tuple[str, bool]:
    """Suspend the app, run the user's editor on `path` at `line`, come back; what to tell the
    user, and whether it is an error."""
    command = editor_command(environ, path, line)
    if command is None:
        return "Set $EDITOR (or $VISUAL) to open files", True
    result: subprocess.CompletedProcess[bytes]
    try:
        with app.suspend():
            result = subprocess.run(command, check=False)
    except SuspendNotSupported:
        try:
            result = subprocess.run(
                command, check=False, stdin=subprocess.DEVNULL, capture_output=True, timeout=HEADLESS_TIMEOUT_S
            )
        except subprocess.TimeoutExpired:
            return f"{command[0]} did not finish within {HEADLESS_TIMEOUT_S} s without a terminal", True
        except OSError as exc:
            return f"Could not start {command[0]}: {exc.strerror}", True
    except OSError as exc:
        return f"Could not start {command[0]}: {exc.strerror}", True
    return f"exit {result.returncode}", False
