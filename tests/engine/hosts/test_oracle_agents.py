"""The recordings of the other agents (tests/oracle/recordings/agents) are whole and well-formed:
every agents case has one recording per pinned agent, made by the pinned version, whose entries
are exactly what its block says, with no path of the machine that recorded it and none of the
agents' own skill texts. (skilldeck's own listing per agent is compared with them once the engine
learns the agents: issue 36.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.oracle.agents import entries as block_entries
from tests.oracle.agents import pins, recorded_for, split_block
from tests.oracle.workspace import HERE, load_cases

RECORDINGS = HERE / "recordings" / "agents"
KEYS = {"agent", "version", "case", "about", "block", "entries", "own", "skipped", "exit"}
TAGS = {"codex": ("<skills_instructions>\n", "\n</skills_instructions>")}
XML_TAGS = ("<available_skills>\n", "\n</available_skills>")
# A path of the recording machine (a temporary workspace, the checkout) left in a recording.
MACHINE = re.compile(r"/tmp/|/work/|/home/\w|/root/")
PLACEHOLDER = re.compile(r"\{(project|home|outside|root|package|agents)\}")


def recording_files() -> list[Path]:
    return sorted(RECORDINGS.glob("*/*.json"))


def test_every_case_has_a_recording_for_every_agent() -> None:
    cases = load_cases("agents")
    assert len(cases) >= 10
    wanted = {(agent, name) for name, case in cases.items() for agent in recorded_for(case)}
    have = {(path.parent.name, path.stem) for path in recording_files()}
    assert sorted(wanted - have) == [], "missing recordings: run `make oracle` (tests.oracle.record_agents)"
    assert sorted(have - wanted) == [], "recordings of no case or of an agent that is not pinned"


@pytest.mark.parametrize("path", recording_files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_recording_is_well_formed(path: Path) -> None:
    text = path.read_text()
    recording: dict[str, Any] = json.loads(text)
    agent = path.parent.name
    assert set(recording) >= KEYS, f"{path}: missing {KEYS - set(recording)}"
    assert recording["agent"] == agent and recording["case"] == path.stem
    assert recording["version"] == pins()[agent].version, "re-record with `make oracle` after changing AGENTS"
    assert MACHINE.search(text) is None, f"{path}: a path of the recording machine: {MACHINE.search(text)}"
    for value in PLACEHOLDER.findall(text):
        assert value in {"project", "home", "outside", "root", "package", "agents"}
    skipped = recording["skipped"]
    assert skipped == sorted(set(skipped)) and all(isinstance(line, str) and line for line in skipped)
    block = recording["block"]
    if block is None:
        # No block: the recording says why (the agent's last words) and lists nothing.
        assert recording["entries"] == [] and recording["own"] == []
        assert isinstance(recording.get("error"), str)
        return
    start, end = TAGS.get(agent, XML_TAGS)
    assert block.startswith(start) and block.endswith(end.strip("\n")), f"{path}: not the agent's block"
    # The stored entries are exactly what the stored block says, in its order.
    assert block_entries(agent, block) == recording["entries"]
    head, chunks, tail = split_block(agent, block)
    assert head + "".join(chunks) + tail == block
    for entry in recording["entries"]:
        assert set(entry) == {"name", "description", "location"}, f"{path}: unparsed entry {entry}"
    # The agent's own skills: a name, a place, a length; never their text.
    positions = [own["position"] for own in recording["own"]]
    assert positions == sorted(set(positions))
    assert all(0 <= p < len(chunks) + len(positions) for p in positions)
    for own in recording["own"]:
        assert set(own) == {"name", "position", "location", "chars"} and own["chars"] > 0
        assert f"<name>{own['name']}</name>" not in block and f"\n- {own['name']}: " not in block


def test_every_case_docs_agents_cites_exists() -> None:
    # docs/agents.md states each rule with the case that shows it: a renamed or dropped case
    # would leave a rule without its proof.
    text = (HERE.parents[1] / "docs" / "agents.md").read_text()
    prose = re.sub(r"`[^`]*`", "", text)  # code spans hold TOML tables and the notation itself
    cited = set(re.findall(r"\[([a-z0-9_]+)\]", prose))
    cases = set(load_cases("agents"))
    assert len(cited) >= 20
    assert sorted(cited - cases) == []
