"""Which files load, under which names and in which order, as Claude Code 2.1.328 loads them.

Each rule here was recorded on the binary; the case that shows it is named in the test.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from engine import Locations, SourceKind, Workspace
from engine.catalog.diagnostics import Sink
from engine.catalog.loadcache import LoadCache
from engine.catalog.scan import MAX_DIRS_PER_ROOT
from engine.catalog.sources.collate import collation_key
from engine.catalog.sources.names import refusal
from engine.catalog.sources.tiers import collect
from tests.conftest import Tree, codes, skill_text, write


def _desc(text: str, **fields: str) -> str:
    return skill_text(description=text, **fields)


def test_names_sort_as_locale_compare_sorts() -> None:
    # Recorded: load_order_names (the order Claude Code listed these folders in).
    listed = ["_u", "-h", "(p", "[s", "@at", "#h", "~t", "$d", "10n", "1n", "2n", "ä", "Ä", "a b", "a_b", "a-b",
              "a:b", "a.b", "a1", "A1", "aa", "ab", "Ab", "ac", "B", "b2", "ea", "éa", "Zed", "zz"]  # fmt: skip
    assert sorted(reversed(listed), key=collation_key) == listed
    # Letters ICU reads as two: after the two letters, before what follows them.
    assert sorted(["af", "æ", "ae", "ad", "straße", "strasse", "strasze"], key=collation_key) == [
        "ad", "ae", "æ", "af", "strasse", "straße", "strasze",
    ]  # fmt: skip
    # Outside the table (other scripts) sorts after Latin, never fails.
    assert sorted(["日本", "z", "Ωmega"], key=collation_key) == ["z", "Ωmega", "日本"]


def test_order_of_tiers_and_of_commands(tree: Tree) -> None:
    # Recorded: load_order_tiers. Skills folder by folder (user, then nearest project folder
    # first), then every legacy command, user's and project's, sorted together.
    start = tree.project / "sub"
    for name in ("uz", "ua"):
        tree.skill(name, _desc(name), tier="user")
    for folder, names in ((tree.project, ("pz", "pa")), (start, ("sb", "sa"))):
        for name in names:
            write(folder / ".claude" / "skills" / name / "SKILL.md", _desc(name))
    write(tree.user / "commands" / "cz.md", _desc("cz"))
    write(tree.user / "commands" / "cm.md", _desc("cm"))
    write(tree.project / ".claude" / "commands" / "cn.md", _desc("cn"))
    write(tree.project / ".claude" / "commands" / "ns" / "cc.md", _desc("cc"))
    write(start / ".claude" / "commands" / "cb.md", _desc("cb"))
    catalog = tree.load(project=start)
    assert list(catalog.skills) == ["ua", "uz", "sa", "sb", "pa", "pz", "cb", "cm", "cn", "cz", "ns:cc"]


def test_hidden_folders_and_dot_commands_load_and_synced_is_reserved(tree: Tree) -> None:
    # Recorded: basics (.hidden, .dot), load_synced_paths (synced, .hid:x, commands/<dir>/SKILL.md).
    tree.skill(".hidden", _desc("hidden"))
    synced = tree.skill("synced", _desc("reserved"))
    commands = tree.project / ".claude" / "commands"
    write(commands / ".dot.md", _desc("dot"))
    write(commands / ".hid" / "x.md", _desc("in a hidden folder"))
    write(commands / "synced.md", _desc("a command may be called synced"))
    write(commands / "folder" / "SKILL.md", _desc("a skill-format command"))
    beside = write(commands / "folder" / "other.md", _desc("not loaded"))
    write(commands / "folder" / "sub" / "deep.md", _desc("still searched"))
    write(commands / "ns" / "lower" / "skill.md", _desc("any case"))
    catalog = tree.load()
    assert list(catalog.skills) == [".hidden", ".dot", ".hid:x", "folder", "folder:sub:deep", "ns:lower", "synced"]
    assert catalog.skills["folder"].path.name == "SKILL.md"
    reserved = next(d for d in catalog.diagnostics if d.code == "reserved-name")
    assert reserved.path == synced.parent and "skips it" in reserved.message
    assert codes(catalog, beside) == ["not-loaded"]


def test_paths_skills_wait_and_leave_their_name_free(tree: Tree) -> None:
    # Recorded: load_synced_paths (a `paths:` skill and a command of the same name), load_nested.
    cond = tree.skill("cond", _desc("conditional", paths="src/**"))
    tree.skill("nopaths", _desc("empty list", paths="[]"))
    write(tree.project / ".claude" / "commands" / "cond.md", _desc("the command", paths="src/**"))
    catalog = tree.load()
    assert list(catalog.skills) == ["nopaths", "cond"]
    assert catalog.skills["cond"].source.kind is SourceKind.COMMANDS
    [waiting] = catalog.deferred
    assert (waiting.name, waiting.activation, waiting.path) == ("cond", "paths", cond)
    note = next(d for d in catalog.diagnostics if d.code == "deferred").message
    assert f"only once a file matching {waiting.paths[0]} " in note


def test_nested_skills_are_deferred_under_the_names_they_would_get(tree: Tree) -> None:
    # Recorded: load_nested (not listed at start). A nested name another skill has is scoped
    # by its folder, as Claude Code does when it loads it (checked on the binary with a scripted
    # Read of apps/web/src/index.ts: it then lists `apps/web:deploy` and `webonly`; a nested
    # commands folder is not discovered).
    tree.skill("deploy", _desc("root"))
    web = tree.project / "apps" / "web"
    write(web / ".claude" / "skills" / "deploy" / "SKILL.md", _desc("web deploy"))
    write(web / ".claude" / "skills" / "webonly" / "SKILL.md", _desc("web only"))
    write(tree.project / "node_modules" / "pkg" / ".claude" / "skills" / "dep" / "SKILL.md", _desc("a dependency's"))
    write(web / ".claude" / "commands" / "webcmd.md", _desc("not discovered"))
    catalog = tree.load()
    assert list(catalog.skills) == ["deploy"]
    assert [(s.name, s.activation, s.scope) for s in catalog.deferred] == [
        ("apps/web:deploy", "nested", "apps/web"),
        ("webonly", "nested", ""),
    ]
    assert all("apps/web/" in d.message for d in catalog.diagnostics if d.code == "deferred")


def test_add_dir_loads_skills_and_commands_and_scopes_a_clash(tree: Tree, tmp_path: Path) -> None:
    # Recorded: load_add_dir, load_add_dir_clash.
    extra = tmp_path / "extra"
    write(extra / ".claude" / "skills" / "xa" / "SKILL.md", _desc("extra a"))
    write(extra / ".claude" / "skills" / "same" / "SKILL.md", _desc("extra same"))
    write(extra / ".claude" / "commands" / "pcmd.md", _desc("extra pcmd"))
    write(extra / ".claude" / "commands" / "xcmd.md", _desc("extra cmd"))
    tree.skill("same", _desc("project same"))
    write(tree.project / ".claude" / "commands" / "pcmd.md", _desc("project pcmd"))
    catalog = tree.load(add_dirs=(extra,))
    assert list(catalog.skills) == ["same", "xa", "pcmd", "xcmd", "extra:same"]
    assert catalog.skills["pcmd"].description == "project pcmd"
    assert catalog.skills["extra:same"].scope == "extra"
    # Inside the start folder the scope is the path from it.
    inner = tree.project / "pkg" / "inner"
    write(inner / ".claude" / "skills" / "same" / "SKILL.md", _desc("inner same"))
    assert "pkg/inner:same" in tree.load(add_dirs=(inner,)).skills


def test_same_file_twice_loads_once_from_the_first_tier(tree: Tree, tmp_path: Path) -> None:
    # Recorded: load_symlink_dup.
    shared = tmp_path / "shared"
    write(shared / "SKILL.md", _desc("shared"))
    for tier, name in (("user", "shared"), ("project", "alias")):
        tree.skills(tier).mkdir(parents=True, exist_ok=True)
        os.symlink(shared, tree.skills(tier) / name)
    catalog = tree.load()
    assert list(catalog.skills) == ["shared"]
    assert catalog.skills["shared"].source.kind is SourceKind.USER
    assert "duplicate-file" in codes(catalog, tree.skills() / "alias" / "SKILL.md")


def test_every_skill_folder_loads_past_the_folder_bound(tree: Tree) -> None:
    # Recorded: load_many. The bound is for folders that are not skills.
    root = tree.skills()
    for i in range(MAX_DIRS_PER_ROOT + 10):
        write(root / f"s{i:05d}" / "SKILL.md", "---\ndescription: d\n---\n")
    catalog = tree.load()
    assert len(catalog.skills) == MAX_DIRS_PER_ROOT + 10
    assert "scan-limit" not in codes(catalog)


def test_a_reload_finds_a_new_nested_skills_folder(tree: Tree) -> None:
    # The search below the start folder is kept between reloads and done again when a change
    # touches a `.claude` path.
    cache = LoadCache()
    locations = tree.locations()
    collect(locations, Sink(), cache)
    assert cache.nested == {str(tree.project): ()}
    new = write(tree.project / "apps" / "api" / ".claude" / "skills" / "x" / "SKILL.md", _desc("x"))
    assert [t for t in collect(locations, Sink(), cache) if t.nested] == []
    cache.invalidate(new.parent.parent)
    [nested] = [t for t in collect(locations, Sink(), cache) if t.nested]
    assert (nested.source.scope, [e.stem for e in nested.entries]) == ("apps/api", ["x"])


def test_managed_skills_and_commands_come_first(tree: Tree) -> None:
    # Claude Code reads <managed>/.claude/skills and <managed>/.claude/commands (on Linux
    # /etc/claude-code); on a name clash the managed one wins.
    tree.skill("policy", _desc("managed skill"), tier="managed")
    write(tree.managed / ".claude" / "commands" / "ship.md", _desc("managed command"))
    write(tree.user / "commands" / "ship.md", _desc("user command"))
    write(tree.user / "commands" / "audit.md", _desc("user command"))
    tree.skill("mine", _desc("project skill"))
    catalog = tree.load()
    assert list(catalog.skills) == ["policy", "mine", "audit", "ship"]
    assert catalog.skills["ship"].description == "managed command"
    assert [s.skill.description for s in catalog.shadowed] == ["user command"]


def test_a_hard_link_is_two_skills_except_between_commands(tree: Tree) -> None:
    # Claude Code tells skill files apart by real path (a hard link is another file) and legacy
    # commands by inode.
    first = tree.skill("one", _desc("linked"))
    tree.skills().joinpath("two").mkdir()
    os.link(first, tree.skills() / "two" / "SKILL.md")
    command = write(tree.project / ".claude" / "commands" / "c1.md", _desc("command"))
    os.link(command, command.with_name("c2.md"))
    catalog = tree.load()
    assert list(catalog.skills) == ["one", "two", "c1"]
    assert codes(catalog, command.with_name("c2.md")) == ["duplicate-file"]


def test_a_plugin_skill_linked_from_a_tier(tree: Tree, tmp_path: Path) -> None:
    # A plugin skill that a user skill links to loads once, as the user's; one a project skill
    # links to loads twice (Claude Code checks plugin skills against the user's only).
    plugin = tmp_path / "plug"
    write(plugin / ".claude-plugin" / "plugin.json", '{"name": "plug"}')
    for name in ("mine", "ours"):
        write(plugin / "skills" / name / "SKILL.md", _desc(name))
    tree.skills("user").mkdir(parents=True)
    tree.skills().mkdir(parents=True)
    os.symlink(plugin / "skills" / "mine", tree.skills("user") / "mine")
    os.symlink(plugin / "skills" / "ours", tree.skills() / "ours")
    catalog = tree.load(plugin_dirs=(plugin,))
    assert list(catalog.skills) == ["mine", "ours", "plug:ours"]


def test_a_reload_adopts_a_new_plugin_in_a_skills_folder(tree: Tree) -> None:
    cache = LoadCache()
    locations = tree.locations()
    tree.skill("kit", _desc("a skill first"), tier="user")
    collect(locations, Sink(), cache)
    manifest = write(tree.skills("user") / "kit" / ".claude-plugin" / "plugin.json", '{"name": "kit"}')
    write(tree.skills("user") / "kit" / "skills" / "inner" / "SKILL.md", _desc("inner"))
    cache.invalidate(manifest)
    plugins = [t for t in collect(locations, Sink(), cache) if t.source.kind is SourceKind.PLUGIN and t.entries]
    assert [e.stem for t in plugins for e in t.entries] == ["inner"]


def test_commands_at_any_depth_and_a_top_skill_md(tree: Tree) -> None:
    # Recorded: load_commands_edge.
    commands = tree.project / ".claude" / "commands"
    write(commands / "SKILL.md", _desc("the top folder as one command"))
    beside = write(commands / "README.md", _desc("not loaded beside it"))
    write(commands / "d1" / "d2" / "d3" / "d4" / "d5" / "d6" / "d7" / "d8" / "deep.md", _desc("deep"))
    upper = write(commands / "misc" / "upper.MD", _desc("not .md"))
    write(commands / "misc" / "README.md", _desc("a command like any other"))
    catalog = tree.load()
    assert list(catalog.skills) == ["commands", "d1:d2:d3:d4:d5:d6:d7:d8:deep", "misc:README"]
    assert codes(catalog, beside) == ["not-loaded"] and codes(catalog, upper) == ["not-loaded"]


def test_names_claude_code_does_not_offer(tree: Tree) -> None:
    # Recorded: listing_odd_names (`a<b>` is not offered; `amp&er`, `with space`, `ünïcode` are).
    for name in ("a<b>", "amp&er", "with space", "ünïcode", "two  spaces", "zero\u200bwidth", " lead", "nb\u00a0sp"):
        tree.skill(name, _desc("d"))
    write(tree.project / ".claude" / "commands" / "ns" / " odd.md", _desc("space after the colon"))
    catalog = tree.load()
    assert list(catalog.skills) == ["amp&er", "ünïcode", "with space"]
    assert codes(catalog).count("name-refused") == 6
    assert refusal("x" * 256) is None and refusal("x" * 257) is not None
    assert refusal("e\u0301") is None and refusal("\u0301e") is not None


def test_a_linked_worktree_without_skills_reads_the_main_checkouts(tmp_path: Path) -> None:
    main = tmp_path / "main"
    write(main / ".claude" / "skills" / "shared" / "SKILL.md", _desc("from the main checkout"))
    write(main / ".claude" / "commands" / "cmd.md", _desc("main command"))
    write(main / "README.md", "x\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(main)]
    subprocess.run([*git[:5], "init", "-q", str(main)], check=True, timeout=30)
    subprocess.run([*git, "add", "README.md"], check=True, timeout=30)
    subprocess.run([*git, "commit", "-qm", "x"], check=True, timeout=30)
    subprocess.run([*git, "worktree", "add", "-q", str(tmp_path / "wt")], check=True, timeout=30)
    env = {"HOME": str(tmp_path)}
    linked = Locations(project=tmp_path / "wt", user_dir=tmp_path / "u", managed_dir=tmp_path / "m", bundled=False, environ=env)
    assert linked.main_worktree() == main
    assert list(Workspace(linked).load().skills) == ["shared", "cmd"]
    # Its own skills folder replaces the main checkout's.
    write(tmp_path / "wt" / ".claude" / "skills" / "own" / "SKILL.md", _desc("its own"))
    assert list(Workspace(linked).load().skills) == ["own", "cmd"]
    assert Locations(project=main, environ=env).main_worktree() is None


def test_policy_skills_can_be_switched_off(tree: Tree) -> None:
    tree.skill("policy", _desc("managed skill"), tier="managed")
    write(tree.managed / ".claude" / "commands" / "ship.md", _desc("managed command"))
    catalog = tree.load(environ={"CLAUDE_CODE_DISABLE_POLICY_SKILLS": "1"})
    assert list(catalog.skills) == ["ship"]
    assert codes(catalog, tree.skills("managed")) == ["not-loaded"]
