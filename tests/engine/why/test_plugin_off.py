"""Plugins Claude Code hides without a word (recorded with the real binary: plugin_off_inline,
plugin_off_skills_dir, plugin_off_by_project, plugin_project_scope_elsewhere, plugin_strict_false, plugin_default_enabled):
skilldeck hides the same ones (test_oracle_listing compares the listings), and `why` on each of
their files names the file and setting that did it, or the conflict."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from engine import Workspace, trace_why
from tests.oracle.replay import case_locations
from tests.oracle.workspace import build, load_cases

CACHE = "{home}/.claude/plugins/cache/mk"
CASES = [
    ("plugin_off_inline", "{outside}/offp/skills/o/SKILL.md", "`offp@inline` is switched off by {home}/.claude/settings.json"),
    ("plugin_off_inline", "{outside}/offp/commands/oc.md", "`offp@inline` is switched off"),
    (
        "plugin_off_skills_dir",
        "{home}/.claude/skills/kit/SKILL.md",
        "`kit@skills-dir` is switched off by {home}/.claude/settings.json",
    ),
    ("plugin_off_skills_dir", "{home}/.claude/skills/kit/skills/inner/SKILL.md", "`kit@skills-dir` is switched off"),
    (
        "plugin_off_skills_dir",
        "{project}/.claude/skills/pk/SKILL.md",
        "`pk@skills-dir` is switched off by {project}/.claude/settings.json",
    ),
    (
        "plugin_off_by_project",
        f"{CACHE}/offproj/1.0.0/skills/offproj-s/SKILL.md",
        "switched off by {project}/.claude/settings.json",
    ),
    (
        "plugin_off_by_project",
        f"{CACHE}/offlocal/1.0.0/skills/offlocal-s/SKILL.md",
        "switched off by {project}/.claude/settings.local.json",
    ),
    ("plugin_off_by_project", f"{CACHE}/none/1.0.0/skills/none-s/SKILL.md", "no settings file enables it"),
    (
        "plugin_project_scope_elsewhere",
        f"{CACHE}/there/1.0.0/skills/there-s/SKILL.md",
        "installed only for the project {outside}/other",
    ),
    ("plugin_project_scope_elsewhere", f"{CACHE}/localthere/1.0.0/skills/localthere-s/SKILL.md", "(scope local)"),
    ("plugin_strict_false", "{outside}/mk/both/skills/b1/SKILL.md", "reports a conflict"),
    ("plugin_default_enabled", f"{CACHE}/dflton/1.0.0/skills/dflton-s/SKILL.md", "no settings file enables it"),
    ("plugin_default_enabled", f"{CACHE}/strval/1.0.0/skills/strval-s/SKILL.md", "is installed but switched off by"),
]


@pytest.mark.parametrize(("name", "file", "said"), CASES)
def test_why_names_what_hid_the_plugin(name: str, file: str, said: str, tmp_path: Path) -> None:
    case = load_cases("listing")[name]
    places = build(case, Path(os.path.realpath(tmp_path)), now_ms=int(time.time() * 1000))
    workspace = Workspace(case_locations(case, places))
    catalog = workspace.load()
    result = trace_why(workspace, catalog, places.fill(file))
    assert result.outcome.value == "never-loads"
    assert places.fill(said) in result.verdict + " ".join(g.sentence for g in result.gates)


def test_a_strict_false_entry_loads_its_listed_skills_and_commands(tmp_path: Path) -> None:
    case = load_cases("listing")["plugin_strict_false"]
    places = build(case, Path(os.path.realpath(tmp_path)), now_ms=int(time.time() * 1000))
    workspace = Workspace(case_locations(case, places))
    catalog = workspace.load()
    assert trace_why(workspace, catalog, places.fill("{outside}/mk/loose/extra/s2/SKILL.md")).outcome.value == "listed"
    assert [s.name for s in workspace.slash_commands(catalog)] == ["loose:y", "loose:x", "loose:s1", "loose:s2"]
