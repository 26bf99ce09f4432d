"""Copilot CLI's host on what a hostile repository or home may hold: a FIFO where a SKILL.md or the
settings file should be, a settings file that is not what Copilot writes, a frontmatter far too
large or aliased a billion times. Each ends in a verdict or in nothing switched off, never in a
hang or a traceback. (Its blocks against the binary's recordings: test_host_recordings.py.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.hosts.copilot import COPILOT, disabled_skills
from engine.hosts.host import MAX_SKILL_BYTES, view
from engine.hosts.model import HostView, Place, Status


def skill(folder: Path, name: str, description: str = "A plain skill.") -> Path:
    path = folder / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n")
    return path


def project(tmp_path: Path) -> tuple[Place, Path, Path]:
    """A git project (a `.git` folder with HEAD, as git finds it) and a private home."""
    start, home = tmp_path / "project", tmp_path / "home"
    (start / ".git").mkdir(parents=True)
    (start / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    home.mkdir()
    return Place(start=start, home=home, environ={}), start / ".agents" / "skills", home / ".copilot"


def by_name(got: HostView) -> dict[str, Status]:
    return {v.name: v.status for v in got.verdicts}


def test_a_fifo_named_skill_md_is_passed_over(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    skill(skills, "plain")
    (skills / "pipe").mkdir(parents=True)
    os.mkfifo(skills / "pipe" / "SKILL.md")
    got = view(COPILOT, place)
    assert [s.name for s in got.listed] == ["plain"]
    assert "pipe" not in by_name(got)


def test_a_fifo_as_settings_switches_nothing_off(tmp_path: Path) -> None:
    place, skills, config = project(tmp_path)
    skill(skills, "plain")
    config.mkdir()
    os.mkfifo(config / "settings.json")
    assert disabled_skills(place.home) == frozenset()
    assert by_name(view(COPILOT, place)) == {"plain": Status.LISTED}


@pytest.mark.parametrize(
    "text",
    [
        b'{"disabledSkills": ["plain"',  # cut short
        b'// a comment\n{"disabledSkills": ["plain"]}',  # not JSON
        b'{"disabledSkills": "plain"}',  # not a list
        b'{"disabledSkills": [1, null, {"plain": true}]}',  # no names in it
        b'["plain"]',  # not an object
        b"\xff\xfe{}",  # not UTF-8
        b'{"a": ' * 5_000 + b"1" + b"}" * 5_000,  # nested far past any parser's comfort
        b'{"disabledSkills": ["' + b"x" * (5 * 1024 * 1024) + b'"]}',  # larger than any settings file
    ],
)
def test_a_broken_settings_file_switches_nothing_off(tmp_path: Path, text: bytes) -> None:
    place, skills, config = project(tmp_path)
    skill(skills, "plain")
    config.mkdir()
    (config / "settings.json").write_bytes(text)
    assert by_name(view(COPILOT, place)) == {"plain": Status.LISTED}


def test_settings_with_a_byte_order_mark_still_switch_off(tmp_path: Path) -> None:
    place, skills, config = project(tmp_path)
    skill(skills, "plain")
    skill(skills, "other")
    config.mkdir()
    (config / "settings.json").write_text('\ufeff{"disabledSkills": ["other"]}')
    assert by_name(view(COPILOT, place)) == {"plain": Status.LISTED, "other": Status.OFF}


def test_a_huge_frontmatter_is_refused_unparsed(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    skill(skills, "plain")
    huge = skills / "huge" / "SKILL.md"
    huge.parent.mkdir()
    lines = "".join(f"key{n}: {'v' * 60}\n" for n in range(6_000))  # ~400,000 characters
    huge.write_text(f"---\nname: huge\n{lines}description: Big.\n---\nBody.\n")
    got = view(COPILOT, place)
    refused = [v for v in got.verdicts if v.status is Status.REFUSED]
    assert [v.name for v in refused] == ["huge"]
    assert "does not parse" in refused[0].why and refused[0].fix


def test_a_billion_laughs_frontmatter_is_refused(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    laughs = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in "bcdefghi":
        prev = chr(ord(level) - 1)
        laughs.append(f"{level}: &{level} [{', '.join(['*' + prev] * 9)}]")
    path = skills / "laughs" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: laughs\n" + "\n".join(laughs) + "\ndescription: Ha.\n---\nBody.\n")
    got = view(COPILOT, place)
    assert by_name(got) == {"laughs": Status.REFUSED}
    assert "aliases" in got.verdicts[0].why


def test_a_file_past_the_read_bound_is_refused(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    path = skills / "big" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\nname: big\ndescription: Big.\n---\n" + b"x" * MAX_SKILL_BYTES)
    assert by_name(view(COPILOT, place)) == {"big": Status.REFUSED}


def test_a_deeply_nested_frontmatter_is_refused(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    path = skills / "deep" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: deep\nx: " + "[" * 30_000 + "]" * 30_000 + "\ndescription: Deep.\n---\n")
    assert by_name(view(COPILOT, place)) == {"deep": Status.REFUSED}


def test_not_utf8_is_read_with_replacements_and_a_duplicate_key_is_refused_with_a_line(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    (skills / "latin1").mkdir(parents=True)
    (skills / "latin1" / "SKILL.md").write_bytes(b"---\nname: latin1\ndescription: caf\xe9\n---\n")
    (skills / "dup").mkdir()
    (skills / "dup" / "SKILL.md").write_text("---\nname: dup\nmetadata:\n  a: 1\n  a: 2\ndescription: D.\n---\n")
    got = view(COPILOT, place)
    why = {v.name: v.why for v in got.verdicts}
    # As Copilot CLI sends it (t30 in frontmatter_types): the bad byte becomes U+FFFD.
    assert [(s.name, s.description) for s in got.listed] == [("latin1", "caf\ufffd")]
    assert "`a` twice (line 5)" in why["dup"]


def test_past_the_budget_names_follow_own_skills_last(tmp_path: Path) -> None:
    place, skills, _ = project(tmp_path)
    for n in range(60):
        skill(skills, f"s{n:03d}", "d" * 300)
    got = view(COPILOT, place)
    statuses = [v.status for v in got.verdicts]
    assert statuses.count(Status.LISTED) + statuses.count(Status.NAMES_ONLY) == 60
    assert got.block is not None
    tail = got.block.rsplit("</skill>\n", 1)[1]
    assert tail.startswith("Additional skills available (invoke by name): ")
    assert tail.endswith(", customize-cloud-agent, github-pr-media\n</available_skills>")


def test_a_symlinked_root_loop_and_a_home_inside_the_walk_read_each_skill_once(tmp_path: Path) -> None:
    # No git: the walk goes up past the project, here through the home's own .agents/skills.
    home = tmp_path / "home"
    start = home / "code" / "app"
    start.mkdir(parents=True)
    skill(home / ".agents" / "skills", "mine")
    (home / ".agents" / "skills" / "loop").symlink_to(home / ".agents" / "skills")
    got = view(COPILOT, Place(start=start, home=home, environ={}))
    # (The folders above tmp_path are read too: only this test's skill is looked at.)
    mine = [v for v in got.verdicts if v.name == "mine"]
    assert [(v.status, v.root.scope.value) for v in mine] == [(Status.LISTED, "project")]
