"""`why PATH|NAME`: every verdict, each from real files in a real workspace."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from engine import Locations, Why, Workspace, trace_why
from engine.why import explain
from tests.conftest import Tree, skill_text, write
from tests.engine.listing.test_oracle_listing import RECORDED, our_lines, skilldeck_side
from tests.oracle.workspace import RECORDINGS as PERMISSION_RECORDINGS
from tests.oracle.workspace import build, load_cases


def why(tree: Tree, query: str | Path, **kw: Any) -> Why:
    workspace = Workspace(tree.locations(**kw))
    return trace_why(workspace, workspace.load(), str(query), cwd=tree.project)


def statuses(result: Why) -> dict[str, str]:
    return {g.name: g.status.value for g in result.gates}


def settings(tree: Tree, data: dict[str, Any]) -> None:
    write(tree.project / ".claude" / "settings.json", json.dumps(data))


ALL_GATES = ["root", "reserved", "size", "parse", "dedup", "shadowing", "overrides", "invocation", "permissions", "budget"]


def test_a_listed_skill_by_path_folder_and_name_ends_in_the_line_the_model_sees(tree: Tree) -> None:
    path = tree.skill("deploy", description="Ship it.")
    for query in (path, path.parent, "deploy", "/deploy"):
        result = why(tree, query)
        assert [g.name for g in result.gates] == ALL_GATES
        assert result.outcome == "listed", query
        assert result.path == path
        assert result.verdict == "the model sees it as `- deploy: Ship it.`"
        assert statuses(result)["root"] == "passed"
        assert all(s == "passed" for n, s in statuses(result).items() if n != "reserved"), statuses(result)
    assert why(tree, path).kind == "path" and why(tree, "/deploy").kind == "name"


def test_a_command_file_is_traced_with_its_namespaced_name(tree: Tree) -> None:
    cmd = write(tree.project / ".claude" / "commands" / "ns" / "cmd.md", "---\ndescription: a cmd\n---\nbody\n")
    result = why(tree, cmd)
    assert result.name == "ns:cmd" and result.outcome == "listed"
    assert statuses(result)["reserved"] == "n/a"
    assert "each .md below it is a command" in result.gate("root").sentence  # type: ignore[union-attr]
    assert why(tree, "ns:cmd").path == cmd


def test_a_file_outside_every_root_names_the_roots_checked(tree: Tree) -> None:
    stray = write(tree.root / "elsewhere" / "thing" / "SKILL.md", skill_text(description="x"))
    result = why(tree, stray)
    assert result.outcome == "never-loads"
    root = result.gate("root")
    assert root is not None and root.status == "failed"
    assert root.sentence.startswith("no root Claude Code scans holds this file")
    assert f"checked: {tree.project / '.claude' / 'skills'} (project)" in root.notes
    assert f"checked: {tree.user / 'skills'} (user)" in root.notes
    assert result.verdict == "it never loads because no root Claude Code scans holds this file"
    assert all(g.status == "n/a" for g in result.gates[1:])


def test_a_skills_folder_above_the_repository_root_is_explained(tree: Tree) -> None:
    above = write(tree.root / ".claude" / "skills" / "up" / "SKILL.md", skill_text(description="x"))
    result = why(tree, above)
    assert "project walk goes from the start folder up to" in result.gate("root").sentence  # type: ignore[union-attr]
    extra = write(tree.root / "extra" / ".claude" / "skills" / "far" / "SKILL.md", skill_text(description="x"))
    assert f"--add-dir {tree.root / 'extra'}" in why(tree, extra).gate("root").sentence  # type: ignore[union-attr]


def test_missing_files_loose_files_and_files_too_deep(tree: Tree) -> None:
    skills = tree.skills()
    missing = why(tree, skills / "nope" / "SKILL.md")
    assert missing.outcome == "not-found" and "does not exist" in missing.verdict
    loose = write(skills / "loose.md", "hello\n")
    result = why(tree, loose)
    assert result.outcome == "never-loads" and statuses(result)["root"] == "failed"
    assert result.verdict.startswith("it never loads because Claude Code only loads <folder>/SKILL.md")
    assert any("loose-markdown" in n for n in result.gate("root").notes)  # type: ignore[union-attr]
    deep = write(skills / "group" / "inner" / "SKILL.md", skill_text(description="x"))
    assert "levels down" in why(tree, deep).verdict
    empty = skills / "empty"
    empty.mkdir()
    result = why(tree, empty)
    assert result.verdict == "it never loads because the folder has no SKILL.md"


def test_a_folder_named_synced_is_reserved(tree: Tree) -> None:
    path = tree.skill("synced", description="mine")
    result = why(tree, path.parent)
    assert statuses(result)["reserved"] == "failed"
    assert result.verdict == "it never loads because `synced` is a reserved folder name"
    by_name = why(tree, "synced")
    assert by_name.kind == "name" and by_name.outcome == "never-loads" and statuses(by_name)["reserved"] == "failed"
    # A legacy command of that name is not concerned (recorded: load_synced_paths).
    cmd = write(tree.project / ".claude" / "commands" / "synced.md", "---\ndescription: cmd\n---\n")
    assert statuses(why(tree, cmd))["reserved"] == "n/a"


def test_a_skill_file_over_a_million_bytes_is_skipped(tree: Tree) -> None:
    path = tree.skill("big", "---\ndescription: big\n---\n" + "x" * 1_000_000)
    result = why(tree, path)
    assert statuses(result)["size"] == "failed"
    assert "1,000,025 bytes" in result.gate("size").sentence  # type: ignore[union-attr]
    assert result.verdict == (
        "it never loads because it is 1,000,025 bytes, over Claude Code's 1,000,000-byte limit for a SKILL.md in a skills folder"
    )
    small = tree.skill("small", "---\ndescription: small\n---\n" + "x" * 999_970)
    assert statuses(why(tree, small))["size"] == "passed"


def padded(path: Path, description: str, size: int) -> Path:
    """A real file of exactly `size` bytes: frontmatter, then lines of `x` (as the oracle's padded files)."""
    head = f"---\ndescription: {description}\n---\n".encode()
    rest = size - len(head)
    write(path, head + (b"x" * 99 + b"\n") * (rest // 100) + b"x" * (rest % 100))
    assert path.stat().st_size == size
    return path


# Each kind of file, where it sits for a name (`at` or `over`), its limit and how the gate names it
# (recorded: fm_file_size, fm_plugin_size).
SIZE_KINDS = {
    "skills-folder": (lambda t, n: t.skills() / n / "SKILL.md", 1_000_000, "a SKILL.md in a skills folder", ""),
    "command": (lambda t, n: t.project / ".claude" / "commands" / f"{n}.md", 1_048_576, "a command file", ""),
    "commands-skill-md": (
        lambda t, n: t.project / ".claude" / "commands" / n / "SKILL.md",
        1_048_576,
        "a SKILL.md under commands/",
        "",
    ),
    "plugin-skill": (
        lambda t, n: t.root / "p" / "skills" / n / "SKILL.md",
        1_048_576,
        "a plugin's skill or command file",
        "tools:",
    ),
    "plugin-command": (
        lambda t, n: t.root / "p" / "commands" / f"{n}.md",
        1_048_576,
        "a plugin's skill or command file",
        "tools:",
    ),
}


@pytest.mark.parametrize("kind", sorted(SIZE_KINDS))
def test_each_kind_of_file_has_claude_codes_size_limit_for_it(tree: Tree, kind: str) -> None:
    place, limit, what, prefix = SIZE_KINDS[kind]
    plugin = tree.root / "p"
    write(plugin / ".claude-plugin" / "plugin.json", json.dumps({"name": "tools"}))
    at = padded(place(tree, "at"), "exactly at the limit", limit)
    over = padded(place(tree, "over"), "one byte over", limit + 1)
    # Between the two limits: a skills folder skips it, every other kind loads it.
    between = padded(place(tree, "between"), "between the limits", 1_000_001)

    result = why(tree, at, plugin_dirs=(plugin,))
    assert result.outcome == "listed", result.to_dict()
    assert result.gate("size").sentence == f"{limit:,} bytes, within Claude Code's {limit:,}-byte limit for {what}"  # type: ignore[union-attr]
    assert result.verdict == f"the model sees it as `- {prefix}at: exactly at the limit`"

    result = why(tree, over, plugin_dirs=(plugin,))
    assert statuses(result)["size"] == "failed" and result.outcome == "never-loads", result.to_dict()
    assert result.gate("size").sentence == f"Claude Code skips {what} over {limit:,} bytes; this one is {limit + 1:,} bytes"  # type: ignore[union-attr]
    assert (
        result.verdict == f"it never loads because it is {limit + 1:,} bytes, over Claude Code's {limit:,}-byte limit for {what}"
    )
    assert all(s == "n/a" for n, s in statuses(result).items() if n in ("parse", "dedup", "budget"))

    result = why(tree, between, plugin_dirs=(plugin,))
    skipped = kind == "skills-folder"
    assert statuses(result)["size"] == ("failed" if skipped else "passed"), result.to_dict()
    assert result.outcome == ("never-loads" if skipped else "listed")


def test_a_file_that_cannot_be_read_fails_the_parse_gate_with_its_diagnostic(tree: Tree) -> None:
    folder = tree.skills() / "gone"
    folder.mkdir(parents=True)
    os.symlink(tree.root / "missing.md", folder / "SKILL.md")
    result = why(tree, folder)
    assert statuses(result)["parse"] == "failed"
    assert result.outcome == "never-loads"
    assert result.verdict.startswith(
        "it never loads because Claude Code cannot use the file: symlink to a file that does not exist"
    )
    by_name = why(tree, "gone")
    assert by_name.path == folder / "SKILL.md" and by_name.outcome == "never-loads"


def test_the_same_file_reached_twice_loads_once(tree: Tree) -> None:
    shared = write(tree.root / "outside" / "shared" / "SKILL.md", skill_text(description="shared"))
    tree.skills("user").mkdir(parents=True)
    tree.skills().mkdir(parents=True)
    os.symlink(shared.parent, tree.skills("user") / "shared")
    os.symlink(shared.parent, tree.skills() / "alias")
    second = why(tree, tree.skills() / "alias" / "SKILL.md")
    assert statuses(second)["dedup"] == "failed"
    assert "the same file already loaded from an earlier path" in second.verdict
    first = why(tree, "shared")
    assert first.outcome == "listed"
    # The folder the links lead to is in no root, but Claude Code reads it through the first link.
    target = why(tree, shared)
    assert target.outcome == "listed" and target.path == tree.skills("user") / "shared" / "SKILL.md"
    assert target.gate("root").sentence.startswith("Claude Code reaches this file through")  # type: ignore[union-attr]
    assert any("also reached as" in n for n in first.gate("dedup").notes)  # type: ignore[union-attr]


def test_a_shadowed_skill_names_the_one_that_wins(tree: Tree) -> None:
    user = tree.skill("same", tier="user", description="user one")
    project = tree.skill("same", description="project one")
    result = why(tree, project)
    assert statuses(result)["shadowing"] == "failed"
    assert result.verdict == f"it never loads because the user skill /same at {user} comes first"
    winner = why(tree, "same")
    assert winner.path == user and winner.outcome == "listed"
    assert f"hides the project skill at {project}" in winner.gate("shadowing").notes  # type: ignore[union-attr]


def test_skill_overrides_off_user_invocable_only_and_name_only(tree: Tree) -> None:
    for name in ("a", "b", "c"):
        tree.skill(name, description=f"The {name} skill.")
    settings(tree, {"skillOverrides": {"a": "off", "b": "user-invocable-only", "c": "name-only"}})
    off = why(tree, "a")
    assert statuses(off)["overrides"] == "failed" and off.verdict == "it never loads because skillOverrides turns it off"
    user_only = why(tree, "b")
    assert user_only.outcome == "hidden"
    assert (
        user_only.verdict
        == "it loads, but the model never sees it because skillOverrides sets user-invocable-only; typing /b runs it"
    )
    name_only = why(tree, "c")
    assert name_only.outcome == "name-only"
    assert name_only.verdict == "the model sees it as `- c` (name only, by skillOverrides)"


def test_disable_model_invocation_hides_it_from_the_model(tree: Tree) -> None:
    tree.skill("manual", description="By hand.", disable__model__invocation="true")
    result = why(tree, "manual")
    assert statuses(result)["invocation"] == "failed" and statuses(result)["budget"] == "n/a"
    assert (
        result.verdict == "it loads, but the model never sees it because disable-model-invocation is set; typing /manual runs it"
    )


def test_a_paths_skill_is_conditional(tree: Tree) -> None:
    tree.skill("cond", description="Only for src.", paths="docs/*.md")
    result = why(tree, "cond")
    assert result.outcome == "conditional"
    assert statuses(result)["invocation"] == "failed"
    assert (
        result.verdict
        == "the model sees it only once a file matching paths: docs/*.md is read or edited; until then it is not listed"
    )


def test_a_deny_rule_blocks_the_models_call_not_the_listing(tree: Tree) -> None:
    tree.skill("deploy", description="Ship it.")
    settings(tree, {"permissions": {"deny": ["Skill(deploy)"]}})
    result = why(tree, "deploy")
    gate = result.gate("permissions")
    assert gate is not None and gate.status == "failed"
    assert "Skill(deploy)" in gate.sentence and str(tree.project / ".claude" / "settings.json") in gate.sentence
    assert result.outcome == "listed"
    assert result.verdict.startswith("the model sees it as `- deploy: Ship it.`; Claude Code refuses the model's Skill call")
    settings(tree, {"permissions": {"allow": ["Skill(deploy)"]}})
    allowed = why(tree, "deploy").gate("permissions")
    assert allowed is not None and allowed.sentence.startswith("the allow rule Skill(deploy) in ")


def test_over_budget_a_skill_drops_to_its_name(tree: Tree) -> None:
    tree.skill("alpha", description="A" * 200)
    tree.skill("beta", description="B" * 200)
    result = why(tree, "beta", environ={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "250"})
    assert statuses(result)["budget"] == "failed"
    assert "SLASH_COMMAND_TOOL_CHAR_BUDGET=250" in result.gate("budget").sentence  # type: ignore[union-attr]
    assert result.outcome == "name-only"
    assert result.verdict == "the model sees it as `- beta` (over budget, no description)"
    assert why(tree, "alpha", environ={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "250"}).outcome == "listed"


def test_a_name_that_matches_nothing_suggests_the_nearest(tree: Tree) -> None:
    tree.skill("deploy")
    result = why(tree, "/deplyo")
    assert result.outcome == "not-found" and result.kind == "name"
    assert result.suggestions == ("deploy",)
    assert result.verdict == "it never loads because nothing is named /deplyo; did you mean /deploy?"
    assert any(n.startswith("checked: ") for n in result.gate("root").notes)  # type: ignore[union-attr]
    assert why(tree, "zzzzzz").suggestions == ()


def test_plugin_skill_names_and_suffix_suggestions(tree: Tree) -> None:
    plugin = tree.root / "p"
    write(plugin / ".claude-plugin" / "plugin.json", json.dumps({"name": "tools"}))
    write(plugin / "skills" / "lint" / "SKILL.md", skill_text(description="Lint it."))
    result = why(tree, "tools:lint", plugin_dirs=(plugin,))
    assert result.outcome == "listed" and result.verdict == "the model sees it as `- tools:lint: Lint it.`"
    assert "plugin tools" in result.gate("root").sentence  # type: ignore[union-attr]
    missing = why(tree, "lint", plugin_dirs=(plugin,))
    assert missing.outcome == "not-found" and missing.suggestions[0] == "tools:lint"


def test_files_beside_a_skill_and_a_plugins_agents_are_not_skills(tree: Tree) -> None:
    tree.skill("guide", description="Guide.")
    ref = write(tree.skills() / "guide" / "references" / "api.md", "# API\n")
    result = why(tree, ref)
    assert result.verdict == "it never loads because it is a file inside the folder of /guide, which is the skill: " \
        "Claude Code never loads such a file as a skill"  # fmt: skip
    plugin = tree.root / "p"
    write(plugin / ".claude-plugin" / "plugin.json", json.dumps({"name": "tools"}))
    agent = write(plugin / "agents" / "reviewer.md", "---\nname: reviewer\n---\nReview.\n")
    readme = write(plugin / "README.md", "# tools\n")
    assert "agents/ folder holds subagents" in why(tree, agent, plugin_dirs=(plugin,)).verdict
    assert why(tree, readme, plugin_dirs=(plugin,)).outcome == "never-loads"


def test_a_rejected_plugin_says_why_none_of_its_files_load(tree: Tree) -> None:
    plugin = tree.root / "broken-plugin"
    write(plugin / ".claude-plugin" / "plugin.json", "{nope")
    skill = write(plugin / "skills" / "s" / "SKILL.md", skill_text(description="never"))
    result = why(tree, skill, plugin_dirs=(plugin,))
    assert result.outcome == "never-loads"
    assert result.verdict.startswith(f"it never loads because the plugin at {plugin} is not loaded: ")


def test_a_name_label_finds_its_skill(tree: Tree) -> None:
    tree.skill("lab", skill_text(description="Labelled.", name="other-label"))
    result = why(tree, "other-label")
    assert result.name == "lab" and result.outcome == "listed"
    assert "label" in result.gate("root").sentence  # type: ignore[union-attr]


def test_skilldecks_own_skills_never_load_in_claude_code(tree: Tree) -> None:
    result = why(tree, "skill-author", bundled=True)
    assert result.outcome == "never-loads"
    assert result.verdict == "it never loads because it is skilldeck's own skill, not Claude Code's"


def test_a_root_is_not_a_skill(tree: Tree) -> None:
    tree.skill("one")
    result = why(tree, tree.skills())
    assert result.outcome == "not-found" and "1 skills load from it" in result.gate("root").sentence  # type: ignore[union-attr]


def test_hostile_queries_never_crash(tree: Tree) -> None:
    tree.skill("ok")
    loop = tree.skills() / "loop"
    os.symlink(loop, loop)
    write(tree.root / "etc.md", "---\ndescription: outside\n---\n")
    queries = ("", "x" * 10_000, "a\x00b", str(loop), str(loop / "SKILL.md"), "../" * 50 + "etc/passwd", "\x1b]52;c;x\x07")
    for query in (*queries, "..:..:..:etc", "..", "/.."):
        result = why(tree, query)
        assert result.outcome in ("not-found", "never-loads"), query
        assert result.verdict.startswith("it never loads because")
        json.dumps(result.to_dict())
    # A name never leads out of its root: `..:..:..:etc` is no way to reach <root>/../../../etc.md.
    escaped = why(tree, "..:..:..:etc")
    assert escaped.outcome == "not-found" and escaped.path is None


def test_to_dict_carries_every_gate(tree: Tree) -> None:
    tree.skill("deploy", description="Ship it.")
    data = why(tree, "deploy").to_dict()
    assert data["loads"] is True and data["outcome"] == "listed"
    assert [g["gate"] for g in data["gates"]] == ALL_GATES
    assert {g["status"] for g in data["gates"]} <= {"passed", "failed", "n/a"}


def test_a_nested_skills_folder_loads_only_once_a_file_under_it_is_touched(tree: Tree) -> None:
    nested = write(tree.repo / "apps" / "web" / ".claude" / "skills" / "deploy" / "SKILL.md", skill_text(description="web"))
    result = why(tree, nested)
    # Exact once the loader keeps nested skills as deferred (Catalog.deferred): then the trace
    # follows them to the invocation gate; before, the root gate says the same.
    said = result.verdict + " ".join(g.sentence for g in result.gates)
    assert "once a file under" in said and "apps/web" in said
    assert result.outcome in ("conditional", "never-loads")


# Against Claude Code's recordings ------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(RECORDED))
def test_why_says_what_claude_code_sent(name: str, tmp_path: Path) -> None:
    """Every file of every recorded listing case, traced: a file the trace says the model sees is
    quoted with the line skilldeck's listing sends, and, where that listing is Claude Code's
    line for line, with the line Claude Code sent. A folder Claude Code logged as reserved never loads;
    a file it logged as over its size limit fails the size gate with that limit."""
    case, recording = load_cases("listing")[name], RECORDED[name]
    catalog, listing, places, workspace = skilldeck_side(case, recording, Path(os.path.realpath(tmp_path)))
    permissions = workspace.permissions()
    ours = {e.line for e in listing.entries}
    theirs = set(recording["listing"][2:]) if our_lines(listing) == recording["listing"] else None
    for written in (*case.get("files", {}), *case.get("padded", {})):
        path = Path(places.fill(written))
        if path.suffix != ".md":
            continue
        result = explain(catalog, str(path), listing, permissions, kind="path")
        if result.outcome in ("listed", "name-only"):
            assert result.line in ours, (path, result.verdict)
            assert theirs is None or result.line in theirs, (path, result.line)
        else:
            assert result.line is None and not result.verdict.startswith("the model sees it as"), path
        # Every file that does not reach the model has a stated reason.
        assert "no diagnostic says why" not in result.verdict, (path, result.verdict)
    for logged in recording["skipped"]:
        too_big = re.search(r"[Ss]kipping (?:plugin (?:skill|command) )?(\S+): .*exceeds (\d+) byte limit", logged)
        if too_big:
            # The size gate stops it, with the limit Claude Code applied to its kind.
            result = explain(catalog, places.fill(too_big.group(1)), listing, permissions, kind="path")
            assert result.gate("size").status == "failed", result.to_dict()  # type: ignore[union-attr]
            assert f"over Claude Code's {int(too_big.group(2)):,}-byte limit" in result.verdict, result.verdict
        reserved = re.search(r"skipping reserved dir name '([^']+)' under (\S+):", logged)
        if reserved:
            folder = Path(places.fill(reserved.group(2))) / reserved.group(1)
            result = explain(catalog, str(folder), listing, permissions, kind="path")
            assert result.gate("reserved").status == "failed", result.to_dict()  # type: ignore[union-attr]


def test_the_gates_after_the_load_agree_with_the_recording(tmp_path: Path) -> None:
    """why_gates (recorded): a deny rule leaves a skill listed, skillOverrides off takes it out of
    the listing and the commands, user-invocable-only and disable-model-invocation leave it a
    command only, user-invocable: false leaves it listed."""
    case, recording = load_cases("listing")["why_gates"], RECORDED["why_gates"]
    catalog, listing, _, workspace = skilldeck_side(case, recording, Path(os.path.realpath(tmp_path)))
    permissions = workspace.permissions()
    seen = {n: explain(catalog, n, listing, permissions, kind="name") for n in ("denied", "asked", "allowed", "offed", "useronly", "manual", "menuless")}  # fmt: skip
    for name, result in seen.items():
        listed = result.line is not None
        assert (
            listed == (result.line in recording["listing"]) == any(line.startswith(f"- {name}:") for line in recording["listing"])
        ), name
        invocation = result.gate("invocation")
        in_menu = invocation is not None and "out of the / menu" not in invocation.sentence
        typed = f"typing /{name} runs it" in result.verdict if result.outcome == "hidden" else result.loads and in_menu
        assert typed == (name in recording["commands"]), (name, result.verdict)
    assert seen["denied"].gate("permissions").status == "failed"  # type: ignore[union-attr]
    assert "the ask rule Skill(asked) in" in seen["asked"].gate("permissions").sentence  # type: ignore[union-attr]
    assert seen["allowed"].gate("permissions").sentence.startswith("the allow rule Skill(allowed)")  # type: ignore[union-attr]
    assert seen["offed"].outcome == "never-loads"
    assert seen["useronly"].outcome == seen["manual"].outcome == "hidden"


def test_the_permission_gate_says_what_claude_code_decided(tmp_path: Path) -> None:
    """why_skill_calls (recorded permission case): each skill's permission gate says the model's
    Skill call runs, is asked or is refused exactly as Claude Code decided it."""
    case = load_cases("permissions")["why_skill_calls"]
    recording = json.loads((PERMISSION_RECORDINGS / "why_skill_calls.json").read_text())
    places = build(case, Path(os.path.realpath(tmp_path)))
    locations = Locations(
        places.project, user_dir=places.home / ".claude", managed_dir=places.root / "managed", bundled=False,
        environ={"HOME": str(places.home)},
    )  # fmt: skip
    workspace = Workspace(locations)
    catalog = workspace.load()
    listing, permissions = workspace.listing(catalog), workspace.permissions()
    for call in recording["calls"]:
        gate = explain(catalog, call["input"]["skill"], listing, permissions, kind="name").gate("permissions")
        assert gate is not None
        said = "deny" if gate.status == "failed" else "ask" if "Claude Code asks" in gate.sentence else "allow"
        assert said == call["decision"], (call, gate.sentence)
