"""Each host's block against its binary's recordings (tests/oracle/recordings/agents), byte for
byte: the case's workspace is built as the recorder built it, with the same config files, and
`engine.hosts` answers for the same start folder and home. The agents' own entries are cut out as
the recorder cut them; Codex's own skills, files in its home once it has run, get stand-ins of the
recorded lengths so that its budget is spent as it was. Each workspace is built where the recorder
builds it (tests.oracle.agents.workspace_folder): Codex pays for its roots table, whose lines are
absolute paths, out of its budget, so the length of the folder above the workspace counts (a
pytest `tmp_path` is some thirty characters longer)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.hosts.host import view
from engine.hosts.model import HostView, Place
from engine.hosts.registry import host, hosts
from tests.oracle.agents import build_case, configure, entries, pins, recorded_for, split_block, workspace_folder, xdg
from tests.oracle.record_agents import RECORDINGS, is_own, placeholders
from tests.oracle.workspace import load_cases, start_folder

CASES = load_cases("agents")
AGENTS = ("codex", "gemini", "opencode", "copilot")
# Recordings whose order inside one folder is not one any fixed rule gives (Gemini CLI loads a
# folder in an order that changes from run to run: docs/agents.md); there the entries are
# compared as a multiset per folder, and the folders' order exactly.
# Gemini CLI's rule is descending byte order of the folder names (engine/hosts/gemini.py): 31 of
# its 38 recordings follow it exactly; each of these holds neighbours recorded the other way round
# (earlier, later), all in the one folder .agents/skills.
UNFIXED: dict[str, set[str]] = {
    "gemini": {
        "limits_yaml",  # dashes-body, dot.name
        "many_250_accents",  # e179, e181; e136, e137; e124, e126; e108, e111
        "many_250_d20",  # s025, s026
        "many_250_d202",  # s242, s244
        "many_250_d203",  # s231, s232; s161, s162; s060, s061
        "many_800",  # 12 pairs: m760, m761; m645, m646; ... m022, m025
        "many_long_then_short",  # a027, a028; a025, a026; a018, a019; a013, a014; a008, a009; a003, a004
    }
}
# Recordings of a race: OpenCode reads every skill at once and, for a name found more than once,
# keeps whichever file it finishes reading last (docs/agents.md). No rule gives the recorded
# winners of name_clashes (`deploy` from .claude over .agents, `review` from .agents over .claude),
# and a symlink loop is listed at a `loop/loop/...` path of a depth that changes from run to run.
# There each entry must be the host's own or one of the candidates it shows for that name (a
# shadowed skill, or the same file reached by another path), with the same text; the rest of
# the block, exactly.
# monorepo_deep: `start-cl` of the start folder won twice over the root's, which OpenCode loads
# later (its log: the start folder's copy arrived last), while `start-ag` went the other way.
RACES: dict[str, set[str]] = {"opencode": {"monorepo_deep", "name_clashes", "symlink_loop"}}


def recording(agent: str, case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDINGS / agent / f"{case}.json").read_text())
    return data


def codex_standins(home: Path) -> None:
    """Codex's system skills as files of the recorded lengths (their texts are never stored)."""
    for own in recording("codex", "empty")["own"]:
        name = own["name"]
        frame = len(f"- {name}:  (file: r0/{name}/SKILL.md)\n")
        text = "x" * (own["chars"] - frame)
        path = home / ".codex" / "skills" / ".system" / name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nname: {name}\ndescription: {text}\n---\nBody.\n")


def host_view(agent: str, name: str, root: Path) -> tuple[HostView, Any, dict[str, str]]:
    """The host's view of the case's workspace, its places, and the environment the agent ran in
    (configure writes the agent's config files once: a second call would append the case's
    config.toml text twice, a duplicate key)."""
    case = CASES[name]
    places = build_case(case, root)
    _, env = configure(agent, case, places, 9)
    if agent == "codex":
        codex_standins(places.home)
    environ = {"PATH": os.environ.get("PATH", ""), **xdg(places), **env}
    place = Place(start=start_folder(case, places), home=places.home, environ=environ)
    # The model the recorder ran the agent with (`-m`), when the case names one.
    model = case.get("model", {}).get(agent)
    return view(hosts()[agent] if model is None else host(agent, model), place), places, env


def as_recorded(agent: str, block: str | None, places: Any) -> tuple[str | None, list[dict[str, Any]]]:
    """The block with placeholders and the agent's own entries cut out, as the recorder keeps it."""
    if block is None:
        return None, []
    block = placeholders(block, places, pins()[agent])
    head, chunks, tail = split_block(agent, block)
    kept, own = [], []
    for position, (chunk, item) in enumerate(zip(chunks, entries(agent, block), strict=True)):
        if is_own(agent, item["location"]):
            own.append({"name": item["name"], "position": position, "location": item["location"], "chars": len(chunk)})
        else:
            kept.append(chunk)
    return head + "".join(kept) + tail, own


def candidate(got: HostView, places: Any, item: dict[str, str]) -> bool:
    """A recorded entry is one of the skills the host shows under that name: same description, and
    its location the same file (through any symlinks) as the candidate's."""
    where = Path(places.fill(item["location"]).replace("{root}", str(places.root)))
    if not os.path.exists(where):
        return False
    skills = [v.skill for v in got.verdicts_for(item["name"]) if v.skill is not None]
    return any(s.description == item["description"] and os.path.samefile(s.path, where) for s in skills)


def folders(items: list[dict[str, str]]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Entries grouped by their skills folder, in order; each group as a sorted multiset."""
    out: list[tuple[str, list[tuple[str, str, str]]]] = []
    for item in items:
        folder = item["location"].split("/SKILL.md")[0].rsplit("/", 1)[0]
        if not out or out[-1][0] != folder:
            out.append((folder, []))
        out[-1][1].append((item["name"], item["description"], item["location"]))
    return [(folder, sorted(group)) for folder, group in out]


@pytest.fixture
def workspace() -> Iterator[Path]:
    """A folder like the recorder's: same parent, same length of name."""
    with workspace_folder() as folder:
        yield folder


# Each (agent, case) recorded: a case about one agent's model is recorded for that agent only.
RECORDED = [(agent, name) for agent in AGENTS for name in sorted(CASES) if agent in recorded_for(CASES[name])]


@pytest.mark.parametrize(("agent", "name"), RECORDED)
def test_block_is_the_recorded_block(agent: str, name: str, workspace: Path) -> None:
    want = recording(agent, name)
    got, places, _ = host_view(agent, name, workspace)
    block, own = as_recorded(agent, got.block, places)
    if name in UNFIXED.get(agent, set()):
        assert block is not None and want["block"] is not None
        assert folders(entries(agent, block)) == folders(want["entries"])
        return
    if name in RACES.get(agent, set()):
        assert block is not None and want["block"] is not None
        ours, theirs = entries(agent, block), want["entries"]
        assert [e["name"] for e in ours] == [e["name"] for e in theirs]
        for mine, recorded in zip(ours, theirs, strict=True):
            assert mine == recorded or candidate(got, places, recorded), recorded
        head, _, tail = split_block(agent, block)
        want_head, _, want_tail = split_block(agent, want["block"])
        assert (head, tail) == (want_head, want_tail)
        return
    assert block == want["block"]
    if agent == "codex":
        assert own == want["own"]
