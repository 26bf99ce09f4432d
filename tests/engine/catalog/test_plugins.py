"""Plugins from --plugin-dir, marketplaces and Claude Code's installed + enabled records."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from engine import LoadedFrom, SourceKind
from tests.conftest import Tree, codes, only, skill_text, write


def _manifest(root: Path, data: object) -> None:
    write(root / ".claude-plugin" / "plugin.json", json.dumps(data, indent=2))


def _plugin(root: Path, name: str = "tools", **manifest: object) -> Path:
    _manifest(root, {"name": name, **manifest})
    write(root / "skills" / "lint" / "SKILL.md", skill_text(name="lint", description="Lint."))
    write(root / "commands" / "ship.md", "---\ndescription: Ship it.\n---\nShip.\n")
    return root


def test_plugin_dir_namespaces_skills_and_commands(tree: Tree, tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    catalog = tree.load(plugin_dirs=(root,))
    assert set(catalog.skills) == {"tools:lint", "tools:ship"}
    lint = catalog.skills["tools:lint"]
    assert lint.source.kind is SourceKind.PLUGIN and lint.source.plugin == "tools"
    assert lint.loaded_from is LoadedFrom.PLUGIN


def test_plugin_skill_is_named_by_its_folder_and_name_is_a_label(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_basic (`- tools:lint (tools:renamed): ...`).
    root = _plugin(tmp_path / "p")
    write(root / "skills" / "folder" / "SKILL.md", skill_text(name="renamed", description="d"))
    catalog = tree.load(plugin_dirs=(root,))
    assert "tools:folder" in catalog.skills and "tools:renamed" not in catalog.skills
    assert catalog.skills["tools:folder"].display_name == "tools:renamed"
    assert "the folder wins" in only(catalog, "name-mismatch").message


def test_plugin_skill_folder_characters_and_order(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_basic, plugin_order: `.hid` is `-hid`; commands of every plugin, then
    # skills of every plugin, each sorted as localeCompare sorts.
    first = _plugin(tmp_path / "b", name="bp")
    second = _plugin(tmp_path / "a", name="ap")
    for root in (first, second):
        write(root / "skills" / ".hid" / "SKILL.md", skill_text(description="hidden"))
        write(root / "skills" / "Alpha" / "SKILL.md", skill_text(description="upper"))
        write(root / "skills" / "ship" / "SKILL.md", skill_text(description="a skill named like a command"))
    catalog = tree.load(plugin_dirs=(first, second))
    assert list(catalog.skills) == [
        "bp:ship", "ap:ship", "bp:-hid", "bp:Alpha", "bp:lint", "ap:-hid", "ap:Alpha", "ap:lint",
    ]  # fmt: skip
    assert catalog.skills["bp:ship"].path.name == "ship.md"
    assert {d.code for d in catalog.diagnostics if d.path.name == ".hid"} == {"renamed"}


def test_manifest_skills_paths_add_and_commands_replace(tree: Tree, tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p", skills=["./extra", "./skills/lint"], commands="./cmds/only.md")
    write(root / "extra" / "more" / "SKILL.md", skill_text(description="More."))
    write(root / "cmds" / "only.md", "Only command.\n")
    catalog = tree.load(plugin_dirs=(root,))
    assert set(catalog.skills) == {"tools:lint", "tools:more", "tools:only"}
    assert "duplicate-file" not in codes(catalog)


def test_manifest_commands_map_and_list(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_manifest_commands. A map names each command by its key and may set its
    # description; a list keeps its order, a folder in it is sorted; commands/ is then not read.
    root = _plugin(
        tmp_path / "pc", commands={"hello": {"source": "./cmds/x.md"}, "bye": {"source": "./cmds/y.md", "description": "set"}}
    )
    write(root / "cmds" / "x.md", skill_text(description="x file"))
    write(root / "cmds" / "y.md", skill_text(description="y file"))
    listed = _plugin(tmp_path / "pl", name="pl", commands=["./other/z.md", "./more"])
    write(listed / "other" / "z.md", skill_text(description="z"))
    for stem in ("m2", "m1"):
        write(listed / "more" / f"{stem}.md", skill_text(description=stem))
    catalog = tree.load(plugin_dirs=(root, listed))
    commands = [s.name for s in catalog.skills.values() if s.path.name != "SKILL.md"]
    assert commands == ["tools:hello", "tools:bye", "pl:z", "pl:m1", "pl:m2"]
    assert (catalog.skills["tools:hello"].description, catalog.skills["tools:bye"].description) == ("x file", "set")
    assert {d.path for d in catalog.diagnostics if d.code == "not-loaded"} == {root / "commands", listed / "commands"}


def test_root_skill_md_plugin(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_root_skill, plugin_order (a top SKILL.md beside skills/ does not load).
    root = tmp_path / "single"
    _manifest(root, {"name": "single"})
    write(root / "SKILL.md", skill_text(description="A one-skill plugin."))
    dotted = tmp_path / "dotted"
    _manifest(dotted, {"name": "dotted", "skills": "."})
    write(dotted / "SKILL.md", skill_text(name="'dotted:Custom Name!'", description="d"))
    both = _plugin(tmp_path / "both", name="both")
    write(both / "SKILL.md", skill_text(description="not loaded"))
    catalog = tree.load(plugin_dirs=(root, dotted, both))
    assert list(catalog.skills) == ["both:ship", "single:single", "dotted:Custom-Name-", "both:lint"]
    assert "does not load" in only(catalog, "not-loaded").message


def test_plugin_without_manifest_is_named_by_its_folder(tree: Tree, tmp_path: Path) -> None:
    root = tmp_path / "bare"
    write(root / "skills" / "s" / "SKILL.md", skill_text(description="s"))
    assert list(tree.load(plugin_dirs=(root,)).skills) == ["bare:s"]


@pytest.mark.parametrize(
    ("content", "fragment", "line"),
    [
        ('{"name": "x",\n  "version": }\n', "not valid JSON", 2),
        ('["a"]', "must be a JSON object", None),
        ('{"version": "1"}', "has no `name`", None),
    ],
)
def test_bad_manifest_skips_the_plugin(tree: Tree, tmp_path: Path, content: str, fragment: str, line: int | None) -> None:
    root = tmp_path / "bad"
    write(root / ".claude-plugin" / "plugin.json", content)
    write(root / "skills" / "s" / "SKILL.md", skill_text(description="s"))
    tree.skill("fine", skill_text(description="fine"))
    catalog = tree.load(plugin_dirs=(root,))
    diag = only(catalog, "plugin-manifest")
    assert fragment in diag.message and diag.line == line and diag.severity.value == "error"
    assert list(catalog.skills) == ["fine"]


def test_manifest_path_that_does_not_exist(tree: Tree, tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p", skills="./nope")
    catalog = tree.load(plugin_dirs=(root,))
    assert "does not exist" in only(catalog, "plugin-manifest").message
    assert "tools:lint" in catalog.skills


def test_plugin_dir_of_plugins(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_folder_of_plugins. Nothing at its top marks it as a plugin: each
    # subfolder with a manifest is one, in name order; a marketplace.json there is not read.
    market = tmp_path / "market"
    _plugin(market / "zed", name="zed")
    _plugin(market / "alpha", name="alpha")
    write(market / "nomani" / "skills" / "s" / "SKILL.md", skill_text(description="d"))
    write(market / ".claude-plugin" / "marketplace.json", json.dumps({"name": "mk", "plugins": []}))
    catalog = tree.load(plugin_dirs=(market,))
    assert list(catalog.skills) == ["alpha:ship", "zed:ship", "alpha:lint", "zed:lint"]
    assert "loads alpha, zed" in only(catalog, "plugin-folder").message
    assert only(catalog, "plugin-manifest").path == market / "nomani"


def test_one_plugin_marked_by_a_skills_folder(tree: Tree, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    write(bare / "skills" / "b" / "SKILL.md", skill_text(description="d"))
    catalog = tree.load(plugin_dirs=(bare,))
    assert list(catalog.skills) == ["bare:b"]
    assert "by its folder, `bare`" in only(catalog, "plugin-manifest").message


@pytest.mark.parametrize(
    ("fields", "fatal"),
    [
        ({"version": 3}, "`version` must be a string"),
        ({"name": "bad name"}, "contains spaces"),
        ({"skills": 5}, "`skills`"),
        ({"skills": "skills/x"}, "`skills`"),
        ({"hooks": 5}, "`hooks`"),
        ({"mcpServers": 5}, "`mcpServers`"),
        ({"commands": {"x": {"source": "./a.md", "content": "b"}}}, "`commands`"),
    ],
)
def test_invalid_manifest_field_rejects_the_plugin(tree: Tree, tmp_path: Path, fields: dict, fatal: str) -> None:
    # Recorded: plugin_manifest_fields.
    root = _plugin(tmp_path / "p", **fields)
    catalog = tree.load(plugin_dirs=(root,))
    assert list(catalog.skills) == []
    diag = only(catalog, "plugin-manifest")
    assert fatal in diag.message and "rejects this plugin" in diag.message


@pytest.mark.parametrize("fields", [{"author": "me"}, {"keywords": "x"}, {"description": 5}, {"homepage": "nope"}])
def test_invalid_display_field_is_dropped(tree: Tree, tmp_path: Path, fields: dict) -> None:
    root = _plugin(tmp_path / "p", **fields)
    catalog = tree.load(plugin_dirs=(root,))
    assert set(catalog.skills) == {"tools:lint", "tools:ship"}
    assert "the plugin still loads" in only(catalog, "plugin-manifest").message


def test_unknown_field_and_odd_name_still_load(tree: Tree, tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p", name="Upper_x", foo=1, version="x.y")
    catalog = tree.load(plugin_dirs=(root,))
    assert set(catalog.skills) == {"Upper_x:lint", "Upper_x:ship"}
    assert sorted(d.severity.value for d in catalog.diagnostics) == ["info", "info"]


def _install(tree: Tree, key: str, path: Path, scope: str = "user") -> None:
    registry = tree.user / "plugins" / "installed_plugins.json"
    data = json.loads(registry.read_text()) if registry.exists() else {"version": 2, "plugins": {}}
    data["plugins"][key] = [{"scope": scope, "installPath": str(path), "version": "1.0.0"}]
    write(registry, json.dumps(data))


def test_installed_and_enabled_plugins_load(tree: Tree, tmp_path: Path) -> None:
    cache = tree.user / "plugins" / "cache" / "mk"
    _plugin(cache / "tools" / "1.0.0", name="tools")
    _plugin(cache / "off" / "1.0.0", name="off")
    _install(tree, "tools@mk", cache / "tools" / "1.0.0")
    _install(tree, "off@mk", cache / "off" / "1.0.0")
    write(tree.user / "settings.json", json.dumps({"enabledPlugins": {"tools@mk": True, "off@mk": True}}))
    write(tree.project / ".claude" / "settings.json", json.dumps({"enabledPlugins": {"off@mk": False}}))
    catalog = tree.load()
    assert set(catalog.skills) == {"tools:lint", "tools:ship"}
    # Switched off by the more specific project file: Claude Code hides it without a word, so
    # skilldeck says which file did it (recorded: plugin_off_by_project).
    assert codes(catalog) == ["plugin-off"]
    (off,) = catalog.diagnostics
    assert off.path == cache / "off" / "1.0.0"
    assert str(tree.project / ".claude" / "settings.json") in off.message


def test_enabled_but_not_installed_or_missing_on_disk(tree: Tree) -> None:
    _install(tree, "ghost@mk", tree.user / "plugins" / "cache" / "mk" / "ghost" / "1.0.0")
    settings = write(tree.user / "settings.json", json.dumps({"enabledPlugins": {"ghost@mk": True, "never@mk": True}}))
    catalog = tree.load()
    missing = {d.message.split("`")[1]: d for d in catalog.diagnostics if d.code == "plugin-missing"}
    assert set(missing) == {"ghost@mk", "never@mk"}
    assert missing["never@mk"].path == settings
    assert "folder is gone" in missing["ghost@mk"].message


def test_broken_settings_file_is_reported_and_skipped(tree: Tree) -> None:
    write(tree.user / "settings.json", '{"enabledPlugins": {,}}')
    catalog = tree.load()
    diag = only(catalog, "settings-invalid")
    assert (diag.line, diag.severity.value) == (1, "error")


# A real marketplace (github.com/wshobson/agents), kept compressed beside the oracle cases.
CORPUS_ARCHIVE = Path(__file__).parents[2] / "oracle" / "corpus" / "wshobson-agents.tar.gz"


def test_real_marketplace_corpus(tree: Tree, tmp_path: Path) -> None:
    with tarfile.open(CORPUS_ARCHIVE) as tar:
        tar.extractall(tmp_path / "corpus", filter="data")
    catalog = tree.load(plugin_dirs=(tmp_path / "corpus" / "plugins",))
    skills = [s for s in catalog.skills.values() if s.path.name == "SKILL.md"]
    commands = [s for s in catalog.skills.values() if s.path.name != "SKILL.md"]
    # pptx-deck-creation names a folder in `agents` (Claude Code wants .md files) and is rejected.
    assert (len(skills), len(commands)) == (176, 105)
    assert catalog.shadowed == ()
    assert all(":" in s.name and s.source.kind is SourceKind.PLUGIN for s in catalog.skills.values())
    assert len([s for s in catalog.sources if s.kind is SourceKind.PLUGIN]) == 90
    errors = [d for d in catalog.diagnostics if d.severity.value == "error"]
    assert [d.path.parent.parent.name for d in errors] == ["pptx-deck-creation"]


def test_a_plugin_inside_a_skills_folder(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_in_skills_dir, plugin_in_skills_dir2. A folder of the user's or the start
    # folder's skills folder with .claude-plugin/ in it is also a plugin, after the --plugin-dir
    # ones; not in an --add-dir's skills folder; the user's wins a plugin name.
    _plugin(tree.skills("user") / "kit", name="kit")
    write(tree.skills("user") / "kit" / "SKILL.md", skill_text(description="kit top"))
    _plugin(tree.skills() / "pk", name="kit")
    _plugin(tree.skills() / "own", name="own")
    extra = tmp_path / "extra"
    _plugin(extra / ".claude" / "skills" / "ak", name="ak")
    dp = _plugin(tmp_path / "dp", name="dp")
    catalog = tree.load(plugin_dirs=(dp,), add_dirs=(extra,))
    assert list(catalog.skills) == ["kit", "dp:ship", "kit:ship", "own:ship", "dp:lint", "kit:lint", "own:lint"]
    clash = only(catalog, "plugin-manifest")
    assert clash.path == tree.skills() / "pk" / ".claude-plugin" / "plugin.json" and "Claude Code loads that one" in clash.message
    # A plugin folder without SKILL.md is not reported as a skill folder gone wrong.
    assert not [d for d in catalog.diagnostics if d.code in ("too-deep", "not-a-skill-dir")]


def test_a_plugin_from_a_local_marketplace_is_read_where_the_marketplace_lists_it(tree: Tree, tmp_path: Path) -> None:
    # Recorded: plugin_installed_local.
    cache = tree.user / "plugins" / "cache" / "mk" / "tools" / "1.0.0"
    _plugin(cache, name="tools")
    market = tmp_path / "mk"
    live = _plugin(market / "plugins" / "tools", name="tools")
    write(live / "skills" / "live" / "SKILL.md", skill_text(description="d"))
    write(
        market / ".claude-plugin" / "marketplace.json",
        json.dumps({"name": "mk", "plugins": [{"name": "tools", "source": "./plugins/tools"}]}),
    )
    known = {"mk": {"source": {"source": "directory", "path": str(market)}, "installLocation": str(market)}}
    write(tree.user / "plugins" / "known_marketplaces.json", json.dumps(known))
    _install(tree, "tools@mk", cache)
    write(tree.user / "settings.json", json.dumps({"enabledPlugins": {"tools@mk": True}}))
    catalog = tree.load()
    assert catalog.skills["tools:live"].path.is_relative_to(live)
    assert {d.path for d in catalog.diagnostics if d.code == "plugin-folder"} == {cache, live}
