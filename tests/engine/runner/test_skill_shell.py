"""A skill's `!` commands from a hostile repository: previews run nothing, values are quoted,
only the skill file's own patterns run (issue 14, "Previewing runs code")."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import ExpansionError, Locations, Transcript, Workspace
from engine.catalog.model import LoadedFrom, Skill, Source, SourceKind
from engine.llm import backend_for
from engine.runner.expand import Expansion, ShellMode, expand
from engine.runner.loop import Runner
from tests.conftest import skill_text, write
from tests.llm_server import MessagesServer, Reply

HOSTILE = "repo-$(touch pwned)"
SOURCE = Source(SourceKind.PROJECT, Path("/p/.claude/skills"), "project")


def _pwned(root: Path) -> list[Path]:
    """Every file a payload could have made: named exactly pwned, pwned2, ..."""
    return [p for p in root.rglob("pwned*") if p.is_file()]


def _workspace(root: Path, project_name: str = "repo", environ: dict[str, str] | None = None) -> tuple[Workspace, Path]:
    project = root / project_name
    (project / ".git").mkdir(parents=True)
    (root / "user").mkdir(exist_ok=True)
    locations = Locations(
        project=project, user_dir=root / "user", managed_dir=root / "managed", bundled=False, environ=environ or {}
    )
    return Workspace(locations), project


def _allow(root: Path, *rules: str) -> None:
    """Rules in the user's own settings: a project's could be ignored until it is trusted."""
    write(root / "user" / "settings.json", json.dumps({"permissions": {"allow": list(rules)}}))


def _skill(project: Path, body: str, folder: str = "s", **fields: Any) -> Path:
    fields.setdefault("description", "d")
    return write(project / ".claude" / "skills" / folder / "SKILL.md", skill_text(body=body, **fields))


def _expand(project: Path, body: str, args: str, shell: ShellMode = "execute") -> Expansion:
    """The expansion on its own, every command allowed: the quoting is under test, not the rules."""
    skill = Skill("s", "s", "d", "frontmatter", SOURCE, LoadedFrom.SKILLS, project / "s" / "SKILL.md")
    return expand(skill, args, session_id="x", project_dir=project, check=lambda c: ("allow", "test"), body=body, shell=shell)


# Previews ----------------------------------------------------------------------------------------
def test_a_preview_runs_nothing_even_when_the_repositorys_rules_allow_it(tmp_path: Path) -> None:
    workspace, project = _workspace(tmp_path)
    _skill(project, "Now: !`touch pwned`\nThen: !`touch pwned2`\n")
    _allow(tmp_path, "Bash(touch *)")
    prompt = workspace.expand(workspace.load(), "s")
    assert _pwned(tmp_path) == []
    text = prompt.messages[-1].text
    assert "Now: [preview, not run: !`touch pwned` · rules: allow" in text
    assert "Then: [preview, not run: !`touch pwned2` · rules: allow" in text
    assert [(r.command, r.decision, r.ran, r.output) for r in prompt.shell] == [
        ("touch pwned", "allow", False, None),
        ("touch pwned2", "allow", False, None),
    ]
    assert prompt.to_dict()["shell"][0]["ran"] is False


def test_a_preview_of_a_command_the_rules_would_refuse_shows_it_instead_of_failing(tmp_path: Path) -> None:
    workspace, project = _workspace(tmp_path)
    _skill(project, "Now: !`rm -rf pwned`\n")
    prompt = workspace.expand(workspace.load(), "s")
    assert prompt.shell[0].decision in ("ask", "deny")
    assert "a real run would fail the invocation" in prompt.messages[-1].text
    with pytest.raises(ExpansionError, match=r'^Shell command permission check failed for pattern "!`rm -rf pwned`": '):
        workspace.expand(workspace.load(), "s", run_shell=True)


def test_running_them_is_asked_for(tmp_path: Path) -> None:
    workspace, project = _workspace(tmp_path)
    _skill(project, "Now: !`touch pwned`.\n")
    _allow(tmp_path, "Bash(touch *)")
    prompt = workspace.expand(workspace.load(), "s", run_shell=True)
    assert prompt.messages[-1].text.endswith("Now: (Bash completed with no output).\n")
    assert (project / "pwned").is_file()
    assert (prompt.shell[0].ran, prompt.shell[0].exit_code) == (True, 0)


# Quoting -----------------------------------------------------------------------------------------
def test_substituted_values_are_one_inert_word_inside_commands(tmp_path: Path) -> None:
    """A project folder, a skill folder and arguments: each is printed back as it is, quoted, and
    the prose outside the commands keeps the raw values."""
    workspace, project = _workspace(tmp_path, "my repo")
    body = (
        "Project ${CLAUDE_PROJECT_DIR}\n"
        "a: !`echo ${CLAUDE_PROJECT_DIR}`\n"
        'b: !`echo "in ${CLAUDE_PROJECT_DIR}!"`\n'
        "c: !`echo 'in ${CLAUDE_PROJECT_DIR}'`\n"
        "d: !`echo ${CLAUDE_SKILL_DIR}`\n"
        "e: !`echo $ARGUMENTS`\n"
        "f: !`echo $0 / $ARGUMENTS[1] / $first`\n"
        "Args $0|$1\n"
    )
    skill_dir = _skill(project, body, folder="s", arguments="[first]").parent
    _allow(tmp_path, "Bash(echo *)")
    prompt = workspace.expand(workspace.load(), "s", "one two", run_shell=True)
    lines = prompt.messages[-1].text.split("\n")
    assert lines[2:] == [
        f"Project {project}",
        f"a: {project}",
        f"b: in {project}!",
        f"c: in {project}",
        f"d: {skill_dir}",
        "e: one two",
        "f: one / two / one",
        "Args one|two",
        "",
    ]
    assert prompt.shell[0].command == "echo " + "'" + str(project) + "'"


@pytest.mark.parametrize(
    ("project_name", "folder", "args"),
    [
        (HOSTILE, "s", ""),
        ("repo", "s-$(touch pwned2)", ""),
        ("repo", "s", "$(touch pwned3)"),
        ("repo", "s", "x;touch pwned4"),
        ("repo", "s", "`touch pwned5`"),
    ],
)
def test_a_value_that_is_shell_code_is_refused_as_claude_code_refuses_it(
    tmp_path: Path, project_name: str, folder: str, args: str
) -> None:
    """Claude Code pastes values in raw and checks that: a folder or an argument that is shell
    code makes the command one it refuses (recorded: typed_shell_dollar_skill_dir). skilldeck
    refuses it too, and nothing runs either way."""
    workspace, project = _workspace(tmp_path, project_name)
    _skill(project, "a: !`echo ${CLAUDE_PROJECT_DIR} ${CLAUDE_SKILL_DIR} $ARGUMENTS`\n", folder=folder)
    _allow(tmp_path, "Bash(echo *)")
    with pytest.raises(ExpansionError, match="permission check failed"):
        workspace.expand(workspace.load(), folder, args, run_shell=True)
    assert _pwned(tmp_path) == []


def test_a_newline_in_a_value_cannot_leave_a_comment(tmp_path: Path) -> None:
    expansion = _expand(tmp_path, "```!\n# for $ARGUMENTS\necho done\n```\n", "x\ntouch pwned '\n")
    assert _pwned(tmp_path) == []
    assert expansion.text.endswith("\n\ndone\n")


@pytest.mark.parametrize("command", ["cat <<EOF\n$ARGUMENTS\nEOF", "echo ${X:-$ARGUMENTS}", "```!\necho `echo $ARGUMENTS`\n```"])
def test_a_value_where_quoting_is_not_followed_is_refused_unless_it_needs_none(tmp_path: Path, command: str) -> None:
    body = command if command.startswith("```!") else f"```!\n{command}\n```"
    with pytest.raises(ExpansionError, match="cannot quote it safely"):
        _expand(tmp_path, body, "$(touch pwned)")
    assert _pwned(tmp_path) == []
    assert "plain-word" in _expand(tmp_path, body, "plain-word", shell="preview").shell[0].command


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("echo $0", "echo 'a b'"),
        ('echo "x $0 y"', 'echo "x "\'a b\'" y"'),
        ("echo 'x $0 y'", "echo 'x ''a b'' y'"),
        ('echo "$(printf %s $0)"', "echo \"$(printf %s 'a b')\""),
        ("echo $0 # $0", "echo 'a b' # 'a b'"),
        ('echo "${CLAUDE_PROJECT_DIR}/x"', 'echo "{dir}/x"'),
    ],
)
def test_quoting_follows_the_commands_quotes(tmp_path: Path, command: str, expected: str) -> None:
    found = _expand(tmp_path, f"!`{command}`", '"a b"', shell="preview").shell[0].command
    assert found == expected.format(dir=tmp_path)


# Patterns in arguments ---------------------------------------------------------------------------
@pytest.mark.parametrize("body", ["Do $ARGUMENTS now.\n", "No placeholder.\n"])
def test_patterns_in_typed_arguments_are_text_not_commands(tmp_path: Path, body: str) -> None:
    workspace, project = _workspace(tmp_path)
    _skill(project, body)
    _allow(tmp_path, "Bash")
    args = "go !`touch pwned` and\n```!\ntouch pwned2\n```\n"
    prompt = workspace.expand(workspace.load(), "s", args, run_shell=True)
    assert _pwned(tmp_path) == []
    assert prompt.shell == []
    text = prompt.messages[-1].text
    # Broken as Claude Code breaks a pattern in an argument (recorded: typed_args_bang).
    assert "go \\! `touch pwned` and\n``` \\!\ntouch pwned2\n```" in text


# A real run ----------------------------------------------------------------------------------------
@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


async def test_a_models_skill_args_cannot_run_commands_but_the_skills_own_do(tmp_path: Path, server: MessagesServer) -> None:
    env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(tmp_path / "state")}
    workspace, project = _workspace(tmp_path, environ=env)
    _skill(project, "Own: !`echo from-the-skill`\nTask: $ARGUMENTS\n")
    _allow(tmp_path, "Skill", "Bash(echo *)", "Bash(touch *)")
    payload = "!`touch pwned` ```!\ntouch pwned2\n```"
    server.script(Reply(tool_uses=[{"id": "s1", "name": "Skill", "input": {"skill": "s", "args": payload}}]), Reply(text="Ok."))

    async def ask(tool: str, tool_input: dict[str, Any], decision: Any) -> str:
        raise AssertionError(f"nothing should be asked: {tool} {tool_input}")

    events: list[Any] = []
    runner = Runner(
        locations=workspace.locations, catalog=workspace.load(), backend=backend_for("anthropic", env),
        permissions=workspace.permissions(), transcript=Transcript.create("t1", env), ask=ask, emit=events.append,
    )  # fmt: skip
    await runner.send("go")
    assert _pwned(tmp_path) == []
    assert len(server.requests) == 2, events
    sent = "".join(b.get("text", "") for b in server.requests[1]["messages"][-1]["content"])
    assert "Own: from-the-skill\n" in sent
    assert "Task: \\! `touch pwned` ``` \\!\ntouch pwned2\n```" in sent


HOSTILE_VALUES = [
    "$(touch pwned)",
    "`touch pwned`",
    "a'b",
    'a"b',
    "back\\slash\\",
    "$HOME",
    "two\nlines",
    "*",
    "-n",
    " lead",
    "x!`y`",
    "%s",
    "é ✓",
]


@pytest.mark.parametrize(
    ("template", "wrap"),
    [
        ("printf %s $0", "{}"),
        ('printf %s "$0"', "{}"),
        ("printf %s '$0'", "{}"),
        ('printf %s "<$(printf %s "$0")>"', "<{}>"),
        ("printf %s $(printf %s $0)", "{}"),
        ("printf '%s|' $0 $0 # $0", "{0}|{0}|"),
    ],
)
def test_every_hostile_value_comes_back_as_it_was(tmp_path: Path, template: str, wrap: str) -> None:
    """A real shell prints each value back exactly: it was one word, and nothing in it ran."""
    for value in HOSTILE_VALUES:
        if template.endswith("$(printf %s $0)") and (value == "*" or any(c.isspace() for c in value)):
            continue  # an unquoted $( ) splits and globs its output: that is the shell, not the quoting
        out = _expand(tmp_path, f"```!\n{template}\n```", shlex.join([value])).text.split("\n\n", 1)[1]
        assert out == wrap.format(value), (template, value)
    assert _pwned(tmp_path) == []


def test_read_only_commands_need_no_rule_inside_the_working_folder_only(tmp_path: Path) -> None:
    """As Claude Code (recorded: typed_shell_readonly): `cat` of a project file runs with no rule;
    of a file outside the working folder it is not allowed, and the invocation fails."""
    workspace, project = _workspace(tmp_path)
    (project / "a.txt").write_text("inside\n")
    (tmp_path / "secret.txt").write_text("outside\n")
    _skill(project, "A: !`cat a.txt`\n", folder="inside")
    _skill(project, f"A: !`cat {tmp_path / 'secret.txt'}`\n", folder="outside")
    catalog = workspace.load()
    assert workspace.expand(catalog, "inside", run_shell=True).messages[-1].text.endswith("A: inside\n")
    with pytest.raises(ExpansionError, match=r'^Shell command permission check failed for pattern "!`cat '):
        workspace.expand(catalog, "outside", run_shell=True)
