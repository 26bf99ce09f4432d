"""skilldeck never allows a tool call that Claude Code would not (tests/oracle recordings).

Each recorded call is replayed against skilldeck's engine in a rebuilt copy of its workspace
(same files, symlinks, settings and trust). skilldeck may be stricter than Claude Code (ask
where it allows), never looser; and a call Claude Code denies by a rule skilldeck denies too.
`python -m tests.engine.permissions.test_oracle_permissions` prints how often the two agree.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine import Locations, Permissions, read_settings
from tests.oracle.workspace import RECORDINGS, Places, build, load_cases, start_folder

VERSION = (Path(__file__).parents[2] / "oracle" / "VERSION").read_text().strip()
DECIDED = ("allow", "ask", "deny")


@cache
def _recordings() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(RECORDINGS.glob("*.json"))}


def _calls() -> list[tuple[str, int]]:
    return [
        (name, index)
        for name, recording in _recordings().items()
        for index, call in enumerate(recording["calls"])
        if call["decision"] in DECIDED
    ]


def _permissions(places: Places, start: Path) -> Permissions:
    """skilldeck's permissions for the workspace, as `Permissions.load` builds them, with the
    workspace's private home (its `~`, its user settings, its Claude Code config)."""
    environ = {"HOME": str(places.home), "XDG_STATE_HOME": str(places.root / "state")}
    locations = Locations(start, user_dir=places.home / ".claude", managed_dir=places.root / "managed", environ=environ)
    settings = read_settings(locations)
    return Permissions(settings, locations.project, home=places.home, repo_dirs=tuple(locations.project_dirs()))


def decide(name: str, index: int, root: Path) -> tuple[str, str, str]:
    """(Claude Code's recorded decision, skilldeck's decision, skilldeck's reason) for one call."""
    call = _recordings()[name]["calls"][index]
    case = load_cases()[name]
    places = build(case, Path(os.path.realpath(root)))
    ours = _permissions(places, start_folder(case, places)).decide(call["tool"], places.fill(call["input"]))
    return call["decision"], ours.decision, ours.reason


def _id(name: str, index: int) -> str:
    call = _recordings()[name]["calls"][index]
    shown = json.dumps(call["input"], ensure_ascii=True)[:60]
    return f"{name}[{index}] {call['tool']} {shown}"


@pytest.mark.parametrize(("name", "index"), _calls(), ids=[_id(*c) for c in _calls()])
def test_never_looser_than_claude_code(name: str, index: int, tmp_path: Path) -> None:
    theirs, ours, reason = decide(name, index, tmp_path)
    assert not (ours == "allow" and theirs != "allow"), f"Claude Code {VERSION}: {theirs}; skilldeck allows ({reason})"
    if theirs == "deny":
        assert ours == "deny", f"Claude Code {VERSION} denies by a rule; skilldeck: {ours} ({reason})"


def test_recordings_are_of_the_pinned_version_and_cover_every_case() -> None:
    recordings = _recordings()
    assert set(recordings) == set(load_cases()), "run `make oracle` after adding or removing a case"
    for name, recording in recordings.items():
        assert recording["claude_code_version"] == VERSION, name
        assert [c["input"] for c in recording["calls"]] == [c["input"] for c in load_cases()[name]["calls"]], name


def summary(root: Path) -> Counter[str]:
    """How skilldeck's answers compare with Claude Code's, over every recorded call."""
    counts: Counter[str] = Counter()
    for n, (name, index) in enumerate(_calls()):
        folder = root / str(n)
        folder.mkdir()
        theirs, ours, reason = decide(name, index, folder)
        rank = {"allow": 0, "ask": 1, "deny": 2}
        verdict = "identical" if theirs == ours else "skilldeck stricter" if rank[ours] > rank[theirs] else "skilldeck looser"
        counts[verdict] += 1
        if verdict != "identical":
            print(f"{verdict:18}  CC {theirs:5}  skilldeck {ours:5}  {_id(name, index)}  -- {reason}")
    return counts


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        print(dict(summary(Path(tmp))))
