"""The theme the user chose, remembered across runs, and colours that read on a light theme.

The choice is one line, the theme's name, in `<state folder>/theme` ($XDG_STATE_HOME/skilldeck/).
It is read once as the app is made (before its loop runs; bounded, and anything but a known
theme's name is ignored) and written by a worker, atomically, when the theme changes."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection, Mapping
from pathlib import Path

from rich.color import Color
from rich.terminal_theme import TerminalTheme

from engine import read_regular, state_dir

THEME_CAP = 256  # bytes: a theme's name


def theme_file(environ: Mapping[str, str]) -> Path:
    return state_dir(environ) / "theme"


def read_theme(environ: Mapping[str, str], known: Collection[str]) -> str | None:
    """The remembered theme, or None: no file, one that cannot be read, or a name not in `known`."""
    try:
        data, _ = read_regular(theme_file(environ), THEME_CAP)
        name = data.decode("utf-8").strip()
    except (OSError, ValueError):
        return None
    return name if name in known else None


def write_theme(environ: Mapping[str, str], name: str) -> None:
    """Replace the file in one step: a run that stops half way leaves the old one, never half a name."""
    path = theme_file(environ)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".theme-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(name + "\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    triplet = Color.parse(hex_colour).get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


# The ANSI colours the app's Rich text (the offline note's yellow, the tiers' ⚠) is drawn with on a
# light theme: Textual's own (Alabaster) yellow, #cb9000, on the light themes' grey is about 2.4:1;
# these darker ones read at 4.5:1 or better there, as the dark themes' do on black.
LIGHT_ANSI = TerminalTheme(
    _rgb("#f7f7f7"),
    _rgb("#000000"),
    [_rgb(c) for c in ("#000000", "#aa3731", "#3f7a25", "#7a5600", "#325cc0", "#7a3e9d", "#006e96", "#f7f7f7")],
    [_rgb(c) for c in ("#777777", "#b3261e", "#2f6b00", "#6b4c00", "#005fa3", "#a0309f", "#00708a", "#f7f7f7")],
)
