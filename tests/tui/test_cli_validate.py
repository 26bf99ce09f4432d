"""`skilldeck validate PATH` and the location flags, through the installed command (issue 17, command
line): a path that holds no skill fails, a lower-case skill.md is named for what it is, and a location
the user named that does not exist is an error (exit 2), never a silent pass."""

from __future__ import annotations

import json

import pytest

from tests.conftest import Tree, skill_text, write
from tests.tui.test_cli_escapes import _skilldeck


def _validate_json(tree: Tree, *paths: str) -> tuple[int, dict]:
    done = _skilldeck(tree, "validate", "--json", *paths)
    return done.returncode, json.loads(done.stdout)


def test_a_lower_case_skill_md_fails_as_what_it_is(tree: Tree) -> None:
    # Claude Code 2.1.328 lists nothing from such a folder (recorded: load_skills_dir_edge).
    lower = write(tree.skills() / "lower" / "skill.md", skill_text(name="lower", description="Lower."))
    for given in (lower.parent, lower):
        code, out = _validate_json(tree, str(given))
        assert code == 1 and out["ok"] is False, given
        assert [(d["code"], d["severity"], d["path"]) for d in out["diagnostics"]] == [
            ("skill-file-lowercase", "error", str(lower))
        ], given
        assert out["diagnostics"][0]["hint"].startswith("git mv skill.md SKILL.md")
    done = _skilldeck(tree, "validate", str(lower.parent))
    assert done.returncode == 1
    assert b"loose-markdown" not in done.stdout and b"FAIL" in done.stdout


def test_a_path_that_holds_no_skill_fails(tree: Tree) -> None:
    empty = tree.root / "empty"
    empty.mkdir()
    code, out = _validate_json(tree, str(empty))
    assert code == 1 and out["skills"] == 0
    assert [(d["code"], d["severity"]) for d in out["diagnostics"]] == [("spec-missing", "error")]
    readme = write(tree.root / "README.md", "# not a skill\n")
    code, out = _validate_json(tree, str(readme))
    assert code == 1 and [(d["code"], d["severity"]) for d in out["diagnostics"]] == [("not-a-skill-dir", "error")]
    done = _skilldeck(tree, "validate", str(empty))
    assert done.returncode == 1 and b"OK" not in done.stdout


def test_a_good_skill_folder_still_passes(tree: Tree) -> None:
    good = tree.skill("good", skill_text(name="good", description="Good."))
    for given in (good.parent, good, good.parent.parent):
        code, out = _validate_json(tree, str(given))
        assert (code, out["ok"], out["skills"]) == (0, True, 1), given


@pytest.mark.parametrize("flag", ["--project", "--add-dir", "--plugin-dir"])
@pytest.mark.parametrize("command", [("validate",), ("list", "--json"), ("listing",), ("rules",)])
def test_a_named_location_that_does_not_exist_is_an_error(tree: Tree, flag: str, command: tuple[str, ...]) -> None:
    missing = tree.root / "nope"
    done = _skilldeck(tree, *command, flag, str(missing), project=flag != "--project")
    assert done.returncode == 2, done.stdout.decode()
    assert done.stdout == b""
    err = done.stderr.decode()
    assert f"{flag} {missing}: no such folder" in err and "Traceback" not in err


def test_a_named_location_that_is_a_file_is_an_error(tree: Tree) -> None:
    afile = write(tree.root / "afile", "x")
    done = _skilldeck(tree, "validate", "--add-dir", str(afile))
    assert done.returncode == 2 and f"--add-dir {afile}: not a folder" in done.stderr.decode()


def test_a_validate_path_that_does_not_exist_is_an_error(tree: Tree) -> None:
    done = _skilldeck(tree, "validate", str(tree.root / "typo"))
    assert done.returncode == 2 and done.stdout == b""
    assert f"{tree.root / 'typo'}: no such file or folder" in done.stderr.decode()
