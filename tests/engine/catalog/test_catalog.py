"""Tiers, precedence, shadowing, filters and lookup."""

from __future__ import annotations

from pathlib import Path

from engine import Locations, SourceKind, Workspace
from tests.conftest import Tree, codes, skill_text, write


def _desc(text: str) -> str:
    return skill_text(description=text)


def test_precedence_managed_user_project_add_dir(tree: Tree, tmp_path: Path) -> None:
    extra = tmp_path / "extra"
    write(extra / ".claude" / "skills" / "x" / "SKILL.md", _desc("add-dir"))
    tree.skill("x", _desc("project"))
    tree.skill("x", _desc("user"), tier="user")
    tree.skill("x", _desc("managed"), tier="managed")
    catalog = tree.load(add_dirs=(extra,))
    assert catalog.skills["x"].description == "managed"
    losers = [(s.skill.description, s.shadowed_by.description) for s in catalog.shadowed]
    assert losers == [("user", "managed"), ("project", "managed")]
    assert codes(catalog).count("shadowed") == 2
    # Claude Code keeps an --add-dir skill whose name is taken, scoped to its folder, last.
    assert list(catalog.skills) == ["x", "extra:x"]
    scoped = catalog.skills["extra:x"]
    assert (scoped.description, scoped.scope, scoped.source.kind) == ("add-dir", "extra", SourceKind.ADD_DIR)
    assert "/extra:x" in next(d for d in catalog.diagnostics if d.code == "scoped").message


def test_project_tiers_run_from_start_folder_up_to_git_root(tree: Tree) -> None:
    sub = tree.repo / "packages" / "api"
    write(sub / ".claude" / "skills" / "x" / "SKILL.md", _desc("nearest"))
    write(tree.repo / ".claude" / "skills" / "x" / "SKILL.md", _desc("root"))
    write(tree.repo / ".claude" / "skills" / "y" / "SKILL.md", _desc("root only"))
    write(tree.root / ".claude" / "skills" / "z" / "SKILL.md", _desc("above the repo"))
    catalog = tree.load(project=sub)
    assert catalog.skills["x"].description == "nearest"
    assert catalog.skills["y"].source.kind is SourceKind.PROJECT
    assert "z" not in catalog.skills
    assert catalog.shadowed[0].skill.description == "root"


def test_outside_a_repository_the_walk_stops_below_home(tmp_path: Path) -> None:
    # Recorded: load_nogit_home (up to $HOME, not including it), load_nogit_root (no $HOME above:
    # up to the filesystem root).
    home = tmp_path / "home"
    start = home / "a" / "b"
    write(start / ".claude" / "skills" / "here" / "SKILL.md", _desc("here"))
    write(home / "a" / ".claude" / "skills" / "parent" / "SKILL.md", _desc("parent"))
    write(home / ".claude" / "skills" / "home" / "SKILL.md", _desc("the home folder's, read only as the user tier"))
    loc = Locations(
        project=start, user_dir=tmp_path / "u", managed_dir=tmp_path / "m", bundled=False, environ={"HOME": str(home)}
    )
    assert loc.git_root() is None
    assert loc.project_dirs() == [start, home / "a"]
    assert list(Workspace(loc).load().skills) == ["here", "parent"]
    elsewhere = Locations(project=start, environ={"HOME": str(tmp_path / "other")})
    assert elsewhere.project_dirs() == [start, *start.parents]


def test_inside_a_repository_the_walk_stops_at_its_root_and_at_home(tree: Tree) -> None:
    start = tree.repo / "a"
    assert tree.locations(project=start).project_dirs() == [start, tree.repo]
    # A repository that holds $HOME: the walk still stops below it.
    home_inside = tree.locations(project=start, environ={"HOME": str(start)})
    assert home_inside.project_dirs() == []


def test_skill_beats_legacy_command_and_local_beats_bundled(tree: Tree) -> None:
    write(tree.user / "commands" / "review.md", "---\ndescription: command\n---\nbody\n")
    tree.skill("review", _desc("skill"))
    tree.skill("skill-author", _desc("mine"))
    catalog = tree.load(bundled=True)
    assert catalog.skills["review"].source.kind is SourceKind.PROJECT
    shadowed = {(s.skill.name, s.skill.source.kind) for s in catalog.shadowed}
    assert shadowed == {("review", SourceKind.COMMANDS), ("skill-author", SourceKind.BUNDLED)}
    bundled_note = next(d for d in catalog.diagnostics if d.code == "shadowed" and "bundled" in str(d.path))
    assert bundled_note.severity.value == "info"


def test_legacy_commands_namespaces(tree: Tree) -> None:
    cmds = tree.project / ".claude" / "commands"
    write(cmds / "top.md", "Top command.\n")
    write(cmds / "frontend" / "component.md", "---\ndescription: make a component\n---\n")
    write(cmds / "a" / "b" / "deep.md", "deep\n")
    write(cmds / "skillish" / "SKILL.md", _desc("skill format in commands"))
    write(cmds / "skillish" / "ignored.md", "not loaded\n")
    write(cmds / "notes.txt", "ignored\n")
    catalog = tree.load()
    assert set(catalog.skills) == {"top", "frontend:component", "a:b:deep", "skillish"}
    top = catalog.skills["top"]
    assert top.loaded_from.value == "commands_DEPRECATED"
    assert top.description == "Top command." and top.description_source == "body"
    assert catalog.skills["frontend:component"].base_dir == cmds / "frontend"


def test_filters_and_lookup(tree: Tree) -> None:
    tree.skill("both", _desc("both"))
    tree.skill("user-only", skill_text(description="u", disable__model__invocation="true"))
    tree.skill("model-only", skill_text(description="m", user__invocable="false"))
    catalog = tree.load()
    assert [s.name for s in catalog.model_invocable()] == ["both", "model-only"]
    assert [s.name for s in catalog.user_invocable()] == ["both", "user-only"]
    assert catalog.get("/both") is catalog.skills["both"]
    assert catalog.get("BOTH") is catalog.skills["both"]
    assert catalog.get("missing") is None


def test_sources_are_listed_in_precedence_order(tree: Tree, tmp_path: Path) -> None:
    plugin = tmp_path / "plug"
    write(plugin / "skills" / "p" / "SKILL.md", _desc("p"))
    catalog = tree.load(add_dirs=(tmp_path / "extra",), plugin_dirs=(plugin,), bundled=True)
    kinds = [s.kind.value for s in catalog.sources]
    # Commands of managed, user, project and --add-dir, then plugins (recorded: plugin_basic).
    assert kinds == ["managed", "user", "project", "add-dir", *["commands"] * 4, "plugin", "bundled"]
    assert [s.order for s in catalog.sources] == list(range(len(kinds)))


def test_bundled_skills_load_cleanly(tree: Tree) -> None:
    catalog = tree.load(bundled=True)
    bundled = [s for s in catalog.skills.values() if s.source.kind is SourceKind.BUNDLED]
    assert {s.name for s in bundled} == {"skill-author", "skill-doctor", "command-to-skill"}
    assert all(s.has_user_description for s in bundled)
    serious = [d for d in catalog.diagnostics if d.severity.value != "info"]
    assert serious == []


def test_body_is_read_on_demand(tree: Tree) -> None:
    path = tree.skill("b", skill_text(body="Line one.\n", description="d"))
    catalog = tree.load()
    assert catalog.skills["b"].read_body() == "Line one.\n"
    path.write_text(path.read_text().replace("Line one.", "Changed."))
    assert catalog.skills["b"].read_body() == "Changed.\n"


def test_locations_from_environment(tmp_path: Path) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg"), "SKILLDECK_MANAGED_DIR": str(tmp_path / "policy")}
    loc = Locations(project=tmp_path, environ=env)
    assert (loc.user, loc.managed) == (tmp_path / "cfg", tmp_path / "policy")
    assert loc.user_skills() == tmp_path / "cfg" / "skills"
    assert loc.managed_skills() == tmp_path / "policy" / ".claude" / "skills"
    plain = Locations(project=tmp_path, environ={})
    assert (plain.user, plain.managed) == (Path.home() / ".claude", Path("/etc/claude-code"))
    flags = Locations(project=tmp_path, user_dir=tmp_path / "flag", environ=env)
    assert flags.user == tmp_path / "flag"


def test_claude_config_dir_selects_the_user_tier(tree: Tree, tmp_path: Path) -> None:
    cfg = tmp_path / "cfg"
    write(cfg / "skills" / "mine" / "SKILL.md", _desc("from CLAUDE_CONFIG_DIR"))
    catalog = tree.load(user_dir=None, environ={"CLAUDE_CONFIG_DIR": str(cfg)})
    assert catalog.skills["mine"].source.kind is SourceKind.USER


def test_a_name_label_finds_its_skill_as_claude_code_does(tree: Tree) -> None:
    # Recorded: typed_label_alias (/beta runs the folder beta-dir that says name: beta).
    tree.skill("beta-dir", skill_text(name="beta", description="Beta."))
    tree.skill("beta-two", skill_text(name="beta", description="Second."))
    catalog = tree.load()
    assert catalog.get("/beta") is catalog.skills["beta-dir"], "the first skill with that label"
    assert catalog.labelled("beta-dir") is None, "a real name is not a label"


def test_a_name_over_256_utf16_units_is_ignored_as_claude_code_ignores_it(tree: Tree) -> None:
    # Recorded: attack_label_astral (129 astral letters are 258 UTF-16 units).
    tree.skill("astral", skill_text(name="𝔸" * 129, description="A."))
    catalog = tree.load()
    assert "limit-exceeded" in codes(catalog)
    assert catalog.labelled("𝔸" * 129) is None
