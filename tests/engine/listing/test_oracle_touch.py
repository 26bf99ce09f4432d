"""The listing update skilldeck predicts after a touch is the one Claude Code sent, byte for byte
(tests/oracle/recordings/invoke/*.json with `updates`: the model read a file that activated a
`paths:` skill or a `.claude/skills` below the start folder)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from engine import Workspace
from engine.listing.touch import listing_updates
from tests.oracle.replay import case_locations
from tests.oracle.workspace import HERE, build, load_cases

RECORDED = {
    p.stem: r for p in sorted((HERE / "recordings" / "invoke").glob("*.json")) if (r := json.loads(p.read_text())).get("updates")
}
TOUCHING = ("Read", "Edit", "Write")


def test_the_touch_cases_are_recorded() -> None:
    assert {"run_paths_read", "run_nested_read_clash", "run_nested_read_then_paths"} <= set(RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_listing_update_after_a_touch_equals_claude_code(name: str, tmp_path: Path) -> None:
    case: dict[str, Any] = load_cases("invoke")[name]
    places = build(case, Path(os.path.realpath(tmp_path)), now_ms=int(time.time() * 1000))
    workspace = Workspace(case_locations(case, places))
    catalog = workspace.load()
    touched = [Path(places.fill(c["input"]["file_path"])) for c in case["calls"] if c["tool"] in TOUCHING]
    ours = [u for u in listing_updates(catalog, workspace.locations.project, touched) if u]
    assert "\n\n".join(ours) == "\n\n".join(RECORDED[name]["updates"])


def test_a_touch_outside_the_start_folder_or_of_nothing_new_adds_nothing(tmp_path: Path) -> None:
    case: dict[str, Any] = load_cases("invoke")["run_nested_read_clash"]
    places = build(case, Path(os.path.realpath(tmp_path)), now_ms=0)
    workspace = Workspace(case_locations(case, places))
    catalog = workspace.load()
    app = places.project / "apps" / "web" / "src" / "app.ts"
    assert listing_updates(catalog, places.project, [places.outside / "x.ts", places.project / "README.md"]) == ["", ""]
    first, again = listing_updates(catalog, places.project, [app, app])
    assert first.startswith("New skills discovered in apps/web/.claude/skills") and again == ""


@pytest.mark.parametrize(
    ("name", "nested_x"),
    # paths: apps/web/** takes every file under apps/web: the touch that loads the nested x
    # activates it too, so Claude Code names the nested one apps/web:x; paths: apps/web/src/**
    # leaves it to the file (run_nested_read_then_paths: x first, apps/web:x later).
    [("run_nested_read_clash", "apps/web:x"), ("run_nested_read_then_paths", "x")],
)
def test_the_held_back_name_of_a_nested_skill_a_paths_skill_clashes_with(name: str, nested_x: str, tmp_path: Path) -> None:
    case: dict[str, Any] = load_cases("invoke")[name]
    places = build(case, Path(os.path.realpath(tmp_path)), now_ms=0)
    catalog = Workspace(case_locations(case, places)).load()
    nested = {s.name for s in catalog.deferred if s.activation == "nested"}
    assert nested == {nested_x, "y"}
