"""The Gemini CLI host beyond its recordings: hostile files that must neither crash nor hang it, and
the rules the recordings show only in passing (the verdicts, settings, trust, its own skills)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.hosts.gemini import GEMINI
from engine.hosts.gemini_config import UNTRUSTED
from engine.hosts.gemini_frontmatter import fields, frontmatter
from engine.hosts.host import view
from engine.hosts.model import HostView, Place, Refusal, Status


def place(tmp_path: Path, trusted: bool = True, start: Path | None = None, **env: str) -> Place:
    home, project = tmp_path / "home", tmp_path / "project"
    for folder in (home, project):
        folder.mkdir(exist_ok=True)
    environ = {"HOME": str(home), "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "etc" / "settings.json"), **env}
    if trusted:
        environ["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    return Place(start or project, home, environ)


def skill(folder: Path, name: str, description: str = "Does a thing.", text: str | None = None) -> Path:
    path = folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else f"---\nname: {name}\ndescription: {description}\n---\nBody.\n")
    return path


def settings(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def names(got: HostView) -> list[str]:
    return [s.name for s in got.listed]


def status(got: HostView, path: Path) -> tuple[Status, str]:
    [verdict] = [v for v in got.verdicts if v.path == path]
    return verdict.status, verdict.why


# Hostile files


def test_a_huge_frontmatter_is_refused_in_words_not_parsed(tmp_path: Path) -> None:
    where = place(tmp_path)
    skills = where.start / ".agents" / "skills"
    huge = skill(skills / "huge", "", text="---\nname: huge\ndescription: " + "x" * 400_000 + "\n---\nBody.\n")
    skill(skills / "fine", "fine")
    got = view(GEMINI, where)
    assert names(got) == ["fine"]
    kind, why = status(got, huge)
    assert kind is Status.REFUSED and "400,0" in why and "Claude Code" not in why


def test_aliases_that_expand_to_billions_and_deep_nesting_are_refused(tmp_path: Path) -> None:
    where = place(tmp_path)
    skills = where.start / ".agents" / "skills"
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9)
    )
    bomb = skill(skills / "bomb", "", text=f"---\nname: bomb\ndescription: d\n{laughs}---\n")
    deep = skill(skills / "deep", "", text="---\nname: deep\ndescription: d\nx: " + "[" * 30_000 + "\n---\n")
    got = view(GEMINI, where)
    assert status(got, bomb)[0] is Status.REFUSED and status(got, deep)[0] is Status.REFUSED
    assert got.block == "<available_skills>\n</available_skills>"


def test_a_fifo_named_skill_md_is_not_opened(tmp_path: Path) -> None:
    where = place(tmp_path)
    skills = where.start / ".agents" / "skills"
    (skills / "pipe").mkdir(parents=True)
    os.mkfifo(skills / "pipe" / "SKILL.md")
    (skills / "zero").mkdir()
    (skills / "zero" / "SKILL.md").symlink_to("/dev/zero")
    skill(skills / "fine", "fine")
    assert names(view(GEMINI, where)) == ["fine"]


def test_a_broken_settings_file_stops_it_as_gemini_cli_stops(tmp_path: Path) -> None:
    where = place(tmp_path)
    skill(where.start / ".agents" / "skills" / "fine", "fine")
    user = where.home / ".gemini" / "settings.json"
    settings(user, '{"skills": {"disabled": [}')
    got = view(GEMINI, where)
    assert got.block is None
    assert got.logs[0].startswith(f"Error in {user}: ") and got.logs[-1].startswith("Please fix the configuration")
    assert [v.status for v in got.verdicts] == [Status.OFF]


def test_settings_that_are_a_fifo_a_device_or_too_deep_stop_it_without_a_hang(tmp_path: Path) -> None:
    where = place(tmp_path)
    skill(where.start / ".agents" / "skills" / "fine", "fine")
    user = where.home / ".gemini" / "settings.json"
    user.parent.mkdir(parents=True)
    os.mkfifo(user)
    assert view(GEMINI, where).block is None
    user.unlink()
    user.symlink_to("/dev/zero")
    assert view(GEMINI, where).block is None
    user.unlink()
    settings(user, "[" * 5_000 + "]" * 5_000)
    got = view(GEMINI, where)
    assert got.block is None and "nested deeper" in got.logs[0]


def test_texts_that_would_make_a_backtracking_parser_quadratic_are_read_in_one_pass(tmp_path: Path) -> None:
    # Each of these took minutes with the regexes Gemini CLI's bundle uses, run as Python regexes.
    where = place(tmp_path)
    skills = where.start / ".agents" / "skills"
    spaces = " " * 60_000
    # js-yaml fails on them, so the line parser reads the long lines, which it does not take: a
    # line terminator (\r, \u2028) is left after the spaces.
    lines = f"name:{spaces}{'a' * 60_000}\rb\nname: lines\ndescription: d\ndescription:{spaces}x\u2028y\n"
    skill(skills / "odd", "", text=f"---\n{lines}---\n")
    # Not a number to js-yaml (the `g`), which two stars over the same digits find out slowly.
    hexish = "0x" + "a" * 200_000 + "g"
    skill(skills / "hexish", hexish)
    settings(where.home / ".gemini" / "settings.json", '{"skills": {"disabled": ["' + "${" * 200_000 + '"]}}')
    got = view(GEMINI, where)
    assert [(s.name, s.description) for s in got.listed] == [("lines", "d"), (hexish, "Does a thing.")]
    settings(where.home / ".gemini" / "settings.json", '"' + '\\"' * 300_000)
    assert view(GEMINI, where).block is None


def test_settings_that_are_no_object_stop_it(tmp_path: Path) -> None:
    where = place(tmp_path)
    settings(where.start / ".gemini" / "settings.json", "[1, 2]")
    got = view(GEMINI, where)
    assert got.block is None and got.logs[0].endswith("Settings file is not a valid JSON object.")


# The rules


def test_a_later_skill_of_a_name_wins_at_the_first_ones_place(tmp_path: Path) -> None:
    where = place(tmp_path)
    first = skill(where.home / ".gemini" / "skills" / "deploy", "deploy", "From the user.")
    skill(where.home / ".gemini" / "skills" / "zeta", "zeta")
    last = skill(where.start / ".agents" / "skills" / "deploy", "deploy", "From the project.")
    got = view(GEMINI, where)
    assert [(s.name, s.description) for s in got.listed] == [("zeta", "Does a thing."), ("deploy", "From the project.")]
    kind, why = status(got, first)
    assert kind is Status.SHADOWED
    assert why == f'Skill conflict detected: "deploy" from "{last}" is overriding the same skill from "{first}".'
    [shadowed] = [v for v in got.verdicts if v.status is Status.SHADOWED]
    assert str(last) in shadowed.fix


def test_folders_load_in_descending_name_order_the_roots_skill_first(tmp_path: Path) -> None:
    where = place(tmp_path)
    skills = where.start / ".gemini" / "skills"
    for folder in ("mid", "alpha", "zulu", "beta", ".hidden", "node_modules"):
        skill(skills / folder, folder)
    skill(skills, "direct")
    skill(skills / "outer" / "inner", "inner")
    assert names(view(GEMINI, where)) == ["direct", "zulu", "mid", "beta", "alpha"]


def test_disabled_names_in_any_case_from_user_and_project_settings(tmp_path: Path) -> None:
    where = place(tmp_path, OFF_NAME="from-env")
    skills = where.start / ".agents" / "skills"
    off = skill(skills / "Off-Case", "Off-Case")
    skill(skills / "from-env", "from-env")
    skill(skills / "on", "on")
    settings(where.home / ".gemini" / "settings.json", '{"skills": {"disabled": ["off-case"]}}')
    project = where.start / ".gemini" / "settings.json"
    settings(project, '// comments are allowed\n{"skills": {/* here too */ "disabled": ["${OFF_NAME}"]}}')
    got = view(GEMINI, where)
    assert names(got) == ["on"]
    kind, why = status(got, off)
    assert kind is Status.OFF and "skills.disabled" in why


def test_skills_enabled_false_sends_no_block_and_a_later_null_turns_them_back_on(tmp_path: Path) -> None:
    where = place(tmp_path)
    skill(where.start / ".agents" / "skills" / "on", "on")
    settings(where.home / ".gemini" / "settings.json", '{"skills": {"enabled": false}}')
    got = view(GEMINI, where)
    assert got.block is None and [v.status for v in got.verdicts] == [Status.OFF]
    settings(where.start / ".gemini" / "settings.json", '{"skills": {"enabled": null}}')
    assert names(view(GEMINI, where)) == ["on"]


def test_untrusted_print_mode_sends_nothing_and_says_so(tmp_path: Path) -> None:
    where = place(tmp_path, trusted=False)
    project = skill(where.start / ".agents" / "skills" / "proj", "proj")
    user = skill(where.home / ".agents" / "skills" / "mine", "mine")
    settings(where.start / ".gemini" / "settings.json", '{"skills": {"disabled": ["mine"]}}')
    got = view(GEMINI, where)
    assert got.block is None and got.logs == [UNTRUSTED]
    assert "reads no project skills" in status(got, project)[1]
    # The project's settings are not read in an untrusted folder: `mine` is not switched off there.
    assert status(got, user)[0] is Status.OFF and "does not trust" in status(got, user)[1]


def test_folder_trust_switched_off_trusts_every_folder(tmp_path: Path) -> None:
    where = place(tmp_path, trusted=False)
    skill(where.start / ".agents" / "skills" / "proj", "proj")
    settings(where.home / ".gemini" / "settings.json", '{"security": {"folderTrust": {"enabled": false}}}')
    assert names(view(GEMINI, where)) == ["proj"]


def test_its_own_skills_keep_the_block_and_a_user_skill_can_take_their_place(tmp_path: Path) -> None:
    where = place(tmp_path)
    assert view(GEMINI, where).block == "<available_skills>\n</available_skills>"
    settings(where.home / ".gemini" / "settings.json", '{"skills": {"disabled": ["Skill-Creator", "antigravity-support"]}}')
    assert view(GEMINI, where).block is None
    skill(where.start / ".agents" / "skills" / "zz", "zz")
    skill(where.start / ".agents" / "skills" / "mine", "antigravity-support", "Mine.")
    settings(where.home / ".gemini" / "settings.json", "{}")
    assert names(view(GEMINI, where)) == ["antigravity-support", "zz"]


def test_locations_are_under_the_resolved_start_and_gemini_cli_home(tmp_path: Path) -> None:
    real = tmp_path / "project"
    where = place(tmp_path, GEMINI_CLI_HOME=str(tmp_path / "other"))
    link = tmp_path / "link"
    link.symlink_to(real)
    skill(real / ".agents" / "skills" / "proj", "proj")
    skill(tmp_path / "other" / ".gemini" / "skills" / "elsewhere", "elsewhere")
    skill(where.home / ".gemini" / "skills" / "ignored", "ignored")
    got = view(GEMINI, Place(link, where.home, where.environ))
    assert [str(s.path) for s in got.listed] == [
        str(tmp_path / "other" / ".gemini" / "skills" / "elsewhere" / "SKILL.md"),
        str(real / ".agents" / "skills" / "proj" / "SKILL.md"),
    ]


def test_the_block_is_laid_out_and_not_escaped(tmp_path: Path) -> None:
    where = place(tmp_path)
    path = skill(
        where.start / ".agents" / "skills" / "x", "x", text="---\nname: 'a/b'\ndescription: '<b> & </description>'\n---\n"
    )
    assert view(GEMINI, where).block == (
        "<available_skills>\n  <skill>\n    <name>a-b</name>\n    <description><b> & </description></description>\n"
        f"    <location>{path}</location>\n  </skill>\n</available_skills>"
    )


# The frontmatter, as its bundle reads it


def test_what_finds_no_frontmatter_says_why() -> None:
    for text, words in [
        ("\ufeff---\nname: a\ndescription: d\n---\n", "byte order mark"),
        ("  ---\nname: a\ndescription: d\n---\n", "indented"),
        ("---   \nname: a\ndescription: d\n---\n", "spaces after"),
        ("\n---\nname: a\ndescription: d\n---\n", "first line"),
        ("---\nname: a\ndescription: d\n", "never closed"),
    ]:
        found = frontmatter(text)
        assert isinstance(found, Refusal) and words in found.why, text
    assert frontmatter("---\r\nname: a\r\ndescription: d\r\n---  \r\nBody") == "name: a\r\ndescription: d"


def test_the_line_parser_answers_where_js_yaml_fails_or_gives_no_text() -> None:
    cases = {
        "name: [q27]\ndescription: >\n  folded\n  text": ("[q27]", "> folded text"),
        "name: a\ndescription: First.\ndescription: Second.": ("a", "Second."),
        "name: a\ndescription: null": ("a", "null"),
        "name: a\ndescription: 2024-01-01 # a date": ("a", "2024-01-01 # a date"),
        "name: a\ndescription:\n  - one\n  - two": ("a", "- one - two"),
        "name: a\ndescription: !custom tagged": ("a", "!custom tagged"),
        "name: a\ndescription: Use when: x": ("a", "Use when: x"),
        "name: a\ndescription: >\n  x\n  y": ("a", "x y\n"),
        "name: a\ndescription: x\u2028y": ("a", "x\u2028y"),
        'name: "a:b<c>"\ndescription: ""': ("a-b-c-", ""),
    }
    for block, want in cases.items():
        assert fields(block) == want, block
    for block, missing in [("description: d", "name"), ("name: a\nmetadata: {}", "description")]:
        found = fields(block)
        assert isinstance(found, Refusal) and f"`{missing}`" in found.why


def test_a_folder_trusted_in_interactive_mode_is_trusted(tmp_path: Path) -> None:
    """trustedFolders.json, as trusting a folder in Gemini CLI's interactive mode writes it: the
    longest rule holding the start folder decides; TRUST_PARENT trusts the rule's parent."""
    from engine.hosts.gemini_config import read_config

    home, project = tmp_path / "home", tmp_path / "work" / "project"
    (home / ".gemini").mkdir(parents=True)
    project.mkdir(parents=True)
    place = Place(project, home, {"HOME": str(home)})
    assert not read_config(place).trusted
    rules = home / ".gemini" / "trustedFolders.json"
    rules.write_text(json.dumps({str(project / "x"): "TRUST_PARENT"}))
    assert read_config(place).trusted
    rules.write_text(json.dumps({str(tmp_path / "work"): "TRUST_FOLDER", str(project): "DO_NOT_TRUST"}))
    config = read_config(place)
    assert not config.trusted and "DO_NOT_TRUST" in config.trust_why
    rules.write_text(json.dumps({str(project): "MAYBE"}))
    assert read_config(place).errors
