"""Workspace trust: a fresh clone's own settings and skills approve nothing until it is trusted."""

from __future__ import annotations

import json

from engine import Permissions, Workspace, read_settings
from engine.permissions.trust import trust_workspace, workspace_trust
from tests.conftest import Tree, write


def _clone(tree: Tree) -> None:
    """A cloned repository that tries to approve everything for itself."""
    tree.distrust()
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"allow": ["Bash"], "deny": ["Bash(curl *)"]}}))
    write(tree.project / ".claude" / "settings.local.json", json.dumps({"permissions": {"allow": ["Bash(touch *)", "Edit"]}}))


def test_an_untrusted_project_approves_nothing_itself(tree: Tree) -> None:
    _clone(tree)
    permissions = Permissions.load(tree.locations())
    assert not permissions.settings.trust.trusted
    for tool, call in (("Bash", {"command": "touch x"}), ("Bash", {"command": "rm -rf ~"}), ("Write", {"file_path": "a.txt"})):
        decision = permissions.decide(tool, call)
        assert decision.decision == "ask", decision.reason
    assert permissions.decide("Bash", {"command": "curl evil"}).decision == "deny", "its deny rules still hold"
    ignored = [r.text for r in permissions.settings.rules if permissions.settings.ignored(r)]
    assert ignored == ["Bash(touch *)", "Edit", "Bash"]


def test_an_asked_call_names_the_project_rule_that_does_not_count(tree: Tree) -> None:
    """ "no rule allows `touch x`" hid the project's own Bash(touch *) sitting in its file."""
    _clone(tree)
    decision = Permissions.load(tree.locations()).decide("Bash", {"command": "touch x"})
    assert decision.decision == "ask"
    assert "Bash(touch *)" in decision.reason and "not trusted" in decision.reason


def test_the_users_own_rules_hold_in_an_untrusted_project(tree: Tree) -> None:
    _clone(tree)
    write(tree.user / "settings.json", json.dumps({"permissions": {"allow": ["Bash(touch *)"]}}))
    assert Permissions.load(tree.locations()).decide("Bash", {"command": "touch x"}).decision == "allow"


def test_trust_from_claude_code_covers_subfolders(tree: Tree) -> None:
    _clone(tree)
    sub = tree.project / "pkg"
    sub.mkdir()
    tree.trust_file.write_text(json.dumps({"projects": {str(tree.project): {"hasTrustDialogAccepted": True}}}))
    assert workspace_trust(tree.locations(project=sub)).trusted
    tree.trust_file.write_text(json.dumps({"projects": {str(tree.project): {"hasTrustDialogAccepted": False}}}))
    assert not workspace_trust(tree.locations(project=sub)).trusted


def test_trusting_in_skilldeck_is_recorded_in_its_own_state(tree: Tree) -> None:
    _clone(tree)
    locations = tree.locations(environ={"XDG_STATE_HOME": str(tree.root / "state")})
    assert Permissions.load(locations).decide("Bash", {"command": "touch x"}).decision == "ask"
    recorded = trust_workspace(locations)
    assert recorded.is_relative_to(tree.root / "state")
    assert not tree.trust_file.exists(), "Claude Code's own file is never written"
    assert Permissions.load(locations).decide("Bash", {"command": "touch x"}).decision == "allow"


def test_a_broken_claude_config_means_untrusted(tree: Tree) -> None:
    _clone(tree)
    tree.trust_file.write_text("[" * 5000)
    assert not read_settings(tree.locations()).trust.trusted


def test_an_untrusted_projects_skill_pre_approves_nothing(tree: Tree) -> None:
    _clone(tree)
    tree.skill("deploy", description="Deploy.", allowed__tools="Bash(rm *)")
    write(tree.user / "skills" / "mine" / "SKILL.md", "---\ndescription: Mine.\nallowed-tools: Bash(ls *)\n---\nx\n")
    locations = tree.locations()
    catalog = Workspace(locations).load()
    permissions = Permissions.load(locations)
    running = permissions.with_allowed_tools(catalog.skills["deploy"])
    assert running.decide("Bash", {"command": "rm x"}).decision == "ask"
    assert permissions.with_allowed_tools(catalog.skills["mine"]).decide("Bash", {"command": "ls"}).decision == "allow"


def test_an_unreadable_settings_file_turns_every_allow_into_an_ask(tree: Tree) -> None:
    """It may hold a deny for this very call; Claude Code would skip it, skilldeck asks instead."""
    import os

    write(tree.user / "settings.json", json.dumps({"permissions": {"allow": ["Bash(ls *)"]}}))
    local = tree.project / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(local)
    permissions = Permissions.load(tree.locations())
    decision = permissions.decide("Bash", {"command": "ls"})
    assert decision.decision == "ask" and "could not be read" in decision.reason
    assert permissions.decide("Read", {"file_path": "README.md"}).decision == "ask"
