"""Record the transcripts the pinned Claude Code writes, for `skilldeck usage`: `make oracle`.

A usage case (tests/oracle/cases/usage/*.json) is a workspace as in workspace.py plus:

    "sessions": [{"prompt": "/alpha hi", "calls": [{"tool": "Skill", "input": {"skill": "beta"}}],
                  "cwd": "{project}/sub",        # one Claude Code run each, a session saved each
                  "resume": true}],              # this run resumes the session before it
    "remove_after": ["{project}/.claude/skills/gone"],   # deleted once every session ran
    "expect": {"alpha": {"typed": 1, "model": 1, "failed": 0, "sessions": 1, "projects": 1}}

Each session is one print-mode run (private HOME, loopback only, server.py answering with the
session's calls, one per turn) that saves its transcript under `{home}/.claude/projects/`.
`expect` is what happened in the case, written by hand from its calls: the test holds
`skilldeck usage` on the recorded transcripts to it.

A recording (recordings/usage/<case>.json) keeps every transcript file (the main sessions and
their subagents' files) line by line, with the workspace folders as placeholders. Records that
carry Claude Code's own texts (its API requests and their blobs, attachments, cost and queue
records) keep only their `type` and `sessionId`: their shape is what a reader meets, their text
is Claude Code's. It also keeps Claude Code's own `skillUsage` from `{home}/.claude.json`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.oracle.record import VERSION, chosen_cases, run_claude
from tests.oracle.record_invoke import placeholders
from tests.oracle.record_listing import init_event
from tests.oracle.workspace import HERE, Places, build, trust_file

RECORDINGS = HERE / "recordings" / "usage"
# Records whose text is Claude Code's own: kept as their type only.
OWN = frozenset({"api-request", "api-request-blob", "api-request-shape", "attachment", "cost-state", "queue-operation"})
OWN |= frozenset({"atis-latch", "tools-used"})


def trimmed(line: str) -> str:
    try:
        record = json.loads(line)
    except ValueError:
        return line
    if not (isinstance(record, dict) and record.get("type") in OWN):
        return line  # as Claude Code wrote it, byte for byte
    kept = {key: record[key] for key in ("type", "sessionId", "timestamp") if key in record}
    return json.dumps(kept, ensure_ascii=False, separators=(",", ":"))


def transcripts(places: Places) -> dict[str, list[str]]:
    """Every transcript file under the private home, by its path (placeholders), its lines trimmed."""
    root = places.home / ".claude" / "projects"
    out: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.jsonl")):
        out[str(path)] = [trimmed(line) for line in path.read_text().splitlines() if line.strip()]
    return out


def record(name: str, case: dict[str, Any]) -> dict[str, Any]:
    keep = Path(".oracle") / "runs" / "usage" / name
    keep.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="oracle-")
    places = build(case, Path(os.path.realpath(tmp)))
    try:
        statuses = []
        last = ""
        for number, session in enumerate(case["sessions"]):
            run_keep = keep / f"session{number}"
            run_keep.mkdir(exist_ok=True)
            run_case = {**case, **({"cwd": session["cwd"]} if "cwd" in session else {})}
            calls = [places.fill(c) for c in session.get("calls", [])]
            resumed = last if session.get("resume") else ""
            proc, _ = run_claude(run_case, places, places.fill(session["prompt"]), calls, run_keep, session=resumed)
            statuses.append(proc.returncode)
            last = init_event(proc.stdout).get("session_id") or last
        for gone in case.get("remove_after", []):
            shutil.rmtree(places.fill(gone), ignore_errors=True)
        state = json.loads(trust_file(places).read_text()) if trust_file(places).exists() else {}
        recording = {
            "claude_code_version": VERSION,
            "case": name,
            "about": case.get("about", ""),
            "exits": statuses,
            "transcripts": transcripts(places),
            "skill_usage": sorted((state.get("skillUsage") or {}).items()),
        }
        return placeholders(recording, places, None)
    finally:
        subprocess.run(["rm", "-rf", tmp], check=False, timeout=120)


def main() -> int:
    chosen = chosen_cases("usage", "tests.oracle.record_usage", __doc__)
    if chosen is None:
        return 2
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    started = time.time()
    for name, case in chosen.items():
        recording = record(name, case)
        (RECORDINGS / f"{name}.json").write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n")
        print(f"usage {name}: {len(recording['transcripts'])} transcript files, exits {recording['exits']}")
    print(f"recorded in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
