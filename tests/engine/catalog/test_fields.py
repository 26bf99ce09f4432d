"""Normalising frontmatter values into skill fields."""

from __future__ import annotations

import pytest

from engine.catalog.fields import as_bool, spec_name_problems, split_tools, suggest_field
from tests.conftest import Tree, codes, only, skill_text


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, True), ("yes", True), ("On", True), ("1", True), (1, True), ("FALSE", False), ("no", False),
     ("off", False), (0, False), ("maybe", None), (2, None), (None, None)],
)  # fmt: skip
def test_booleans(value: object, expected: bool | None) -> None:
    assert as_bool(value) is expected


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("Read Grep", ["Read", "Grep"]),
        ("Read, Grep,Glob", ["Read", "Grep", "Glob"]),
        ("Bash(git add:*), Bash(git commit -m *) Read", ["Bash(git add:*)", "Bash(git commit -m *)", "Read"]),
        # A `)` closes the parenthesis whatever opened it, as in Claude Code: nesting is not counted.
        ("Bash(a (b, c) d)", ["Bash(a (b, c)", "d)"]),
        ("  ", []),
    ],
)
def test_tool_lists_split_outside_parentheses(text: str, tools: list[str]) -> None:
    assert split_tools(text) == tools


@pytest.mark.parametrize(
    ("key", "guess"),
    [("allowed_tools", "allowed-tools"), ("tools", "allowed-tools"), ("when-to-use", "when_to_use"),
     ("user_invocable", "user-invocable"), ("Description", "description"), ("descripton", "description"),
     ("zzz", None)],
)  # fmt: skip
def test_field_suggestions(key: str, guess: str | None) -> None:
    assert suggest_field(key) == guess


def test_normalisation_of_a_full_skill(tree: Tree) -> None:
    tree.skill(
        "full",
        skill_text(
            name="full",
            description="Does it all.",
            when_to_use="When asked.",
            argument__hint="[file]",
            arguments="target mode",
            disable__model__invocation="Yes",
            user__invocable="off",
            allowed__tools="Read, Bash(git add:*)",
            model="inherit",
            context="fork",
            agent="Explore",
            version="1.0",
        ),
    )
    skill = tree.load().skills["full"]
    # Claude Code applies String() to the parsed value: the YAML list [file] is the text `file`,
    # the number 1.0 is `1` (Bun's YAML 1.2 parser; JavaScript's number formatting).
    assert skill.argument_hint == "file"
    assert skill.arguments == ("target", "mode")
    assert skill.disable_model_invocation is True and skill.model_invocable is False
    assert skill.user_invocable is False
    assert skill.allowed_tools == ("Read", "Bash(git add:*)")
    assert skill.model is None
    assert (skill.context, skill.agent) == ("fork", "Explore")
    assert skill.version == "1"
    assert skill.description_source == "frontmatter"


def test_numbers_as_names_and_list_tools(tree: Tree) -> None:
    tree.skill("123", skill_text(name=123, description="numeric", allowed__tools="[Read, Grep]"))
    skill = tree.load().skills["123"]
    assert skill.display_name == "123"
    assert skill.allowed_tools == ("Read", "Grep")


def test_description_defaults_to_first_body_line(tree: Tree) -> None:
    tree.skill("nodesc", skill_text(body="\n# Handy helper\n\nMore.\n", name="nodesc"))
    skill = tree.load().skills["nodesc"]
    assert (skill.description, skill.description_source) == ("Handy helper", "body")


def test_unknown_field_warns_with_suggestion_and_line(tree: Tree) -> None:
    path = tree.skill("typo", skill_text(name="typo", description="d", allowed_tools="Read"))
    catalog = tree.load()
    diag = only(catalog, "unknown-field")
    assert (diag.path, diag.line, diag.column) == (path, 4, 1)
    assert "allowed-tools" in diag.hint
    assert catalog.skills["typo"].allowed_tools == ()


def test_bad_boolean_reads_false_and_warns(tree: Tree) -> None:
    tree.skill("b", skill_text(name="b", description="d", user__invocable="sometimes"))
    catalog = tree.load()
    assert catalog.skills["b"].user_invocable is False
    assert "invalid-value" in codes(catalog)


def test_context_other_than_fork_runs_inline(tree: Tree) -> None:
    tree.skill("c", skill_text(name="c", description="d", context="forked"))
    catalog = tree.load()
    assert catalog.skills["c"].context == "inline"
    assert only(catalog, "invalid-value").line == 4


def test_spec_name_rules() -> None:
    assert spec_name_problems("good-name-1") == []
    assert spec_name_problems("Bad") == ["not lower-case"]
    assert "contains a double hyphen" in spec_name_problems("a--b")
    assert "starts or ends with a hyphen" in spec_name_problems("-a")
    assert "contains characters other than letters, digits and hyphens" in spec_name_problems("a_b")
    assert spec_name_problems("x" * 65) == ["longer than 64 characters"]
