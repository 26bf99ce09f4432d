"""OpenCode's host on what a hostile or careless repository plants (a symlink loop, a FIFO named
SKILL.md, a broken opencode.json, frontmatter bombs) and on the rules its recordings do not
reach: permission patterns and their order, the config folders' hidden folders, the clash rule."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.hosts.host import view
from engine.hosts.model import HostView, Place, Status
from engine.hosts.opencode import OPENCODE
from engine.hosts.opencode_config import matches
from engine.hosts.opencode_fm import Fields, Unreadable, read_fields

SKILL = "---\nname: '{name}'\ndescription: {text}\n---\nBody.\n"


def workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A git project (a `.git` folder with HEAD, as git makes it) and an empty home."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    home.mkdir()
    return project, home


def skill(folder: Path, name: str, text: str = "A skill.") -> Path:
    path = folder / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SKILL.format(name=name, text=text))
    return path


def opencode(project: Path, home: Path, **env: str) -> HostView:
    environ = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), **env}
    return view(OPENCODE, Place(project, home, environ))


def names(result: HostView) -> list[str]:
    return [s.name for s in result.listed]


def test_a_symlink_loop_lists_the_skill_once_at_its_own_path(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    root = project / ".agents" / "skills"
    plain = skill(root, "plain")
    (root / "loop").symlink_to(root)
    (root / "plain" / "back").symlink_to(project)  # a second loop, through the project
    result = opencode(project, home)
    assert [s.path for s in result.listed] == [plain]
    assert result.block is not None and str(plain) in result.block
    assert [v.status for v in result.verdicts] == [Status.LISTED]


def test_a_fifo_named_skill_md_is_never_opened(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    root = project / ".agents" / "skills"
    (root / "pipe").mkdir(parents=True)
    os.mkfifo(root / "pipe" / "SKILL.md")
    (root / "linked").mkdir()
    (root / "linked" / "SKILL.md").symlink_to(root / "pipe" / "SKILL.md")
    skill(root, "real")
    result = opencode(project, home)
    assert names(result) == ["real"]


def test_a_broken_project_opencode_json_stops_opencode(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    skill(project / ".agents" / "skills", "kept")
    (project / "opencode.json").write_text('{"permission": {"skill": {"kept": "deny",}')
    result = opencode(project, home)
    assert result.block is None and result.listed == []
    assert any("is not valid JSON(C)" in line for line in result.logs)
    [verdict] = result.verdicts
    assert verdict.status is Status.OFF and "stops before it sends anything" in verdict.why


def test_a_broken_global_config_is_dropped_whole(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    skill(project / ".agents" / "skills", "kept")
    own = home / ".config" / "opencode"
    own.mkdir(parents=True)
    (own / "config.json").write_text('{"permission": {"skill": "deny"}}')
    (own / "opencode.json").write_text("{ not json")
    result = opencode(project, home)
    assert names(result) == ["kept"]
    assert any("failed to load global config" in line for line in result.logs)


def test_config_files_that_are_not_files_are_not_read(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    skill(project / ".agents" / "skills", "kept")
    os.mkfifo(project / "opencode.json")
    (project / "opencode.jsonc").mkdir()
    result = opencode(project, home)
    assert result.block is None
    assert any("cannot be read" in line for line in result.logs)


def test_jsonc_comments_and_trailing_commas_are_read(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    for name in ("on", "off"):
        skill(project / ".agents" / "skills", name)
    text = '{\n  // comment, with a comma\n  "permission": {"skill": {"off": "deny", /* x */ },},\n}\n'
    (project / "opencode.jsonc").write_text(text)
    assert names(opencode(project, home)) == ["on"]


def test_the_last_matching_rule_wins_in_javascript_key_order(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    for name in ("deploy", "docs", "1", "lint"):
        skill(project / ".agents" / "skills", name)
    rules = {"d*": "deny", "docs": "allow", "*": "ask", "lint": "deny", "1": "deny"}
    (project / "opencode.json").write_text(json.dumps({"permission": {"skill": rules}}))
    result = opencode(project, home)
    # `1` is an array index: JavaScript puts it first, so the `*` ask after it wins.
    assert names(result) == ["1", "deploy", "docs"]
    [off] = [v for v in result.verdicts if v.status is Status.OFF]
    assert off.name == "lint" and str(project / "opencode.json") in off.why


def test_a_deny_of_the_whole_tool_sends_no_block(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    skill(project / ".agents" / "skills", "any")
    (project / "opencode.json").write_text(json.dumps({"tools": {"skill": False}}))
    result = opencode(project, home)
    assert result.block is None
    assert [v.status for v in result.verdicts] == [Status.OFF]


def test_wildcards_are_linear_and_keep_opencode_s_trailing_space_rule() -> None:
    assert matches("git", "git *") and matches("git push", "git *") and not matches("gitx", "git *")
    assert matches("a/b", "a?b") and matches("x\\y", "x/y")
    hostile = "*a" * 200 + "*b"
    assert not matches("a" * 20_000, hostile)


def test_hidden_folders_under_the_config_skills_are_not_read(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    skill(project / ".opencode" / "skills", "seen")
    skill(project / ".opencode" / "skills" / ".hidden", "unseen")
    skill(project / ".agents" / "skills" / ".hidden", "seen-too")
    assert names(opencode(project, home)) == ["seen", "seen-too"]


def test_a_clash_shows_every_candidate_and_says_the_winner_can_change(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    first = skill(home / ".agents" / "skills", "deploy", "From home.")
    last = skill(project / ".opencode" / "skills", "deploy", "From .opencode.")
    result = opencode(project, home)
    assert [s.path for s in result.listed] == [last]
    [loser] = [v for v in result.verdicts if v.status is Status.SHADOWED]
    assert loser.path == first and "can change between runs" in loser.why
    assert any("finish reading last" in note for note in result.notes)


def test_a_skill_without_description_takes_its_name_and_is_never_listed(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    skill(project / ".agents" / "skills", "twin", "Listed alone.")
    bare = project / ".opencode" / "skills" / "twin" / "SKILL.md"
    bare.parent.mkdir(parents=True)
    bare.write_text("---\nname: twin\n---\nBody.\n")
    result = opencode(project, home)
    assert result.listed == [] and result.block == "<available_skills>\n</available_skills>"
    assert {v.status for v in result.verdicts} == {Status.SHADOWED, Status.REFUSED}


def test_frontmatter_bombs_are_refused_without_parsing(tmp_path: Path) -> None:
    project, home = workspace(tmp_path)
    root = project / ".agents" / "skills"
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8)
    )
    for name, text in {
        "laughs": f"---\nname: laughs\ndescription: x\n{laughs}---\n",
        "deep": "---\nname: deep\ndescription: " + "[" * 30_000 + "]" * 30_000 + "\n---\n",
        "js": "---js\n({name: require('child_process').execSync('id').toString()})\n---\n",
    }.items():
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(text)
    result = opencode(project, home)
    assert result.listed == []
    refused = {v.name: v.why for v in result.verdicts}
    assert set(refused) == {"laughs", "deep", "js"}
    assert "JavaScript" in refused["js"]


def test_frontmatter_is_read_as_gray_matter_and_js_yaml_3_read_it() -> None:
    # Unclosed: the rest of the file is the block, read when it is YAML.
    assert read_fields(b"---\nname: open\ndescription: No closing fence.\n") == Fields("open", "No closing fence.")
    # js-yaml 3's types: `yes` is text, `1_000` and a date are not.
    assert read_fields(b"---\nname: a\ndescription: yes\n---\n").description == "yes"
    for value in (b"1_000", b"2024-01-01", b"0x1F", b"1:30"):
        with pytest.raises(Unreadable, match="not text"):
            read_fields(b"---\nname: a\ndescription: " + value + b"\n---\n")
    # The retry: an unquoted `: ` in a top-level value is read as a literal block.
    assert read_fields(b"---\nname: a\ndescription: Use when: asked\n---\n").description == "Use when: asked"
    # No description: loaded under its name, never listed.
    assert read_fields(b"---\nname: bare\n---\n") == Fields("bare", None)
