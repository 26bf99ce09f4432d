"""Record the transcripts the pinned Claude Code writes, for `skilldeck usage`: `make oracle`.

A usage case (tests/oracle/cases/usage/*.json) is a workspace as in workspace.py plus:

    "sessions": [{"prompt": "/alpha hi", "calls": [{"tool": "Skill", "input": {"skill": "beta"}}],
                  "cwd": "{project}/sub",        # one Claude Code run each, a session saved each
                  "resume": true}],              # this run resumes the session before it
    "codex_sessions": ["$alpha go"],                     # Codex CLI runs (tests/oracle/AGENTS), one each
    "remove_after": ["{project}/.claude/skills/gone"],   # deleted once every session ran
    "expect": {"alpha": {"typed": 1, "model": 1, "failed": 0, "sessions": 1, "projects": 1}},
    "not_in_catalog": ["gone"]                           # names the transcripts hold that no tier has

Each session is one print-mode run (private HOME, loopback only, server.py answering with the
session's calls, one per turn) that saves its transcript under `{home}/.claude/projects/`.
`expect` is what happened in the case, written by hand from its calls: the test holds
`skilldeck usage` on the recorded transcripts to it.

A Codex session runs the pinned Codex CLI against a recorder that answers 400 (the session file
is written before any answer matters): its `$name` mentions are what it records of skill use.

A recording (recordings/usage/<case>.json) keeps every transcript file (the main sessions and
their subagents' files, and Codex's `{home}/.codex/sessions/` files) line by line, with the workspace folders as placeholders. Records that
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

from tests.oracle.agents import configure, pins, xdg
from tests.oracle.record import VERSION, chosen_cases, run_claude
from tests.oracle.record_agents import Refuser
from tests.oracle.record_invoke import placeholders
from tests.oracle.record_listing import init_event
from tests.oracle.workspace import HERE, Places, build, trust_file

RECORDINGS = HERE / "recordings" / "usage"
# Records whose text is Claude Code's own: kept as their type only.
OWN = frozenset({"api-request", "api-request-blob", "api-request-shape", "attachment", "cost-state", "queue-operation"})
OWN |= frozenset({"atis-latch", "tools-used"})
# Codex's records: its own instructions (developer messages, turn context, world state) keep only
# their type; the session's id and folder, and user messages, are kept as written.
CODEX_OWN = frozenset({"turn_context", "world_state", "event_msg"})


def _codex_own(record: dict[str, Any]) -> bool:
    payload = record.get("payload")
    if record.get("type") in CODEX_OWN:
        return True
    if record.get("type") == "session_meta":
        return False
    return record.get("type") == "response_item" and not (isinstance(payload, dict) and payload.get("role") == "user")


def trimmed(line: str) -> str:
    try:
        record = json.loads(line)
    except ValueError:
        return line
    if isinstance(record, dict) and record.get("type") == "session_meta" and isinstance(record.get("payload"), dict):
        payload = {key: record["payload"][key] for key in ("id", "cwd", "timestamp") if key in record["payload"]}
        return json.dumps({**record, "payload": payload}, ensure_ascii=False, separators=(",", ":"))
    if not (isinstance(record, dict) and (record.get("type") in OWN or _codex_own(record))):
        return line  # as the agent wrote it, byte for byte
    kept = {key: record[key] for key in ("type", "sessionId", "timestamp") if key in record}
    return json.dumps(kept, ensure_ascii=False, separators=(",", ":"))


def transcripts(places: Places) -> dict[str, list[str]]:
    """Every transcript file under the private home, by its path (placeholders), its lines trimmed."""
    out: dict[str, list[str]] = {}
    for root in (places.home / ".claude" / "projects", places.home / ".codex" / "sessions"):
        for path in sorted(root.rglob("*.jsonl")):
            out[str(path)] = [trimmed(line) for line in path.read_text().splitlines() if line.strip()]
    return out


def run_codex(places: Places, prompt: str, keep: Path) -> int | None:
    """One Codex CLI run in the project, offline, against a recorder that answers 400."""
    pin = pins()["codex"]
    with Refuser() as server:
        argv, env = configure("codex", {}, places, server.port)
        argv[-1] = places.fill(prompt)
        path = ":".join(p for p in os.environ.get("PATH", "/usr/bin:/bin").split(":") if ".oracle" not in p)
        env = {"PATH": path, "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1", **xdg(places), **env}
        proc = subprocess.run(
            [str(pin.binary), *argv], cwd=places.project, env=env, capture_output=True, text=True,
            errors="replace", timeout=120, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    (keep / "codex-stderr.txt").write_text(proc.stderr)
    return proc.returncode


def record(name: str, case: dict[str, Any]) -> dict[str, Any]:
    keep = Path(".oracle") / "runs" / "usage" / name
    keep.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="oracle-")
    places = build(case, Path(os.path.realpath(tmp)))
    try:
        statuses: list[int | None] = []
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
        for prompt in case.get("codex_sessions", []):
            statuses.append(run_codex(places, prompt, keep))
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
