"""A frontmatter plain enough to need no parser (engine/base/plainyaml.py) reads exactly as the
parser reads it: the same values, and the same line, column and text for every key a diagnostic
may point at. The parser's reading is forced by a trailing comment line, which YAML ignores and
the parser-free reading steps aside for."""

from __future__ import annotations

import random

from engine.base.plainyaml import plain_mapping
from engine.catalog.frontmatter.yamlparse import Parsed, parse

WORDS = ["deploy", "Yes", "null", "café", "Über", "x,y", "http://a.b/c", "a'b", 'say "hi"', "back\\slash", "_u", "[x]", "1.5"]


def _seen(parsed: Parsed, keys: list[str]) -> tuple[object, ...]:
    spots = [(parsed.position(k), parsed.value_text(k)) for k in [*keys, "absent"]]
    return parsed.data, spots, parsed.notes, parsed.duplicates, parsed.error, parsed.not_mapping


def test_a_plain_block_reads_as_the_parser_reads_it() -> None:
    rng = random.Random(39)
    plain = 0
    for _ in range(3_000):
        # Up to twelve keys: a block of more than a few is asked through a table, not a search each.
        pool = ["name", "description", "license", "x-y", "A_b", "when_to_use", *(f"k{n}" for n in range(8))]
        keys = rng.sample(pool, rng.randint(1, 12))
        text = "\n".join(
            f"{k}:{' ' * rng.randint(1, 3)}{' '.join(rng.choices(WORDS, k=rng.randint(1, 3)))}{' ' * rng.randint(0, 2)}"
            for k in keys
        )
        first = rng.randint(2, 5)
        if plain_mapping(text) is None:
            continue
        # As split() gives it: the newline before the closing `---` ends the block.
        text += "\n" if rng.random() < 0.5 else ""
        fast = parse(text, first)
        plain += 1
        assert fast.node is None  # the parser-free reading was taken
        slow = parse(text + "\n# a comment" if not text.endswith("\n") else text + "# a comment\n", first)
        assert slow.node is not None
        assert _seen(fast, keys) == _seen(slow, keys), text
    assert plain > 500


def test_a_name_mismatch_points_at_its_line_without_a_parser() -> None:
    parsed = parse("description: does things\nname:   other-name  \n", 2)
    assert parsed.node is None
    assert parsed.position("name") == (3, 1)
    assert parsed.value_text("name") == "other-name"
    assert parsed.position("license") is None


def test_a_key_the_parser_reads_otherwise_is_left_to_it() -> None:
    """A key YAML 1.2 reads as a bool or a null (`TRUE:` is the key `true` in Claude Code's object),
    and a key past the 1,024 characters of an implicit key (an error there), read as the parser does."""
    for key in ("True", "TRUE", "False", "FALSE", "Null", "NULL", "k" * 1025):
        text = f"name: deploy\n{key}: x\n"
        fast, slow = parse(text), parse(text + "# a comment\n")
        assert _seen(fast, ["name", key]) == _seen(slow, ["name", key]), key
