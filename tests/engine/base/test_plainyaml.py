"""The parser-free reading of the common frontmatter (engine/base/plainyaml.py) gives
exactly what YAML gives, or steps aside: whenever it answers, PyYAML's YAML 1.1 (the most eager
to read a word as a bool, a null or a number, of the YAMLs the agents use) reads the same strings."""

from __future__ import annotations

import random

import yaml

from engine.base.plainyaml import plain_mapping

WORDS = [
    "deploy", "Yes", "no", "ON", "off", "y", "N", "null", "Null", "~", "true", "False", "1.5", "0x1F", "12:30",
    "2024-01-01", ".inf", "-x", "x:", "a: b", "#c", "a #c", "'q'", '"q"', "[x]", "{x}", "café", "Über", "x,y",
    "http://a.b/c", "&a", "*a", "!t", "|", ">", "%", "@", "`", "=", "<<", "a\tb", "_u", "é",
]  # fmt: skip


def test_whenever_it_answers_yaml_reads_the_same_strings() -> None:
    rng = random.Random(36)
    answered = 0
    for _ in range(20_000):
        keys = rng.sample(["name", "description", "license", "x-y", "A_b"], rng.randint(1, 3))
        lines = [
            f"{k}:{' ' * rng.randint(0, 2)}{' '.join(rng.choices(WORDS, k=rng.randint(1, 3)))}{' ' * rng.randint(0, 1)}"
            for k in keys
        ]
        text = "\n".join(lines)
        plain = plain_mapping(text)
        if plain is None:
            continue
        answered += 1
        assert yaml.safe_load(text) == plain, text
    assert answered > 1_000  # the fast path is taken, not only refused


def test_it_steps_aside_for_what_a_parser_must_decide() -> None:
    for text in ("name: a\nname: b", "name: a\n  more", "name: 'a'", "name: a # c", "name:", "# c\nname: a",
                 "name: a\r\ndescription: b", "name: yes", "name: 12", "name: a\n\ndescription: b"):  # fmt: skip
        assert plain_mapping(text) is None, text
