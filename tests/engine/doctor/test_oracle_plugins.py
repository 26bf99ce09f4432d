"""The doctor's manifest and hooks rules follow the pinned Claude Code (tests/oracle/recordings/plugins,
recorded by tests/oracle/record_plugins.py): a field `claude plugin validate` refuses is a doctor
finding, one that rejects the plugin unless Claude Code only shows the field; a hooks file named
twice is a duplicate Claude Code reports at runtime, the default one named is not."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from engine import diagnose
from engine.catalog.sources.plugins import DISPLAY_FIELDS
from tests.oracle.replay import case_locations
from tests.oracle.workspace import HERE, build, load_cases

RECORDED = {p.stem: json.loads(p.read_text()) for p in sorted((HERE / "recordings" / "plugins").glob("*.json"))}
VERSION = (HERE / "VERSION").read_text().strip()


def test_every_plugin_case_is_recorded_with_the_pinned_version() -> None:
    assert set(RECORDED) == set(load_cases("plugins")), "run `make oracle` after adding or removing a plugin case"
    assert {r["claude_code_version"] for r in RECORDED.values()} == {VERSION}


def _findings(name: str, root: Path) -> list[dict[str, Any]]:
    case = load_cases("plugins")[name]
    places = build(case, root)
    if "validate" in case:
        case = {**case, "args": ["--plugin-dir", case["validate"]]}
    return [f.to_dict() for f in diagnose(case_locations(case, places))]


@pytest.mark.parametrize("name", sorted(n for n, r in RECORDED.items() if "validate" in r))
def test_manifest_findings_follow_claude_plugin_validate(name: str, tmp_path: Path) -> None:
    refused = {re.split(r"[.\[]", e)[0] for e in RECORDED[name]["validate"]["errors"]}
    findings = _findings(name, Path(os.path.realpath(tmp_path)))
    rejected = {f["message"] for f in findings if f["code"] == "manifest-rejected"}
    dropped = {f["message"] for f in findings if f["code"] == "manifest-field"}
    fatal = refused - set(DISPLAY_FIELDS)
    assert bool(rejected) == bool(fatal)
    for field in fatal:
        assert any(f"`{field}`" in m for m in rejected), field
    for field in refused & set(DISPLAY_FIELDS):
        assert any(f"`{field}`" in m for m in dropped), field
    if not refused:
        # validate passes a hooks file named twice; the session reports it (the next test).
        assert rejected == dropped == set()


@pytest.mark.parametrize("name", sorted(n for n, r in RECORDED.items() if "session" in r))
def test_hooks_findings_follow_the_session(name: str, tmp_path: Path) -> None:
    seen = RECORDED[name]["session"]
    findings = _findings(name, Path(os.path.realpath(tmp_path)))
    duplicate = [f for f in findings if f["code"] == "hooks-duplicate"]
    assert bool(duplicate) == seen["duplicate_hooks"]
    assert all(("MCP servers unavailable" in f["message"]) == seen["mcp_unavailable"] for f in duplicate)
    assert any(f["code"] == "runs-hook" for f in findings) == seen["hook_ran"]
