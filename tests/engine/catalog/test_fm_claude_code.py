"""Frontmatter, fields and diagnostics as Claude Code 2.1.328 reads them.

Each rule here was read in Claude Code's bundled JavaScript and recorded on the binary: the
cases are tests/oracle/cases/listing/fm_*.json, and tests/engine/listing/test_oracle_listing.py
compares their listings line for line. These tests pin what the recordings cannot show: the
diagnostics' words, the fields Claude Code drops without a listing change, and `validate --strict`.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from engine import Severity
from engine.catalog.fields import cc_paths, effort_level, guard_outside_hooks, hooks_problems
from engine.catalog.frontmatter import cc_text, first_line_description, js_number, js_string, parse, split
from engine.catalog.model import MARKDOWN_MAX_BYTES, SKILL_MAX_BYTES
from tests.conftest import Tree, only, skill_text, write
from tui.cli.main import main

GOOD = skill_text(name="good", description="A good skill.")


def _diags(catalog, path: Path, code: str) -> list:  # type: ignore[no-untyped-def]
    return [d for d in catalog.diagnostics if d.path == path and d.code == code]


# --- splitting -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "yaml", "body"),
    [
        ("---\ndescription: use---this\n---\n# H\n", "description: use", "this\n---\n# H\n"),
        ("---\ndescription: four\n----\nbody", "description: four\n", "-\nbody"),
        ("---\ndescription: ctt\n--- trailing\nbody\n", "description: ctt\n", "trailing\nbody\n"),
        ("\ufeff---\ndescription: bom\n---\nx", "description: bom\n", "x"),
        ("---\r\ndescription: crlf\r\n---\r\n\r\n\r\nbody", "description: crlf\r\n", "body"),
        ("---\n---\n# Empty\n", "", "# Empty\n"),
    ],
    ids=["inside-a-value", "four-dashes", "text-after", "bom", "crlf-and-blank-body-lines", "empty"],
)
def test_the_block_ends_at_the_first_three_dashes(text: str, yaml: str, body: str) -> None:
    parts = split(text)
    assert parts.terminated and parts.yaml_text == yaml and parts.body == body


@pytest.mark.parametrize(
    "text", ["\n---\ndescription: x\n---\n", "----\ndescription: x\n---\n", "--- x\ndescription: y\n---\n", "# no\n"]
)
def test_no_frontmatter_unless_line_one_is_three_dashes(text: str) -> None:
    parts = split(text)
    assert not parts.terminated and parts.body == text


def test_an_opening_without_a_closing_is_no_frontmatter_at_all() -> None:
    parts = split("---\ndescription: never closed\n# NC\n")
    assert parts.has_frontmatter and not parts.terminated and parts.body_offset == 0


# --- YAML ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "read"),
    [("yes", "yes"), ("on", "on"), ("True", True), ("010", 10), ("0x1F", 31), ("0o17", 15), ("1_000", "1_000"),
     ("12:30", "12:30"), ("1e3", 1000.0), ("2024-01-01", "2024-01-01"), ("~", None), (".inf", math.inf)],
)  # fmt: skip
def test_plain_scalars_are_typed_by_yaml_1_2_as_bun_types_them(value: str, read: object) -> None:
    assert parse(f"d: {value}\n").data["d"] == read


def test_the_retry_turns_leading_tabs_into_spaces() -> None:
    parsed = parse("description: tabbed\nmetadata:\n\tkey: v\n\tother: w\n")
    assert parsed.data == {"description": "tabbed", "metadata": {"key": "v", "other": "w"}}
    assert parsed.repaired_lines == [4, 5]


def test_the_retry_leaves_a_bracketed_list_and_a_lone_quote_alone() -> None:
    parsed = parse("tools: [Read, Grep]\nx: [a: b\n")
    assert parsed.data == {"tools": ["Read", "Grep"], "x": "[a: b"} and parsed.repaired_lines == [3]
    # `"` both starts and ends with a quote in JavaScript: not quoted, so still broken.
    assert parse('description: "\nname: q\n').data == {}


def test_keys_are_strings_as_in_a_javascript_object() -> None:
    assert set(parse("true: a\n1: b\nnull: c\n").data) == {"true", "1", "null"}


# --- values ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [(1.0, "1"), (1000.0, "1000"), (0.5, "0.5"), (-0.0, "0"), (1e21, "1e+21"), (1e-7, "1e-7"), (1e-6, "0.000001"),
     (123456789012345678901234567890, "1.2345678901234568e+29"), (math.inf, "Infinity"), (math.nan, "NaN"),
     (True, "true")],
)  # fmt: skip
def test_numbers_are_written_as_javascript_writes_them(value: float, text: str) -> None:
    assert js_number(value) == text


def test_string_of_lists_and_maps() -> None:
    assert js_string(["one", 2, None, True]) == "one,2,,true"
    assert js_string({"a": 1}) == "[object Object]"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [("tab\there\u200bzero", "tab here zero"), ("a\x07b\x01\x02c\u200b\u200ed\u2028e\u00adf", "a b c d e f"),
     ("\x1b[31mred\x1b[0m text", "red text"), ("Head\x07ing\u200b here", "Head ing  here"),
     ("pua \ue000 x \u2800 braille \uffff end", "pua   x   braille   end"),
     ("\U0001f468\u200d\U0001f469 \u2764\ufe0f", "\U0001f468\u200d\U0001f469 \u2764\ufe0f"),
     ("plain text", "plain text"), ("a\ufe0fb x\u3164y 1\ufe0f\u20e3 \u2194\ufe0f", "a b x y 1\ufe0f\u20e3 \u2194\ufe0f")],
    ids=["tab-zwsp", "controls", "ansi", "runs-next-to-spaces", "private-and-unassigned", "emoji-joiners", "plain",
         "printable-but-ignorable"],
)  # fmt: skip
def test_text_is_cleaned_as_claude_code_cleans_it_at_load(raw: str, clean: str) -> None:
    # Recorded: fm_description_text.
    assert cc_text(raw) == clean


@pytest.mark.parametrize(
    ("body", "expected"),
    [("#NoSpace\n", "#NoSpace"), ("\n   ### Deep heading ###   \n", "Deep heading ###"), ("#\n## \nreal\n", "#"),
     ("# " + "a" * 96 + "\U0001f600\U0001f600 tail\n", "a" * 96 + " ..."), ("# " + "w" * 120, "w" * 97 + "...")],
)  # fmt: skip
def test_the_fallback_description_is_the_first_line(body: str, expected: str) -> None:
    # Recorded: fm_heading_fallback (the cut counts UTF-16 units; half an emoji becomes a space).
    assert first_line_description(body, "Skill")[0] == expected


def test_descriptions_trimmed_numbers_as_text_lists_dropped(tree: Tree) -> None:
    tree.skill("num", "---\ndescription: 1.0\n---\n")
    tree.skill("pad", '---\ndescription: "  padded\\t "\n---\n')
    listy = tree.skill("listy", "---\ndescription: [a, b]\n---\n# Listy heading\n")
    catalog = tree.load()
    assert catalog.skills["num"].description == "1"
    assert catalog.skills["pad"].description == "padded"
    assert catalog.skills["listy"].description == "Listy heading"
    (warning,) = _diags(catalog, listy, "invalid-value")
    assert "Description invalid for listy - omitting" in warning.message and warning.line == 2


def test_when_to_use_is_string_of_the_value_and_not_trimmed(tree: Tree) -> None:
    tree.skill("w", '---\ndescription: d\nwhen_to_use: "  padded\\tvalue  "\n---\n')
    tree.skill("l", "---\ndescription: d\nwhen_to_use: [one, two, 3]\n---\n")
    catalog = tree.load()
    assert catalog.skills["w"].when_to_use == "  padded value  "
    assert catalog.skills["l"].when_to_use == "one,two,3"


# --- size ------------------------------------------------------------------------------------


def _padded(path: Path, head: str, size: int) -> Path:
    data = head.encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data + b"x" * (size - len(data)))
    return path


def test_a_skill_md_over_1_000_000_bytes_is_skipped_as_claude_code_skips_it(tree: Tree) -> None:
    # Recorded: fm_file_size ("[skills] skipping ...: 1000001 bytes exceeds 1000000 byte limit").
    head = "---\ndescription: d\n---\n"
    _padded(tree.skills() / "at" / "SKILL.md", head, SKILL_MAX_BYTES)
    over = _padded(tree.skills() / "over" / "SKILL.md", head, 1_204_113)
    catalog = tree.load()
    assert "at" in catalog.skills and "over" not in catalog.skills
    (error,) = _diags(catalog, over, "limit-exceeded")
    assert error.severity is Severity.ERROR
    assert error.message.startswith("skipped: 1,204,113 bytes over the 1,000,000 limit")


def test_a_command_file_has_claude_codes_1_mib_limit(tree: Tree) -> None:
    commands = tree.repo / ".claude" / "commands"
    head = "---\ndescription: d\n---\n"
    _padded(commands / "mid.md", head, SKILL_MAX_BYTES + 1)
    over = _padded(commands / "over.md", head, MARKDOWN_MAX_BYTES + 1)
    catalog = tree.load()
    assert "mid" in catalog.skills and "over" not in catalog.skills
    assert any("1,048,577 bytes over the 1,048,576 limit" in d.message for d in _diags(catalog, over, "limit-exceeded"))


# --- traps -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "level"),
    [("low", "low"), ("MED", "medium"), ("XHigh", "xhigh"), ("max", "max"), (3, "3"), (2.5, "2"), ("7 please", "7"),
     ("extreme", None), ("", None), (None, None), (True, None)],
)  # fmt: skip
def test_effort_as_claude_code_accepts_it(value: object, level: str | None) -> None:
    assert effort_level(value) == level


def test_an_invalid_effort_is_an_error_that_says_it_is_ignored(tree: Tree) -> None:
    path = tree.skill("e", "---\ndescription: d\neffort: extreme\n---\n")
    catalog = tree.load()
    assert catalog.skills["e"].effort is None
    (error,) = _diags(catalog, path, "invalid-value")
    assert error.severity is Severity.ERROR and error.line == 3
    assert "Claude Code ignores it" in error.message and "xhigh" in error.hint


def test_a_top_level_pretooluse_drops_the_hooks_and_the_allowed_tools(tree: Tree) -> None:
    # Recorded: fm_field_traps ("PreToolUse/PermissionRequest is declared at the frontmatter top level").
    text = (
        "---\ndescription: d\nallowed-tools: Bash(ls:*)\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n"
        "          command: echo\nPreToolUse:\n  - matcher: Bash\n    hooks:\n      - type: command\n"
        "        command: echo hi\n---\n"
    )
    path = tree.skill("trap", text)
    catalog = tree.load()
    skill = catalog.skills["trap"]
    assert skill.allowed_tools == () and skill.hooks is None
    (error,) = _diags(catalog, path, "hooks-dropped")
    assert error.severity is Severity.ERROR and error.line == 9
    assert "no hooks and no allowed-tools" in error.message and "hooks:" in error.hint
    assert not _diags(catalog, path, "unknown-field")


def test_hooks_where_they_belong_and_allowed_tools_are_kept(tree: Tree) -> None:
    text = (
        "---\ndescription: d\nallowed-tools: Read\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
        "        - type: command\n          command: echo ok\n---\n"
    )
    tree.skill("ok", text)
    catalog = tree.load()
    assert catalog.skills["ok"].allowed_tools == ("Read",) and catalog.skills["ok"].hooks
    assert "hooks-dropped" not in {d.code for d in catalog.diagnostics}


def test_where_claude_code_finds_a_misplaced_guard() -> None:
    matcher = {"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}
    assert guard_outside_hooks({"PreToolUse": [matcher]}) == "PreToolUse"
    assert guard_outside_hooks({"PermissionRequest": False}) == "PermissionRequest"
    assert guard_outside_hooks({"PreToolUse": []}) is None
    assert guard_outside_hooks({"myhooks": matcher}) == "myhooks"
    assert guard_outside_hooks({"metadata": {"PreToolUse": [matcher]}}) is None
    assert guard_outside_hooks({"PostToolUse": [matcher]}) is None
    assert guard_outside_hooks({"hooks": {"PreToolUse": [matcher]}}) is None
    assert hooks_problems([matcher]) and hooks_problems({"PreToolUse": "x"}) and not hooks_problems({"Stop": "x"})
    assert hooks_problems({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "nope"}]}]})


def test_a_hook_event_at_the_top_level_says_where_it_belongs(tree: Tree) -> None:
    path = tree.skill("post", "---\ndescription: d\nPostToolUse:\n  - hooks: []\n---\n")
    (warning,) = _diags(tree.load(), path, "unknown-field")
    assert "hook event" in warning.message and warning.hint.startswith("nest it under hooks:")


@pytest.mark.parametrize(
    ("key", "meant"), [("allowed_tools", "allowed-tools"), ("disable-model-invocaton", "disable-model-invocation")]
)
def test_a_typo_gets_did_you_mean_and_what_the_field_would_do(tree: Tree, key: str, meant: str) -> None:
    path = tree.skill("typo", f"---\ndescription: d\n{key}: Read\n---\n")
    (warning,) = _diags(tree.load(), path, "unknown-field")
    assert warning.hint == f"did you mean `{meant}`?" and f"(`{meant}` would " in warning.message


# --- diagnostics that say what Claude Code does ------------------------------------------------


def test_yaml_claude_code_cannot_read_says_what_it_lists_and_what_it_drops(tree: Tree) -> None:
    # Recorded: fm_yaml_retry (`- broken-dmi: Heading fallback`, listed though the flag is set).
    path = tree.skill("x", '---\ndescription: "open\ndisable-model-invocation: true\n---\n# Heading fallback\n')
    catalog = tree.load()
    assert catalog.skills["x"].model_invocable
    (error,) = _diags(catalog, path, "yaml-invalid")
    assert "lists this as `x: Heading fallback`; disable-model-invocation is not applied" in error.message


def test_tab_indentation_is_repaired_not_invalid(tree: Tree) -> None:
    path = tree.skill("t", "---\ndescription: t\ndisable-model-invocation: true\nmetadata:\n\tkey: v\n---\n")
    catalog = tree.load()
    assert not catalog.skills["t"].model_invocable
    assert [d.severity for d in catalog.diagnostics if d.path == path and d.code.startswith("yaml")] == [Severity.WARNING]
    assert not _diags(catalog, path, "yaml-invalid")


def test_an_early_close_names_the_line_and_the_fate_of_the_rest(tree: Tree) -> None:
    inline = tree.skill("i", "---\ndescription: ok\nnote: a---b\ndisable-model-invocation: true\n---\n")
    dashes = tree.skill("d", "---\ndescription: four\n----\nbody\n")
    catalog = tree.load()
    assert catalog.skills["i"].model_invocable  # the flag was after the early close
    (early,) = _diags(catalog, inline, "frontmatter-early-close")
    assert early.line == 3 and "inside line 3 (`note: a---b`)" in early.message
    assert early.message.endswith("; disable-model-invocation is not applied")
    (four,) = _diags(catalog, dashes, "frontmatter-early-close")
    assert four.line == 3 and "`-`, becomes the first line of the prompt" in four.message
    assert not _diags(catalog, dashes, "frontmatter-unterminated")


def test_a_plugin_skill_name_is_only_a_label(tree: Tree, tmp_path: Path) -> None:
    root = tmp_path / "p"
    write(root / ".claude-plugin" / "plugin.json", '{"name": "tools"}')
    write(root / "skills" / "lint" / "SKILL.md", skill_text(name="renamed", description="d"))
    catalog = tree.load(plugin_dirs=(root,))
    assert catalog.skills["tools:lint"].display_name == "tools:renamed"
    warning = only(catalog, "name-mismatch")
    assert "the command is /tools:lint (the folder wins)" in warning.message
    assert "`- tools:lint (tools:renamed): ...`" in warning.message


# --- validate --strict -------------------------------------------------------------------------


def _validate(tree: Tree, path: Path, *extra: str) -> int:
    argv = ["--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed)]
    return main([*argv, "--no-bundled", "validate", str(path), *extra])


@pytest.mark.parametrize(
    "text",
    [
        "# No frontmatter\n\nbody\n",
        "\n---\nname: s\ndescription: d\n---\n",
        '---\nname: s\ndescription: d\ncompatibility: ""\n---\n',
        "---\nname: s\ndescription: d\nmetadata: just text\n---\n",
        "---\nname: s\ndescription: d\nmetadata:\n  nested:\n    deep: x\n---\n",
        "---\nname: s\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n---\n",
    ],
    ids=["no-frontmatter", "after-a-blank-line", "empty-compatibility", "metadata-not-a-map", "metadata-nested",
         "allowed-tools-list"],
)  # fmt: skip
def test_strict_fails_on_every_spec_violation(tree: Tree, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tree.skill("s", text.encode()).parent  # bytes: written exactly, a leading blank line kept
    assert _validate(tree, folder) == 0
    assert _validate(tree, folder, "--strict") == 1


def test_strict_passes_a_spec_skill(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    text = "---\nname: s\ndescription: d\ncompatibility: Python 3\nmetadata:\n  v: '1'\nallowed-tools: Read Grep\n---\nx\n"
    folder = tree.skill("s", text).parent
    assert _validate(tree, folder, "--strict") == 0


def test_strict_fails_on_a_folder_with_no_skill_md(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tree.root / "nothing"
    write(empty / "README.md", "# not a skill\n")
    # A path that holds no skill fails, strict or not (issue 17).
    assert _validate(tree, empty) == 1
    assert _validate(tree, empty, "--strict") == 1
    assert "no SKILL.md here" in capsys.readouterr().out


# --- field values (recorded: fm_field_values, fm_hooks) ----------------------------------------


@pytest.mark.parametrize(
    ("value", "patterns"),
    [("src/**", ("src",)), ("**", ()), ("**/**, **", ()), ("{a,b}/x.py, c.md", ("a/x.py", "b/x.py", "c.md")),
     (["src/**", 3], ("src",)), ([1, 2], ()), ("", ()), ("x/{a,{b,c}}", ("x/a}", "x/b", "x/c}"))],
)  # fmt: skip
def test_paths_as_claude_code_reads_them(value: object, patterns: tuple[str, ...]) -> None:
    assert cc_paths(value) == patterns


def test_field_values_read_as_claude_code_reads_them(tree: Tree) -> None:
    text = (
        "---\ndescription: d\nallowed-tools: [Read, 5, 'Grep, Bash(git add:*)']\narguments: [file, 2, mode]\n"
        "model: '  Inherit '\nshell: PowerShell\ndisable-model-invocation: 1.0\npaths: '**'\n---\n"
    )
    path = tree.skill("v", text)
    catalog = tree.load()
    skill = catalog.skills["v"]
    assert skill.allowed_tools == ("Read", "Grep", "Bash(git add:*)")
    assert skill.arguments == ("file", "mode")
    assert skill.model is None and skill.shell == "powershell" and skill.disable_model_invocation
    assert skill.paths == ()
    assert {d.line for d in _diags(catalog, path, "invalid-value")} == {3, 4}


def test_an_empty_user_invocable_hides_the_skill_and_says_so(tree: Tree) -> None:
    path = tree.skill("u", "---\ndescription: d\nuser-invocable:\n---\n")
    catalog = tree.load()
    assert not catalog.skills["u"].user_invocable
    (warning,) = _diags(catalog, path, "invalid-value")
    assert "hidden from the / menu" in warning.message


def test_an_unknown_shell_falls_back_to_bash(tree: Tree) -> None:
    path = tree.skill("s", "---\ndescription: d\nshell: zsh\n---\n")
    catalog = tree.load()
    assert catalog.skills["s"].shell is None
    assert "falls back to bash" in _diags(catalog, path, "invalid-value")[0].message


@pytest.mark.parametrize(
    ("hooks", "dropped"),
    [("[]", True), ("nope", True), ("{}", False), ("\n  Stop: nope", False), ("\n  PreToolUse:", False),
     ("\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command", True),
     ("\n  PreToolUse:\n    - matcher: 5\n      hooks:\n        - type: command\n          command: x", True),
     ("\n  PostToolUse:\n    - matcher: Bash\n      hooks:\n        - type: nope", False)],
    ids=["list", "text", "empty-map", "stop-text", "guard-null", "guard-no-command", "guard-matcher-number",
         "other-event-bad-entry"],
)  # fmt: skip
def test_which_hooks_make_claude_code_drop_the_allowed_tools(tree: Tree, hooks: str, dropped: bool) -> None:
    path = tree.skill("h", f"---\ndescription: d\nallowed-tools: Read\nhooks: {hooks}\n---\n")
    catalog = tree.load()
    assert catalog.skills["h"].allowed_tools == (() if dropped else ("Read",))
    assert bool(_diags(catalog, path, "hooks-dropped")) is dropped


def test_yaml_forms_as_bun_reads_them() -> None:
    # Recorded: fm_yaml_forms.
    assert parse("description: !!binary aGVsbG8=\n").data["description"] == "aGVsbG8="
    assert parse("base: &b {description: merged}\n<<: *b\n").data["description"] == "merged"
    assert parse("description: !!int 0x1F\n").data["description"] == 31


def test_a_second_yaml_document_is_said_so(tree: Tree) -> None:
    path = tree.skill("doc", "---\ndescription: before\n...\nname: after\n---\n# Fallback\n")
    catalog = tree.load()
    assert catalog.skills["doc"].description == "Fallback"
    (error,) = _diags(catalog, path, "yaml-invalid")
    assert "several documents" in error.message and "lists this as `doc: Fallback`" in error.message


def test_code_points_of_newer_unicode_are_kept_as_claude_code_keeps_them() -> None:
    # Claude Code's Unicode is 17.0 (recorded: fm_description_text, `unicode-17`); this Python's
    # unicodedata may be older and call them unassigned.
    assert cc_text("blue \U0001fa75 cjk \U00031350 x") == "blue \U0001fa75 cjk \U00031350 x"
    assert cc_text("gap \U0001faff greek \u0378 x") == "gap   greek   x"


def test_a_commands_name_is_ignored(tree: Tree) -> None:
    # Recorded: fm_command_name (`- cmdname: ...`, no label).
    path = write(tree.repo / ".claude" / "commands" / "cmdname.md", "---\nname: other-label\ndescription: d\n---\n")
    catalog = tree.load()
    assert catalog.skills["cmdname"].display_name == "cmdname"
    (warning,) = _diags(catalog, path, "name-mismatch")
    assert "is ignored" in warning.message and warning.line == 2
