"""Permission rules as Claude Code decides them: table-driven, with real settings files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Permissions, call_from_rule, read_settings
from engine.catalog.model import LoadedFrom, Skill, Source, SourceKind
from engine.permissions.rules import parse_rule
from tests.conftest import Tree, only, write


def _settings(tree: Tree, **files: dict[str, list[str]]) -> Permissions:
    """files: scope -> {"allow": [...], "deny": [...], "ask": [...]}."""
    paths = {
        "managed": tree.managed / "managed-settings.json",
        "local": tree.project / ".claude" / "settings.local.json",
        "project": tree.project / ".claude" / "settings.json",
        "user": tree.user / "settings.json",
    }
    for scope, permissions in files.items():
        write(paths[scope], json.dumps({"permissions": permissions}))
    return Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")


CASES: list[tuple[str, dict[str, Any], str, str, str | None]] = [
    # (description, settings, call, decision, deciding rule)
    ("no rule asks", {}, "Skill(deploy)", "ask", None),
    ("exact skill", {"local": {"allow": ["Skill(deploy)"]}}, "Skill(deploy)", "allow", "Skill(deploy)"),
    ("exact skill only", {"local": {"allow": ["Skill(deploy)"]}}, "Skill(deploy-prod)", "ask", None),
    ("all skills", {"user": {"allow": ["Skill"]}}, "Skill(anything)", "allow", "Skill"),
    ("colon-star prefix", {"local": {"allow": ["Skill(tools:*)"]}}, "Skill(tools:lint)", "allow", "Skill(tools:*)"),
    ("colon-star is a plain prefix", {"local": {"allow": ["Skill(review:*)"]}}, "Skill(reviewer)", "allow", "Skill(review:*)"),
    ("space-star keeps the name", {"local": {"allow": ["Skill(review *)"]}}, "Skill(reviewer)", "ask", None),
    ("leading slash ignored", {"local": {"deny": ["Skill(deploy)"]}}, "Skill(/deploy)", "deny", "Skill(deploy)"),
    (
        "deny anywhere beats allow anywhere",
        {"managed": {"allow": ["Skill(x)"]}, "user": {"deny": ["Skill(x)"]}},
        "Skill(x)",
        "deny",
        "Skill(x)",
    ),
    (
        "broad deny has no allow exceptions",
        {"user": {"deny": ["Skill"]}, "local": {"allow": ["Skill(x)"]}},
        "Skill(x)",
        "deny",
        "Skill",
    ),
    ("ask beats allow", {"local": {"allow": ["Skill(x)"]}, "user": {"ask": ["Skill(x)"]}}, "Skill(x)", "ask", "Skill(x)"),
    ("Bash(ls*) matches lsof", {"local": {"allow": ["Bash(ls*)"]}}, "Bash(lsof -i)", "allow", "Bash(ls*)"),
    ("Bash(ls *) does not match lsblk", {"local": {"allow": ["Bash(ls *)"]}}, "Bash(lsblk -a)", "ask", None),
    ("Bash(ls *) matches ls -la", {"local": {"allow": ["Bash(ls *)"]}}, "Bash(ls -la)", "allow", "Bash(ls *)"),
    ("Bash(ls *) matches bare ls", {"local": {"allow": ["Bash(ls *)"]}}, "Bash(ls)", "allow", "Bash(ls *)"),
    (
        "trailing :* is a space-star",
        {"local": {"allow": ["Bash(git diff:*)"]}},
        "Bash(git diff --stat)",
        "allow",
        "Bash(git diff:*)",
    ),
    ("trailing :* keeps the boundary", {"local": {"allow": ["Bash(git diff:*)"]}}, "Bash(git difftool)", "ask", None),
    (":* only at the end", {"local": {"allow": ["Bash(git:* push)"]}}, "Bash(git push)", "ask", None),
    ("star in the middle", {"local": {"allow": ["Bash(git * main)"]}}, "Bash(git push origin main)", "allow", "Bash(git * main)"),
    ("exact command", {"local": {"allow": ["Bash(npm test)"]}}, "Bash(npm test -- --watch)", "ask", None),
    ("every part must be allowed", {"local": {"allow": ["Bash(git status)"]}}, "Bash(git status && npm publish)", "ask", None),
    (
        "all parts allowed",
        {"local": {"allow": ["Bash(git *)", "Bash(head *)"]}},
        "Bash(git log | head -5)",
        "allow",
        "Bash(git *)",
    ),
    (
        "any part denied",
        {"local": {"allow": ["Bash(git *)"], "deny": ["Bash(rm *)"]}},
        "Bash(git pull; rm -rf build)",
        "deny",
        "Bash(rm *)",
    ),
    ("quoted operators are not split", {"local": {"allow": ["Bash(echo *)"]}}, "Bash(echo 'a && b; c')", "allow", "Bash(echo *)"),
    ("Bash allows everything", {"local": {"allow": ["Bash"]}}, "Bash(anything at all)", "allow", "Bash"),
    ("read: cwd-relative glob", {"local": {"deny": ["Read(*.env)"]}}, "Read(./config/.env)", "deny", "Read(*.env)"),
    ("read: rule covers Grep", {"local": {"deny": ["Read(secrets/**)"]}}, "Grep(secrets/keys/a.pem)", "deny", "Read(secrets/**)"),
    ("read: folder covers contents", {"local": {"allow": ["Read(docs)"]}}, "Read(docs/guide/intro.md)", "allow", "Read(docs)"),
    ("read: star stays in one segment", {"local": {"deny": ["Read(src/*.py)"]}}, "Read(src/pkg/mod.py)", "allow", None),
    ("read-only inside the working folder needs no rule", {}, "Grep(src)", "allow", None),
    ("read outside the working folder is asked", {}, "Read(/etc/hosts)", "ask", None),
    ("read climbing out of the working folder is asked", {}, "Read(../elsewhere/notes.md)", "ask", None),
    ("glob with an absolute pattern outside is asked", {}, "Glob(/etc/*.conf)", "ask", None),
    (
        "read: double star crosses",
        {"local": {"allow": ["Read(src/**/*.py)"]}},
        "Read(src/pkg/mod.py)",
        "allow",
        "Read(src/**/*.py)",
    ),
    (
        "edit: rule covers Write",
        {"project": {"deny": ["Edit(/migrations/**)"]}},
        "Write(migrations/001.sql)",
        "deny",
        "Edit(/migrations/**)",
    ),
    ("edit: absolute //", {"local": {"deny": ["Edit(//etc/**)"]}}, "Edit(/etc/hosts)", "deny", "Edit(//etc/**)"),
    ("edit: home ~/", {"local": {"deny": ["Edit(~/.ssh/**)"]}}, "Edit(HOME/.ssh/config)", "deny", "Edit(~/.ssh/**)"),
    (
        "webfetch domain",
        {"local": {"allow": ["WebFetch(domain:example.com)"]}},
        "WebFetch(domain:docs.example.com)",
        "allow",
        "WebFetch(domain:example.com)",
    ),
    (
        "webfetch other domain",
        {"local": {"allow": ["WebFetch(domain:example.com)"]}},
        "WebFetch(domain:example.org)",
        "ask",
        None,
    ),
    (
        "mcp server covers its tools",
        {"local": {"allow": ["mcp__github"]}},
        "mcp__github__create_issue(x)",
        "allow",
        "mcp__github",
    ),
    ("tool-name glob", {"local": {"deny": ["mcp__*__delete_*"]}}, "mcp__drive__delete_file(x)", "deny", "mcp__*__delete_*"),
]


@pytest.mark.parametrize(("settings", "call", "decision", "rule"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_semantics(tree: Tree, settings: dict[str, Any], call: str, decision: str, rule: str | None) -> None:
    permissions = _settings(tree, **settings)
    parsed = call_from_rule(call.replace("HOME", str(tree.root / "home")))
    assert parsed is not None
    result = permissions.decide(*parsed)
    assert (result.decision, result.rule.text if result.rule else None) == (decision, rule), result.reason


def test_decision_names_the_file(tree: Tree) -> None:
    permissions = _settings(tree, project={"deny": ["Skill(deploy)"]})
    result = permissions.decide_skill("deploy")
    assert result.file == tree.project / ".claude" / "settings.json"
    assert result.to_dict() == {
        "decision": "deny",
        "rule": "Skill(deploy)",
        "file": str(tree.project / ".claude" / "settings.json"),
        "scope": "project",
        "reason": "deny rule Skill(deploy) (project)",
    }


def test_allowed_tools_pre_approve_but_never_beat_a_deny(tree: Tree) -> None:
    permissions = _settings(tree, local={"deny": ["Bash(git push *)"]})
    source = Source(SourceKind.PROJECT, tree.project, "project")
    skill = Skill(
        "ship", "ship", "d", "frontmatter", source, LoadedFrom.SKILLS, tree.project / "SKILL.md", allowed_tools=("Bash(git *)",)
    )
    assert permissions.decide("Bash", {"command": "git commit -m x"}).decision == "ask"
    running = permissions.with_allowed_tools(skill)
    commit = running.decide("Bash", {"command": "git commit -m x"})
    assert commit.decision == "allow" and commit.rule is not None and commit.rule.scope == "allowed-tools of /ship"
    assert running.decide("Bash", {"command": "git push origin main"}).decision == "deny"


def test_managed_only_rules(tree: Tree) -> None:
    write(
        tree.managed / "managed-settings.json",
        json.dumps({"allowManagedPermissionRulesOnly": True, "permissions": {"allow": ["Skill(a)"]}}),
    )
    write(tree.user / "settings.json", json.dumps({"permissions": {"allow": ["Skill(b)"]}}))
    permissions = Permissions(read_settings(tree.locations()), tree.project)
    assert permissions.decide_skill("a").decision == "allow"
    assert permissions.decide_skill("b").decision == "ask"


def test_precedence_and_flags(tree: Tree) -> None:
    write(tree.managed / "managed-settings.d" / "10-team.json", json.dumps({"permissions": {"deny": ["Skill(x)"]}}))
    write(tree.user / "settings.json", json.dumps({"disableSkillShellExecution": True, "skillOverrides": {"x": {}}}))
    write(tree.project / ".claude" / "settings.json", json.dumps({"disableSkillShellExecution": False}))
    settings = read_settings(tree.locations())
    assert [f.scope for f in settings.files] == ["managed", "managed", "local", "project", "user"]
    assert settings.rules[0].file == tree.managed / "managed-settings.d" / "10-team.json"
    assert settings.disable_skill_shell_execution is False, "the project file is more specific than the user's"
    # Not one of on / name-only / user-invocable-only / off: Claude Code skips the whole setting.
    assert settings.skill_overrides == {}
    assert any("skillOverrides" in d.message for d in settings.diagnostics)


def test_bad_json_and_bad_entries(tree: Tree) -> None:
    write(tree.project / ".claude" / "settings.json", '{\n  "permissions": {"allow": ["Skill(a)",]}\n}\n')
    write(tree.user / "settings.json", json.dumps({"permissions": {"allow": ["Skill(ok)", 42, "Bash()"], "deny": "Skill(x)"}}))
    settings = read_settings(tree.locations())
    from engine.catalog.assembly import Catalog

    invalid = only(Catalog({}, (), settings.diagnostics, ()), "settings-invalid")
    assert (invalid.line, invalid.column) == (2, 40), "the stray comma: line 2, column 40"
    assert [r.text for r in settings.rules] == ["Skill(ok)"]
    assert sum(d.code == "settings-entry" for d in settings.diagnostics) == 3


def test_parse_rule() -> None:
    assert parse_rule("Bash(git commit -m *)") is not None
    assert parse_rule("Bash()") is None
    assert parse_rule("not a rule!") is None


def _mode(tree: Tree, scope: str, mode: str) -> Permissions:
    paths = {"project": tree.project / ".claude" / "settings.json", "user": tree.user / "settings.json"}
    write(paths[scope], json.dumps({"permissions": {"defaultMode": mode}}))
    return Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")


def test_a_cloned_repository_cannot_loosen_the_mode_before_it_is_trusted(tree: Tree) -> None:
    write_call = ("Write", {"file_path": str(tree.project / "new.txt"), "content": "x"})
    assert _mode(tree, "project", "acceptEdits").decide(*write_call).decision == "allow", "trusted: as Claude Code"
    tree.distrust()
    assert _mode(tree, "project", "acceptEdits").decide(*write_call).decision == "ask", "untrusted: its acceptEdits waits"
    assert _mode(tree, "user", "acceptEdits").decide(*write_call).decision == "allow", "the user's own setting counts"
    assert _mode(tree, "project", "dontAsk").decide(*write_call).decision == "deny", "a stricter mode always holds"


def test_accept_edits_never_reaches_outside_the_working_folder_or_a_protected_file(tree: Tree) -> None:
    permissions = _mode(tree, "project", "acceptEdits")
    assert permissions.decide("Write", {"file_path": str(tree.root / "elsewhere.txt"), "content": "x"}).decision == "ask"
    settings = str(tree.project / ".claude" / "settings.json")
    assert permissions.decide("Edit", {"file_path": settings, "old_string": "a", "new_string": "b"}).decision == "ask"


def _skill_with(**fields: Any) -> Skill:
    source = Source(SourceKind.PROJECT, Path("/p/.claude/skills"), "project")
    return Skill("s", "s", "d", "frontmatter", source, LoadedFrom.SKILLS, Path("/p/.claude/skills/s/SKILL.md"), **fields)


@pytest.mark.parametrize(
    ("fields", "decision"),
    [
        ({}, "allow"),
        ({"allowed_tools": ("Bash(echo *)",)}, "ask"),
        ({"disallowed_tools": ("Bash",)}, "ask"),
        ({"hooks": {"PreToolUse": []}}, "ask"),
        ({"hooks": {}}, "allow"),
        ({"model": "haiku", "effort": "low", "context": "fork", "shell": "bash"}, "allow"),
    ],
)
def test_the_models_skill_call_is_asked_only_for_a_skill_that_widens_what_runs(
    tree: Tree, fields: dict[str, Any], decision: str
) -> None:
    assert _settings(tree).decide_skill_call(_skill_with(**fields)).decision == decision


def test_skill_rules_deny_and_allow_but_ask_rules_do_not_apply(tree: Tree) -> None:
    tooled = _skill_with(allowed_tools=("Bash",))
    assert _settings(tree, local={"ask": ["Skill(s)"]}).decide_skill_call(_skill_with()).decision == "allow"
    assert _settings(tree, local={"allow": ["Skill(s)"]}).decide_skill_call(tooled).decision == "allow"
    assert _settings(tree, local={"deny": ["Skill(s)"], "allow": ["Skill"]}).decide_skill_call(tooled).decision == "deny"
    assert _mode(tree, "project", "plan").decide_skill_call(tooled).decision == "deny", "plan refuses what it would ask"


def test_workspace_check_decides_a_skill_call_as_a_run_does(tree: Tree) -> None:
    """`skilldeck check 'Skill(x)'` answers what the model's call would meet in a run: a skill
    with no allowed-tools runs unasked (Claude Code's rule), one that widens is asked, a deny
    rule wins; a name no skill has is decided by the rules alone."""
    from engine import Workspace

    tree.skill("plain", description="Plain.")
    tree.skill("wide", description="Wide.", allowed__tools="Bash(git *)")
    tree.skill("gone", description="Gone.")
    (tree.project / ".claude" / "settings.json").write_text('{"permissions": {"deny": ["Skill(gone)"]}}')
    workspace = Workspace(tree.locations())
    catalog = workspace.load()
    decided = {n: workspace.check("Skill", {"skill": n}, catalog).decision for n in ("plain", "wide", "gone", "nope")}
    assert decided == {"plain": "allow", "wide": "ask", "gone": "deny", "nope": "ask"}
    assert workspace.check("Skill", {"skill": "plain"}).decision == "ask", "without the catalog: the rules alone"
