"""What starting the app imports: the modules only a later screen needs (Rich's Markdown with
markdown-it and Pygments, importlib.metadata) are imported when first used, not on the way to the
first frame (issue 22: the first screen within 2 s at 15,000 skills)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

from tui.widgets.navigation import TEXTUAL_VERSION

LATER = ("importlib.metadata", "rich.markdown", "markdown_it", "pygments", "rich.syntax")


def test_starting_the_app_imports_nothing_a_later_screen_needs() -> None:
    code = f"import json, sys, tui.cli.main, tui.app; print(json.dumps([m for m in {LATER!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == []


def test_the_textual_version_read_from_its_folder_is_the_installed_one() -> None:
    # The scrollbar patch is gated on it (tui/widgets/navigation.py).
    assert version("textual") == TEXTUAL_VERSION
