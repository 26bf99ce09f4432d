"""Codex CLI's host beyond the block: its refusals and log lines in its own words (against the
recordings' `skipped`), and hostile files (a huge or garbage frontmatter, a FIFO named SKILL.md,
a broken config.toml) that must neither crash nor hang the view."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from engine.hosts.codex import CODEX
from engine.hosts.host import view
from engine.hosts.model import HostSkill, HostView, Place, Refusal, Root, Status
from tests.oracle.agents import build_case, configure, pins, workspace_folder, xdg
from tests.oracle.record_agents import RECORDINGS, placeholders
from tests.oracle.workspace import load_cases, start_folder

CASES = load_cases("agents")
LOG = "ERROR codex_core::session::session: failed to load skill"


def recorded(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDINGS / "codex" / f"{case}.json").read_text())
    return data


def case_view(name: str, root: Path) -> tuple[HostView, Any]:
    """The case's workspace as the recorder built it, Codex's own skills as stand-ins."""
    case = CASES[name]
    places = build_case(case, root)
    _, env = configure("codex", case, places, 9)
    for own in recorded("empty")["own"]:
        skill = places.home / ".codex" / "skills" / ".system" / own["name"] / "SKILL.md"
        skill.parent.mkdir(parents=True, exist_ok=True)
        skill.write_text(f"---\nname: {own['name']}\ndescription: Own.\n---\n")
    place = Place(start=start_folder(case, places), home=places.home, environ={**xdg(places), **env})
    return view(CODEX, place), places


@pytest.mark.parametrize("name", sorted(CASES))
def test_refusals_and_logs_are_codexs_own_lines(name: str) -> None:
    # Built where the recorder builds (its budget warning depends on the roots' path lengths).
    with workspace_folder() as folder:
        got, places = case_view(name, folder)
        lines = [f"{LOG} {v.path}: {v.why}" for v in got.verdicts if v.status is Status.REFUSED] + got.logs
        assert sorted(placeholders(line, places, pins()["codex"]) for line in lines) == recorded(name)["skipped"]


def skill(root: Path, folder: str, text: str | bytes) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def home_view(tmp_path: Path, config: str | None = None) -> HostView:
    """A project with one plain skill, started outside any repository, and `config` as the user's
    Codex config.toml."""
    project, home = tmp_path / "project", tmp_path / "home"
    skill(project / ".agents" / "skills", "plain", "---\nname: plain\ndescription: A plain skill.\n---\n")
    if config is not None:
        (home / ".codex").mkdir(parents=True, exist_ok=True)
        (home / ".codex" / "config.toml").write_text(config)
    home.mkdir(exist_ok=True)
    return view(CODEX, Place(project, home, {"HOME": str(home)}))


def status(got: HostView, folder: str) -> Status:
    return next(v.status for v in got.verdicts if v.path.parent.name == folder)


def test_huge_and_garbage_frontmatters_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "project" / ".agents" / "skills"
    laughs = "".join(f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n" for n in range(1, 9))
    hostile = {
        "huge": "---\nname: huge\ndescription: " + "y" * 400_000 + "\n---\n",
        "deep": "---\ndescription: " + "[" * 100_000 + "\n---\n",
        "laughs": "---\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n" + laughs + "description: *l8\n---\n",
        "control": "---\nname: a\x00b\ndescription: \x1b[31mred\n---\n",
        "binary": bytes(range(256)) * 40,
        "scalar": "---\njust text\n---\n",
    }
    for folder, text in hostile.items():
        skill(root, folder, text)
    got = home_view(tmp_path)
    assert got.block is not None and "- plain: A plain skill." in got.block
    for folder in hostile:
        assert status(got, folder) is Status.REFUSED, folder
    whys = {v.path.parent.name: v.why for v in got.verdicts}
    assert whys["huge"].startswith("skilldeck does not parse this frontmatter")
    assert whys["binary"] == "failed to read file: invalid utf-8 sequence of 1 bytes from index 128"
    assert all("\n" not in v.why and v.fix for v in got.verdicts if v.status is Status.REFUSED)


def test_random_frontmatters_never_raise(tmp_path: Path) -> None:
    alphabet = b"-:[]{}&*!|>'\"# \n\t\r?,%@`~abc\xc3\xa9"
    chooser = random.Random(36)
    for number in range(300):
        body = bytes(chooser.choice(alphabet) for _ in range(chooser.randint(0, 120)))
        read = CODEX.read(b"---\n" + body + b"\n---\n", str(tmp_path / f"f{number}" / "SKILL.md"), _root(tmp_path))
        assert isinstance(read, HostSkill | Refusal)


def _root(tmp_path: Path) -> Root:
    return CODEX.roots(Place(tmp_path, tmp_path, {}))[0][0]


def test_a_fifo_named_skill_md_is_skipped_without_hanging(tmp_path: Path) -> None:
    root = tmp_path / "project" / ".agents" / "skills"
    (root / "pipe").mkdir(parents=True)
    os.mkfifo(root / "pipe" / "SKILL.md")
    got = home_view(tmp_path)
    assert [s.name for s in got.listed] == ["plain"]
    assert not [v for v in got.verdicts if v.path.parent.name == "pipe"]
    # The user's config.toml a FIFO too: never opened for reading.
    (tmp_path / "home" / ".codex").mkdir(parents=True)
    os.mkfifo(tmp_path / "home" / ".codex" / "config.toml")
    got = home_view(tmp_path)
    assert [s.name for s in got.listed] == ["plain"]
    assert any("not a regular file" in line for line in got.logs)


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ("[[skills.config]\npath = ", "not valid TOML"),
        ("a = " + "[" * 50_000 + "]" * 50_000 + "\n", "not valid TOML"),
        ("skills = 3\n", "invalid skills config"),
        ("[skills]\nconfig = 'x'\n", "invalid skills config"),
        ('[[skills.config]]\nname = "plain"\n', "invalid skills config"),
        ("x = '" + "y" * 1_100_000 + "'\n", "cannot be read"),
        ("\xff", "not valid TOML"),
        ('[[skills.config]]\npath = "/a\\u0000b"\nenabled = false\n\n[features]\nskills = false\n', "is ignored"),
    ],
)
def test_a_broken_config_toml_switches_nothing_off_and_says_so(tmp_path: Path, config: str, said: str) -> None:
    got = home_view(tmp_path, config)
    assert [s.name for s in got.listed] == ["plain"]
    assert any(said in line for line in got.logs), got.logs


def test_the_last_rule_for_a_skill_wins(tmp_path: Path) -> None:
    path = tmp_path / "project" / ".agents" / "skills" / "plain" / "SKILL.md"
    off_then_on = f'[[skills.config]]\npath = "{path}"\nenabled = false\n\n[[skills.config]]\nname = "plain"\nenabled = true\n'
    assert [s.name for s in home_view(tmp_path, off_then_on).listed] == ["plain"]
    on_then_off = f'[[skills.config]]\nname = "plain"\nenabled = true\n\n[[skills.config]]\npath = "{path}"\nenabled = false\n'
    got = home_view(tmp_path, on_then_off)
    assert got.listed == [] and got.block is None
    assert status(got, "plain") is Status.OFF


def test_codex_home_holds_user_and_own_skills_and_the_config(tmp_path: Path) -> None:
    codex_home, home, start = tmp_path / "ch", tmp_path / "home", tmp_path / "start"
    skill(codex_home / "skills", "mine", "---\ndescription: Mine.\n---\n")
    skill(codex_home / "skills" / ".system", "own", "---\ndescription: Own.\n---\n")
    skill(home / ".codex" / "skills", "ignored", "---\ndescription: Not read with CODEX_HOME set.\n---\n")
    (codex_home / "config.toml").write_text('[[skills.config]]\nname = "own"\nenabled = false\n')
    start.mkdir()
    got = view(CODEX, Place(start, home, {"HOME": str(home), "CODEX_HOME": str(codex_home)}))
    assert [s.name for s in got.listed] == ["mine"]
    assert got.block is not None and f"- `r0` = `{codex_home}/skills`" in got.block
    assert status(got, "own") is Status.OFF


def test_single_line_splits_on_rusts_whitespace_only() -> None:
    """The fast path (str.split) and Rust's White_Space agree on every character but \\x1c-\\x1f,
    which Python counts as space and Rust does not."""
    import random

    from engine.hosts.codex_read import _RUNS, single_line

    alphabet = ["a", "é", " ", "\t", "\n", "\x85", "\xa0", "\u2028", "\u3000", "\x1c", "\x1f", "\u200b", "\x0b"]
    rng = random.Random(7)
    for _ in range(5_000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 12)))
        assert single_line(text) == " ".join(part for part in _RUNS.split(text) if part), repr(text)
