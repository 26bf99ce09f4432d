"""Claude Code's own count of what it loaded equals skilldeck's (the load_ and plugin_ cases).

Claude Code logs `Loaded N unique skills (U unconditional, C conditional, ...)`: N counts the
skill folders and legacy commands after the same file reached twice is dropped and before a
name clash is settled; C the `paths:` skills held back. skilldeck keeps the same files: the
catalog's skills, the ones that lost a name clash, and the held-back `paths:` skills.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import SourceKind
from tests.engine.listing.test_oracle_listing import RECORDED, skilldeck_side
from tests.oracle.workspace import load_cases

# The tiers Claude Code counts there: plugins and its own skills are counted elsewhere.
COUNTED = {SourceKind.MANAGED, SourceKind.USER, SourceKind.PROJECT, SourceKind.ADD_DIR, SourceKind.COMMANDS}
CASES = sorted(n for n, r in RECORDED.items() if r.get("loaded") and n.startswith(("load_", "plugin_")))


@pytest.mark.parametrize("name", CASES)
def test_loaded_and_conditional_counts_equal_claude_code(name: str, tmp_path: Path) -> None:
    recording = RECORDED[name]
    catalog = skilldeck_side(load_cases("listing")[name], recording, Path(os.path.realpath(tmp_path)))[0]
    waiting = [s for s in catalog.deferred if s.activation == "paths"]
    kept = [*catalog.skills.values(), *(s.skill for s in catalog.shadowed), *waiting]
    ours = {"unique": sum(1 for s in kept if s.source.kind in COUNTED), "conditional": len(waiting)}
    assert ours == {k: recording["loaded"][k] for k in ours}
