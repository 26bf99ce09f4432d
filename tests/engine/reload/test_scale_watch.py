"""The watcher on a marketplace: one watch for it, no reads of its own reported back, one plugin
recomputed per change, and lost events read again. Real files, real inotify; nothing sleeps."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.catalog.assembly as catalog_module
import engine.catalog.sources.plugins as plugins_module
from engine import WatchHandle, Workspace
from tests.conftest import Tree, skill_text, write
from tests.engine.reload.test_watch import Recorder

PLUGINS = 12


def _market(folder: Path) -> Path:
    for p in range(PLUGINS):
        plugin = folder / f"plugin-{p:02d}"
        write(plugin / ".claude-plugin" / "plugin.json", json.dumps({"name": f"plugin-{p:02d}"}))
        for s in range(3):
            write(plugin / "skills" / f"s{s}" / "SKILL.md", skill_text(description=f"p{p} s{s}"))
    return folder


@pytest.fixture
def market(tree: Tree, tmp_path: Path) -> Iterator[tuple[Path, Recorder, WatchHandle]]:
    folder = _market(tmp_path / "market")
    recorder = Recorder()
    handle = Workspace(tree.locations(plugin_dirs=(folder,))).watch(recorder)
    yield folder, recorder, handle
    handle.stop()


def _desc(handle_catalog: object, name: str) -> str | None:
    skill = handle_catalog.skills.get(name)  # type: ignore[attr-defined]
    return None if skill is None else str(skill.description)


def test_a_marketplace_and_its_plugins_are_one_watch(market) -> None:  # type: ignore[no-untyped-def]
    folder, _, handle = market
    assert handle.catalog is not None and len(handle.catalog.skills) == PLUGINS * 3
    recursive = [path for (path, deep) in handle._watches if deep]
    assert str(folder) in recursive
    assert not [p for p in recursive if p.startswith(str(folder) + "/")], recursive


def test_an_edit_in_one_plugin_recomputes_that_plugin_only(market, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder, rec, _ = market
    computed: list[str] = []
    reads: list[Path] = []
    real_entries, real_load = plugins_module.plugin_entries, catalog_module.load_entry

    def entries(ref, *args, **kwargs):  # type: ignore[no-untyped-def]
        computed.append(ref.root.name)
        return real_entries(ref, *args, **kwargs)

    def load(entry, *args):  # type: ignore[no-untyped-def]
        reads.append(entry.path)
        return real_load(entry, *args)

    manifests: list[str] = []
    real_manifest = plugins_module.load_manifest

    def manifest(ref, *args):  # type: ignore[no-untyped-def]
        manifests.append(ref.root.name)
        return real_manifest(ref, *args)

    monkeypatch.setattr(plugins_module, "plugin_entries", entries)
    monkeypatch.setattr(catalog_module, "load_entry", load)
    monkeypatch.setattr(plugins_module, "load_manifest", manifest)
    path = folder / "plugin-07" / "skills" / "s1" / "SKILL.md"
    path.write_text(skill_text(description="edited"))
    rec.wait(lambda c: _desc(c, "plugin-07:s1") == "edited")
    assert computed == ["plugin-07"]
    assert reads == [path]
    # No manifest is read again: none of them changed.
    assert manifests == []


def test_a_renamed_plugin_in_its_manifest_is_seen(market) -> None:  # type: ignore[no-untyped-def]
    """The manifests are kept between reloads: a write to one must still be read."""
    folder, rec, _ = market
    write(folder / "plugin-05" / ".claude-plugin" / "plugin.json", json.dumps({"name": "renamed"}))
    catalog = rec.wait(lambda c: "renamed:s0" in c.skills)
    assert "plugin-05:s0" not in catalog.skills


def test_a_new_plugin_reads_its_own_files_only(market, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder, rec, _ = market
    reads: list[Path] = []
    real_load = catalog_module.load_entry

    def load(entry, *args):  # type: ignore[no-untyped-def]
        reads.append(entry.path)
        return real_load(entry, *args)

    monkeypatch.setattr(catalog_module, "load_entry", load)
    staged = _market(folder.parent / "staging") / "plugin-03"
    shutil.move(str(staged), str(folder / "zz-new"))
    # Named after its manifest (plugin-03 again): the first of two plugins with one name wins,
    # so the new one's skills are shadowed, yet read; what matters is that only they are read.
    rec.wait(lambda c: any(s.skill.path.is_relative_to(folder / "zz-new") for s in c.shadowed))
    assert reads and all(p.is_relative_to(folder / "zz-new") for p in reads), reads


def test_lost_events_read_everything_again(market) -> None:  # type: ignore[no-untyped-def]
    folder, rec, handle = market
    handle.loader.cache.files.clear()
    before = handle.catalog
    # What watchdog logs when the kernel's queue overflowed: the events are gone.
    logging.getLogger("watchdog.observers.inotify_c").warning("Inotify queue overflowed; filesystem events were lost")
    (folder / "plugin-00" / "skills" / "s0" / "SKILL.md").write_text(skill_text(description="after the overflow"))
    rec.wait(lambda c: _desc(c, "plugin-00:s0") == "after the overflow")
    assert len(handle.loader.cache.files) == PLUGINS * 3
    assert before is not handle.catalog


def test_a_saved_file_patches_the_catalog_exactly_as_a_full_build_would(tree: Tree, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import engine.reload.rebuild as watch_module
    from engine.reload.rebuild import IncrementalLoader

    tree.skill("alpha", skill_text(description="user alpha"), tier="user")
    tree.skill("alpha", skill_text(description="project alpha"))
    beta = tree.skill("beta", skill_text(description="beta", tags="x"))
    gamma = tree.skill("gamma", skill_text(description="gamma"))
    user_alpha = tree.skills("user") / "alpha" / "SKILL.md"
    loader = IncrementalLoader(tree.locations())
    loader.load()
    builds: list[int] = []
    real_build = watch_module.build

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        if loader.trace in args:  # the cold loads below build too
            builds.append(1)
        return real_build(*args, **kwargs)

    monkeypatch.setattr(watch_module, "build", counting)
    edits = [
        (user_alpha, skill_text(description="user alpha, edited")),  # the winner of a shadowed name
        (beta, skill_text(description="beta")),  # a diagnostic fewer
        (beta, skill_text(description="beta", tags="x", author="y")),  # two more
        (gamma, skill_text(description="gamma, edited")),
    ]
    for path, text in edits:
        path.write_text(text)
        loader.invalidate([str(path)])
        got = loader.load()
        cold = IncrementalLoader(tree.locations()).load()
        assert list(got.skills.items()) == list(cold.skills.items())
        assert got.diagnostics == cold.diagnostics
        assert got.shadowed == cold.shadowed
    assert builds == [], "an edit in place is patched, not rebuilt"
    # A change of what wins (gamma becomes a `paths:` skill, held back): a full build.
    gamma.write_text(skill_text(description="gamma", paths="src/**"))
    loader.invalidate([str(gamma)])
    got = loader.load()
    cold = IncrementalLoader(tree.locations()).load()
    assert builds == [1]
    assert list(got.skills.items()) == list(cold.skills.items()) and got.deferred == cold.deferred
