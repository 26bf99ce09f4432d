"""The command line is read by a parser of only the commands it may name (tui/cli/args.Commands):
for any command line, the same reading, help and errors as the whole parser's."""

from __future__ import annotations

import argparse

import pytest

from tui.cli.args import NotBuilt
from tui.cli.main import build_parser, parse_command_line

LINES = [
    [],
    ["list", "--json"],
    ["--json", "listing", "--budget", "900"],
    ["--demo", "list"],
    ["--project", "list", "list"],  # a project folder named like a command
    ["--project", "show"],  # ... and no command at all: the app
    ["show", "deploy", "--json"],
    ["validate", "a", "b", "--strict", "-v"],
    ["run", "deploy", "--backend", "offline", "--model", "haiku"],
    ["--model", "opus", "run", "x"],
    ["check", "Bash(ls)", "--json"],
    ["allow", "Bash(make *)", "--scope", "project"],
    ["why", "deploy"],
    ["agents", "--json"],
    ["list", "--agent", "codex"],
    ["--resume"],
    ["--resume", "abc"],
    # Errors: each must name every choice, or the flag, as the whole parser does.
    ["lsit"],
    ["lsit", "--project", "list"],
    ["list", "--bogus"],
    ["listing", "--budget", "lots"],
    ["run"],
    ["list", "--agent", "nobody"],
    # Help and the version: printed, then the process ends.
    ["-h"],
    ["list", "-h"],
    ["--help", "list"],
    ["--version"],
    # The help asked otherwise than by -h or --help: an abbreviation, -h with itself bundled.
    ["--h"],
    ["--hel", "list"],
    ["-hh"],
    ["list", "--he"],
]


def _read(parse: object, words: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, ...]:
    try:
        args = parse(words)  # type: ignore[operator]
    except SystemExit as exc:
        out = capsys.readouterr()
        return ("exit", exc.code, out.out, out.err)
    assert isinstance(args, argparse.Namespace)
    return ("read", vars(args))


@pytest.mark.parametrize("words", LINES, ids=[" ".join(w) or "(none)" for w in LINES])
def test_the_same_reading_as_the_whole_parser(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    whole = _read(lambda w: build_parser().parse_args(w), words, capsys)
    assert _read(parse_command_line, words, capsys) == whole


def test_a_command_line_builds_only_its_command() -> None:
    parser = build_parser(frozenset(["list", "--json"]))
    assert parser.parse_args(["list", "--json"]).command == "list"
    with pytest.raises(NotBuilt):
        parser.parse_args(["show", "deploy"])  # not built: read again by the whole parser
