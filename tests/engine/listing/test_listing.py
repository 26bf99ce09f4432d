"""The listing the model receives, by the rules recorded from Claude Code (tests/oracle)."""

from __future__ import annotations

import math

from engine import build_listing
from engine.listing.build import (
    DEFAULT_BUDGET,
    ENTRY_TEXT_CAP,
    HEADER,
    Foreign,
    budget_from_env,
    env_number,
    listing_budget,
    model_window,
    usage_score,
    usage_scores,
    utf16_len,
)
from tests.conftest import Tree, skill_text


def test_listing_format_and_filters(tree: Tree) -> None:
    tree.skill("alpha", skill_text(description="Does alpha.", when_to_use="When alpha."))
    tree.skill("beta", skill_text(description="Does <beta>."))
    tree.skill("hidden", skill_text(description="Nope.", disable__model__invocation="true"))
    tree.skill("model-only", skill_text(description="Bg.", user__invocable="false"))
    listing = build_listing(tree.load().skills.values(), budget=10_000)
    lines = ["- alpha: Does alpha. - When alpha.", "- beta: Does &lt;beta&gt;.", "- model-only: Bg."]
    assert listing.text == "\n".join([HEADER, "", *lines])
    assert listing.trimmed == ()
    assert listing.left_out == {"hidden": "disable-model-invocation"}
    # The escaped text is what is counted (and cut): `&lt;` is four characters.
    assert listing.used == listing.wanted == sum(len(e.line) for e in listing.entries) + 2


def test_no_skills_no_listing(tree: Tree) -> None:
    assert build_listing([], budget=100).text == ""


def test_entry_text_is_capped_in_utf16_units(tree: Tree) -> None:
    tree.skill("long", skill_text(description="d" * 1000, when_to_use="w" * 1000))
    tree.skill("astral", skill_text(description="😀" * 1000))
    entries = build_listing(tree.load().skills.values(), budget=100_000).entries
    long, astral = sorted(entries, key=lambda e: e.name, reverse=True)
    assert long.capped and long.line.endswith("…")
    assert len(long.line) == len("- long: ") + ENTRY_TEXT_CAP
    # An emoji is two UTF-16 units: 767 of them fill 1,534; the cut at 1,535 halves the next
    # one, and Claude Code sends that half as U+FFFD.
    assert astral.capped and astral.line == "- astral: " + "😀" * 767 + "\ufffd…"


def test_escaping_comes_before_the_cap(tree: Tree) -> None:
    tree.skill("lt", skill_text(description="a" * 1530 + "<" * 10))
    entry = build_listing(tree.load().skills.values(), budget=100_000).entries[0]
    assert entry.line == "- lt: " + "a" * 1530 + "&lt;&…"


def test_max_desc_chars_setting(tree: Tree) -> None:
    tree.skill("long", skill_text(description="d" * 100))
    entry = build_listing(tree.load().skills.values(), budget=100_000, max_desc_chars=10).entries[0]
    assert entry.line == "- long: " + "d" * 9 + "…"


def test_label_when_name_differs_from_folder(tree: Tree) -> None:
    tree.skill("folder", skill_text(name="pretty", description="x"))
    tree.skill("taken", skill_text(name="compact", description="y"))
    lines = [e.line for e in build_listing(tree.load().skills.values(), budget=100_000).entries]
    assert lines == ["- folder (pretty): x", "- taken: y"]


def test_over_budget_every_name_stays_most_used_keep_descriptions(tree: Tree) -> None:
    for name in ("a", "b", "c"):
        tree.skill(name, skill_text(description=name * 40))
    skills = list(tree.load().skills.values())
    full = build_listing(skills, budget=10_000)
    budget = full.used - 10
    listing = build_listing(skills, budget=budget)
    # Greedy in listing order: a and b keep their text, c does not fit.
    assert listing.trimmed == ("c",)
    assert listing.used <= budget
    assert [e.line for e in listing.entries][2] == "- c"
    used_a_lot = build_listing(skills, budget=budget, usage={"c": 5, "b": 1})
    assert used_a_lot.trimmed == ("a",)
    tiny = build_listing(skills, budget=1)
    assert [e.line for e in tiny.entries] == ["- a", "- b", "- c"]
    assert tiny.used > tiny.budget  # the listing may end over budget


def test_greedy_fill_skips_what_does_not_fit_and_goes_on(tree: Tree) -> None:
    tree.skill("big", skill_text(description="b" * 200))
    tree.skill("small", skill_text(description="s"))
    skills = list(tree.load().skills.values())
    listing = build_listing(skills, budget=60)
    assert [e.line for e in listing.entries] == ["- big", "- small: s"]


def test_overrides_and_foreign_entries(tree: Tree) -> None:
    tree.skill("a", skill_text(description="a" * 50))
    tree.skill("b", skill_text(description="b" * 50))
    tree.skill("c", skill_text(description="c"))
    skills = list(tree.load().skills.values())
    overrides = {"a": "name-only", "c": "user-invocable-only"}
    theirs = Foreign("theirs", "t" * 100, position=0, fixed=True)
    listing = build_listing(skills, budget=50, overrides=overrides, foreign=[theirs])
    assert [e.line for e in listing.entries] == ["- theirs: " + "t" * 100, "- a", "- b"]
    assert listing.left_out == {"c": "skillOverrides: user-invocable-only"}


def test_claude_codes_own_commands_drop_to_their_name_like_the_users_skills(tree: Tree) -> None:
    """Over budget, Claude Code keeps its bundled prompt skills whole (fixed), but its built-in
    commands it lists (init, security-review) go through the greedy step with the user's skills:
    most used first, then in listing order (recorded: listing_cc_bundled_edge_*)."""
    tree.skill("aa", skill_text(description="x" * 20))
    skills = list(tree.load().skills.values())
    own = [Foreign("dataviz", "d" * 100, 1, fixed=True), Foreign("init", "i" * 30, 2), Foreign("security-review", "s" * 40, 3)]
    whole = 111 + 26 + 38 + 59 + 3  # the lines and the newlines between them
    assert build_listing(skills, budget=whole, foreign=own).trimmed == ()
    # Room for one more description after the fixed line and the names: the first in listing order.
    names = 111 + 4 + 6 + 17 + 3
    assert build_listing(skills, budget=names + 22, foreign=own).trimmed == ("init", "security-review")
    assert build_listing(skills, budget=names + 21, foreign=own).trimmed == ("aa", "init", "security-review")
    assert build_listing(skills, budget=names + 32, foreign=own).trimmed == ("init", "security-review")
    # Most used first: an own command's usage counts as a user skill's does.
    used = build_listing(skills, budget=names + 32, foreign=own, usage={"init": 3.0})
    assert used.trimmed == ("aa", "security-review")


def test_budget_sources() -> None:
    assert DEFAULT_BUDGET == 30_000
    assert budget_from_env({}) == 30_000
    assert budget_from_env({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1234"}) == 1234
    assert budget_from_env({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "lots"}) == 30_000
    assert budget_from_env({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "0"}) == 30_000
    assert budget_from_env({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "30,000"}) == 30_000
    assert listing_budget({}, model="claude-sonnet-4-5").chars == 8_000
    assert listing_budget({}, model="claude-sonnet-4-5[1m]").chars == 40_000
    assert listing_budget({}, fraction=0.02, model="claude-haiku-4-5").chars == 16_000
    assert model_window("claude-opus-4-1") == (1_000_000, 3, "claude-opus-5-5")


def test_env_number_reads_like_javascript() -> None:
    assert env_number(" 12 ") == 12
    assert env_number("") == 0
    assert env_number("0x10") == 16
    assert env_number("1e3") == 1000
    assert env_number("-5") == -5
    assert env_number("1_000_000") == 1_000_000
    assert math.isnan(env_number("1,00"))
    assert math.isnan(env_number("12px"))


def test_usage_scores_halve_weekly_with_a_floor() -> None:
    day = 86_400_000
    assert usage_score(4, 0, 7 * day) == 2
    assert usage_score(10, 0, 365 * day) == 1
    scores = usage_scores({"a": {"usageCount": 3, "lastUsedAt": 0}, "b": "junk", "c": {"usageCount": True}}, 0)
    assert scores == {"a": 3}


def test_utf16_len() -> None:
    assert utf16_len("a😀é") == 4


def test_deferred_and_scoped_skills(tree: Tree) -> None:
    tree.skill("later", skill_text(description="Only for docs.", paths="docs/**"))
    tree.skill("now", skill_text(description="Now."))
    catalog = tree.load()
    listing = build_listing(catalog.skills.values(), budget=10_000, deferred=catalog.deferred)
    assert [e.name for e in listing.entries] == ["now"]
    assert "paths:" in (listing.left_out or {})["later"]


def test_entries_are_summed_in_display_width() -> None:
    """Claude Code sums entries in display width (Bun.stringWidth, ambiguous narrow): a newline or a
    combining mark takes none, a CJK character two; its debug line's totals for a skill `u` with
    these descriptions, over its own entries' 6,208, were 6,222, 6,216, 6,218 and 6,219."""
    from engine.listing.build import display_width

    assert [display_width(f"- u: {d}") + 1 for d in ("漢字漢字", "e\u0301e\u0301", "a😀b", "ab cd")] == [14, 8, 10, 11]
    assert display_width("- claude-api: Reference — it.\nTRIGGER\nSKIP") == 40
    # The 1,536-unit description cap stays in UTF-16 units.
    assert display_width("\u6f22" * 3) == 6 and display_width("a\tb\x7f") == 2
