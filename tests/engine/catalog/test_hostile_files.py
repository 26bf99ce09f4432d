"""Issue 14, crashes and hangs: files that are not files, links that lead nowhere, JSON too deep.

Every load here runs in a daemon thread with a deadline, so a regression that blocks on a FIFO
fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from engine import Catalog, Locations, Workspace
from engine.catalog.diagnostics import Sink
from engine.catalog.jsonfile import read_json
from engine.catalog.model import MAX_FILE_BYTES
from engine.catalog.skilltree import skill_files
from tests.conftest import Tree, codes, make_chain, remove_chain, run_as_nobody, write

GOOD = "---\ndescription: The good one.\n---\nDo it.\n"
# The Agent Skills spec's notes (GOOD has no `name:`), beside the point here.
SPEC = {"spec-name"}


def load_within(tree: Tree, seconds: float = 20, **kw: Any) -> Catalog:
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["catalog"] = tree.load(**kw)
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"the load did not return within {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["catalog"]


def _special(kind: str, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_skill_md_that_is_a_fifo_or_dev_zero(tree: Tree, kind: str) -> None:
    # Before: a FIFO SKILL.md was mistaken for a folder without one (isfile is False); a link
    # to /dev/zero was read until the memory ran out.
    tree.skill("good", GOOD)
    bad = _special(kind, tree.skills() / "bad" / "SKILL.md")
    catalog = load_within(tree)
    assert set(catalog.skills) == {"good"}
    found = [d for d in catalog.diagnostics if d.path == bad]
    assert [d.code for d in found] == ["unreadable"]
    assert "not a regular file" in found[0].message


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_command_that_is_a_fifo_or_dev_zero(tree: Tree, kind: str) -> None:
    commands = tree.project / ".claude" / "commands"
    write(commands / "ok.md", GOOD)
    bad = _special(kind, commands / "bad.md")
    catalog = load_within(tree)
    assert set(catalog.skills) == {"ok"}
    assert codes(catalog, bad) == ["unreadable"]


def _plugin(root: Path) -> Path:
    write(root / ".claude-plugin" / "plugin.json", json.dumps({"name": "tools"}))
    write(root / "skills" / "lint" / "SKILL.md", GOOD)
    return root


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_plugin_manifest_that_is_a_fifo_or_dev_zero(tree: Tree, tmp_path: Path, kind: str) -> None:
    good = _plugin(tmp_path / "good")
    bad_root = tmp_path / "bad"
    manifest = _special(kind, bad_root / ".claude-plugin" / "plugin.json")
    write(bad_root / "skills" / "x" / "SKILL.md", GOOD)
    catalog = load_within(tree, plugin_dirs=(good, bad_root))
    assert set(catalog.skills) == {"tools:lint"}
    assert codes(catalog, manifest) == ["plugin-manifest"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_marketplace_that_is_a_fifo_or_dev_zero(tree: Tree, tmp_path: Path, kind: str) -> None:
    # Claude Code does not read a marketplace.json given as --plugin-dir (a folder of plugins):
    # the load must not open it, so it cannot block on it.
    _special(kind, tmp_path / "market" / ".claude-plugin" / "marketplace.json")
    catalog = load_within(tree, plugin_dirs=(tmp_path / "market",))
    assert codes(catalog) == ["plugin-folder"] and catalog.diagnostics[0].path == tmp_path / "market"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_settings_and_plugin_registry_that_are_fifos_or_dev_zero(tree: Tree, kind: str) -> None:
    tree.skill("good", GOOD)
    settings = _special(kind, tree.project / ".claude" / "settings.json")
    write(tree.user / "settings.json", json.dumps({"enabledPlugins": {"x@mk": True}}))
    registry = _special(kind, tree.user / "plugins" / "installed_plugins.json")
    catalog = load_within(tree)
    assert set(catalog.skills) == {"good"}
    assert codes(catalog, settings) == ["settings-invalid"]
    assert codes(catalog, registry) == ["plugin-manifest"]


def _deep_json(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    "text",
    [_deep_json(1_000), "[" * 100_000, '{"n": ' + "9" * 4_301 + "}", '{"n": NaN, "name": "x"}', '{"n": -Infinity}'],
    ids=["1000-deep", "100000-brackets", "huge-int", "nan", "infinity"],
)
def test_json_settings_and_manifests_too_deep_or_with_huge_numbers(tree: Tree, tmp_path: Path, text: str) -> None:
    # Before: RecursionError (or ValueError for the integer) out of json.loads, through every command.
    tree.skill("good", GOOD)
    settings = write(tree.project / ".claude" / "settings.json", text)
    bad = tmp_path / "bad"
    manifest = write(bad / ".claude-plugin" / "plugin.json", text)
    write(bad / "skills" / "x" / "SKILL.md", GOOD)
    catalog = load_within(tree, plugin_dirs=(_plugin(tmp_path / "good"), bad))
    assert set(catalog.skills) == {"good", "tools:lint"}
    assert codes(catalog, settings) == ["settings-invalid"]
    assert codes(catalog, manifest) == ["plugin-manifest"]


def test_read_json_counts_brackets_outside_strings_only(tmp_path: Path) -> None:
    path = write(tmp_path / "s.json", json.dumps({"note": "[" * 500, "deep": [[[1]]]}))
    sink = Sink()
    assert read_json(path, sink, "settings-invalid", "settings file") == {"note": "[" * 500, "deep": [[[1]]]}
    assert sink.items == []


def test_read_json_refuses_a_file_over_the_cap(tmp_path: Path) -> None:
    path = write(tmp_path / "s.json", '{"a": "' + "x" * (5 * 1024 * 1024) + '"}')
    sink = Sink()
    assert read_json(path, sink, "settings-invalid", "settings file") is None
    assert "larger than" in sink.items[0].message


def test_a_symlink_through_a_file_is_a_diagnostic(tree: Tree) -> None:
    # Before: ENOTDIR was re-raised by the scan and took every command down.
    tree.skill("good", GOOD)
    link = tree.skills() / "odd"
    link.symlink_to("/etc/hostname/x")
    cmd_link = tree.project / ".claude" / "commands" / "odd"
    cmd_link.parent.mkdir(parents=True)
    cmd_link.symlink_to("/etc/hostname/x")
    catalog = load_within(tree)
    assert set(catalog.skills) == {"good"}
    assert codes(catalog, link) == ["broken-symlink"] and codes(catalog, cmd_link) == ["broken-symlink"]
    assert "Not a directory" in next(d.message for d in catalog.diagnostics if d.path == link)


def test_a_manifest_path_that_loops_is_a_diagnostic(tree: Tree, tmp_path: Path) -> None:
    # Before: Path.resolve raised RuntimeError("Symlink loop") out of the load.
    root = _plugin(tmp_path / "p")
    (root / "loop").symlink_to(root / "loop")
    write(root / ".claude-plugin" / "plugin.json", json.dumps({"name": "tools", "skills": "./loop", "commands": "./loop"}))
    catalog = load_within(tree, plugin_dirs=(root,))
    assert set(catalog.skills) == {"tools:lint"}
    assert set(codes(catalog)) - SPEC == {"plugin-manifest"}


def test_a_registry_with_odd_shapes_is_ignored(tree: Tree) -> None:
    write(tree.user / "settings.json", json.dumps({"enabledPlugins": {"x@mk": True}}))
    write(tree.user / "plugins" / "installed_plugins.json", json.dumps({"plugins": ["x@mk"]}))
    catalog = load_within(tree)
    assert codes(catalog) == ["plugin-missing"]
    write(
        tree.user / "plugins" / "installed_plugins.json",
        json.dumps({"plugins": {"x@mk": [{"installPath": "/", "projectPath": 3}]}}),
    )
    load_within(tree)


def test_an_unreadable_folder_inside_a_skill_folder() -> None:
    # As another user than root (root reads everything): the scan looks for a nested SKILL.md
    # in a folder without one; before, pathlib's is_file raised PermissionError there.
    base = Path(tempfile.mkdtemp(prefix="skilldeck-perm-"))
    skills = base / "proj" / ".claude" / "skills"
    write(skills / "fine" / "SKILL.md", GOOD)
    locked = skills / "nosk" / "locked"
    write(locked / "inner" / "x.txt", "x")
    write(skills / "fine" / "refs" / "private" / "notes.md", "x")
    try:
        for p in (base, *base.rglob("*")):
            p.chmod(0o755 if p.is_dir() else 0o644)
        locked.chmod(0o000)
        (skills / "fine" / "refs" / "private").chmod(0o000)
        loc = Locations(project=base / "proj", user_dir=base / "u", managed_dir=base / "m", bundled=False, environ={})

        def load() -> dict[str, object]:
            catalog = Workspace(loc).load()
            return {"skills": list(catalog.skills), "codes": sorted({d.code for d in catalog.diagnostics} - SPEC)}

        result = run_as_nobody(load)
        assert result == {"skills": ["fine"], "codes": ["not-a-skill-dir", "unreadable"]}
    finally:
        for p in (locked, skills / "fine" / "refs" / "private"):
            p.chmod(0o755)
        shutil.rmtree(base)


def test_files_deleted_while_the_scan_runs(tree: Tree) -> None:
    for i in range(450):
        tree.skill(f"s{i:03d}", GOOD)
    doomed = [tree.skills() / f"s{i:03d}" for i in range(300, 450)]

    def progress(done: int, total: int) -> None:
        if done == 200:
            for folder in doomed:
                shutil.rmtree(folder)

    catalog = Workspace(tree.locations()).load(progress)
    assert len(catalog.skills) == 300
    gone = [d for d in catalog.diagnostics if d.code not in SPEC]
    assert {d.code for d in gone} == {"unreadable"} and len(gone) == 150
    assert "went away" in gone[0].message


def test_a_skill_file_swapped_for_a_fifo_after_the_load(tree: Tree) -> None:
    # show, prompt and the app read the body again later; before, that read waited on the FIFO.
    path = tree.skill("good", GOOD)
    skill = load_within(tree).skills["good"]
    path.unlink()
    os.mkfifo(path)
    box: dict[str, BaseException] = {}

    def read() -> None:
        try:
            skill.read_body()
        except OSError as exc:
            box["error"] = exc

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive() and "not a regular file" in str(box["error"])


def test_the_files_of_a_skill_with_a_chain_1000_folders_deep(tree: Tree) -> None:
    # The app lists a skill's files; os.walk raised RecursionError on such a chain.
    skill_dir = tree.skill("deep", GOOD).parent
    write(skill_dir / "refs" / "a.md", "x")
    write(skill_dir / ".git" / "HEAD", "x")
    chain = skill_dir / "chain"
    (make_chain(chain, 999) / "leaf.txt").touch()
    try:
        files, cut = skill_files(skill_dir)
        assert files == ["refs/a.md"] and cut
        many = [f"f{i:04d}" for i in range(600)]
        for name in many:
            (skill_dir / "refs" / name).touch()
        files, cut = skill_files(skill_dir)
        assert len(files) == 500 and cut
    finally:
        remove_chain(chain, 999)


def test_a_skill_file_over_the_cap_is_not_read(tree: Tree) -> None:
    tree.skill("good", GOOD)
    big = tree.skill("big", GOOD + "x" * MAX_FILE_BYTES)
    catalog = load_within(tree)
    assert set(catalog.skills) == {"good"}
    assert "larger than" in next(d.message for d in catalog.diagnostics if d.path == big)


def test_an_unreadable_claude_folder_in_the_project() -> None:
    # As another user than root: pathlib's exists() raised PermissionError out of the load.
    base = Path(tempfile.mkdtemp(prefix="skilldeck-perm-"))
    write(base / "user" / "skills" / "mine" / "SKILL.md", GOOD)
    write(base / "proj" / ".claude" / "skills" / "theirs" / "SKILL.md", GOOD)
    (base / "proj" / ".git").mkdir()
    try:
        for p in (base, *base.rglob("*")):
            p.chmod(0o755 if p.is_dir() else 0o644)
        (base / "proj" / ".claude").chmod(0o000)
        loc = Locations(project=base / "proj", user_dir=base / "user", managed_dir=base / "m", bundled=False, environ={})

        def load() -> dict[str, object]:
            catalog = Workspace(loc).load()
            return {"skills": list(catalog.skills), "codes": sorted({d.code for d in catalog.diagnostics} - SPEC)}

        assert run_as_nobody(load) == {"skills": ["mine"], "codes": ["settings-invalid", "unreadable"]}
    finally:
        (base / "proj" / ".claude").chmod(0o755)
        shutil.rmtree(base)
