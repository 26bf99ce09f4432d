"""A hostile ~/.claude.json, settings and environment against the listing (issue 14): every value
either reads as Claude Code reads it or is skipped; nothing raises, nothing takes long."""

from __future__ import annotations

import difflib
import json
import math
import random
import time
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Catalog, Diagnostic, Severity, Workspace, build_listing, trace_why
from engine.listing.build import ENTRY_TEXT_CAP, env_number, listing_budget, usage_scores, utf16_cut, valid_label
from engine.permissions.trust import claude_config, workspace_trust
from engine.why.find import close_names
from tests.conftest import Tree, skill_text

DAY_MS = 86_400_000


def test_a_radix_budget_past_the_float_range_is_infinity() -> None:
    # JavaScript's Number("0x" + "f" * 300) is Infinity; Python's float(int) raised OverflowError.
    assert env_number("0x" + "f" * 300) == math.inf
    assert env_number("0b" + "1" * 20_000) == math.inf
    assert listing_budget({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "0o" + "7" * 400}).chars == math.inf


def test_a_long_budget_variable_is_read_in_linear_time() -> None:
    # The old pattern let a run of digits split at every point: 30,000 digits took about 20 s.
    started = time.perf_counter()
    assert math.isnan(env_number("1" * 30_000 + "x"))
    assert math.isnan(env_number("1" * 15_000 + "." + "1" * 15_000 + "x"))
    assert time.perf_counter() - started < 1.0
    assert env_number("1" * 400) == math.inf  # a Number() past the range, as JavaScript reads it


def test_budget_variables_that_read_as_zero_or_nothing_fall_back() -> None:
    for raw in ("-0", "  ", "", "\t\n", "0x", "1e", "--1", "x" * 10_000):
        assert listing_budget({"SLASH_COMMAND_TOOL_CHAR_BUDGET": raw}).chars == listing_budget({}).chars, raw
    assert listing_budget({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1e308"}).chars == 1e308
    assert listing_budget({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1e999"}).chars == math.inf


def test_usage_counts_and_times_past_the_float_range_score_as_javascript_does() -> None:
    now = 1_700_000_000_000.0
    usage = {
        # A last use far in the future: Math.pow(0.5, -huge) is Infinity; Python's ** raised.
        "future": {"usageCount": 2, "lastUsedAt": 1e300},
        # An integer past the float range: float() raised OverflowError. JSON.parse reads Infinity,
        # and Claude Code's write-back at start makes it null, which scores 0 (attack_usage_overflow).
        "huge": {"usageCount": 10**400, "lastUsedAt": now},
        "huge-time": {"usageCount": 3, "lastUsedAt": 10**400},
        "ancient": {"usageCount": 5, "lastUsedAt": -(10**400)},
        "negative": {"usageCount": -3, "lastUsedAt": now},
        "text": {"usageCount": "9", "lastUsedAt": now},
        "nested": {"usageCount": [[[1]]], "lastUsedAt": {"a": 1}},
    }
    scores = usage_scores(usage, now)
    assert scores["future"] == math.inf
    assert scores["huge"] == 0
    assert scores["huge-time"] == 3 * 0.1  # a last use at 0: long ago, the floor
    assert scores["ancient"] == 0.5  # the floor: a tenth of the count
    assert scores["negative"] == -3
    assert "text" not in scores and "nested" not in scores


def test_a_config_nested_deeper_than_settings_may_be_still_gives_its_usage(tree: Tree) -> None:
    # JSON.parse reads a config with 100 levels of history; the settings' nesting bound (64)
    # made skilldeck drop the whole file and with it every usage score.
    deep: object = "x"
    for _ in range(100):
        deep = [deep]
    config = {
        "projects": {str(tree.project): {"hasTrustDialogAccepted": True, "history": deep}},
        "skillUsage": {"beta": {"usageCount": 50, "lastUsedAt": 1_700_000_000_000}},
    }
    tree.trust_file.write_text(json.dumps(config))
    assert claude_config(tree.locations())["skillUsage"] == config["skillUsage"]
    assert workspace_trust(tree.locations()).trusted
    # Only what skilldeck reads is kept: the history is not held for as long as the app runs.
    assert "history" not in json.dumps(claude_config(tree.locations()))


def test_a_config_too_deep_to_parse_is_empty_and_untrusted(tree: Tree) -> None:
    tree.trust_file.write_text('{"skillUsage": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert claude_config(tree.locations()) == {}
    assert not workspace_trust(tree.locations()).trusted


def test_a_hundred_thousand_usage_records_order_only_the_catalogs_skills(tree: Tree) -> None:
    for name in ("alpha", "beta", "gamma"):
        tree.skill(name, skill_text(description=f"{name} " * 20))
    now = 1_700_000_000_000
    usage = {f"other-{i}": {"usageCount": i, "lastUsedAt": now} for i in range(100_000)}
    usage["gamma"] = {"usageCount": 9, "lastUsedAt": now}
    usage["beta"] = {"usageCount": 1e308, "lastUsedAt": 1e300}
    tree.trust_file.write_text(
        json.dumps({"projects": {str(tree.project): {"hasTrustDialogAccepted": True}}, "skillUsage": usage})
    )
    workspace = Workspace(tree.locations(bundled=False))
    catalog = workspace.load()
    full = workspace.listing(catalog, budget=100_000, now_ms=now)
    # Room for exactly one description beyond the names: the most used (an infinite score) wins.
    names_only = sum(len(f"- {e.name}") for e in full.entries) + len(full.entries) - 1
    one = len(full.entry("beta").full_line) - len("- beta")  # type: ignore[union-attr]
    listing = workspace.listing(catalog, budget=names_only + one, now_ms=now)
    assert [e.name for e in listing.entries if not e.trimmed] == ["beta"]
    assert listing.entry("beta").score == math.inf  # type: ignore[union-attr]
    assert listing.entry("gamma").score == 9  # type: ignore[union-attr]


def test_did_you_mean_over_many_long_similar_names_is_bounded() -> None:
    # difflib's full ratio costs the product of the lengths: 15,000 names of 120 characters
    # made of two letters took about 25 s for one misspelled `skilldeck why`.
    rng = random.Random(7)
    names = sorted({"".join(rng.choice("ab") for _ in range(120)) for _ in range(15_000)})
    query = "".join(rng.choice("ab") for _ in range(120))
    started = time.perf_counter()
    found = close_names(query, names)
    assert time.perf_counter() - started < 5.0
    assert len(found) == 3 and all(name in names for name in found)


def test_did_you_mean_agrees_with_difflib_on_ordinary_names() -> None:
    rng = random.Random(11)
    for _ in range(500):
        alphabet = rng.choice(["ab", "abcdefgh", "deploy-test"])
        names = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(200)})
        query = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        assert close_names(query, names) == difflib.get_close_matches(query, names, n=3, cutoff=0.6), query


def test_a_misspelled_name_still_gets_suggestions(tree: Tree) -> None:
    tree.skill("deploy-prod", skill_text(description="Ships."))
    workspace = Workspace(tree.locations())
    catalog = workspace.load()
    result = trace_why(workspace, catalog, "deploy-prd")
    assert result.suggestions == ("deploy-prod",)
    assert "did you mean /deploy-prod" in result.verdict


def test_the_ascii_shortcut_for_labels_keeps_the_rules() -> None:
    # An ASCII name is checked with one pattern (15,000 labels checked a character at a time cost
    # 0.1 s of each reload); the answers stay those of the character rule.
    assert valid_label("a-b_c:d.e9") and valid_label("é-ü") and valid_label("n" * 256)
    assert not valid_label("n" * 257) and not valid_label("a b") and not valid_label("a/b") and not valid_label("")
    assert not valid_label("a\x1b") and not valid_label("a\u202e")


def _cut_reference(text: str, units: int) -> str:
    """JavaScript's slice by UTF-16 units, a character at a time; half a pair becomes U+FFFD."""
    out, used = [], 0
    for ch in text:
        size = 2 if ord(ch) > 0xFFFF else 1
        if used + size > units:
            return "".join(out) + ("\ufffd" if used < units else "")
        out.append(ch)
        used += size
    return "".join(out)


def test_the_utf16_cut_agrees_with_a_slice_by_units() -> None:
    rng = random.Random(3)
    alphabet = ["a", "é", "😀", "\u0301", "<", "𝔸", "\ufffd"]
    for _ in range(5_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        units = rng.randint(0, 25)
        assert utf16_cut(text, units, half="\ufffd") == _cut_reference(text, units), (text, units)


def test_huge_descriptions_are_cut_without_being_escaped_whole(tree: Tree) -> None:
    tree.skill("seed", skill_text(description="x"))
    seed = tree.load().skills["seed"]
    # 1,000 skills whose text is 1,000,000 characters of escapes, emoji and combining marks:
    # escaping and measuring each whole took seconds after every reload.
    texts = ["<😀>" * 250_000, "a" + "\u0301" * 999_999, "é" * 1_000_000]
    skills = [
        replace(seed, name=f"s{i}", display_name=f"s{i}", description=texts[i % 3], when_to_use="<" * 1000) for i in range(1_000)
    ]
    started = time.perf_counter()
    listing = build_listing(skills, budget=10**9)
    assert time.perf_counter() - started < 2.0
    for entry, text in zip(listing.entries[:3], texts, strict=True):
        whole = (text + " - " + "<" * 1000).replace("<", "&lt;").replace(">", "&gt;")
        assert entry.capped and entry.line == f"- {entry.name}: " + _cut_reference(whole, ENTRY_TEXT_CAP - 1) + "…"
    # A text one character over the cap is cut; one at the cap is whole.
    over = build_listing([replace(seed, description="y" * (ENTRY_TEXT_CAP + 1))], budget=10**9).entries[0]
    at = build_listing([replace(seed, description="y" * ENTRY_TEXT_CAP)], budget=10**9).entries[0]
    assert over.capped and over.line == "- seed: " + "y" * (ENTRY_TEXT_CAP - 1) + "…"
    assert not at.capped and at.line == "- seed: " + "y" * ENTRY_TEXT_CAP


def test_a_budget_past_the_float_range_is_infinite_and_its_json_is_valid(tree: Tree) -> None:
    tree.skill("alpha", skill_text(description="Does alpha."))
    workspace = Workspace(tree.locations())
    catalog = workspace.load()
    # `skilldeck listing --budget 1000...` (401 digits): every figure formatted from it raised.
    listing = workspace.listing(catalog, budget=10**400)
    assert listing.budget == math.inf and not listing.over
    assert f"{listing.budget:,g}" == "inf"
    document = json.dumps(listing.to_dict())
    assert json.loads(document, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))["budget"]["chars"] == "Infinity"
    assert "the model sees it as `- alpha: Does alpha.`" in trace_why(workspace, catalog, "alpha", listing=listing).verdict
    # An ordinary budget stays a whole number in JSON.
    assert workspace.listing(catalog, budget=500).to_dict()["budget"]["chars"] == 500


def test_infinite_usage_scores_are_valid_json(tree: Tree) -> None:
    tree.skill("alpha", skill_text(description="Does alpha."))
    usage = {"alpha": {"usageCount": 1, "lastUsedAt": 1e300}}
    tree.trust_file.write_text(json.dumps({"skillUsage": usage}))
    workspace = Workspace(tree.locations())
    document = json.dumps(workspace.listing(workspace.load(), now_ms=0).to_dict())
    entry = json.loads(document, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))["entries"][0]
    assert entry["usage_score"] == "Infinity"


def test_the_label_length_counts_utf16_units() -> None:
    # Claude Code 2.1.328 shows a label only when its JavaScript length (UTF-16 units) is at most
    # 256: `𝔸` (U+1D538, a letter) counts twice.
    assert valid_label("𝔸" * 128)
    assert not valid_label("𝔸" * 129)
    assert not valid_label("𝔸" * 200)  # 200 characters, 400 units


class _CountedPath(type(Path())):  # type: ignore[misc]
    """A path that counts how often it is compared: the work a lookup does, not its duration."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _CountedPath.compared += 1
        return super().__eq__(other)

    __hash__ = Path.__hash__


class _CountedSkills(dict):  # type: ignore[type-arg]
    """The catalog's skills, counting each walk over all of them."""

    walks = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        _CountedSkills.walks += 1
        return super().__iter__()

    def values(self):  # type: ignore[no-untyped-def]
        _CountedSkills.walks += 1
        return super().values()

    def items(self):  # type: ignore[no-untyped-def]
        _CountedSkills.walks += 1
        return super().items()


def _big_catalog(tree: Tree, count: int) -> tuple[Workspace, Catalog]:
    """`count` skills in memory, each `name:` the next one's folder, and a diagnostic for each."""
    tree.skill("seed", skill_text(description="x"))
    workspace = Workspace(tree.locations())
    loaded = workspace.load()
    seed = loaded.skills["seed"]
    skills = {
        f"s{i:05d}": replace(seed, name=f"s{i:05d}", display_name=f"s{(i + 1) % count:05d}", path=tree.root / f"s{i:05d}")
        for i in range(count)
    }
    notes = tuple(
        Diagnostic(Severity.WARNING, "name-mismatch", _CountedPath(tree.root / f"s{i:05d}"), "differs", skill=f"s{i:05d}")
        for i in range(count)
    )
    return workspace, replace(loaded, skills=_CountedSkills(skills), diagnostics=notes)


def test_lookups_on_a_large_catalog_do_not_scan_it(tree: Tree) -> None:
    _, catalog = _big_catalog(tree, 15_000)
    assert catalog.get("S00007") is catalog.skills["s00007"]  # another case finds it
    assert catalog.labelled("s00007") is None  # a name is never a label
    assert catalog.get("/s00003") is catalog.skills["s00003"]
    # The first skill whose name: it is answers to a label no skill is named.
    first, second = (replace(catalog.skills[n], display_name="the-label") for n in ("s00100", "s00200"))
    labelled = replace(catalog, skills={**catalog.skills, "s00100": first, "s00200": second})
    assert labelled.get("the-label") is first and labelled.labelled("the-label") is first
    assert labelled.get("THE-LABEL") is None  # folding finds names, not labels
    # A miss scanned every skill twice (labels, then folded names): 10 ms each on 15,000. Counted
    # as walks over the skills, not timed (a busy machine made a time limit fail).
    catalog.get("missing")  # whatever a first lookup builds once
    walks = _CountedSkills.walks
    for i in range(3_000):
        assert catalog.get(f"missing-{i}") is None
    assert _CountedSkills.walks - walks < 10, "a miss does not walk every skill"


def test_why_on_a_large_catalog_does_not_compare_every_diagnostic(tree: Tree) -> None:
    workspace, catalog = _big_catalog(tree, 15_000)
    listing = workspace.listing(catalog)
    permissions = workspace.permissions()
    # Each trace compared every diagnostic's Path twice: about 18 ms a trace on 15,000. Counted as
    # comparisons, not timed (2.72 s against a 2 s limit on a busy machine).
    compared = _CountedPath.compared
    traces = range(0, 15_000, 37)
    for i in traces:
        result = trace_why(workspace, catalog, f"s{i:05d}", listing=listing, permissions=permissions, kind="name")
        assert result.loads and result.name == f"s{i:05d}"
    assert _CountedPath.compared - compared < len(traces) * 10, "a trace does not compare every diagnostic's path"


def test_only_ascii_digits_make_a_budget() -> None:
    # JavaScript's Number("١٢٣") is NaN and its \d is ASCII; Python's float() reads other scripts' digits.
    default = listing_budget({}).chars
    for raw in ("١٢٣", "１２３４", "٣٠,٠٠٠", "३०००"):
        assert math.isnan(env_number(raw)), raw
        assert listing_budget({"SLASH_COMMAND_TOOL_CHAR_BUDGET": raw}).chars == default, raw
    assert env_number("30,000") == 30_000 and env_number(" 1e3 ") == 1_000


def test_a_config_with_nan_is_no_json_as_claude_code_reads_it(tree: Tree) -> None:
    # JSON.parse rejects NaN and Infinity; Python's json took them, and their usage and trust with them.
    text = json.dumps({"projects": {str(tree.project): {"hasTrustDialogAccepted": True}}, "skillUsage": {}})
    tree.trust_file.write_text(text[:-1] + ', "x": NaN}')
    assert claude_config(tree.locations()) == {}
    assert not workspace_trust(tree.locations()).trusted
    tree.trust_file.write_text(text)
    assert workspace_trust(tree.locations()).trusted
