"""Frontmatter splitting and YAML parsing, as BEHAVIOR.md §2 describes Claude Code's."""

from __future__ import annotations

import random
import re
import time

import pytest

from engine.catalog.frontmatter import decode, first_line_description, parse, repair, split


def test_split_takes_block_between_first_line_and_next_dashes() -> None:
    parts = split("---\nname: a\ndescription: b\n---\n\n  body\n---\nmore\n")
    assert parts.terminated and not parts.close_inline
    assert parts.yaml_text == "name: a\ndescription: b\n"
    # The blanks after the closing dashes, newlines and indentation included, are not body.
    assert parts.body == "body\n---\nmore\n"
    assert (parts.first_line, parts.close_line) == (2, 4)


def test_split_ends_the_block_at_dashes_inside_a_value() -> None:
    # Claude Code 2.1.328 (recorded: fm_frontmatter_split): `^---\s*\n([\s\S]*?)---\s*\n?`.
    parts = split("---\nname: a\ndescription: b---c\n---\nbody\n")
    assert parts.yaml_text == "name: a\ndescription: b"
    assert parts.body == "c\n---\nbody\n"
    assert parts.close_inline and parts.close_line == 3


def test_split_four_dashes_close_but_do_not_open() -> None:
    parts = split("---\ndescription: four\n----\nbody\n")
    assert parts.yaml_text == "description: four\n" and parts.body == "-\nbody\n" and parts.close_inline
    assert not split("----\ndescription: x\n---\n").has_frontmatter


def test_split_drops_a_bom_and_blank_lines_after_the_opening() -> None:
    parts = split("\ufeff---  \n\n\ndescription: gap\n---\nbody")
    assert parts.yaml_text == "description: gap\n" and parts.first_line == 4 and parts.body == "body"


@pytest.mark.parametrize(
    ("text", "has", "terminated"),
    [
        ("no frontmatter\n", False, False),
        ("\n---\nname: a\n---\n", False, False),  # must open on the very first line
        ("---\nname: a\n", True, False),
        ("--- x\nname: a\n---\n", False, False),
        ("---  \nname: a\n---   \nbody", True, True),
        ("---\r\nname: a\r\n---\r\nbody", True, True),
    ],
)
def test_split_cases(text: str, has: bool, terminated: bool) -> None:
    parts = split(text)
    assert (parts.has_frontmatter, parts.terminated) == (has, terminated)
    if not terminated:
        assert parts.body == text


def test_parse_plain_mapping_with_positions() -> None:
    parsed = parse("name: demo\ndescription: hello\n")
    assert parsed.data == {"name": "demo", "description": "hello"}
    assert parsed.position("description") == (3, 1)
    assert parsed.error is None


def test_repair_retry_quotes_problem_values_only() -> None:
    text = "name: x\ndescription: Use when: reviewing\n  indented: a: b\nhint: 'a: b'\n"
    repaired, changed = repair(text)
    assert changed == [1]
    assert repaired.splitlines()[1] == 'description: "Use when: reviewing"'
    assert repaired.splitlines()[2] == "  indented: a: b"
    assert repaired.splitlines()[3] == "hint: 'a: b'"


def test_repair_escapes_backslashes_and_quotes() -> None:
    repaired, _ = repair('description: say "hi": \\d+ now\n')
    assert parse(repaired).data["description"] == 'say "hi": \\d+ now'


def test_parse_uses_the_repair_when_first_attempt_fails() -> None:
    parsed = parse("description: Use when: the user asks\nname: x\n")
    assert parsed.data["description"] == "Use when: the user asks"
    assert parsed.repaired_lines == [2]
    assert parsed.error is not None and parsed.error.line == 2


def test_parse_falls_back_to_empty_with_error_position() -> None:
    parsed = parse('name: ok\ndescription: "open\nallowed-tools: [Read\n')
    assert parsed.data == {}
    assert parsed.error is not None
    assert parsed.error.line is not None and parsed.error.line >= 3


def test_crlf_lines_are_not_repaired_as_in_javascript() -> None:
    parsed = parse("description: Use when: x\r\nname: y\r\n")
    assert parsed.data == {}
    assert parsed.repaired_lines == []


def test_duplicate_keys_last_wins_and_are_reported() -> None:
    parsed = parse("name: a\ndescription: one\ndescription: two\n")
    assert parsed.data["description"] == "two"
    assert parsed.duplicates == [("description", 4, 1)]


def test_not_a_mapping() -> None:
    assert parse("- a\n- b\n").not_mapping == "list"
    assert parse("just text\n").not_mapping == "str"


def test_list_values_keep_their_source_text() -> None:
    parsed = parse('argument-hint: [file, "mode"]\n')
    assert parsed.data["argument-hint"] == ["file", "mode"]
    assert parsed.value_text("argument-hint") == '[file, "mode"]'


def test_decode_keeps_bom_and_replaces_bad_bytes() -> None:
    text, info = decode(b"\xef\xbb\xbf---\nname: a\n---\n")
    assert info.bom and text.startswith("\ufeff")
    text, info = decode(b"---\ndescription: caf\xe9\n---\n")
    assert "\ufffd" in text
    assert info.bad_utf8_line == 2 and info.bad_utf8_offset == 20


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("\n\n# My Skill\n\nText", ("My Skill", "body")),
        ("  First line here.\nSecond", ("First line here.", "body")),
        ("", ("Skill", "default")),
        ("   \n\t\n", ("Skill", "default")),
        ("x" * 150, ("x" * 97 + "...", "body")),
    ],
)
def test_description_from_body(body: str, expected: tuple[str, str]) -> None:
    assert first_line_description(body, "Skill") == expected


# BEHAVIOR.md §2's pattern, as one regular expression (the JavaScript `.` never matches a line
# terminator): the reference the linear `repair` must agree with.
_JS_S = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_REFERENCE = re.compile(
    rf"^([a-zA-Z_-]+):{_JS_S}+([^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff][^\r\n\u2028\u2029]*)\Z"
)
_NEEDS = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


def _reference_changed(line: str) -> bool:
    if re.search(r"(?:^|[\r\u2028\u2029])\t", line):
        return True  # the retry turns each tab that starts a line (`^` with the m flag) into spaces
    m = _REFERENCE.match(line)
    if not m:
        return False
    value = m.group(2)
    # JavaScript's startsWith/endsWith: a lone quote both starts and ends with one.
    quoted = value[0] == value[-1] and value[0] in "\"'"
    return not quoted and bool(_NEEDS.search(value))


def test_repair_agrees_with_the_reference_pattern_on_random_lines() -> None:
    rng = random.Random(14)
    alphabet = "ab-_: \t\r\u2028\u00a0\x1c[{#\"'x"
    for _ in range(20_000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        assert bool(repair(line)[1]) == _reference_changed(line), repr(line)


def test_repair_is_linear_on_a_long_run_of_blanks() -> None:
    # The single pattern backtracked through every split of the blanks: 0.45 s for 8,000,
    # minutes for the 256 KB a frontmatter may hold.
    text = "description: [\nk:" + " " * 200_000 + "\r\n"
    started = time.perf_counter()
    parse(text)
    assert time.perf_counter() - started < 1


def test_yaml_1_2_line_separators_and_surrogate_escapes() -> None:
    # Bun's YAML 1.2 reads these; PyYAML's 1.1 broke the key (recorded: fm_yaml_unicode).
    assert parse("description: before\u2028after\nname: n\x85m\n").data == {"description": "before\u2028after", "name": "n\x85m"}
    assert parse('description: "\\ud83d\\ude00 \\uD83D\\uDE80"\n').data == {"description": "😀 🚀"}
    # Outside double quotes a backslash is a backslash; a lone half stays an error, as there.
    assert parse("description: '\\ud83d\\ude00'\n").data == {"description": "\\ud83d\\ude00"}
    assert parse('description: "\\ud83d alone"\n').error is not None
    # A text that already holds every private-use character has no stand-in left: read as YAML 1.1.
    crowded = "description: a\u2028b\nx: '" + "".join(map(chr, range(0xE000, 0xF900))) + "'\n"
    assert parse(crowded).data.get("description") is None
