"""A repository's own `.git` never runs a program through the read-only git commands (issue 32).

Each case is a real repository in a temporary folder whose config names a program that writes a
marker file; git status, log, diff or show is decided with no rule, and when it is allowed it
runs through both runners (a skill's `!` command and the model's Bash tool). The marker must
never appear: the command is asked, or it runs with the program switched off.
Claude Code 2.1.328 runs four of these five programs (only commondir is asked).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import Locations, Permissions, read_settings
from engine.permissions.bash.gitconfig import guard_env
from engine.runner.shell import run_bounded
from engine.runner.tools.base import ToolContext
from engine.runner.tools.shell import BashTool
from tests.oracle.workspace import RECORDINGS, build, load_cases


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def program(marker: Path) -> str:
    """A shell command that leaves the marker."""
    return f"touch {marker}; false"


def script(path: Path, marker: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\ntouch {marker}\n")
    path.chmod(0o755)
    return path


def repository(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "-q")
    (folder / "a.txt").write_text("a\n")
    git(folder, "add", "a.txt")
    git(folder, "commit", "-qm", "a")
    return folder


def commondir(project: Path, marker: Path) -> str:
    # .git/commondir names another folder, whose config git reads as the repository's own.
    shared = project.parent / "shared"
    git(project.parent, "init", "-q", "--bare", str(shared))
    with (shared / "config").open("a") as f:
        f.write(f'[core]\n\tfsmonitor = "{program(marker)}"\n')
    (project / ".git" / "commondir").write_text("../../shared\n")
    return "git status"


def worktree_config(project: Path, marker: Path) -> str:
    git(project, "config", "core.repositoryformatversion", "1")
    git(project, "config", "extensions.worktreeConfig", "true")
    (project / ".git" / "config.worktree").write_text(f'[core]\n\tfsmonitor = "{program(marker)}"\n')
    return "git status"


def hooks_path(project: Path, marker: Path) -> str:
    script(project / "hooks" / "post-index-change", marker)
    git(project, "config", "core.hooksPath", "hooks")
    (project / "a.txt").touch()  # a stale index entry: status rewrites the index, and runs the hook
    return "git status"


def signature(project: Path, marker: Path, command: str = "git log -1") -> str:
    # A commit with a signature header (any text): log and show hand it to gpg.program.
    tree = git(project, "rev-parse", "HEAD^{tree}")
    body = f"tree {tree}\nauthor t <t@t> 1 +0000\ncommitter t <t@t> 1 +0000\n"
    body += "gpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nsigned\n"
    (project / ".git" / "c.txt").write_text(body)
    commit = git(project, "hash-object", "-t", "commit", "-w", ".git/c.txt")
    git(project, "update-ref", "HEAD", commit)
    git(project, "config", "log.showSignature", "true")
    git(project, "config", "gpg.program", str(script(project.parent / "gpg.sh", marker)))
    return command


def partial_clone(project: Path, marker: Path) -> str:
    # A partial clone lacks a blob; showing it makes git fetch it from the promisor remote, with
    # the repository's core.sshCommand.
    server = repository(project.parent / "server")
    git(server, "config", "uploadpack.allowFilter", "true")
    clone = project.parent / "clone"
    git(project.parent, "clone", "-q", "--no-checkout", "--filter=blob:none", f"file://{server}", str(clone))
    blob = git(clone, "rev-parse", "HEAD:a.txt")
    subprocess.run(["rm", "-rf", str(project)], check=True, timeout=60)
    clone.rename(project)
    git(project, "config", "remote.origin.url", "ssh://example.invalid/x")
    git(project, "config", "core.sshCommand", program(marker))
    return f"git show {blob}"


CASES: dict[str, Callable[[Path, Path], str]] = {
    "commondir": commondir,
    "worktree config": worktree_config,
    "hooks path": hooks_path,
    "signature, git log": signature,
    "signature, git show": lambda p, m: signature(p, m, "git show"),
    "partial clone": partial_clone,
}


@pytest.fixture
def clean_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user or system git config of the machine running the tests."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_COUNT", raising=False)
    return home


def _permissions(project: Path, home: Path) -> Permissions:
    locations = Locations(project, user_dir=home / ".claude", managed_dir=home / "managed", environ={"HOME": str(home)})
    return Permissions(read_settings(locations), project, home=home)


@pytest.mark.parametrize("case", CASES)
async def test_a_repositorys_own_program_never_runs(case: str, tmp_path: Path, clean_git: Path) -> None:
    project = repository(tmp_path / "project")
    marker = tmp_path / "ran"
    command = CASES[case](project, marker)
    assert not marker.exists(), "building the repository ran the program"
    decision = _permissions(project, clean_git).decide("Bash", {"command": command})
    if decision.decision == "allow":
        run_bounded(command, project, timeout=60)
        assert not marker.exists(), f"a skill's `!{command}` ran the repository's program"
        await BashTool().run({"command": command}, ToolContext(project))
        assert not marker.exists(), f"the model's `{command}` ran the repository's program"
    else:
        assert decision.decision == "ask", decision.reason


def test_the_guard_keeps_the_callers_own_git_config(clean_git: Path) -> None:
    env = guard_env("git status", {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "color.ui", "GIT_CONFIG_VALUE_0": "never"})
    assert env is not None and env["GIT_CONFIG_KEY_0"] == "color.ui" and env["GIT_CONFIG_KEY_1"] == "core.fsmonitor"
    assert env["GIT_NO_LAZY_FETCH"] == "1"


@pytest.mark.parametrize("command", ["echo hi", "git commit -m x", "ls"])
def test_a_line_without_a_read_only_git_command_runs_as_it_is(command: str) -> None:
    # A git command the user allowed by a rule (`git commit` with its hooks) is theirs.
    assert guard_env(command) is None


def test_a_hooked_status_still_reports(tmp_path: Path, clean_git: Path) -> None:
    project = repository(tmp_path / "project")
    hooks_path(project, tmp_path / "ran")
    result = run_bounded("git status --short", project, timeout=60, cap=10_000)
    assert result.exit_code == 0 and "hooks/" in result.output


RECORDED = ["git_commondir", "git_worktree_config", "git_hooks_path", "git_signature", "git_partial_clone"]


@pytest.mark.parametrize("name", RECORDED)
def test_where_claude_code_ran_the_program_skilldeck_does_not(name: str, tmp_path: Path, clean_git: Path) -> None:
    """The recorded workspaces (tests/oracle/cases/permissions/git_*): Claude Code 2.1.328 asks
    for the commondir one and runs the program of the other four (the marker appeared)."""
    case = load_cases()[name]
    places = build(case, Path(os.path.realpath(tmp_path)))
    recorded = json.loads((RECORDINGS / f"{name}.json").read_text())["calls"]
    assert [c["side_effect"] for c in recorded] == [name != "git_commondir"] * len(recorded)
    for call in case["calls"]:
        command = call["input"]["command"]
        if _permissions(places.project, places.home).decide("Bash", {"command": command}).decision == "allow":
            run_bounded(command, places.project, timeout=60)
        assert not (places.project / "x").exists(), f"`{command}` ran the repository's program"
