"""What invoking a skill sends, and the transcript on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import ExpansionError, InvocationError, Message, Transcript, Workspace
from engine.runner.conversation import Block, api_messages, fork_result_message
from engine.runner.invoke import build_prompt
from tests.conftest import Tree, skill_text, write


def test_inline_invocation_is_two_messages_sent_as_one(tree: Tree) -> None:
    tree.skill("fix", skill_text(body="Fix $ARGUMENTS.\n", name="fix", description="d", model="opus", allowed__tools="Read Edit"))
    workspace = Workspace(tree.locations())
    prompt = workspace.expand(workspace.load(), "/fix", "issue 7")
    visible, meta = prompt.messages
    assert (
        visible.text
        == "<command-message>fix</command-message>\n<command-name>/fix</command-name>\n<command-args>issue 7</command-args>"
    )
    # One user message with two text blocks, the first ending in a newline (recorded: typed_args).
    assert api_messages(prompt.messages) == [
        {"role": "user", "content": [{"type": "text", "text": visible.text + "\n"}, {"type": "text", "text": meta.text}]}
    ]
    assert (visible.meta, meta.meta) == (False, True)
    assert meta.text == f"Base directory for this skill: {tree.skills() / 'fix'}\n\nFix issue 7.\n"
    assert (prompt.context, prompt.model, prompt.allowed_tools) == ("inline", "opus", ("Read", "Edit"))


def test_fork_is_one_task_message_for_the_subagent(tree: Tree) -> None:
    tree.skill("look", skill_text(body="Look into it.\n", name="look", description="d", context="fork", agent="Explore"))
    workspace = Workspace(tree.locations())
    prompt = workspace.expand(workspace.load(), "look", "")
    assert [m.meta for m in prompt.messages] == [False]
    assert prompt.messages[0].text.endswith("Look into it.\n")
    assert (prompt.context, prompt.agent) == ("fork", "Explore")
    assert fork_result_message("look", "Done.") == 'Skill "look" completed (forked execution).\nDone.'


def test_shell_lines_follow_the_skills_allowed_tools(tree: Tree) -> None:
    # touch, not printf: printf only prints, so it needs no rule (as in Claude Code).
    tree.skill(
        "ok", skill_text(body="Now: !`touch made && printf hi`\n", name="ok", description="d", allowed__tools="Bash(touch *)")
    )
    tree.skill("no", skill_text(body="Now: !`touch made && printf hi`\n", name="no", description="d"))
    workspace = Workspace(tree.locations())
    catalog = workspace.load()
    assert workspace.expand(catalog, "ok", run_shell=True).messages[1].text.endswith("Now: hi\n")
    with pytest.raises(ExpansionError, match="permission check failed"):
        workspace.expand(catalog, "no", run_shell=True)
    write(tree.project / ".claude" / "settings.json", json.dumps({"disableSkillShellExecution": True}))
    assert "[shell command execution disabled by policy]" in workspace.expand(catalog, "ok", run_shell=True).messages[1].text
    assert "[shell command execution disabled by policy]" in workspace.expand(catalog, "ok").messages[1].text


def test_unknown_skill(tree: Tree) -> None:
    workspace = Workspace(tree.locations())
    with pytest.raises(InvocationError, match=r"^Unknown skill: nope$"):
        workspace.expand(workspace.load(), "/nope")


def test_a_typed_name_is_the_skills_own_case_and_all(tree: Tree) -> None:
    # Checked on Claude Code 2.1.328: /Deploy for a skill named deploy runs nothing (it goes to the
    # model as a plain message, with a note in Claude Code's own words that is not recorded here).
    tree.skill("deploy", skill_text(body="x\n", name="deploy", description="d"))
    workspace = Workspace(tree.locations())
    catalog = workspace.load()
    with pytest.raises(InvocationError, match=r"^Unknown skill: Deploy$"):
        workspace.expand(catalog, "/Deploy", "now")
    assert workspace.expand(catalog, "/deploy", "now").messages[0].text.endswith("<command-args>now</command-args>")


def test_typing_a_skill_only_the_model_may_invoke_is_refused_in_claude_codes_words(tree: Tree) -> None:
    tree.skill("hidden", skill_text(body="Secret.\n", name="hidden", description="d", user__invocable="false"))
    workspace = Workspace(tree.locations())
    with pytest.raises(InvocationError, match=r'^This skill can only be invoked by Claude, not directly by users\. .*"hidden"'):
        workspace.expand(workspace.load(), "hidden")


def test_a_skill_only_the_model_may_invoke_has_claude_codes_skill_format_block(tree: Tree) -> None:
    # Claude Code's command block for a user-invocable: false skill folder: no slash, no
    # arguments, the skill-format line (it is kept in the transcript, never sent: recorded
    # run_skill_calls shows the Skill call's result and the skill's text only).
    tree.skill("hidden", skill_text(body="Secret $ARGUMENTS.\n", name="hidden", description="d", user__invocable="false"))
    workspace = Workspace(tree.locations())
    prompt = build_prompt(workspace.locations, workspace.load(), "hidden", "x")
    assert prompt.messages[0].text == (
        "<command-message>hidden</command-message>\n<command-name>hidden</command-name>\n<skill-format>true</skill-format>"
    )
    assert prompt.messages[1].text.endswith("Secret x.\n")


def test_transcript_appends_and_loads_back(tmp_path: Path) -> None:
    transcript = Transcript.create("s1", environ={"XDG_STATE_HOME": str(tmp_path)})
    assert transcript.path == tmp_path / "skilldeck" / "sessions" / "s1.jsonl"
    first = Message.user("hello")
    second = Message("assistant", [Block("text", "hi"), Block("tool_use", id="t1", name="Read", input={"file_path": "/x"})])
    transcript.append(first)
    transcript.append(second)
    with open(transcript.path, "a") as fh:
        fh.write('{"role": "user", "blo')  # a crash mid-write
    loaded = Transcript.load(transcript.path)
    assert [m.to_api() for m in loaded] == [first.to_api(), second.to_api()]
