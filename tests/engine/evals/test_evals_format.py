"""Eval files: skilldeck's YAML, skill-creator's trigger JSON, and every way a file can be wrong,
each a problem naming the file, the line and what to do, never an exception."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine import EvalProblem, Workspace, eval_files, load_evals
from engine.evals import parse_evals
from engine.evals.format import MAX_EVAL_BYTES
from tests.conftest import Tree, skill_text, write


def _tree(tree: Tree) -> None:
    tree.skill("deploy", skill_text(name="deploy", description="Deploy the app."))
    tree.skill("lint", skill_text(name="lint", description="Fix lint errors."))
    tree.skill("manual", skill_text(name="manual", description="By hand.", disable__model__invocation="true"))


def _load(tree: Tree, *paths: Path):  # type: ignore[no-untyped-def]
    ws = Workspace(tree.locations())
    catalog = ws.load()
    return load_evals(ws.locations, catalog, paths, ws.listing(catalog))


def _problems(text: str, name: str = "evals.yaml", skill: str | None = None) -> list[tuple[int | None, str]]:
    _, problems = parse_evals(text, Path(name), skill)
    return [(p.line, p.message) for p in problems]


def test_skilldecks_format_expect_none_and_avoid(tree: Tree) -> None:
    _tree(tree)
    write(tree.project / ".claude" / "skill-evals.yaml", """\
        requests:
          - request: ship it
            expect: deploy
          - request: what is 2+2
            expect: none
          - prompt: a poem
            avoid: deploy
            id: poem
          - just a string with no skill
        """)  # fmt: skip
    found = _load(tree)
    assert [(c.request, c.expect, c.avoid, c.line) for c in found.cases] == [
        ("ship it", "deploy", None, 2), ("what is 2+2", None, None, 4), ("a poem", None, "deploy", 6)]  # fmt: skip
    assert found.cases[2].id == "poem" and found.cases[0].id == "skill-evals.yaml:2"
    assert [(p.line, p.message) for p in found.problems] == [(9, "request 4 says no skill")]
    assert not found.ok and "add expect: <skill> (or expect: none)" in str(found.problems[0])
    assert found.cases[1].met(None) and not found.cases[1].met("lint") and found.cases[2].met("lint")


def test_files_beside_a_skill_default_to_it_and_read_skill_creators_json(tree: Tree) -> None:
    _tree(tree)
    write(tree.skills() / "deploy" / "evals.yaml", "- ship it\n- request: lint this\n  should_trigger: false\n")
    write(tree.skills() / "lint" / "evals" / "evals.json",
          '[{"query": "fix the lint", "should_trigger": true},\n {"query": "deploy now", "should_trigger": false}]')  # fmt: skip
    found = _load(tree)
    assert found.ok, found.problems
    assert [(c.request, c.expect, c.avoid) for c in found.cases] == [
        ("ship it", "deploy", None), ("lint this", None, "deploy"), ("fix the lint", "lint", None), ("deploy now", None, "lint")]  # fmt: skip
    assert found.cases[3].line == 2
    # A user's skill's eval file is read only when named: a run in any project should not pay for it.
    tree.skill("mine", skill_text(name="mine", description="Mine."), tier="user")
    write(tree.skills("user") / "mine" / "evals.yaml", "- do my thing\n")
    assert len(_load(tree).cases) == 4
    named = _load(tree, tree.skills("user") / "mine" / "evals.yaml")
    assert named.ok and [(c.request, c.expect) for c in named.cases] == [("do my thing", "mine")]
    ws = Workspace(tree.locations())
    assert [(p.name, s) for p, s in eval_files(ws.locations, ws.load())] == [("evals.yaml", "deploy"), ("evals.json", "lint")]


def test_skill_creators_evals_object_form(tree: Tree) -> None:
    _tree(tree)
    path = write(tree.root / "x.json", '{"skill_name": "lint", "evals": [{"id": 1, "prompt": "tidy imports", '
                 '"expected_output": "clean", "files": [], "expectations": ["no unused imports"]}]}')  # fmt: skip
    found = _load(tree, path)
    assert found.ok and [(c.request, c.expect) for c in found.cases] == [("tidy imports", "lint")]


def test_names_are_checked_against_the_catalog(tree: Tree) -> None:
    _tree(tree)
    path = write(tree.root / "e.yaml", "requests:\n  - request: a\n    expect: deplyo\n  - request: b\n    expect: manual\n"
                 "  - request: a\n    expect: deplyo\n  - request: c\n    expect: lint\n  - request: c\n    expect: lint\n")  # fmt: skip
    found = _load(tree, path)
    shown = [str(p) for p in found.problems]
    assert shown[0] == f"{path}:2: no skill is named deplyo (did you mean deploy?)"
    assert "manual is not in the listing (disable-model-invocation)" in shown[1]
    assert any("the same request as e.yaml:8; counted once" in s for s in shown)
    assert [c.request for c in found.cases] == ["b", "c"]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("requests:\n  - request: a\n    expect:\n", 3, "expect: is empty"),
        ("requests:\n  - request: a\n    expect: x\n    avoid: y\n", 2, "both expect: and avoid:"),
        ("requests:\n  - expect: x\n", 2, "has no request text"),
        ("requests:\n  - request: [a, b]\n    expect: x\n", 2, "the request is empty or not a text"),
        ("requests:\n  - request: a\n    avoid: none\n", 3, "avoid: needs a skill's name"),
        ("requests:\n  - request: a\n    should_trigger: maybe\n", 3, "should_trigger is not true or false"),
        ("requests:\n  - request: a\n    should_trigger: true\n", 2, "should_trigger needs to know which skill"),
        ("requests:\n  - [1, 2]\n", 2, "is a list, not a request"),
        ("requests: 7\n", 1, "the requests are not a list"),
        ("other: 1\n", 1, "no `requests:` list"),
        ("requests:\n  - request: 'a\n", 3, "not valid YAML"),
    ],
)
def test_each_mistake_names_its_line(text: str, line: int, words: str) -> None:
    problems = _problems(text)
    assert any(at == line and words in message for at, message in problems), problems


def test_json_mistakes_name_their_line() -> None:
    assert _problems('[\n{"query": "a",\n "should_trigger": tru}\n]', "evals.json", "x")[0] == (
        3,
        "not valid JSON: Expecting value",
    )
    assert _problems('[{"query": "a"}, {"query": 5, "should_trigger": "yes"}]', "evals.json", "x") == [
        (1, "request 2: should_trigger is not true or false")]  # fmt: skip


def test_warnings_keep_the_case() -> None:
    cases, problems = parse_evals("requests:\n  - request: a\n    expect: x\n    colour: red\nextra: 1\n", Path("e.yaml"))
    assert len(cases) == 1 and {p.severity for p in problems} == {"warning"} and len(problems) == 2


def test_hostile_files_are_problems_not_crashes(tree: Tree) -> None:
    _tree(tree)
    fifo = tree.root / "fifo.yaml"
    os.mkfifo(fifo)
    huge = write(tree.root / "huge.yaml", "requests:\n" + "  - request: x\n    expect: none\n" * (MAX_EVAL_BYTES // 20))
    binary = write(tree.root / "bin.yaml", b"requests:\n  - request: \xff\xfe\n")
    deep = write(tree.root / "deep.yaml", "requests: " + "[" * 5000 + "]" * 5000 + "\n")
    bomb = write(tree.root / "bomb.yaml", "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                 + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                           for p, c in zip("abcdefg", "bcdefgh", strict=False)) + "requests: *h\n")  # fmt: skip
    deep_json = write(tree.root / "deep.json", "[" * 5000 + "]" * 5000)
    folder = tree.root / "folder.yaml"
    folder.mkdir()
    found = _load(tree, fifo, huge, binary, deep, bomb, deep_json, folder, tree.root / "absent.yaml")
    by_file = {p.path.name: p for p in found.problems}
    assert "FIFO" in by_file["fifo.yaml"].message and "larger than" in by_file["huge.yaml"].message
    assert by_file["bin.yaml"].message == "not UTF-8 (byte 23)" and by_file["bin.yaml"].line == 2
    assert "nests more than" in by_file["deep.yaml"].message and "expand to more than" in by_file["bomb.yaml"].message
    assert "nests too deep" in by_file["deep.json"].message and "folder" in by_file["folder.yaml"].message
    assert by_file["absent.yaml"].message == "no such file"
    assert found.cases == ()


def test_random_bytes_never_raise() -> None:
    rng = random.Random(20)
    pieces = ["requests:", "\n", "  - ", "request: ", "expect: ", "avoid: ", "none", "x", "[", "]", "{", "}", ":", "&a ", "*a",
              '"', "'", "\t", "- ", "#", "!!int ", "!!binary ", "? ", "|\n", "\x00", "\ufeff", "query", "true"]  # fmt: skip
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
        for name in ("e.yaml", "e.json"):
            cases, problems = parse_evals(text, Path(name), rng.choice([None, "x"]))
            assert all(isinstance(p, EvalProblem) for p in problems) and all(c.request.strip() for c in cases)


def test_no_eval_file_is_a_problem_that_says_what_to_write(tree: Tree) -> None:
    _tree(tree)
    found = _load(tree)
    assert not found.ok and "write .claude/skill-evals.yaml" in found.problems[0].hint
