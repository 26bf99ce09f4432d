"""A catalog at real scale loads whole, and the bounds that remain end hostile folders, not catalogs.

Claude Code 2.1.328 loads every skill folder however many there are (recorded: load_many,
load_many_mixed, plugin_many). The 15,000-skill catalogs here are made of the vendored
collection's real skills copied under new folder names (tests/bench/scale_catalogs.py); no
timing is asserted (`make bench` measures).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Locations, Workspace
from engine.catalog.diagnostics import Sink
from engine.catalog.scan import scan_skills_root
from engine.catalog.sources import tiers
from tests.bench.scale_catalogs import build_market, build_project, corpus_skills
from tests.conftest import Tree, codes, write

SCALE = 15_000
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Path]:
    """A folder for a big catalog: in memory (/dev/shm) where there is one, since creating and
    removing 15,000 folders on this machine's disk takes 8 s each way (1.3 s and 0.5 s there)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="skilldeck-scale-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def corpus() -> list:  # type: ignore[type-arg]
    return corpus_skills(prefer_shared=False)


def _empty_locations(base: Path, **kw: object) -> Locations:
    return Locations(user_dir=base / "user", managed_dir=base / "managed", bundled=False, environ={}, **kw)  # type: ignore[arg-type]


def test_a_15000_skill_project_lists_every_skill(place: Path, corpus: list) -> None:  # type: ignore[type-arg]
    project = build_project(place, SCALE, corpus)
    expected = sorted(p.name for p in (project / ".claude" / "skills").iterdir())
    assert len(expected) == SCALE
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli.main", "list", "--json", "--project", str(project), "--user-dir", str(place / "u"),
         "--managed-dir", str(place / "m"), "--no-bundled"],
        capture_output=True, cwd=REPO, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    listed = json.loads(done.stdout)
    names = [s["name"] for s in listed["skills"]]
    assert sorted(names) == expected
    # Every copy keeps its real description (none fell back to a heading or was dropped).
    assert all(s["description_source"] == "frontmatter" for s in listed["skills"])
    assert "scan-limit" not in {d["code"] for d in listed["diagnostics"]}


def test_a_marketplace_of_150_plugins_loads_every_skill(place: Path, corpus: list) -> None:  # type: ignore[type-arg]
    # A fifth of the scale: what is checked here is that no plugin and no skill is dropped.
    market = build_market(place, SCALE // 5, corpus)
    catalog = Workspace(_empty_locations(place, project=place, plugin_dirs=(market,))).load()
    expected = {f"{p.parent.parent.name}:{p.name}" for p in market.glob("*/skills/*")}
    assert len(expected) == SCALE // 5
    assert set(catalog.skills) == expected
    assert len({s.source.plugin for s in catalog.skills.values()}) == 150


def test_past_the_names_bound_a_folder_is_cut_with_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The stand-in for a million empty folders: the bound made small. Measured on a real million:
    # 2.5 s for `skilldeck list` (README), where reading them all took 73 s.
    monkeypatch.setattr("engine.catalog.scan.skills.MAX_NAMES_PER_ROOT", 50)
    root = tmp_path / "skills"
    for i in range(80):
        (root / f"e{i:03d}").mkdir(parents=True)
    sink = Sink()
    assert scan_skills_root(root, sink) == []
    limits = [d for d in sink.items if d.code == "scan-limit"]
    assert len(limits) == 1 and "more than 50 entries" in limits[0].message
    assert sum(d.code == "not-a-skill-dir" for d in sink.items) == 50


def test_skills_past_the_explained_folders_load_and_a_reload_says_the_same(tree: Tree) -> None:
    # Recorded: load_many_mixed. The explanation stops at its bound; the skills never do.
    from engine.catalog.scan import MAX_DIRS_PER_ROOT

    for i in range(MAX_DIRS_PER_ROOT + 3):
        (tree.skills() / f"a{i:05d}").mkdir(parents=True)
    write(tree.skills() / "zz" / "SKILL.md", "---\ndescription: last\n---\n")
    workspace = Workspace(tree.locations())
    first = workspace.load()
    again = workspace.load()
    assert "zz" in first.skills and "zz" in again.skills
    assert codes(first).count("scan-limit") == 1
    assert sorted(codes(first)) == sorted(codes(again))


def test_the_nested_search_stops_at_its_bound_and_says_so(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(30):
        (tree.project / f"d{i:02d}").mkdir()
    write(tree.project / "d29" / ".claude" / "skills" / "late" / "SKILL.md", "---\ndescription: late\n---\n")
    assert tiers.nested_skill_roots(tree.project) == ([tree.project / "d29" / ".claude" / "skills"], False)
    monkeypatch.setattr(tiers, "MAX_NESTED_DIRS", 10)
    monkeypatch.setattr(tiers.nested_skill_roots, "__defaults__", (10,))
    catalog = tree.load()
    assert [d.path for d in catalog.diagnostics if d.code == "scan-limit"] == [tree.project]
    assert [s.name for s in catalog.deferred] == []
