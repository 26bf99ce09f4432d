"""Issue 14, crashes and hangs: frontmatter that took every command down, or hung it.

Each case is a real skill folder next to a good one: the hostile file becomes a diagnostic on
that file, and the good skill still loads.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.base.bounds import MAX_ALIAS_CHARS, MAX_ALIAS_NODES, MAX_FRONTMATTER_CHARS, MAX_NESTING, yaml_problem
from engine.catalog.frontmatter import parse
from tests.conftest import Tree, codes

GOOD = "---\ndescription: The good one.\n---\nDo it.\n"


def _with_good(tree: Tree, text: str) -> Path:
    tree.skill("good", GOOD)
    return tree.skill("bad", text)


@pytest.mark.parametrize(
    "value",
    ["!!timestamp x", "!!float x", "!!int x", "!!bool x", "!!null x", "!local x", "!!python/object:os.system x"],
)
def test_a_tagged_value_pyyaml_cannot_build_is_the_text_claude_code_reads(tree: Tree, value: str) -> None:
    # Before: ValueError / AttributeError / KeyError out of PyYAML's constructors, through every
    # command (or, for unknown tags, empty metadata). Claude Code 2.1.328 reads each as the
    # text after the tag, silently; skilldeck does the same and says so at the key.
    bad = _with_good(tree, f"---\ndescription: {value}\nuser-invocable: false\n---\nBody line.\n")
    catalog = tree.load()
    assert catalog.skills["bad"].description == "x" and not catalog.skills["bad"].user_invocable
    notes = [d for d in catalog.diagnostics if d.path == bad and d.code == "invalid-value"]
    assert len(notes) == 1 and notes[0].line == 2 and "reads the text `x`" in notes[0].message
    assert not [d for d in catalog.diagnostics if d.path == bad and d.code.startswith("yaml")]
    assert "good" in catalog.skills


@pytest.mark.parametrize(
    ("value", "read"),
    [("2020-02-31", "2020-02-31"), ("1" * 4301, "Infinity"), ("-" + "9" * 5000, "-Infinity")],
    ids=["impossible-date", "4301-digits", "negative"],
)
def test_a_plain_value_python_cannot_build_is_what_claude_code_reads(tree: Tree, value: str, read: str) -> None:
    # Before: ValueError (day out of range; Python's int max-str-digits) through every command.
    # Claude Code's YAML 1.2 has no dates, and reads a number past the largest double as Infinity.
    bad = _with_good(tree, f"---\ndescription: {value}\nuser-invocable: false\n---\nBody line.\n")
    catalog = tree.load()
    assert {"good", "bad"} <= set(catalog.skills)
    assert catalog.skills["bad"].description == read and not catalog.skills["bad"].user_invocable
    assert not [d for d in catalog.diagnostics if d.path == bad and d.code.startswith("yaml")]


def _load_in_child(project: Path, user: Path, managed: Path) -> subprocess.CompletedProcess[str]:
    """A nesting that overflows the C stack kills the process, so the load runs in a child."""
    code = (
        "import sys, pathlib\n"
        "from engine import Locations, Workspace\n"
        "p, u, m = map(pathlib.Path, sys.argv[1:4])\n"
        "c = Workspace(Locations(project=p, user_dir=u, managed_dir=m, bundled=False, environ={})).load()\n"
        "print(sorted(c.skills), sorted({d.code for d in c.diagnostics if d.severity.value == 'error'}))\n"
    )
    args = [sys.executable, "-c", code, str(project), str(user), str(managed)]
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def test_metadata_nested_25000_deep_does_not_kill_the_process(tree: Tree) -> None:
    # Before: a segfault in PyYAML's C composer, at the start of every command and of the app.
    _with_good(tree, "---\ndescription: d\nmetadata: " + "[" * 25_000 + "]" * 25_000 + "\n---\nBody.\n")
    # Past shallow.MAX_FLOW_BRACKETS even the read down to the bound is refused (libyaml's
    # scanner is quadratic in the flow depth); Claude Code reads it (a stated difference).
    out = _load_in_child(tree.project, tree.user, tree.managed)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "['bad', 'good'] ['frontmatter-bounds']"


@pytest.mark.parametrize(
    "block",
    [
        "metadata:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 200)),
        "metadata:\n" + "- " * 5_000 + "x\n",
        "metadata: " + "{a: " * 3_000 + "1" + "}" * 3_000 + "\n",
    ],
    ids=["indented-mappings", "compact-sequences", "flow-mappings"],
)
def test_nesting_past_the_bound_is_read_down_to_the_bound(tree: Tree, block: str) -> None:
    # The composer never sees it (it would recurse once per level); the fields above are read,
    # as Claude Code reads them (recorded: fm_deep_metadata), and a warning says what was left out.
    bad = _with_good(tree, "---\ndescription: d\n" + block + "---\nBody.\n")
    catalog = tree.load()
    assert {"good", "bad"} <= set(catalog.skills)
    assert catalog.skills["bad"].description == "d"
    found = [d for d in catalog.diagnostics if d.path == bad and f"more than {MAX_NESTING} levels" in d.message]
    assert len(found) == 1 and found[0].severity.value == "warning" and found[0].line is not None
    assert catalog.skills["bad"].metadata is not None


def test_nesting_past_the_bound_with_aliases_stays_refused(tree: Tree) -> None:
    # Aliases are what bounds.py counts; the shallow read does not follow them.
    block = "base: &b [x]\nmetadata: " + "[" * 100 + "*b" + "]" * 100 + "\n"
    bad = _with_good(tree, "---\ndescription: d\n" + block + "---\nBody.\n")
    catalog = tree.load()
    found = [d for d in catalog.diagnostics if d.path == bad and d.code == "frontmatter-bounds"]
    assert len(found) == 1 and f"more than {MAX_NESTING} levels" in found[0].message
    assert catalog.skills["bad"].metadata is None


def test_nesting_inside_the_bound_still_parses() -> None:
    text = "metadata:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, MAX_NESTING - 2)) + "description: d\n"
    parsed = parse(text)
    assert parsed.error is None and parsed.data["description"] == "d"


def _bomb(key: str, levels: int = 12) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + f"\n{key}: *a{levels - 1}\n"


@pytest.mark.parametrize("key", ["metadata", "arguments", "disable-model-invocation", "hooks"])
def test_an_alias_bomb_is_refused_and_nothing_expands_it(tree: Tree, key: str) -> None:
    # Before: 9^12 values behind one key; listing, showing or validating it never returned.
    bad = _with_good(tree, "---\ndescription: d\n" + _bomb(key) + "---\nBody.\n")
    started = time.perf_counter()
    catalog = tree.load()
    assert {"good", "bad"} <= set(catalog.skills)
    assert "aliases" in next(d.message for d in catalog.diagnostics if d.path == bad and d.code == "frontmatter-bounds")
    skill = catalog.skills["bad"]
    assert (skill.metadata, skill.arguments, skill.hooks) == (None, (), None)
    assert time.perf_counter() - started < 5


def _text_bomb(key: str, copies: int = 20_000) -> str:
    # One 100,000-character scalar anchored once and named `copies` times: 200 KB on disk.
    return f"big: &t {'x' * 100_000}\n{key}:\n" + "  - *t\n" * copies


def test_aliases_are_charged_for_the_text_they_stand_for() -> None:
    # Before: 20,000 aliases are 20,000 nodes, under the node bound, so the 2 GB they stand for
    # was parsed and walked (99 s and 7.8 GB for list --json).
    text = "description: d\n" + _text_bomb("allowed-tools")
    assert len(text) < MAX_FRONTMATTER_CHARS and MAX_ALIAS_NODES > 20_000
    problem = yaml_problem(text)
    assert problem is not None and f"more than {MAX_ALIAS_CHARS:,} characters" in problem
    assert "line 14 of the block" in problem  # the eleventh alias crossed the bound: where to look
    # Ten copies of the same text are fine (a megabyte in all).
    assert yaml_problem("description: d\n" + _text_bomb("allowed-tools", copies=9)) is None


@pytest.mark.parametrize("key", ["allowed-tools", "arguments", "argument-hint", "when_to_use", "paths"])
def test_a_text_alias_bomb_is_refused_in_every_field(tree: Tree, key: str) -> None:
    bad = _with_good(tree, "---\ndescription: d\n" + _text_bomb(key) + "---\nBody.\n")
    catalog = tree.load()
    assert {"good", "bad"} <= set(catalog.skills)
    found = [d for d in catalog.diagnostics if d.path == bad and d.code == "frontmatter-bounds"]
    assert len(found) == 1 and "characters of text" in found[0].message and found[0].line == 2
    skill = catalog.skills["bad"]
    assert (skill.allowed_tools, skill.arguments, skill.paths, skill.when_to_use) == ((), (), (), None)


def test_aliases_that_claude_code_accepts_still_work() -> None:
    parsed = parse("base: &b [Read, Grep]\nallowed-tools: *b\ndescription: R&D notes\n")
    assert parsed.error is None and parsed.data["allowed-tools"] == ["Read", "Grep"]
    # 100 aliases of a 100-item list: Claude Code 2.1.328 loads it (recorded offline).
    hundred = "x: &s [" + ", ".join(["a"] * 100) + "]\nl: [" + ", ".join(["*s"] * 100) + "]\n"
    parsed = parse(hundred)
    assert parsed.error is None and len(parsed.data["l"]) == 100
    assert MAX_ALIAS_NODES > 100 * 101


def test_the_cli_lists_and_validates_an_alias_bomb_at_once(tree: Tree) -> None:
    # Before: `arguments` turned every one of the 9^12 values into text; no command returned.
    _with_good(tree, "---\ndescription: d\n" + _bomb("arguments") + "---\nBody.\n")
    base = [sys.executable, "-m", "tui.cli.main", "--project", str(tree.project), "--user-dir", str(tree.user)]
    base += ["--managed-dir", str(tree.managed), "--no-bundled"]
    for command in (["list", "--json"], ["validate"], ["show", "bad"]):
        out = subprocess.run([*base, *command], capture_output=True, text=True, timeout=30)
        assert "Traceback" not in out.stderr, out.stderr[-2000:]
        assert "good" in out.stdout or command == ["show", "bad"]


def test_177_kb_of_keys_loads_in_linear_time(tree: Tree) -> None:
    # Before: 19 s, one scan of every key per unknown key's position (quadratic).
    keys = "".join(f"unknown_key_{i:05d}: some value\n" for i in range(6_000))
    assert len(keys) > 177_000
    bad = _with_good(tree, "---\ndescription: d\n" + keys + "---\nBody.\n")
    started = time.perf_counter()
    catalog = tree.load()
    elapsed = time.perf_counter() - started
    assert elapsed < 3, f"{elapsed:.1f} s: a bound, not a benchmark"
    unknown = [d for d in catalog.diagnostics if d.path == bad and d.code == "unknown-field"]
    # Twenty by name, then one that counts the rest (at the first of them).
    assert len(unknown) == 21 and "5,980 more" in unknown[-1].message and unknown[-1].line == 23


def test_a_frontmatter_past_the_size_bound_is_not_parsed(tree: Tree) -> None:
    bad = _with_good(tree, "---\ndescription: d\nx: " + "y" * MAX_FRONTMATTER_CHARS + "\n---\nBody.\n")
    catalog = tree.load()
    assert "bad" in catalog.skills and "frontmatter-bounds" in codes(catalog, bad)


def test_repeated_keys_are_reported_twenty_times_at_most(tree: Tree) -> None:
    bad = _with_good(tree, "---\ndescription: d\n" + "k: v\n" * 5_000 + "---\nBody.\n")
    found = [d for d in tree.load().diagnostics if d.path == bad and d.code == "duplicate-key"]
    assert len(found) == 21 and "4,979 more" in found[-1].message


def _depth(text: str) -> int:
    import yaml

    depth = deepest = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return deepest


def test_the_fast_path_never_lets_a_deep_text_through() -> None:
    # The cheap scan may send a shallow text to the exact check, never a deep one past it.
    import random

    from engine.base.bounds import _yaml_may_be_deep

    rng = random.Random(14)
    deep = 0
    for _ in range(300):
        lines, indent = [], 0
        for level in range(rng.randrange(10, 90)):
            form = rng.randrange(4)
            if form == 0:
                lines.append(" " * indent + f"k{level}:")
                indent += rng.choice((1, 2))
            elif form == 1:
                lines.append(" " * indent + "- " * rng.randrange(1, 4) + f"k{level}:")
                indent = len(lines[-1]) - len(f"k{level}:") + 1
            elif form == 2:
                brackets = rng.randrange(1, 4)
                lines.append(" " * indent + f"f{level}: " + "[" * brackets + "x" + "]" * brackets)
                lines.append(" " * indent + f"k{level}:")
                indent += 1
            else:
                lines.append(" " * indent + f"k{level}:")
                lines.append(" " * indent + "- ")
                indent += 2
        lines.append(" " * indent + "leaf: 1")
        text = "\n".join(lines) + "\n"
        depth = _depth(text)  # the generator writes valid YAML only
        deep += depth >= MAX_NESTING
        assert _yaml_may_be_deep(text) or depth < MAX_NESTING, text
    assert deep > 30  # the property was put to the test
