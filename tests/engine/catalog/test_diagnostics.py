"""Every diagnostic the catalog gives, each from real files in a temporary folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from engine import CODES, Catalog, Locations, Severity, Workspace
from engine.catalog.scan import MAX_DIRS_PER_ROOT
from tests.conftest import Tree, codes, only, run_as_nobody, skill_text, write

GOOD = skill_text(name="good", description="A good skill.")


def _diag(catalog: Catalog, code: str):  # type: ignore[no-untyped-def]
    found = only(catalog, code)
    assert found.message and found.hint is not None
    return found


@pytest.mark.parametrize(
    ("name", "content", "code", "severity", "line", "loads"),
    [
        ("bad-yaml", "---\nname: bad-yaml\ndescription: \"open\nallowed-tools: [Read\n---\nbody\n", "yaml-invalid", Severity.ERROR, 5, True),
        ("repaired", "---\nname: repaired\ndescription: Use when: asked\n---\nbody\n", "yaml-repaired", Severity.WARNING, 3, True),
        ("bom", b"\xef\xbb\xbf---\nname: bom\ndescription: d\n---\nbody\n", "bom", Severity.INFO, 1, True),
        ("crlf", b"---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody\r\n", "crlf", Severity.INFO, None, True),
        ("latin", b"---\nname: latin\ndescription: caf\xe9\n---\nbody\n", "not-utf8", Severity.WARNING, 3, True),
        ("empty", b"", "empty-file", Severity.WARNING, None, True),
        ("open", "---\nname: open\ndescription: never closed\n\nbody\n", "frontmatter-unterminated", Severity.ERROR, 1, True),
        ("listy", "---\n- a\n- b\n---\nbody\n", "frontmatter-not-mapping", Severity.ERROR, 2, True),
        ("nofm", "# Title\n\nbody\n", "frontmatter-missing", Severity.INFO, 1, True),
        ("dup", "---\nname: dup\ndescription: a\ndescription: b\n---\n", "duplicate-key", Severity.WARNING, 4, True),
        ("other", "---\nname: different\ndescription: d\n---\n", "name-mismatch", Severity.WARNING, 2, True),
        ("Bad_Name", "---\nname: Bad_Name\ndescription: d\n---\n", "spec-name", Severity.WARNING, 2, True),
        # The spec wants 1 to 64 characters: an empty name (or only blanks) is not one.
        ("emptyname", '---\nname: ""\ndescription: d\n---\n', "spec-name", Severity.WARNING, 2, True),
        ("blankname", "---\nname: '  '\ndescription: d\n---\n", "spec-name", Severity.WARNING, 2, True),
        ("nodesc", "---\nname: nodesc\n---\nbody\n", "spec-description", Severity.WARNING, None, True),
        ("compat", "---\nname: compat\ndescription: d\ncompatibility: " + "x" * 501 + "\n---\n", "spec-compatibility", Severity.WARNING, 4, True),
        ("extra", "---\nname: extra\ndescription: d\nmodel: opus\n---\n", "spec-field", Severity.INFO, 4, True),
        ("unknown", "---\nname: unknown\ndescription: d\nallowed_tools: Read\n---\n", "unknown-field", Severity.WARNING, 4, True),
        ("long", "---\nname: long\ndescription: " + "d" * 1025 + "\n---\n", "limit-exceeded", Severity.WARNING, 3, True),
        ("hint", "---\nname: hint\ndescription: d\nargument-hint: " + "h" * 257 + "\n---\n", "limit-exceeded", Severity.WARNING, 4, True),
        ("big", "---\nname: big\ndescription: d\n---\n" + "b" * 15_001, "limit-exceeded", Severity.WARNING, None, True),
    ],
)  # fmt: skip
def test_file_diagnostics(
    tree: Tree, name: str, content: str | bytes, code: str, severity: Severity, line: int | None, loads: bool
) -> None:
    path = tree.skill(name, content)
    tree.skill("good", GOOD)
    catalog = tree.load()
    diag = _diag(catalog, code)
    assert diag.severity is severity
    assert diag.path == path
    assert diag.line == line
    assert diag.skill == name
    assert (name in catalog.skills) is loads
    assert "good" in catalog.skills, "one bad file never stops the others"


def test_invalid_yaml_loads_with_empty_metadata_and_body_description(tree: Tree) -> None:
    tree.skill("bad", '---\ndescription: "open\ndisable-model-invocation: true\n---\nFirst line.\n')
    skill = tree.load().skills["bad"]
    assert skill.description == "First line."
    assert skill.model_invocable


def test_a_bom_is_dropped_and_the_frontmatter_read_like_claude_code(tree: Tree) -> None:
    # Claude Code 2.1.328 strips the BOM first (recorded: fm_frontmatter_split).
    tree.skill("bom", b"\xef\xbb\xbf---\nname: bom\ndescription: real\ndisable-model-invocation: true\n---\n")
    catalog = tree.load()
    skill = catalog.skills["bom"]
    assert skill.description == "real"
    assert not skill.model_invocable
    bom = only(catalog, "bom")
    assert bom.severity is Severity.INFO and "drops it before looking for the frontmatter" in bom.message


def test_unterminated_frontmatter_is_all_body(tree: Tree) -> None:
    tree.skill("open", "---\ndescription: never closed\ndisable-model-invocation: true\n")
    skill = tree.load().skills["open"]
    assert skill.description == "---"
    assert skill.model_invocable
    assert skill.read_body().startswith("---\ndescription")


def test_invalid_yaml_skips_field_checks(tree: Tree) -> None:
    tree.skill("bad", '---\nname: bad\ndescription: "open\n---\n')
    assert codes(tree.load()) == ["yaml-invalid"]


def test_layout_diagnostics(tree: Tree) -> None:
    root = tree.skills()
    tree.skill("good", GOOD)
    lower = write(root / "lower" / "skill.md", GOOD)
    loose = write(root / "loose.md", "# loose\n")
    top = write(root / "SKILL.md", GOOD)
    deep = write(root / "group" / "inner" / "SKILL.md", GOOD)
    (root / "empty-folder").mkdir()
    readme = write(root / "README.md", "# Skills\n")
    write(root / ".hidden" / "x" / "SKILL.md", GOOD)
    catalog = tree.load()
    assert set(catalog.skills) == {"good"}
    assert _diag(catalog, "skill-file-lowercase").path == lower
    assert {d.path for d in catalog.diagnostics if d.code == "loose-markdown"} == {loose, top, readme}
    # Hidden folders are searched as Claude Code 2.1.328 searches them: `.hidden/x/` is too deep too.
    assert {d.path for d in catalog.diagnostics if d.code == "too-deep"} >= {deep}
    assert _diag(catalog, "not-a-skill-dir").path == root / "empty-folder"


def test_nested_deeper_than_the_bound_is_not_searched(tree: Tree) -> None:
    deep = tree.skills() / "a" / "b" / "c" / "d" / "e" / "f" / "g" / "SKILL.md"
    write(deep, GOOD)
    catalog = tree.load()
    assert "too-deep" not in codes(catalog)
    assert "not-a-skill-dir" in codes(catalog)


def test_symlinks(tree: Tree) -> None:
    root = tree.skills()
    target = tree.skill("real", GOOD.replace("good", "real"))
    os.symlink(target.parent, root / "zz-alias")  # sorted after "real": the real one is read first
    os.symlink(root / "nowhere", root / "dangling")
    os.symlink(root / "self", root / "self")
    (root / "loop").mkdir()
    os.symlink(root / "loop", root / "loop" / "back")
    catalog = tree.load()
    assert "real" in catalog.skills and "zz-alias" not in catalog.skills
    dup = _diag(catalog, "duplicate-file")
    assert dup.path == root / "zz-alias" / "SKILL.md"
    assert _diag(catalog, "broken-symlink").path == root / "dangling"
    cycles = {d.path for d in catalog.diagnostics if d.code == "symlink-cycle"}
    assert cycles == {root / "self", root / "loop" / "back"}


def test_symlinked_skill_in_two_tiers_is_loaded_once(tree: Tree) -> None:
    target = tree.skill("shared", GOOD.replace("good", "shared"), tier="user")
    tree.skills().mkdir(parents=True)
    os.symlink(target.parent, tree.skills() / "shared")
    catalog = tree.load()
    assert catalog.skills["shared"].source.kind.value == "user"
    assert catalog.shadowed == ()
    assert codes(catalog) == ["duplicate-file"]


def test_directory_bound_stops_explaining_never_loading(tree: Tree) -> None:
    # Recorded: load_many_mixed (2,100 skills after 2,100 empty folders all load).
    root = tree.skills()
    for i in range(MAX_DIRS_PER_ROOT + 5):
        (root / f"d{i:05d}").mkdir(parents=True)
    tree.skill("zzz-after-bound", GOOD.replace("good", "zzz-after-bound"))
    catalog = tree.load()
    assert "scan-limit" in codes(catalog)
    assert "zzz-after-bound" in catalog.skills
    assert sum(d.code == "not-a-skill-dir" for d in catalog.diagnostics) == MAX_DIRS_PER_ROOT


def test_unreadable_file_and_folder() -> None:
    base = Path(tempfile.mkdtemp(prefix="skilldeck-perm-"))
    try:
        base.chmod(0o755)
        skills = base / "proj" / ".claude" / "skills"
        write(skills / "fine" / "SKILL.md", GOOD.replace("good", "fine"))
        secret = write(skills / "secret" / "SKILL.md", GOOD.replace("good", "secret"))
        locked = skills / "locked"
        write(locked / "inner" / "SKILL.md", GOOD)
        for folder in (base / "proj", base / "proj" / ".claude", skills, skills / "fine", skills / "secret"):
            folder.chmod(0o755)
        (skills / "fine" / "SKILL.md").chmod(0o644)
        secret.chmod(0o000)
        locked.chmod(0o000)
        loc = Locations(project=base / "proj", user_dir=base / "u", managed_dir=base / "m", bundled=False, environ={})

        def load() -> dict[str, object]:
            catalog = Workspace(loc).load()
            return {"skills": list(catalog.skills), "diags": [d.to_dict() for d in catalog.diagnostics]}

        result = run_as_nobody(load)
        assert "error" not in result, result
        skills_loaded, diags = result["skills"], result["diags"]
        unreadable = {d["path"]: d for d in diags if d["code"] == "unreadable"}
        assert set(unreadable) == {str(secret), str(locked)}
        assert all(d["severity"] == "error" and d["hint"] for d in unreadable.values())
        assert skills_loaded == ["fine"]
    finally:
        for p in base.rglob("*"):
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        for p in (secret, locked):
            p.chmod(0o755)
        import shutil

        shutil.rmtree(base)


def test_every_code_has_a_meaning() -> None:
    assert all(CODES.values())
    assert "yaml-invalid" in CODES and "plugin-manifest" in CODES


WIDE_TEXT = "---\nname: wide\ndescription: Says hi.\n---\nBody\n"


@pytest.mark.parametrize(
    ("data", "encoding", "source"),
    [
        (b"\xff\xfe" + WIDE_TEXT.encode("utf-16-le"), "UTF-16LE", "UTF-16"),
        (b"\xfe\xff" + WIDE_TEXT.encode("utf-16-be"), "UTF-16BE", "UTF-16"),
        (WIDE_TEXT.encode("utf-16-le"), "UTF-16LE", "UTF-16LE"),
        (WIDE_TEXT.encode("utf-16-be"), "UTF-16BE", "UTF-16BE"),
        (b"\xff\xfe\x00\x00" + WIDE_TEXT.encode("utf-32-le"), "UTF-32LE", "UTF-32"),
        (WIDE_TEXT.encode("utf-32-be"), "UTF-32BE", "UTF-32BE"),
    ],
    ids=["utf16le-bom", "utf16be-bom", "utf16le", "utf16be", "utf32le-bom", "utf32be"],
)
def test_a_utf16_or_utf32_file_gets_the_hint_that_converts_it(tree: Tree, data: bytes, encoding: str, source: str) -> None:
    """A SKILL.md saved as UTF-16 or UTF-32 (by its byte-order mark, or by where its NUL bytes
    fall) is named so, with the iconv line that converts it, not the latin1 one."""
    tree.skill("wide", data)
    found = _diag(tree.load(), "not-utf8")
    # Claude Code reads it as UTF-8 and lists it by its folder's name (recorded: encoding_wide).
    assert (
        encoding in found.message
        and "Claude Code reads every file as UTF-8" in found.message
        and "lists this as `wide: " in found.message
    )
    assert f"iconv -f {source} -t UTF-8" in (found.hint or "") and "latin1" not in (found.hint or "")


def test_latin1_keeps_its_hint_and_a_few_nul_bytes_are_not_utf16(tree: Tree) -> None:
    tree.skill("latin", b"---\nname: latin\ndescription: caf\xe9 \x00\x00 bytes\n---\nbody\n" + b"x" * 200)
    assert "iconv -f latin1" in (_diag(tree.load(), "not-utf8").hint or "")
