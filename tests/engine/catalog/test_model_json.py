"""`Skill.to_json` is `to_dict` as json.dumps writes it (`list --json` writes the former, and its
output must not change): every key, in order, for real skills and for every kind of value."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from engine import Workspace
from engine.catalog.model import LoadedFrom, Skill, Source, SourceKind
from engine.demo import make_demo


def _dumps(skill: Skill) -> str:
    return json.dumps(skill.to_dict(), ensure_ascii=False, default=str)


def _skill(**changes: object) -> Skill:
    source = Source(SourceKind.PLUGIN, Path("/p/tools"), 'plugin "tools"\x7f', plugin="tools\u0085")
    base = Skill(
        name="tools:lint",
        display_name='li"nt\\',
        description="checks \x00\x1f\x7f\x80\x9f \u2028 \ud800 é 日本 \U0001f600\n\t",
        description_source="frontmatter",
        source=source,
        loaded_from=LoadedFrom.PLUGIN,
        path=Path("/p/tools/skills/lint/SKILL.md"),
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_the_demo_catalog_writes_the_same_text(tmp_path: Path) -> None:
    catalog = Workspace(make_demo(tmp_path)).load()
    skills = [*catalog.skills.values(), *catalog.deferred, *(s.skill for s in catalog.shadowed)]
    assert len(skills) > 5
    for skill in skills:
        assert skill.to_json() == _dumps(skill), skill.name


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {
            "when_to_use": "w\u0085",
            "argument_hint": "[file]",
            "arguments": ("a", "b\x7f"),
            "disable_model_invocation": True,
            "user_invocable": False,
            "allowed_tools": ("Read", "Bash(git:*)"),
            "disallowed_tools": ("Write",),
            "model": "sonnet",
            "effort": "3",
            "context": "fork",
            "agent": "Explore",
            "paths": ("src/**", "*.py"),
            "license": "MIT",
            "compatibility": "claude code",
            "version": "1.0",
            "body_chars": 123456,
            "activation": "paths",
            "scope": "apps/web",
        },
        {"path": Path("SKILL.md")},
        {"path": Path("/SKILL.md")},
        {"path": Path("rel/dir/x.md")},
        # Values of other types than the fields say (FieldReader never makes them): json.dumps's way.
        {"version": 3},
        {"user_invocable": 1},
        {"body_chars": True},
        {"allowed_tools": ["Read", 7]},
        {"paths": "ab"},
        {"license": Path("/x")},
    ],
)
def test_every_kind_of_value_writes_the_same_text(changes: dict[str, object]) -> None:
    skill = _skill(**changes)
    assert skill.to_json() == _dumps(skill)


def test_diagnostics_write_the_same_text_as_json_dumps(tmp_path: Path) -> None:
    from engine.catalog.model import Diagnostic, Severity

    catalog = Workspace(make_demo(tmp_path)).load()
    made = [
        Diagnostic(
            Severity.WARNING, "name-mismatch", Path("/p/a\x7f/SKILL.md"), 'name: `x"y` \u2028 \ud800 é 😀', "h\\int", 3, 1, "t:a"
        ),
        Diagnostic(Severity.ERROR, "yaml-invalid", Path("/p/b"), "m\x00\x1f\x80", line=None, column=None, skill=None),
        Diagnostic(Severity.INFO, "spec-field", Path("p"), "", "", True, 2, ""),  # type: ignore[arg-type]
    ]
    diagnostics = [*catalog.diagnostics, *made]
    assert len(diagnostics) > 3
    for diagnostic in diagnostics:
        assert diagnostic.to_json() == json.dumps(diagnostic.to_dict(), ensure_ascii=False, default=str)
