"""Issue 38: `skilldeck usage` counts every skill from the transcripts the real Claude Code wrote.

The recordings (tests/oracle/recordings/usage, `python -m tests.oracle.record_usage`) hold the
transcript files Claude Code 2.1.328 wrote for each case's sessions; each case says by hand what
happened in it (`expect`). The files are written back into a rebuilt workspace and the installed
command reads them as it reads a user's `~/.claude/projects/`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import collect_usage, parse_since
from engine.usage.transcripts import MAX_LINE
from tests.oracle.workspace import HERE, Places, build

CASES = sorted(p.stem for p in (HERE / "cases" / "usage").glob("*.json"))


def _workspace(name: str, root: Path) -> tuple[dict[str, Any], Places]:
    case = json.loads((HERE / "cases" / "usage" / f"{name}.json").read_text())
    recording = json.loads((HERE / "recordings" / "usage" / f"{name}.json").read_text())
    places = build(case, root, git=False)
    for path, lines in recording["transcripts"].items():
        target = Path(places.fill(path))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(places.fill(line) + "\n" for line in lines))
    for gone in case.get("remove_after", []):
        shutil.rmtree(places.fill(gone))
    return case, places


def _usage(places: Places, *more: str, state: Path) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "tui.cli.main", "usage", "--json", "--project", str(places.project)]
    args += ["--user-dir", str(places.home / ".claude"), "--managed-dir", str(places.root / "managed"), "--no-bundled", *more]
    env = {**os.environ, "XDG_STATE_HOME": str(state), "HOME": str(places.home)}
    return subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("name", CASES)
def test_usage_counts_every_skill_as_the_transcripts_record_it(name: str, tmp_path: Path) -> None:
    case, places = _workspace(name, tmp_path / "ws")
    out = _usage(places, state=tmp_path / "state")
    assert out.returncode == 0, out.stderr
    found = {s["name"]: s for s in json.loads(out.stdout)["skills"]}
    got = {n: {k: found[n][k] for k in ("typed", "model", "failed", "sessions", "projects")} for n in found}
    assert got == case["expect"]
    assert {n for n, s in found.items() if not s["in_catalog"]} == set(case["not_in_catalog"])
    assert all((s["last"] is None) == (s["typed"] + s["model"] == 0) for s in found.values())


def test_failures_carry_claude_codes_reason_and_no_message_text(tmp_path: Path) -> None:
    _, places = _workspace("skill_use", tmp_path / "ws")
    out = _usage(places, state=tmp_path / "state")
    found = {s["name"]: s for s in json.loads(out.stdout)["skills"]}
    assert found["delta"]["reasons"] == [{"reason": "Skill execution blocked by permission rules", "count": 1}]
    assert found["nosuch"]["reasons"] == [{"reason": "Unknown skill: nosuch", "count": 1}]
    assert found["beta"]["reasons"][0]["reason"].startswith("Execute skill: beta.")
    # What the user typed after the name, and the skills' bodies, never leave the transcripts.
    for private in ("hello world", "again", "Do alpha", "Subagent answer"):
        assert private not in out.stdout and private not in out.stderr


def test_a_second_run_reads_only_what_was_appended(tmp_path: Path) -> None:
    _, places = _workspace("skill_use", tmp_path / "ws")
    roots = [places.home / ".claude" / "projects"]
    cache = tmp_path / "state" / "usage.json"
    first = collect_usage(roots, ["alpha"], cache_path=cache)
    assert first.read_bytes > 0 and first.of("alpha") is not None
    assert collect_usage(roots, ["alpha"], cache_path=cache).read_bytes == 0
    session = next(p for p in roots[0].rglob("*.jsonl") if "subagents" not in str(p))
    line = json.dumps({"type": "user", "message": {"content": "<command-name>/alpha</command-name>"}, "uuid": "u-new"})
    with session.open("a") as f:
        f.write(line + "\n")
    again = collect_usage(roots, ["alpha"], cache_path=cache)
    assert again.read_bytes == len(line) + 1
    assert again.of("alpha").typed == first.of("alpha").typed + 1  # type: ignore[union-attr]


def _record(kind: str, content: Any, uuid: str, stamp: str = "2026-11-01T10:00:00Z") -> str:
    body = {"type": kind, "message": {"role": kind, "content": content}, "uuid": uuid, "timestamp": stamp}
    return json.dumps(body | {"sessionId": "s1", "cwd": "/p"}, separators=(",", ":"))


def _call(name: str, uuid: str) -> str:
    return _record("assistant", [{"type": "tool_use", "id": "t-" + uuid, "name": "Skill", "input": {"skill": name}}], uuid)


def test_hostile_transcripts_are_skipped_not_trusted(tmp_path: Path) -> None:
    root = tmp_path / "projects" / "-p"
    root.mkdir(parents=True)
    big = _record("user", "x" * (MAX_LINE + 10), "big")
    lines = ["{not json", big, _call("deep", "a1"), '{"type":"mystery","x":1}', "[1,2]", _call("deep", "a2")]
    # A torn last line: not counted until it is whole.
    (root / "s.jsonl").write_text("\n".join(lines) + "\n" + _call("torn", "a3")[:40])
    os.mkfifo(root / "fifo.jsonl")
    os.symlink(root, root / "loop")
    (root / "bin.jsonl").write_bytes(b"\xff\xfe\x00" * 1000 + b"\n")
    report = collect_usage([tmp_path / "projects"], [], cache_path=tmp_path / "cache.json")
    assert {s.name: s.model for s in report.skills} == {"deep": 2}
    assert any("fifo.jsonl" in note and "not a regular file" in note for note in report.notes)
    with (root / "s.jsonl").open("a") as f:
        f.write(_call("torn", "a3")[40:] + "\n")
    report = collect_usage([tmp_path / "projects"], [], cache_path=tmp_path / "cache.json")
    assert {s.name: s.model for s in report.skills} == {"deep": 2, "torn": 1}


def test_since_leaves_out_older_uses_and_builtins_are_not_skills(tmp_path: Path) -> None:
    root = tmp_path / "projects" / "-p"
    root.mkdir(parents=True)
    old = _record("user", "<command-name>/old</command-name>", "u1", "2026-01-01T00:00:00Z")
    new = _record("user", "<command-name>/new</command-name>", "u2", "2026-11-27T00:00:00Z")
    clear = _record("user", "<command-name>/clear</command-name>", "u3", "2026-11-27T00:00:00Z")
    (root / "s.jsonl").write_text("\n".join([old, new, clear]) + "\n")
    now = 1_795_900_000.0  # 2026-11-28
    everything = collect_usage([tmp_path / "projects"], ["idle"], now=now)
    assert {s.name for s in everything.skills} == {"old", "new", "idle"}
    recent = collect_usage([tmp_path / "projects"], ["idle", "old"], since_days=parse_since("30d"), now=now)
    assert {s.name: s.used for s in recent.skills} == {"new": 1, "idle": 0, "old": 0}
    for bad in ("0d", "-1", "x", "nand"):
        with pytest.raises(ValueError):
            parse_since(bad)
