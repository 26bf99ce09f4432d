"""A comparison with the pinned Claude Code on the demo workspace, recorded once and kept as
JSON (recorded_compare.json), for the snapshot and the README's screenshot: a live run shows its
own time, and the binary's and workspace's paths, which differ between checkouts. The live app is
tested with the real binary in test_compare_app.py.

Record it again (after a Claude Code upgrade or a demo change): `python -m tests.tui.recorded_compare`.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from engine import ClaudeCode, CompareRow, Comparison, compare_with_claude, find_claude
from engine.demo import make_demo

RECORDED = Path(__file__).with_name("recorded_compare.json")
REPO = Path(__file__).resolve().parents[2]
# Shown instead of where the binary and the demo were: the same in every checkout.
CLAUDE_SHOWN = "/usr/local/bin/claude"
DEMO_SHOWN = "<demo>"


def recorded_comparison() -> Comparison:
    data = json.loads(RECORDED.read_text())

    def rows(items: list[dict[str, Any]]) -> list[CompareRow]:
        return [CompareRow(**item) for item in items]

    claude = ClaudeCode(Path(data["claude_code"]["path"]), data["claude_code"]["version"])
    return Comparison(
        claude, data["contained"], data["model"], rows(data["listing"]), data["claude_own"], data["skipped"], data["notes"],
        data["seconds"], data["invoked"], rows(data["invocation"]), data["overlaid"],
    )  # fmt: skip


def record() -> None:
    root = Path(os.path.realpath(tempfile.mkdtemp(prefix="skilldeck-recorded-")))
    environ = {"HOME": str(root / "demo" / "home"), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    locations = make_demo(root / "demo", environ)
    claude = find_claude(REPO / ".oracle" / "node_modules" / ".bin" / "claude", environ)
    data = compare_with_claude(claude, locations).to_dict()
    data["claude_code"]["path"] = CLAUDE_SHOWN
    text = json.dumps(data, indent=1, ensure_ascii=False).replace(str(root / "demo"), DEMO_SHOWN)
    RECORDED.write_text(text + "\n")


if __name__ == "__main__":
    record()
