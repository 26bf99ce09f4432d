"""Where skilldeck looks in a recorded case's workspace: the locations the recorded run had.

The oracle tests rebuild a case's workspace (workspace.build) and load it with skilldeck as
Claude Code saw it: started in the case's folder, the private home's `.claude/` as the user tier,
no managed tier, the `--add-dir` and `--plugin-dir` flags the case passed, its environment, and
none of skilldeck's own bundled skills (they are not Claude Code's).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine import Locations
from tests.oracle.workspace import Places, start_folder


def flag_values(args: list[str], flag: str) -> list[str]:
    """Every value given to `flag` in an argument list (`--add-dir A --add-dir B` -> [A, B])."""
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == flag]


def case_locations(case: dict[str, Any], places: Places, environ: Mapping[str, str] | None = None) -> Locations:
    """The locations of the case's recorded run; `environ` adds to the case's own environment."""
    args = places.fill(case.get("args", []))
    env = {
        "HOME": str(places.home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        **places.fill(case.get("env", {})),
        **(environ or {}),
    }
    return Locations(
        project=start_folder(case, places),
        user_dir=places.home / ".claude",
        managed_dir=places.root / "managed",
        add_dirs=tuple(Path(p) for p in flag_values(args, "--add-dir")),
        plugin_dirs=tuple(Path(p) for p in flag_values(args, "--plugin-dir")),
        bundled=False,
        environ=env,
    )
