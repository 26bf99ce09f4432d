"""Rendering a skill's prompt exactly as Claude Code does (BEHAVIOR.md §5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.catalog.model import LoadedFrom, Skill, Source, SourceKind
from engine.runner.argwords import split_arguments
from engine.runner.expand import DISABLED, ExpansionError, ShellCheck, expand, render_text
from engine.runner.shell import exit_ok, failure_text, result_text

SOURCE = Source(SourceKind.PROJECT, Path("/p/.claude/skills"), "project")
PLUGIN = Source(SourceKind.PLUGIN, Path("/plugins/tools"), "plugin tools", plugin="tools")


def _skill(arguments: tuple[str, ...] = (), source: Source = SOURCE) -> Skill:
    return Skill("s", "s", "d", "frontmatter", source, LoadedFrom.SKILLS, source.root / "s" / "SKILL.md", arguments=arguments)


def _render(body: str, args: str = "", arguments: tuple[str, ...] = (), source: Source = SOURCE) -> str:
    text = render_text(_skill(arguments, source), body, args, "sess-1", Path("/proj"))
    prefix = f"Base directory for this skill: {source.root / 's'}\n\n"
    assert text.startswith(prefix)
    return text[len(prefix) :]


@pytest.mark.parametrize(
    ("body", "args", "arguments", "expected"),
    [
        ("Fix $ARGUMENTS now", "issue 12", (), "Fix issue 12 now"),
        ("No placeholder.", "issue 12", (), "No placeholder.\n\nARGUMENTS: issue 12"),
        ("No placeholder.", "", (), "No placeholder."),
        ("First $0, second $1", '"hello world" x', (), "First hello world, second x"),
        ("A $ARGUMENTS[1] B", "a b c", (), "A b B"),
        ("Missing $5 stays", "a", (), "Missing $5 stays\n\nARGUMENTS: a"),
        ("It costs $2M.", "one", (), "It costs $2M.\n\nARGUMENTS: one"),
        ("It costs $2M.", "a b c", (), "It costs $2M.\n\nARGUMENTS: a b c"),
        ("Price $2, not $2M", "a b c", (), "Price c, not $2M"),
        ("Deploy $target to $region", "prod", ("target", "region"), "Deploy prod to "),
        ("Undeclared $foo stays", "x", (), "Undeclared $foo stays\n\nARGUMENTS: x"),
        (r"Literal \$ARGUMENTS and $ARGUMENTS", "v", (), "Literal $ARGUMENTS and v"),
        ("No $ARGUMENTS twice", "$1 ${CLAUDE_SESSION_ID}", (), "No $1 sess-1 twice"),
        ("Dir ${CLAUDE_SKILL_DIR} session ${CLAUDE_SESSION_ID} project ${CLAUDE_PROJECT_DIR}", "", (),
         "Dir /p/.claude/skills/s session sess-1 project /proj"),
        ("Root ${CLAUDE_PLUGIN_ROOT}", "", (), "Root ${CLAUDE_PLUGIN_ROOT}"),
    ],
)  # fmt: skip
def test_substitution(body: str, args: str, arguments: tuple[str, ...], expected: str) -> None:
    assert _render(body, args, arguments) == expected


def test_plugin_root_in_a_plugin_skill() -> None:
    assert _render("Root ${CLAUDE_PLUGIN_ROOT}", source=PLUGIN) == "Root /plugins/tools"


def _allow(prefixes: tuple[str, ...]) -> ShellCheck:
    return lambda command: ("allow" if command.startswith(prefixes) else "ask", "test rule")


def _expand(
    body: str, tmp_path: Path, allowed: tuple[str, ...] = ("echo", "printf", "false", "sh"), disabled: bool = False
) -> str:
    skill = _skill()
    text = expand(
        skill,
        "",
        session_id="s",
        project_dir=tmp_path,
        check=_allow(allowed),
        shell_disabled=disabled,
        body=body,
        shell="execute",
    ).text
    return text.split("\n\n", 1)[1]


def test_shell_commands_run_and_replace_their_pattern(tmp_path: Path) -> None:
    (tmp_path / "marker").write_text("here")
    body = "Status: !`echo ok; echo err >&2`\nIn folder: !`sh -c 'ls'`\nnot!`echo run`\n```!\nprintf 'a\\nb'\n```\nend"
    assert _expand(body, tmp_path) == "Status: ok\nerr\nIn folder: marker\nnot!`echo run`\na\nb\nend"


def test_outputs_are_not_scanned_again(tmp_path: Path) -> None:
    assert _expand("x !`printf '!\\140echo no\\140'`", tmp_path) == "x !`echo no`"


def test_permission_failure_aborts_with_claude_codes_message(tmp_path: Path) -> None:
    with pytest.raises(ExpansionError, match=r'^Shell command permission check failed for pattern "!`rm -rf x`": test rule$'):
        _expand("Do !`rm -rf x`", tmp_path)


def test_non_zero_exit_aborts(tmp_path: Path) -> None:
    with pytest.raises(ExpansionError, match=r'^Shell command failed for pattern "!`false`": $'):
        _expand("Do !`false`", tmp_path)


def test_disabled_by_policy(tmp_path: Path) -> None:
    assert _expand("A !`echo x` B", tmp_path, allowed=(), disabled=True) == f"A {DISABLED} B"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ("staging now", ["staging", "now"]),
        ('"a b c', ['"a b c']),  # an unclosed quote runs to the end, kept as typed
        ('x "a b', ["x", '"a b']),
        ('\'a\'"b"c d\\"e', ["abc", 'd"e']),
        ("a\\ b c\\\\d", ["a b", "c\\d"]),
        ("a;b c|d e", ["a"]),  # the first command only
        ("$HOME x $(y z) w", ["$HOME", "x"]),  # a later word with $(...) ends the words
        ("say !`id` and", ["say"]),
        ("x $HOME y", ["x", "y"]),  # a lone $VAR after the first word is left out
        ("A=1 deploy now", ["deploy", "now"]),
        ("a > out b", ["a", "b"]),
        ("  ", []),
        (";", [";"]),  # no command at all: split on whitespace
    ],
)
def test_arguments_split_as_claude_codes_parser_splits_them(args: str, words: list[str]) -> None:
    # Each recorded against Claude Code 2.1.328 or read from its parser's rules (typed_args_*).
    assert split_arguments(args) == words


@pytest.mark.parametrize(
    ("body", "args", "arguments", "expected"),
    [
        ("\\$ARGUMENTS \\\\$ARGUMENTS \\$0 \\$x", "v", ("x",), "$ARGUMENTS \\\\v $0 $x"),
        ("$ARGUMENTS[3] $3", "a", (), "$ARGUMENTS[3] $3\n\nARGUMENTS: a"),
        ("[$ARGUMENTS]", "", (), "[]"),
        ("$name $names $name[0]", "v", ("name",), "v $names $name[0]"),
        ("$ab $a", "1 2", ("a", "ab"), "2 1"),  # the longer name first
        ("$ARGUMENTS", "!x `! !`y` a!b", (), "\\!x ` \\! \\! `y` a!b"),  # ! broken as Claude Code breaks it
        ("$0", "${CLAUDE_EFFORT}", (), "medium"),  # a value's variables are filled
        ("$ARGUMENTS", "$0 $ARGUMENTS", (), "$0 $ARGUMENTS"),  # and never read again
    ],
)  # fmt: skip
def test_claude_codes_substitution_passes(body: str, args: str, arguments: tuple[str, ...], expected: str) -> None:
    assert _render(body, args, arguments) == expected


def test_a_model_call_without_arguments_fills_only_the_variables() -> None:
    assert render_text(_skill(), "$ARGUMENTS ${CLAUDE_EFFORT}", None, "s", Path("/p")).endswith("$ARGUMENTS medium")


def test_too_much_substituted_text_fails_with_claude_codes_message() -> None:
    with pytest.raises(ExpansionError, match="add up to more than 4,000,000 characters"):
        _render("$ARGUMENTS " * 5, "x" * 1_000_000)


def test_a_command_file_has_no_base_directory_and_no_skill_dir() -> None:
    legacy = Skill("c", "c", "d", "frontmatter", SOURCE, LoadedFrom.COMMANDS, Path("/p/.claude/commands/c.md"))
    assert render_text(legacy, "${CLAUDE_SKILL_DIR} $0", "x", "s", Path("/p")) == "${CLAUDE_SKILL_DIR} x"


@pytest.mark.parametrize(
    ("command", "code", "ok"),
    [
        ("grep x f", 1, True),
        ("cat f | grep x", 1, True),
        ("grep x f && ls", 1, False),
        ("diff a b", 1, True),
        ("git -C d diff", 1, True),
        ("test -f x", 1, True),
        ("grep x f", 2, False),
        ("ls x", 1, False),
        ("grep 'a|ls' f", 1, True),
        ("ls 2>&1", 0, True),
    ],
)
def test_exit_one_of_search_and_compare_commands_is_an_answer(command: str, code: int, ok: bool) -> None:
    assert exit_ok(command, code) is ok


def test_command_output_as_claude_code_shows_it() -> None:
    assert result_text("\n \n  x  \n\n") == "  x"
    assert result_text("") == result_text("\n\n") == "(Bash completed with no output)"
    assert failure_text("out\nerr\n") == "[stderr]\nout\nerr"
    assert failure_text("") == ""
