"""The command line as a new user meets it (issue 34's minors): ctrl+c twice in `watch`, a
did-you-mean that names each skill once, `trust` said once, a malformed rule a usage error in
`allow` as in `check`, and a rule for a skill that does not exist warned about."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import Tree, skill_text, write

EXE = Path(sys.executable).parent / "skilldeck"


def _skilldeck(tree: Tree, *argv: str) -> subprocess.CompletedProcess[str]:
    flags = ["--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed), "--no-bundled"]
    env = {**os.environ, "COLUMNS": "1000"}
    return subprocess.run([str(EXE), *argv, *flags], capture_output=True, text=True, timeout=60, env=env)


def test_did_you_mean_names_a_shadowed_skill_once(tree: Tree) -> None:
    tree.skill("python-packaging")
    tree.skill("python-packaging", tier="user")
    done = _skilldeck(tree, "show", "python-packagin")
    assert done.returncode == 1
    assert "did you mean python-packaging?" in done.stderr, done.stderr


def test_trust_says_not_trusted_once(tree: Tree) -> None:
    tree.distrust()
    done = _skilldeck(tree, "trust")
    assert done.returncode == 1
    assert done.stdout.startswith("not trusted: neither ") and "not trusted not trusted" not in done.stdout, done.stdout


def test_a_malformed_rule_is_a_usage_error_in_allow_as_in_check(tree: Tree) -> None:
    assert _skilldeck(tree, "check", "Bash(").returncode == 2
    done = _skilldeck(tree, "allow", "Bash(")
    assert done.returncode == 2 and "is not a rule" in done.stderr and "Traceback" not in done.stderr
    assert not (tree.project / ".claude" / "settings.local.json").exists()


def test_a_rule_for_a_skill_no_tier_has_is_written_with_a_warning(tree: Tree) -> None:
    tree.skill("deploy")
    done = _skilldeck(tree, "allow", "Skill(doesnotexist)")
    assert done.returncode == 0
    assert "no skill named doesnotexist" in done.stderr, done.stderr
    assert "Skill(doesnotexist)" in (tree.project / ".claude" / "settings.local.json").read_text()
    quiet = _skilldeck(tree, "allow", "Skill(deploy)")
    assert quiet.returncode == 0 and "no skill named" not in quiet.stderr


def test_ctrl_c_again_while_watch_stops_prints_no_traceback(tree: Tree) -> None:
    tree.skill("hello", skill_text(description="Hi."))
    flags = ["--project", str(tree.project), "--user-dir", str(tree.user), "--no-bundled"]
    proc = subprocess.Popen(
        [str(EXE), "watch", *flags], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # see test_cli's watch test
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        assert "watching 1 skill" in proc.stderr.readline()
        # ctrl+c, and again and again as an impatient user does, until the command has ended.
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            proc.send_signal(signal.SIGINT)
            # Wait on the process itself (not a sleep): it may end now, or take the next ctrl+c.
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.002)
        code, said = proc.wait(timeout=60), proc.stderr.read()
        assert code == 0 and "Traceback" not in said, (code, said)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_reader_that_leaves_early_is_not_a_finding(tree: Tree) -> None:
    """`skilldeck rules | head -1`: exit 0, as every other command; rich's own handling made it 1."""
    import json

    rules = [f"Bash(tool-{n} *)" for n in range(3_000)]
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"allow": rules}}))
    for argv in (["rules"], ["list"]):
        flags = ["--project", str(tree.project), "--user-dir", str(tree.user), "--no-bundled"]
        proc = subprocess.Popen([str(EXE), *argv, *flags], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # as `head -1` does
        code, said = proc.wait(timeout=60), proc.stderr.read().decode()
        assert code == 0 and "Traceback" not in said, (argv, code, said)


def test_every_argument_says_what_it_is_and_an_error_names_its_command() -> None:
    import argparse

    from tui.cli.main import build_parser

    missing: list[str] = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, subparser in action.choices.items():
                    walk(subparser, f"{name} {sub}")
            elif not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "skilldeck")
    assert missing == []
    done = subprocess.run([str(EXE), "listing", "--budget", "x"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "skilldeck listing: error: argument --budget: 'x' is not a whole number of characters"
    helped = subprocess.run([str(EXE), "listing", "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "3 characters a token" in " ".join(helped.split())


def test_a_note_is_called_a_note_in_its_row_as_in_the_summary(tree: Tree) -> None:
    """Issue 34: validate -v's rows said `info` where the summary and the app say notes."""
    tree.skill("later", paths='"*.py"')  # held back until a .py file is touched: a note
    done = _skilldeck(tree, "validate", "-v")
    assert done.stdout.rstrip().endswith(" 2 notes"), done.stdout
    rows = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    assert "info" not in rows and "note" in rows, done.stdout
