"""The listing the model receives (BEHAVIOR.md §4)."""

from __future__ import annotations

from engine import build_listing
from engine.listing import DEFAULT_BUDGET, ENTRY_TEXT_CAP, HEADER, budget_from_env
from tests.conftest import Tree, skill_text


def test_listing_format_and_filters(tree: Tree) -> None:
    tree.skill("alpha", skill_text(description="Does alpha.", when_to_use="When alpha."))
    tree.skill("beta", skill_text(description="Does beta."))
    tree.skill("hidden", skill_text(description="Nope.", disable__model__invocation="true"))
    tree.skill("model-only", skill_text(description="Bg.", user__invocable="false"))
    listing = build_listing(tree.load().skills.values(), budget=10_000)
    assert listing.text == "\n".join([HEADER, "- alpha: Does alpha. - When alpha.", "- beta: Does beta.", "- model-only: Bg."])
    assert listing.trimmed == ()
    assert listing.used == listing.wanted == sum(len(e.line) + 1 for e in listing.entries)


def test_entry_text_is_capped(tree: Tree) -> None:
    tree.skill("long", skill_text(description="d" * 1000, when_to_use="w" * 1000))
    entry = build_listing(tree.load().skills.values(), budget=100_000).entries[0]
    assert entry.capped
    assert len(entry.line) == len("- long: ") + ENTRY_TEXT_CAP
    assert entry.line.endswith("…")


def test_over_budget_every_name_stays_least_used_lose_descriptions_first(tree: Tree) -> None:
    for name in ("a", "b", "c"):
        tree.skill(name, skill_text(description=name * 40))
    skills = list(tree.load().skills.values())
    full = build_listing(skills, budget=10_000)
    budget = full.used - 10
    listing = build_listing(skills, budget=budget)
    assert listing.trimmed == ("c",)
    assert listing.used <= budget
    assert [e.line for e in listing.entries][2] == "- c"
    used_a_lot = build_listing(skills, budget=budget, usage={"c": 5, "b": 1})
    assert used_a_lot.trimmed == ("a",)
    tiny = build_listing(skills, budget=1)
    assert [e.line for e in tiny.entries] == ["- a", "- b", "- c"]


def test_budget_from_environment() -> None:
    assert DEFAULT_BUDGET == 8000
    assert budget_from_env({}) == 8000
    assert budget_from_env({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1234"}) == 1234
    assert budget_from_env({"SLASH_COMMAND_TOOL_CHAR_BUDGET": "lots"}) == 8000
