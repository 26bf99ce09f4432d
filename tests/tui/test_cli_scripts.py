"""The installed `skilldeck` in scripts and pipes (issue 17, command line): output that is not a
terminal is plain full lines, every reading subcommand has --json, numbers are checked, exit
statuses say what was decided, and a mistake is named with what would have been right."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Tree, skill_text, write
from tests.tui.test_cli_escapes import EXE, _skilldeck

ROOT = Path(__file__).resolve().parents[2]
LONG = "Compose the release notes from every merged pull request since the last tag, grouped by area, " * 2
SGR = re.compile(rb"\x1b\[")


def _workspace(tree: Tree) -> Path:
    """A skill with a long description, one with a long folder name and a warning, one error."""
    tree.skill("release-notes", skill_text(name="release-notes", description=LONG.strip()))
    deep = tree.skill(
        "a-skill-with-a-rather-long-folder-name-that-would-split", skill_text(description="Warns.", name="Bad_Name")
    )
    tree.skill("broken", '---\ndescription: "open\n---\n')
    return deep


def _lines(output: bytes) -> list[str]:
    text = output.decode()
    assert not SGR.search(output), f"a colour or cursor code in plain output:\n{text}"
    lines = text.splitlines()
    assert [line for line in lines if line != line.rstrip()] == [], "no line is padded with spaces"
    return lines


@pytest.mark.parametrize("color", [{}, {"FORCE_COLOR": "1", "COLUMNS": "80"}])
def test_piped_output_is_plain_full_lines(tree: Tree, color: dict[str, str]) -> None:
    deep = _workspace(tree)
    done = _skilldeck(tree, "list", env=color)
    listed = _lines(done.stdout)
    row = next(line for line in listed if line.startswith("release-notes\t"))
    assert row.split("\t") == ["release-notes", "project", "user model", "inline", LONG.strip()]
    assert all(line.count("\t") == 4 for line in listed), "piped, stdout holds the rows only (`| wc -l` counts skills)"
    assert _lines(done.stderr)[-1].startswith("3 skills: 1 error, ")
    validated = _skilldeck(tree, "validate", env=color)
    assert validated.returncode == 1
    lines = _lines(validated.stdout)
    assert str(deep) in lines, "a path is one whole line"
    assert lines[-1].startswith("FAIL: 3 skills checked, 1 error, ")
    shown = _lines(_skilldeck(tree, "show", "release-notes", env=color).stdout)
    assert f"description: {LONG.strip()}  (frontmatter)" in shown
    assert "── body" in shown
    why = _lines(_skilldeck(tree, "why", "release-notes", env=color).stdout)
    assert why[0] == "why release-notes  (name)" and why[1].startswith("✓ root: /release-notes comes from ")
    assert any(line.startswith("→ verdict: the model sees it as `- release-notes: Compose") for line in why), why
    listing = _skilldeck(tree, "listing", env=color)
    _lines(listing.stdout)
    assert _lines(listing.stderr)[0].startswith("3 skills listed, ")


def test_a_reading_command_ends_with_all_its_output_out(tree: Tree) -> None:
    """A reading command ends its process without tearing it down (main._end_now): what it wrote
    to both streams, far more than a pipe holds, still arrives whole, and its exit status with it."""
    for n in range(400):
        tree.skill(f"skill-{n:03d}", skill_text(name=f"skill-{n:03d}", description=LONG.strip()))
    tree.skill("broken", '---\ndescription: "open\n---\n')
    listed = _skilldeck(tree, "list")
    assert len(listed.stdout) > 80_000 and _lines(listed.stdout)[-1].startswith("skill-399\t")
    assert _lines(listed.stderr)[-1].startswith("401 skills: 1 error, ")
    validated = _skilldeck(tree, "validate", "--json")
    assert validated.returncode == 1
    assert len(json.loads(validated.stdout)["diagnostics"]) >= 1


def test_every_reading_subcommand_has_json(tree: Tree) -> None:
    _workspace(tree)
    for argv in (
        ("list",),
        ("show", "release-notes"),
        ("validate",),
        ("listing",),
        ("listing", "--budget", "70"),
        ("why", "release-notes"),
        ("rules",),
        ("check", "Skill(release-notes)"),
        ("trust",),
        ("prompt", "release-notes"),
    ):
        after = _skilldeck(tree, *argv, "--json")
        assert after.returncode in (0, 1), (argv, after.stderr.decode())
        assert isinstance(json.loads(after.stdout), dict), argv
        # Before the command too, as the location flags are taken.
        before = _skilldeck(tree, "--json", *argv)
        assert before.returncode == after.returncode and json.loads(before.stdout).keys() == json.loads(after.stdout).keys()
    done = _skilldeck(tree, "--json", "allow", "Bash(ls)")
    assert done.returncode == 2 and done.stderr == b"skilldeck: --json: allow has no JSON output\n"


@pytest.mark.parametrize("budget", ["-5", "0", "abc", "1.5", ""])
@pytest.mark.parametrize("command", [("listing",), ("why", "x")])
def test_a_budget_must_be_a_whole_number_of_characters(tree: Tree, budget: str, command: tuple[str, ...]) -> None:
    done = _skilldeck(tree, *command, "--budget", budget)
    assert done.returncode == 2 and done.stdout == b""
    assert b"argument --budget" in done.stderr and b"Traceback" not in done.stderr


def test_run_and_prompt_of_an_unknown_name_suggest_and_write_nothing(tree: Tree) -> None:
    tree.skill("deploy", description="Ship it.")
    sessions = tree.root / "state" / "skilldeck" / "sessions"
    for argv in (("run", "deplyo", "--backend", "offline"), ("prompt", "deplyo")):
        done = _skilldeck(tree, *argv)
        assert done.returncode == 1
        assert done.stderr.decode() == "Unknown skill: deplyo; did you mean deploy?\n", argv
        assert b"transcript" not in done.stderr
    assert not sessions.exists() or list(sessions.iterdir()) == [], "no transcript is promised or written"
    done = _skilldeck(tree, "run", "deplyo", "--backend", "offline", "--json")
    event = json.loads(done.stdout)
    assert (done.returncode, event["type"], event["kind"]) == (1, "error", "unknown-skill")
    assert event["message"] == "Unknown skill: deplyo; did you mean deploy?"


def test_run_prints_the_transcript_it_wrote(tree: Tree) -> None:
    tree.skill("deploy", description="Ship it.")
    done = _skilldeck(tree, "run", "deploy", "--backend", "offline")
    path = Path(re.search(rb"transcript: (\S+)", done.stderr).group(1).decode())  # type: ignore[union-attr]
    assert done.returncode == 0 and path.is_file()


def test_unrule_names_the_file_and_where_the_rule_is(tree: Tree) -> None:
    assert _skilldeck(tree, "deny", "Bash(rm *)", "--scope", "project").returncode == 0
    done = _skilldeck(tree, "unrule", "Bash(rm *)")
    local = tree.project / ".claude" / "settings.local.json"
    shared = tree.project / ".claude" / "settings.json"
    assert done.returncode == 1
    assert done.stdout.decode() == (
        f"Bash(rm *) is not in {local} (local); it is a deny rule in {shared} (project; --scope project removes it)\n"
    )
    done = _skilldeck(tree, "unrule", "Bash(rm *)", "--scope", "project")
    assert done.returncode == 0 and done.stdout.decode() == f"removed Bash(rm *) (deny) from {shared}\n"
    done = _skilldeck(tree, "unrule", "Bash(rm *)", "--scope", "user")
    assert done.returncode == 1
    assert done.stdout.decode() == f"Bash(rm *) is not in {tree.user / 'settings.json'} (user); no settings file holds it\n"


def test_check_exits_with_the_decision_and_warns_on_an_unknown_tool(tree: Tree) -> None:
    write(
        tree.project / ".claude" / "settings.json",
        json.dumps({"permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(rm *)"]}}),
    )
    expected = {"Bash(git status)": (0, "allow"), "Skill(deploy)": (1, "ask"), "Bash(rm -rf x)": (2, "deny")}
    for call, (code, decision) in expected.items():
        for json_flag in ((), ("--json",)):
            done = _skilldeck(tree, "check", call, *json_flag)
            assert done.returncode == code, (call, json_flag)
            assert done.stderr == b""
        assert json.loads(done.stdout)["decision"] == decision
    done = _skilldeck(tree, "check", "bash(rm -rf x)")
    assert done.returncode == 1, "a tool Claude Code lacks matches no rule: ask"
    assert done.stderr.decode() == "warning: Claude Code has no tool named bash; did you mean Bash?\n"
    done = _skilldeck(tree, "check", "Frobnicate(x)")
    assert "no tool named Frobnicate" in done.stderr.decode()
    assert _skilldeck(tree, "check", "mcp__github__create_issue").stderr == b""
    done = _skilldeck(tree, "check", "[bold]Bash(")
    assert done.returncode == 2 and done.stderr.decode().startswith("'[bold]Bash(' is not a call")


def test_check_decides_a_skill_call_as_a_run_does(tree: Tree) -> None:
    """The model's Skill call runs unasked unless the skill widens its tools (Claude Code's rule)."""
    tree.skill("plain", description="Plain.")
    tree.skill("tooled", description="Tooled.", allowed__tools="Bash(git *)")
    assert _skilldeck(tree, "check", "Skill(plain)").returncode == 0
    assert _skilldeck(tree, "check", "Skill(tooled)").returncode == 1
    assert _skilldeck(tree, "check", "Skill(absent)").returncode == 1


def test_version_and_a_usage_that_needs_no_command() -> None:
    done = subprocess.run([str(EXE), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and re.fullmatch(r"skilldeck \d+\.\d+\.\d+\S*\n", done.stdout), done
    usage = subprocess.run([str(EXE), "--help"], capture_output=True, text=True, timeout=60).stdout
    assert usage.startswith("usage: skilldeck [-h] [--version] [OPTIONS] [COMMAND [ARGS ...]]\n")
    assert "Without a COMMAND, opens the app" in " ".join(usage.split())
    helps = subprocess.run([str(EXE), "check", "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "0 allow, 1 ask, 2 deny" in " ".join(helps.split())


def test_counts_are_in_the_right_number(tree: Tree) -> None:
    tree.skill("broken", '---\ndescription: "open\n---\n')
    done = _skilldeck(tree, "validate")
    assert done.stdout.decode().splitlines()[-1] == "FAIL: 1 skill checked, 1 error, 0 warnings, 0 notes"
    assert _skilldeck(tree, "list").stderr.decode().splitlines()[-1].startswith("1 skill: 1 error, 0 warnings, 0 notes")


def test_the_readme_puts_skilldeck_on_the_path_after_make_demo() -> None:
    """Every CLI example in the README types `skilldeck`: the README says how it gets on the PATH,
    and that way works on this checkout (the venv `make demo` made)."""
    readme = (ROOT / "README.md").read_text()
    assert "source .venv/bin/activate" in readme
    done = subprocess.run(
        ["bash", "-c", "source .venv/bin/activate && command -v skilldeck && skilldeck --version"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(ROOT / ".venv" / "bin" / "skilldeck")


@pytest.mark.parametrize(
    "argv", [("rules", "--json"), ("rules",), ("list",), ("check", "Bash(ls)", "--json"), ("why", "deploy"), ("trust", "--json")]
)
def test_a_reader_that_left_is_no_crash(tree: Tree, argv: tuple[str, ...]) -> None:
    """`skilldeck rules --json | head -1`: a pipe whose reader is gone (closed before the first write,
    so that no race decides it) ends the command quietly."""
    import os

    tree.skill("deploy", description="Ship it.")
    read, write_end = os.pipe()
    os.close(read)
    where = ["--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed), "--no-bundled"]
    try:
        done = subprocess.run([str(EXE), *argv, *where], stdout=write_end, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write_end)
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr, done.stderr.decode()
    assert done.returncode in (0, 1, 2)
