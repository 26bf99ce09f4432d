"""Search ranking and narrowing."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import LoadedFrom, Skill, Source, SourceKind
from tui.search import SearchIndex

SOURCE = Source(SourceKind.PROJECT, Path("/p/.claude/skills"), "project")


def _skill(name: str, description: str = "", folder: str | None = None) -> Skill:
    path = Path("/p/.claude/skills") / (folder or name) / "SKILL.md"
    return Skill(name, name, description or f"The {name} skill.", "frontmatter", SOURCE, LoadedFrom.SKILLS, path)


SKILLS = [
    _skill("review-pr", "Review a pull request."),
    _skill("review", "General review."),
    _skill("code-review-bot", "Bot."),
    _skill("deploy", "Ship to production; runs a review first."),
    _skill("rvw-tools", "Tools."),
    _skill("lint", "Lint.", folder="reviewer-rules"),
]


def _names(query: str, index: SearchIndex | None = None) -> list[str]:
    return [r.skill.name for r in (index or SearchIndex(SKILLS)).search(query)]


def test_rank_order() -> None:
    assert _names("review") == ["review", "review-pr", "code-review-bot", "deploy", "lint"]


def test_fuzzy_name_match() -> None:
    assert _names("rvwt") == ["rvw-tools", "code-review-bot"], "the tighter match first"
    assert _names("dply") == ["deploy"]


def test_every_word_must_match() -> None:
    assert _names("review bot") == ["code-review-bot"]
    assert _names("review nothing") == []
    assert _names("") == []


def test_shadowed_come_after_live_ones() -> None:
    index = SearchIndex([SKILLS[0]], [_skill("review", "shadowed one")])
    results = index.search("review")
    assert [(r.skill.name, r.shadowed) for r in results] == [("review-pr", False), ("review", True)]


def test_narrowing_while_typing_matches_a_fresh_search() -> None:
    many = [_skill(f"skill-{i:04d}", f"does {'alpha' if i % 3 else 'beta'} things") for i in range(2000)]
    typing = SearchIndex(many)
    for prefix in ("s", "sk", "ski", "skill-00", "skill-001"):
        typed = [r.skill.name for r in typing.search(prefix)]
        assert typed == [r.skill.name for r in SearchIndex(many).search(prefix)]
    typing.search("beta")
    assert len(typing.search("alpha")) == 200, "a new word after a different one searches everything again"


def test_word_and_prefix_matches_rank_above_fuzzy_ones() -> None:
    """Issue 17: "react" put "refactor" (r-e-a-c-t in order) above "Master React"."""
    index = SearchIndex(
        [
            _skill("refactor", "Refactor code."),
            _skill("master-skills", "Master React hooks and state."),
            _skill("preact-tools", "Small components."),
            _skill("react-native", "Mobile apps."),
            _skill("react", "The one."),
            _skill("frontend", "Uses unreactive stores."),
            _skill("ui-react", "Components."),
        ]
    )
    names = [r.skill.name for r in index.search("react")]
    # exact, prefix, word start in the name, word start in the description, name substring,
    # description substring, fuzzy.
    assert names == ["react", "react-native", "ui-react", "master-skills", "preact-tools", "frontend", "refactor"]


def test_many_hits_rank_the_same_way() -> None:
    """Past 4 x limit hits the ranking takes a faster path: it must keep the same order."""
    filler = [_skill(f"reaxct-{i:04d}", "Nothing here.") for i in range(1000)]
    index = SearchIndex([*filler, _skill("refactor", "Refactor code."), _skill("master-skills", "Master React hooks.")])
    names = [r.skill.name for r in index.search("react", limit=10)]
    assert names[:2] == ["master-skills", "refactor"], names


def test_word_starts_among_many_hits_come_shortest_name_first_and_stop_at_the_limit() -> None:
    # The word-start ranks test their pattern only until the limit is filled, shortest name first.
    filler = [_skill(f"tool-{i:04d}", "Helps with a task.") for i in range(1000)]
    words = [_skill("x" * n + "-sketch", "Draws.") for n in (9, 3, 6)]
    descs = [_skill(f"d{n}" + "q" * n, "A skeleton to start from.") for n in (8, 2, 5)]
    index = SearchIndex([*filler, *words, *descs])
    names = [r.skill.name for r in index.search("sk", limit=5)]
    assert names == ["xxx-sketch", "xxxxxx-sketch", "xxxxxxxxx-sketch", "d2qq", "d5qqqqq"], names


def test_a_query_typed_again_is_answered_from_the_last_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    index = SearchIndex(SKILLS)
    searched: list[str] = []
    real = index._search
    monkeypatch.setattr(index, "_search", lambda query, limit: searched.append(query) or real(query, limit))
    first = index.search("rev")
    assert [r.skill.name for r in index.search("rev ")] == [r.skill.name for r in first] != []
    assert searched == ["rev"], "typed again (spaces aside): the kept answer"
    assert len(index.search("rev", limit=1)) == 1 and searched == ["rev", "rev"], "another limit is another answer"


def test_a_word_starts_after_any_non_letter_and_never_inside_a_word() -> None:
    # Word starts rank above text inside a word: after `-`, `_`, `.`, a space or at the start,
    # never after a letter, an accented one included.
    index = SearchIndex(
        [
            _skill("preact", "Nothing."),
            _skill("éreact", "Nothing."),
            _skill("x_react", "Nothing."),
            _skill("a.react", "Nothing."),
            _skill("tools", "Uses ünreact and then. react"),
        ]
    )
    scores = {r.skill.name: r.score for r in index.search("react")}
    word, inside = {"x_react", "a.react", "tools"}, {"preact", "éreact"}
    assert min(scores[n] for n in word) > max(scores[n] for n in inside), scores


def test_where_a_skill_lives_matches_below_its_tiers_folder_and_by_its_plugin() -> None:
    # The folders above a skill's own are every skill's: `sk` or `claude` matched all of them.
    plugin = Source(SourceKind.PLUGIN, Path("/m/plugins/pdf-kit"), "plugin pdf-kit", plugin="pdf-kit")
    in_plugin = Skill(
        "merge",
        "merge",
        "Merge files.",
        "frontmatter",
        plugin,
        LoadedFrom.PLUGIN,
        Path("/m/plugins/pdf-kit/skills/merge/SKILL.md"),
    )
    index = SearchIndex([*SKILLS, in_plugin])
    assert _names("claude", index) == _names("skill.md", index) == []
    assert _names("pdf-kit", index) == ["merge"], "a plugin's skills by the plugin's name"
    assert "lint" in _names("reviewer-rules", index), "a folder named otherwise than its skill"
