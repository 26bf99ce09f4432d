"""A forked skill gets the tools of its custom agent, never more (issue 14, "a fork with a custom
agent whose `tools:` says `Read` gets every tool")."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from engine.runner.loop import Failed, Fork
from engine.runner.subagents import AgentError, find_agent
from tests.conftest import Tree, skill_text, write
from tests.engine.runner.test_runner import _runner
from tests.llm_server import MessagesServer, Reply


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def _fork_skill(tree: Tree, agent: str) -> None:
    tree.skill(
        "review", skill_text(body="Review $ARGUMENTS.\n", name="review", description="Reviews.", context="fork", agent=agent)
    )


def _tools(request: dict) -> list[str]:  # type: ignore[type-arg]
    return [t["name"] for t in request["tools"]]


async def test_a_project_agent_with_a_comma_list_gets_only_those_tools(tree: Tree, server: MessagesServer) -> None:
    write(
        tree.project / ".claude" / "agents" / "reviewer.md",
        "---\nname: reviewer\ndescription: d\ntools: Read, Grep\n---\nBe terse.\n",
    )
    _fork_skill(tree, "reviewer")
    server.script(Reply(text="Looks fine."))
    runner, _ = _runner(tree, server)
    await runner.invoke("review", "main.py")
    assert _tools(server.requests[0]) == ["Grep", "Read"], "Grep is offered where there is no Bash"
    assert runner.messages[-1].text.endswith("Looks fine.")


async def test_a_user_agent_with_a_yaml_list_and_disallowed_tools(tree: Tree, server: MessagesServer) -> None:
    text = "---\nname: auditor\ndescription: d\ntools:\n  - Read\n  - Bash(git log *)\n  - Glob\ndisallowedTools: Glob\n---\nx\n"
    write(tree.user / "agents" / "some-file-name.md", text)
    _fork_skill(tree, "auditor")
    server.script(Reply(text="ok"))
    runner, _ = _runner(tree, server)
    await runner.invoke("review")
    assert _tools(server.requests[0]) == ["Bash", "Read"]


async def test_an_agent_without_tools_inherits_every_tool_and_disallowed_still_applies(
    tree: Tree, server: MessagesServer
) -> None:
    write(
        tree.project / ".claude" / "agents" / "helper.md",
        "---\nname: helper\ndescription: d\ndisallowedTools: [Bash, Write]\n---\n",
    )
    _fork_skill(tree, "helper")
    server.script(Reply(text="ok"))
    runner, _ = _runner(tree, server)
    await runner.invoke("review")
    assert _tools(server.requests[0]) == ["Edit", "Glob", "Grep", "Read", "Skill"]


async def test_an_agent_that_is_not_found_is_refused_not_widened(tree: Tree, server: MessagesServer) -> None:
    _fork_skill(tree, "ghost")
    tree.skill("caller", skill_text(name="caller", description="d"))
    runner, events = _runner(tree, server)
    await runner.invoke("review")
    [failed] = [e.error for e in events if isinstance(e, Failed)]
    assert failed.kind == "agent" and "'ghost' not found" in failed.message and ".claude/agents" in failed.message
    assert server.requests == [] and not [e for e in events if isinstance(e, Fork)], "nothing was sent"
    # The model's Skill tool gets the same answer as an error result.
    server.script(Reply(tool_uses=[{"id": "s", "name": "Skill", "input": {"skill": "review"}}]), Reply(text="ok"))
    runner, events = _runner(tree, server, answers=["once"])
    await runner.send("review please")
    result = server.requests[1]["messages"][-1]["content"][0]
    assert result["is_error"] and "'ghost' not found" in result["content"]
    assert len(server.requests) == 2, "no subagent request was made"


def test_a_broken_agent_file_is_an_error_and_bounded_reads(tree: Tree) -> None:
    write(tree.project / ".claude" / "agents" / "bad.md", "---\nname: [unclosed\ntools: Read\n---\n")
    with pytest.raises(AgentError, match="frontmatter cannot be read"):
        find_agent(tree.locations(), "bad")
    fifo_dir = tree.project / ".claude" / "agents"
    os.mkfifo(fifo_dir / "fifo.md")
    write(fifo_dir / "ok.md", "---\nname: ok\ntools: Read\n---\n")
    assert find_agent(tree.locations(), "ok").tools == ("Read",), "a FIFO among agent files does not hang the search"
    assert find_agent(tree.locations(), "Explore").path is None


def test_project_agents_win_over_user_agents(tree: Tree) -> None:
    write(tree.user / "agents" / "same.md", "---\nname: same\ntools: Bash\n---\n")
    write(tree.project / ".claude" / "agents" / "same.md", "---\nname: same\ntools: Read\n---\n")
    assert find_agent(tree.locations(), "same").tools == ("Read",)
