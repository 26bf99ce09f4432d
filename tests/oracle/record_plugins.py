"""Record how the pinned Claude Code judges plugin manifests and hooks files: `make oracle`.

A plugin case (tests/oracle/cases/plugins/*.json) is a workspace as in workspace.py plus one of:

    "validate": "{outside}/p"     # run `claude plugin validate --json` on this folder (offline)
    "session": true               # run one print-mode session (as record_listing does) and read its debug log

A recording keeps only what the doctor must predict, never Claude Code's texts:

- `validate`: whether it passed and the field paths of its errors and warnings
  (`version`, `hooks[0]`, ...);
- `session`: whether the debug log reported a duplicate hooks file, whether a plugin hook ran
  (SessionStart), and whether the plugin was left unavailable for MCP by a hook load failure.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.oracle.record import CLAUDE, ORACLE, VERSION, chosen_cases
from tests.oracle.record_listing import run
from tests.oracle.workspace import HERE, build

RECORDINGS = HERE / "recordings" / "plugins"
RAN = re.compile(r"Hooks: SessionStart:\S+ \[.*\] \(plugin \S+\) finished with status 0")


def validate(case: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        places = build(case, Path(os.path.realpath(tmp)))
        env = {"HOME": str(places.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        target = places.fill(case["validate"])
        done = subprocess.run(
            [str(CLAUDE), "plugin", "validate", "--json", target], capture_output=True, text=True, timeout=120, env=env
        )
        report = json.loads(done.stdout)
        manifest = report.get("manifest") or {}
        return {
            "success": report.get("success"),
            "errors": sorted(e.get("path", "") for e in manifest.get("errors", [])),
            "warnings": sorted(w.get("path", "") for w in manifest.get("warnings", [])),
            "exit": done.returncode,
        }


def session(name: str, case: dict[str, Any]) -> dict[str, Any]:
    keep = ORACLE / "runs" / "plugins" / name
    keep.mkdir(parents=True, exist_ok=True)
    seen = run(case, keep, int(time.time() * 1000))
    log = "\n".join(seen["debug"])
    return {
        "duplicate_hooks": "Duplicate hooks file detected" in log,
        "hook_ran": bool(RAN.search(log)),
        "mcp_unavailable": "error type: hook-load-failed" in log,
    }


def main() -> int:
    chosen = chosen_cases("plugins", "tests.oracle.record_plugins", __doc__)
    if chosen is None:
        return 2
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    for name, case in chosen.items():
        recording: dict[str, Any] = {"claude_code_version": VERSION, "case": name, "about": case.get("about", "")}
        if "validate" in case:
            recording["validate"] = validate(case)
        if case.get("session"):
            recording["session"] = session(name, case)
        (RECORDINGS / f"{name}.json").write_text(json.dumps(recording, indent=2, ensure_ascii=False) + "\n")
        print(f"plugins {name}: {json.dumps({k: v for k, v in recording.items() if k in ('validate', 'session')})}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
