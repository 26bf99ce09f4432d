"""README's "### Keys" table says what the `?` list says: every key the `?` list shows, in a row for
its pane, and no key the app does not bind.

The `?` list is built as the app builds it (`action_help`: `key_sections(self.BINDINGS)`). A README
row belongs to a pane when its description starts with one, `(tiers) …`; a row without a prefix is
for everywhere and counts for every pane. The `/` row's description names search's own keys
(`↑ ↓`, `enter`, `escape`). Keys are compared in one spelling: `escape`, `ctrl+t`, `pageup`, `up`;
a combined row ("up down", "`j` `k` `g` `G`, arrows", "`1` … `7`") stands for each of its keys."""

from __future__ import annotations

import re
from pathlib import Path

from tui.app import SkilldeckApp
from tui.screens.help import key_sections

README = Path(__file__).resolve().parents[2] / "README.md"

# Each `?` section and the README prefixes ("(tiers)", "(composer)", ...) that stand for it.
SCOPES: dict[str, set[str]] = {
    "Anywhere": set(),
    "Tiers tree": {"tiers"},
    "Diagnostics pane": {"diagnostics"},
    "Details pane": {"details"},
    "Listing pane": {"listing"},
    "Rules pane": {"rules"},
    "Conversation tab": {"conversation", "composer"},
    "Evals tab": {"evals"},
    "Approval": {"approval"},
    "Search": {"search"},
}
# The `?` list's rows that name no key ("type": narrow the results by typing).
NOT_KEYS = {"type"}
ALIASES = {
    "esc": "escape",
    "↑": "up",
    "↓": "down",
    "←": "left",
    "→": "right",
    "pgup": "pageup",
    "pgdn": "pagedown",
    "slash": "/",
    "question_mark": "?",
    "minus": "-",
    "plus": "+",
    "equals_sign": "=",
}
ARROWS = ["up", "down", "left", "right"]


def normalise(key: str) -> str:
    """One spelling for a key: `Esc` -> `escape`, `^t` / `Ctrl+T` -> `ctrl+t`; a lone letter keeps
    its case (`G` is not `g`)."""
    key = key.strip()
    if key.startswith("^") and len(key) == 2:
        key = "ctrl+" + key[1]
    if len(key) > 1:
        key = key.lower()
    return ALIASES.get(key, key)


def help_keys() -> dict[str, set[str]]:
    """Section title -> the keys the `?` list shows in it."""
    sections = key_sections(SkilldeckApp.BINDINGS)
    assert [title for title, _ in sections] == list(SCOPES), "a new `?` section: say which README prefix stands for it"
    return {title: {normalise(k) for keys, _ in rows for k in keys.split() if k not in NOT_KEYS} for title, rows in sections}


def _cell_keys(cell: str) -> list[str]:
    """The keys in a table cell: each backticked key (`↑ ↓` holds two), `a` … `b` a range, the word
    arrows the four arrows. Any other word outside backticks is a parse failure, so the table stays
    readable by this test."""
    keys: list[str] = []
    for start, end in re.findall(r"`([^`]+)`\s*…\s*`([^`]+)`", cell):
        keys += [str(n) for n in range(int(start), int(end) + 1)]
    cell = re.sub(r"`[^`]+`\s*…\s*`[^`]+`", " ", cell)
    for token in re.findall(r"`([^`]+)`", cell):
        keys += [normalise(k) for k in token.split()]
    rest = re.sub(r"`[^`]+`", " ", cell)
    for word in re.findall(r"[^\s,;]+", rest):
        assert word == "arrows", f"README Keys table: {word!r} outside backticks in the key column"
        keys += ARROWS
    return keys


def readme_rows() -> list[tuple[str | None, list[str]]]:
    """(prefix, keys) for each row of README's Keys table; prefix None for a row without one."""
    text = README.read_text()
    start = text.index("\n### Keys\n") + len("\n### Keys\n")
    end = re.compile(r"^#{1,6} ", re.M).search(text, start)
    section = text[start : end.start() if end else len(text)]
    rows: list[tuple[str | None, list[str]]] = []
    for line in section.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == 2, f"README Keys table: not two cells: {line!r}"
        keys, does = cells
        if keys == "key":
            continue  # the header
        prefix = re.match(r"\((\w+)", does)
        rows.append((prefix.group(1).lower() if prefix else None, _cell_keys(keys)))
        if keys == "`/`":
            # The search row: its description names the keys of the search box.
            rows.append(("search", _cell_keys(" ".join(re.findall(r"`[^`]+`", does)))))
    assert rows, "README has no Keys table"
    return rows


def test_readme_keys_table_shows_every_key_of_the_help_screen() -> None:
    rows = readme_rows()
    everywhere = {k for prefix, keys in rows if prefix is None for k in keys}
    missing = []
    for title, keys in help_keys().items():
        documented = everywhere | {k for prefix, ks in rows if prefix in SCOPES[title] for k in ks}
        missing += [f"{title}: {key}" for key in sorted(keys - documented)]
    assert not missing, "keys the `?` list shows that README's Keys table does not (in a row for that pane): " + ", ".join(
        missing
    )


def test_readme_keys_table_names_no_key_the_app_does_not_bind() -> None:
    shown = help_keys()
    anywhere = set().union(*shown.values())
    stale = []
    for prefix, keys in readme_rows():
        if prefix is None:
            bound = anywhere
        else:
            titles = [title for title, prefixes in SCOPES.items() if prefix in prefixes]
            assert titles, f"README Keys table: the prefix ({prefix}) names no pane of the `?` list"
            bound = set().union(*(shown[t] for t in titles))
        stale += [f"({prefix or 'anywhere'}) {key}" for key in keys if key not in bound]
    assert not stale, "keys in README's Keys table that the app does not bind there: " + ", ".join(stale)
