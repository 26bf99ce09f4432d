"""Issue 32, item 3: a rule or a wildcard written by a stranger is matched in linear time, and
a settings file of 100,000 rules is indexed, not tried rule by rule.

Before: every `*` became `.*` in a backtracking regular expression, so one 40-byte deny rule,
`Bash(*e*e*e*e*e*e*e*e*e*e*e*e*e*Q)`, never answered for `echo eeee…` (Claude Code 2.1.328 hangs
too), a model's `cat *a*a…Q` hung on a file named `aaaa…`, and 100,000 deny rules took 53 s
for one `check`. The matchers are held here against the regular expressions they replace, on
every small pattern and text, so the semantics did not move.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Permissions, read_settings
from engine.base.globmatch import Pattern, StarGlob, TooComplex
from engine.permissions.pathreach import MAX_GLOB_CHARS, glob_pattern, shell_part_pattern
from engine.permissions.ruleindex import RuleIndex
from engine.permissions.rules import _path_pattern, bash_glob
from engine.permissions.settings import PlacedRule, parse_rule
from tests.conftest import Tree, write

SEED = 32


def _old_bash(spec: str) -> re.Pattern[str]:
    """The regular expression a Bash rule was before (its meaning is the reference)."""
    glob = lambda text: ".*".join(re.escape(part) for part in text.split("*"))  # noqa: E731
    if spec.endswith(":*"):
        spec = spec[:-2] + " *"
    if spec.endswith(" *"):
        return re.compile(glob(spec[:-2]) + r"(?:\s.*)?", re.S)
    return re.compile(glob(spec), re.S)


def test_bash_rules_match_as_the_regular_expressions_did() -> None:
    texts = ["".join(t) for n in range(6) for t in itertools.product("ab \t", repeat=n)]
    specs = ["".join(s) for n in range(1, 5) for s in itertools.product("ab *", repeat=n)] + ["a:*", "ab:*", "*:*"]
    for spec in specs:
        old, new = _old_bash(spec), bash_glob(spec)
        for text in texts:
            assert new.fullmatch(text) == (old.fullmatch(text) is not None), (spec, text)


def _old_path(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            out.append({"*": "[^/]*", "?": "[^/]"}.get(pattern[i], re.escape(pattern[i])))
            i += 1
    regex = "".join(out)
    return re.compile(("(?:.*/)?" if "/" not in pattern else "") + regex + "(?:/.*)?", re.S)


def test_path_rules_match_as_the_regular_expressions_did() -> None:
    rng = random.Random(SEED)
    texts = ["".join(t) for n in range(7) for t in itertools.product("a/b", repeat=n)]
    for _ in range(600):
        pattern = "".join(rng.choice(["a", "b", "/", "*", "**", "**/", "?"]) for _ in range(rng.randint(1, 5)))
        old, new = _old_path(pattern), _path_pattern(pattern, True)
        for text in texts:
            assert new.fullmatch(text) == (old.fullmatch(text) is not None), (pattern, text)


def test_shell_and_tool_globs_keep_their_meaning() -> None:
    part = shell_part_pattern("[[:alpha:]]?c*\\*[!x]")
    assert part is not None
    assert part.fullmatch("abcdd*y") and part.fullmatch("_bc*z") and not part.fullmatch("abcd*x")
    assert not part.fullmatch("abc")
    assert glob_pattern("src/**/*.{py,md}").fullmatch("src/a/b/c.md")
    assert glob_pattern("src/**/*.{py,md}").fullmatch("src/c.py")
    assert not glob_pattern("src/**/*.{py,md}").fullmatch("src/c.txt")
    assert glob_pattern("*.{a,{b,c}}", anywhere=True).fullmatch("x/y/z.c")
    assert not glob_pattern("*.{a,{b,c}}").fullmatch("x/z.c")
    assert glob_pattern("{x").fullmatch("x") and glob_pattern("a}").fullmatch("a}")


def test_many_wildcards_cost_the_text_times_the_pattern() -> None:
    # Counted in steps, not timed: each state of the automaton is tried at most once per
    # character. The backtracking expression tried C(60, 13) placements of the 13 stars.
    stars = "*e" * 13 + "*Q"
    assert not bash_glob(stars).fullmatch("echo " + "e" * 60)
    assert not StarGlob(stars, tail=True).fullmatch("echo " + "e" * 60 + " x")
    pattern = shell_part_pattern("*a" * 14 + "Q")
    assert pattern is not None and not pattern.fullmatch("a" * 255)
    assert not _path_pattern("*a" * 14 + "Q", True).fullmatch("x/" + "a" * 4000)
    assert Pattern([]).fullmatch("") and not Pattern([]).fullmatch("x")


def _check(tree: Tree, call: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "tui.cli.main", "check", call, "--project", str(tree.project)]
    args += ["--user-dir", str(tree.user), "--managed-dir", str(tree.managed), "--no-bundled"]
    # A bound for a hang, not a measure: the check answers in well under a second.
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def test_a_forty_byte_deny_rule_answers_for_a_matching_command(tree: Tree) -> None:
    rules = ["Bash(*e*e*e*e*e*e*e*e*e*e*e*e*e*Q)", "Read(*a*a*a*a*a*a*a*a*a*a*a*a*a*Q)"]
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"deny": rules}}))
    write(tree.project / ("a" * 200), "")
    out = _check(tree, "Bash(echo " + "e" * 60 + ")")
    assert out.returncode == 0 and out.stdout.startswith("allow"), out.stdout + out.stderr
    out = _check(tree, "Bash(echo " + "e" * 60 + "Q)")
    assert out.returncode == 2 and "*Q)" in out.stdout, out.stdout + out.stderr
    # A model's wildcard against a hostile file name (the shell's own expansion of it).
    out = _check(tree, "Bash(cat " + "*a" * 14 + "Q)")
    assert out.returncode in (0, 1, 2) and "Traceback" not in out.stderr


def _many(count: int) -> list[PlacedRule]:
    texts = [f"Bash(tool{i} *)" for i in range(count)] + ["Bash(*secret*)", "mcp__srv", "Read(./x/**)"]
    return [PlacedRule(rule, "deny", None, "project") for rule in map(parse_rule, texts) if rule is not None]


def test_a_call_meets_only_the_rules_that_could_cover_it() -> None:
    index = RuleIndex(_many(100_000))
    assert [p.text for p in index.candidates("Bash", {"command": "echo hi"})] == ["Bash(*secret*)"]
    assert [p.text for p in index.candidates("Bash", {"command": "TOOL77 --x"})] == ["Bash(tool77 *)", "Bash(*secret*)"]
    assert [p.text for p in index.candidates("mcp__srv__go", {})] == ["mcp__srv"]
    assert [p.text for p in index.candidates("Grep", {})] == ["Read(./x/**)"]
    assert index.candidates("Write", {}) == []


def test_a_hundred_thousand_rules_still_decide_in_order(tree: Tree) -> None:
    deny = [f"Bash(tool{i} *)" for i in range(50_000)] + [f"Read(./secret{i}/**)" for i in range(50_000)]
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"deny": deny, "ask": ["Bash(tool7 x)"]}}))
    perms = Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")
    assert perms.decide("Bash", {"command": "tool49999 go"}).rule.text == "Bash(tool49999 *)"  # type: ignore[union-attr]
    assert perms.decide("Bash", {"command": "tool7 x"}).decision == "deny"
    assert perms.decide("Read", {"file_path": str(tree.project / "secret4999" / "k")}).decision == "deny"
    assert perms.decide("Read", {"file_path": str(tree.project / "secret" / "k")}).decision == "allow"
    assert perms.decide("Bash", {"command": "echo hi"}).decision == "allow"


def test_the_path_rule_prefilter_keeps_home_and_case(tree: Tree) -> None:
    home = tree.root / "home"
    write(
        tree.project / ".claude" / "settings.json",
        json.dumps({"permissions": {"deny": ["Read(~/notes.txt)", "Read(./Secrets/**)"]}}),
    )
    perms = Permissions(read_settings(tree.locations()), tree.project, home=home)
    assert perms.decide("Read", {"file_path": str(home / "notes.txt")}).decision == "deny"
    # A deny holds whatever the case (a case-insensitive disk opens either).
    assert perms.decide("Read", {"file_path": str(tree.project / "SECRETS" / "k")}).decision == "deny"
    assert perms.decide("Read", {"file_path": str(Path(tree.project / "other"))}).decision == "allow"


# The second attack (issue 32): hostile names and long patterns must cost bounded memory, and a
# flood of rules that begin with a wildcard a bounded number of tests.


def test_a_pattern_keeps_bounded_state_whatever_the_names_it_meets() -> None:
    rng = random.Random(SEED)
    pattern = shell_part_pattern("*a" + "[ab]" * 200 + "*")
    assert pattern is not None
    names = ["".join(rng.choice("ab") for _ in range(200)) for _ in range(300)]
    assert not any(pattern.fullmatch(name) for name in names)
    (flat,) = pattern._flats
    assert len(flat._steps) <= flat._room and len(flat._masks) <= 512
    rule = _path_pattern("*a" * 6000 + "*Q", True)
    assert not rule.fullmatch("aQ" + "a" * 6000)
    assert all(len(f._steps) <= f._room for f in rule._flats) and rule._flats[0]._room < 8192


def test_globs_past_the_bounds_are_refused_or_asked() -> None:
    with pytest.raises(TooComplex):
        glob_pattern("a" * (MAX_GLOB_CHARS + 1))
    with pytest.raises(TooComplex):
        glob_pattern("{a,b}" * 9)  # 512 alternatives
    assert glob_pattern("{a,b}" * 8).fullmatch("ab" * 4)
    assert shell_part_pattern("?" * 2000) is None


def test_a_flood_of_wildcard_rules_is_asked_not_tried_forever(tree: Tree) -> None:
    deny = [f"Bash(*tok{i:06d}*)" for i in range(100_000)]
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"deny": deny}}))
    perms = Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")
    decision = perms.decide("Bash", {"command": ";".join(["echo x"] * 1000)})
    assert decision.decision == "ask" and "rule tests" in decision.reason
    assert perms.decide("Bash", {"command": "echo tok000042"}).decision == "deny"


def test_rules_without_a_whole_first_word_are_filed_by_their_start() -> None:
    texts = ["Bash(rsync*)", "Bash(ls)", "Bash(*x*)", "mcp__github_", "mcp__git"]
    index = RuleIndex([PlacedRule(r, "deny", None, "user") for r in map(parse_rule, texts) if r is not None])
    assert [p.text for p in index.candidates("Bash", {"command": "echo hi"})] == ["Bash(*x*)"]
    assert [p.text for p in index.candidates("Bash", {"command": "RSYNC -a x y"})] == ["Bash(rsync*)", "Bash(*x*)"]
    assert [p.text for p in index.candidates("Bash", {"command": "ls"})] == ["Bash(ls)", "Bash(*x*)"]
    # A server whose name ends in `_`: `mcp__github_` covers `mcp__github___create_issue`.
    assert [p.text for p in index.candidates("mcp__github___create_issue", {})] == ["mcp__github_"]


def test_the_prefilter_keeps_what_the_matcher_matches(tree: Tree) -> None:
    rules = ["Read(a**/b)", "Read(./.)"]
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"deny": rules}}))
    perms = Permissions(read_settings(tree.locations()), tree.project, home=tree.root / "home")
    assert perms.decide("Read", {"file_path": str(tree.project / "ab")}).decision == "deny"
    assert perms.decide("Glob", {"pattern": "x", "path": str(tree.project)}).decision == "deny"
