"""The text the model receives about the available skills, under Claude Code's character budget.

Verified against Claude Code 2.1.328 (tests/oracle/recordings/listing): a header and a blank
line, then one `- name: text` line per listed skill in catalog order. The text is the
description (with ` - when_to_use`), cut to `skillListingMaxDescChars` (1,536) UTF-16 units with
an ellipsis; `<` and `>` are escaped. A skill whose `name:` differs from its folder is labelled
`- folder (name)` when that name would find it. When the lines exceed the budget, Claude Code's
bundled prompt skills and `name-only` overrides keep their lines, every other entry (its
built-in `init` and `security-review` too) drops to its name, and descriptions come back
greedily, most used first (then in listing order), while they fit.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from ..catalog.frontmatter.js import JS_TRIM, display_width, utf16_cut, utf16_len
from ..catalog.model import LoadedFrom, Skill, SourceKind
from ..llm import ALIASES, DEFAULT_MODEL_ID

HEADER = "The following skills are available for use with the Skill tool:"
ENTRY_TEXT_CAP = 1536
FRACTION = 0.01
BUDGET_ENV = "SLASH_COMMAND_TOOL_CHAR_BUDGET"
# A name longer than this is never shown as a label (Claude Code 2.1.328: 256).
LABEL_MAX = 256
# Claude Code 2.1.328's own slash commands: a skill labelled with one of these names is not
# labelled, since the name finds the command (recorded: tests/oracle/cases/listing/labels.json).
CC_COMMANDS = frozenset(
    ("agents", "auto-mode-setup", "autocompact", "clear", "color", "compact", "config", "output-style", "context",
     "effort", "fast", "focus", "heapdump", "init", "mcp", "model", "reload-plugins", "reload-skills", "rename",
     "security-review", "usage", "insights", "recap", "goal", "list-agents", "team-onboarding", "doctor",
     "plugin-authoring")
)  # fmt: skip


# One way to match each string: `\d+\.?\d*` let a long run of digits split at every point, and
# a 10,000-digit variable took seconds to reject. [0-9], not \d: JavaScript's Number() and \d
# read only ASCII digits, Python's \d and float() read `١٢٣` as 123.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_RADIX = re.compile(r"0([xXoObB])([0-9a-fA-F]+)")
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}([_,\u00a0\u202f ])[0-9]{3}(?:\1[0-9]{3})*")


def _js_float(value: float) -> float:
    """`value` as a JavaScript number: an integer past the float range is Infinity, not an error."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def env_number(text: str) -> float:
    """The budget variable read as Claude Code reads it: JavaScript's Number(), then digit groups
    (`30,000`, `30_000`, `30 000`); NaN when neither reads it."""
    value = text.strip(JS_TRIM)
    if value == "":
        return 0.0
    if value.lstrip("+-") == "Infinity":
        return -math.inf if value.startswith("-") else math.inf
    if _DECIMAL.fullmatch(value):
        return float(value)
    radix = _RADIX.fullmatch(value)
    if radix:
        base = {"x": 16, "o": 8, "b": 2}[radix.group(1).lower()]
        try:
            return _js_float(int(radix.group(2), base))
        except ValueError:
            return math.nan
    if len(value) <= 32 and _GROUPED.fullmatch(value):
        return float(re.sub(r"[_,\u00a0\u202f ]", "", value))
    return math.nan


# Context windows (tokens) and characters per token by model, as Claude Code 2.1.328 sizes the
# budget (recorded: tests/oracle/cases/listing/budget_model_*). The 4.x and older models count
# 4 characters per token in a 200,000-token window (a `[1m]` variant: 1,000,000); the current
# models 3 in 1,000,000.
_OLDER = re.compile(r"claude-(?:3-(?:opus|sonnet|haiku|5-sonnet|5-haiku|7-sonnet)|(?:opus|sonnet)-4-[0156]|haiku-4-5)")
# Retired models Claude Code replaces with its default (recorded: budget_model_claude_opus_4_[01]).
_RETIRED = re.compile(r"claude-opus-4-[01](?:-|$)")


def model_window(model: str | None) -> tuple[int, int, str]:
    """(context window in tokens, characters per token, the model id) for a model name or alias."""
    name = (model or DEFAULT_MODEL_ID).strip()
    wide = name.lower().endswith("[1m]")
    base = name[:-4] if wide else name
    base = ALIASES.get(base.lower(), base)
    if _RETIRED.match(base.lower()):
        base = DEFAULT_MODEL_ID
    if _OLDER.search(base.lower()):
        return (1_000_000 if wide else 200_000), 4, base
    return 1_000_000, 3, base


@dataclass(frozen=True, slots=True)
class Budget:
    chars: float
    # How the figure was reached, for the listing pane and `skilldeck listing --json`.
    source: str


def listing_budget(environ: Mapping[str, str], fraction: float | None = None, model: str | None = None) -> Budget:
    """Claude Code's budget: SLASH_COMMAND_TOOL_CHAR_BUDGET when it reads as a non-zero number,
    else the model's window x characters per token x `skillListingBudgetFraction` (0.01), at least 1."""
    raw = environ.get(BUDGET_ENV)
    if raw is not None:
        value = env_number(raw)
        if value and not math.isnan(value):
            return Budget(value, f"{BUDGET_ENV}={raw.strip()}")
    window, per_token, name = model_window(model)
    share = fraction if fraction is not None else FRACTION
    chars = max(1, math.floor(window * per_token * share))
    setting = "skillListingBudgetFraction" if fraction is not None else "default share"
    return Budget(chars, f"{name}: {window:,} tokens x {per_token} characters x {share:g} ({setting})")


# Kept for callers that want the budget from the environment alone (the default model).
DEFAULT_BUDGET = int(listing_budget({}).chars)


def budget_from_env(environ: Mapping[str, str] | None = None) -> float:
    import os

    return listing_budget(os.environ if environ is None else environ).chars


def usage_score(count: float, last_used_ms: float, now_ms: float) -> float:
    """Claude Code's usage score: the count, halved every 7 days since last use, never below a tenth."""
    days = (now_ms - last_used_ms) / 86_400_000
    try:
        # float ** float is typed Any (a negative base gives a complex); 0.5 is positive.
        decay: float = 0.5 ** (days / 7)
    except OverflowError:
        # A last use far in the future: JavaScript's Math.pow gives Infinity, Python raises.
        decay = math.inf
    return count * max(decay, 0.1)


def usage_scores(skill_usage: object, now_ms: float) -> dict[str, float]:
    """Scores from `skillUsage` in ~/.claude.json ({name: {usageCount, lastUsedAt}}); bad entries score 0."""
    out: dict[str, float] = {}
    if not isinstance(skill_usage, dict):
        return out
    for name, record in skill_usage.items():
        if not isinstance(record, dict):
            continue
        count, last = record.get("usageCount"), record.get("lastUsedAt")
        if isinstance(count, int | float) and isinstance(last, int | float) and not isinstance(count, bool):
            out[str(name)] = usage_score(_usage_number(count), _usage_number(last), now_ms)
    return out


def _usage_number(value: float) -> float:
    """A skillUsage number as Claude Code scores it. Claude Code writes ~/.claude.json back when it
    starts, and JSON.stringify writes a number past the float range as null, which counts as 0
    (recorded: attack_usage_overflow, a usageCount of 10**400 scores below one of 5)."""
    try:
        return float(value)
    except OverflowError:
        return 0.0


@dataclass(frozen=True, slots=True)
class Foreign:
    """A skill skilldeck does not load but Claude Code lists (its own): name, text and place."""

    name: str
    text: str
    position: int
    # Kept whole under budget pressure, as Claude Code keeps its bundled prompt skills (dataviz,
    # update-config, claude-api, ...). Its built-in commands it lists (init, security-review) are
    # not: they drop to their name like the user's skills (recorded: listing_cc_bundled_edge_*).
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class ListingEntry:
    name: str
    line: str
    full_line: str
    trimmed: bool
    # True when the entry's text was cut at the description cap.
    capped: bool
    # "on" or "name-only" (skillOverrides); "foreign" for an entry skilldeck did not load.
    override: str = "on"
    # Always kept whole under budget pressure (a bundled skill or a name-only override).
    fixed: bool = False
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class Listing:
    text: str
    entries: tuple[ListingEntry, ...]
    budget: float
    # Characters the entries take as sent (their display width, and the newlines between them;
    # the header is not counted against the budget).
    used: int
    # What the entries would take with every description kept.
    wanted: int
    budget_source: str = ""
    # Skills left out and why: {name: reason}.
    left_out: Mapping[str, str] | None = None
    # The entries by name, for a lookup per key press that does not grow with the catalog.
    by_name: Mapping[str, ListingEntry] | None = None
    # Where Claude Code's own entries came from, when they were put in from a recording
    # (engine/listing/claude_own.py): "Claude Code 2.1.328 (recorded 2026-11-25)".
    own_from: str = ""
    # Why a recording of Claude Code's own skills is not counted (another Claude Code now), or "".
    own_stale: str = ""
    # Another agent's block (engine/hosts/as_catalog): that agent's title; "" for Claude Code's listing.
    agent: str = ""

    def entry(self, name: str) -> ListingEntry | None:
        return (self.by_name or {}).get(name)

    @property
    def trimmed(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries if e.trimmed)

    @property
    def over(self) -> bool:
        return self.wanted > self.budget

    @property
    def own_counted(self) -> bool:
        """Whether Claude Code's own skills were put in (`foreign`); when not, the figures leave them out."""
        return any(e.override == "foreign" for e in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "budget": {"chars": _json_number(self.budget), "source": self.budget_source},
            "used": self.used,
            "wanted": self.wanted,
            "over_budget": self.over,
            "ends_over_budget": self.used > self.budget,
            "claude_code_own_skills_counted": self.own_counted,
            "claude_code_own_skills_stale": self.own_stale,
            "entries": [
                {"name": e.name, "line": e.line, "full_line": e.full_line, "description_dropped": e.trimmed,
                 "capped": e.capped, "override": e.override, "always_whole": e.fixed, "usage_score": _json_number(e.score)}
                for e in self.entries
            ],
            "left_out": dict(self.left_out or {}),
        }  # fmt: skip


def _json_number(value: float) -> float | str:
    """A number for JSON: an infinite budget or usage score is written as JavaScript prints it
    ("Infinity", "NaN"), since json.dumps would write a bare Infinity that no JSON reader takes."""
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


# Said wherever the listing is shown without Claude Code's own skills in it.
OWN_SKILLS_NOTE = (
    "Claude Code adds its own skills (update-config, dataviz, ...) to this listing; most always keep their "
    "text, and all take part of the budget. skilldeck cannot ship them: `skilldeck compare` records them from your "
    "Claude Code once, and every listing of this project counts them from then on."
)


_ASCII_LABEL = re.compile(r"[A-Za-z0-9_:.-]+")


def valid_label(name: str) -> bool:
    """A name Claude Code would show as a label: letters, marks, digits and `_ : . -`."""
    # Counted in UTF-16 units, as JavaScript's length counts: 200 `𝔸` are 400 units, no label.
    if not name or utf16_len(name) > LABEL_MAX:
        return False
    if name.isascii():
        return _ASCII_LABEL.fullmatch(name) is not None
    return all(ch in "_:.-" or unicodedata.category(ch)[0] in "LMN" for ch in name)


def escape(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")


def entry_text(skill: Skill, cap: int = ENTRY_TEXT_CAP) -> tuple[str, bool]:
    """The description part of an entry and whether it was cut at `cap` UTF-16 units. The text
    is escaped first, then cut, so an escape can be cut in half (recorded: listing_escape_cap)."""
    text = skill.description
    if skill.scope:
        # A scoped name (`extra:deploy`) says where it applies (recorded: load_add_dir_clash).
        unscoped = skill.name.removeprefix(f"{skill.scope}:")
        text = (
            f'{text} (scoped to {skill.scope}/ — use this instead of the unscoped "{unscoped}" skill '
            f"when the files being changed are under {skill.scope}/)"
        )
    if skill.when_to_use:
        text = f"{text} - {skill.when_to_use}"
    if len(text) > cap:
        # Only the first `cap` + 1 characters decide the cut (escaping only lengthens, and each
        # character is at least one unit): 1,000 descriptions of 200,000 characters took 5 s to
        # escape and measure whole, after every reload.
        text = text[: cap + 1]
    text = escape(text)
    if utf16_len(text) > cap:
        return utf16_cut(text, cap - 1, half="\ufffd") + "…", True
    return text, False


def entry_line(skill: Skill, cap: int = ENTRY_TEXT_CAP) -> tuple[str, bool]:
    text, capped = entry_text(skill, cap)
    return f"- {skill.name}: {text}", capped


def _labels(skills: Sequence[Skill]) -> dict[int, str]:
    """`folder (name)` labels: shown when the `name:` is valid, differs, and would find this skill
    (no skill or command is named it, and no earlier skill answers to it)."""
    names = {s.name for s in skills} | CC_COMMANDS
    first_display: dict[str, int] = {}
    for index, skill in enumerate(skills):
        first_display.setdefault(skill.display_name, index)
    out: dict[int, str] = {}
    for index, skill in enumerate(skills):
        label = skill.display_name
        if label == skill.name or skill.name.endswith(f":{label}"):
            continue
        # The set lookups first: a tree whose every name: is another's folder (15,000 skills)
        # spent 0.1 s of each reload checking labels no one would see.
        if label in names or first_display.get(label) != index or not valid_label(label):
            continue
        out[index] = f"{skill.name} ({label})"
    return out


_HELD_BACK = {
    "paths": "a paths: skill: listed only once a file matching its paths is read or edited",
    "nested": "in a .claude/skills below the start folder: loaded once a file under that folder is touched",
}


class _Row(NamedTuple):
    """One entry while the listing is built: its whole line and its name-only line."""

    name: str
    full: str
    short: str
    capped: bool
    override: str
    fixed: bool
    score: float


def build_listing(
    skills: Iterable[Skill],
    budget: float | Budget | None = None,
    usage: Mapping[str, float] | None = None,
    *,
    max_desc_chars: int | None = None,
    overrides: Mapping[str, str] | None = None,
    foreign: Sequence[Foreign] = (),
    deferred: Iterable[Skill] = (),
) -> Listing:
    """The listing for `skills` in catalog order (pass them all: the ones the model cannot invoke
    are left out here, and every name counts for labels). `usage` maps names to usage scores;
    `overrides` is `skillOverrides`; `foreign` places entries skilldeck did not load; `deferred`
    are skills Claude Code adds only later in a session (`Catalog.deferred`), named as held back."""
    if budget is None:
        budget = listing_budget({})
    chars, source = (budget.chars, budget.source) if isinstance(budget, Budget) else (budget, "")
    if abs(chars) > sys.float_info.max:
        # `--budget` takes any integer: 10**400 crashed every figure formatted from it later.
        chars = _js_float(chars)
    cap = max_desc_chars if max_desc_chars and max_desc_chars > 0 else ENTRY_TEXT_CAP
    usage = usage or {}
    overrides = overrides or {}
    every = list(skills)
    labels = _labels(every)
    left_out: dict[str, str] = {}
    for skill in deferred:
        left_out[skill.name] = _HELD_BACK.get(skill.activation, f"not loaded at start ({skill.activation})")
    rows: list[_Row] = []
    for index, skill in enumerate(every):
        setting = overrides.get(skill.name, "on")
        if skill.source.kind is SourceKind.BUNDLED:
            # skilldeck's own skills are not Claude Code's: never in the listing it sends.
            left_out[skill.name] = "skilldeck's own skill: Claude Code does not load it"
            continue
        if not skill.model_invocable:
            left_out[skill.name] = "disable-model-invocation"
            continue
        if setting in ("off", "user-invocable-only"):
            left_out[skill.name] = f"skillOverrides: {setting}"
            continue
        if skill.loaded_from is LoadedFrom.PLUGIN and not skill.has_user_description and not skill.when_to_use:
            # Claude Code lists a plugin's skill or command only with a description or
            # when_to_use of its own, never on a heading fallback (recorded: corpus_plugins).
            left_out[skill.name] = "a plugin entry with no description or when_to_use of its own"
            continue
        if setting == "name-only":
            line = f"- {skill.name}"
            rows.append(_Row(skill.name, line, line, False, "name-only", True, usage.get(skill.name, 0.0)))
            continue
        head = f"- {labels.get(index, skill.name)}"
        text, capped = entry_text(skill, cap)
        rows.append(_Row(skill.name, f"{head}: {text}", head, capped, "on", False, usage.get(skill.name, 0.0)))
    for extra in sorted(foreign, key=lambda f: f.position):
        head = f"- {extra.name}"
        row = _Row(extra.name, f"{head}: {extra.text}", head, False, "foreign", extra.fixed, usage.get(extra.name, 0.0))
        rows.insert(min(extra.position, len(rows)), row)

    # Display widths, as Claude Code sums them (display_width), not UTF-16 units.
    full = [display_width(r.full) for r in rows]
    short = [display_width(r.short) for r in rows]
    gaps = max(0, len(rows) - 1)  # the newlines between lines count too
    wanted = sum(full) + gaps
    keep = [True] * len(rows)
    if wanted > chars:
        movable = [i for i, r in enumerate(rows) if not r.fixed]
        if movable:
            keep = [r.fixed for r in rows]
            room = chars - (sum(full[i] if r.fixed else short[i] for i, r in enumerate(rows)) + gaps)
            # Most used first; equal scores keep listing order (a stable sort, as in Claude Code).
            for i in sorted(movable, key=lambda i: -rows[i].score):
                if full[i] - short[i] <= room:
                    keep[i] = True
                    room -= full[i] - short[i]
    lines = [r.full if keep[i] else r.short for i, r in enumerate(rows)]
    used = sum(full[i] if keep[i] else short[i] for i in range(len(rows))) + gaps
    entries = tuple(
        ListingEntry(r.name, lines[i], r.full, not keep[i], r.capped, r.override, r.fixed, r.score) for i, r in enumerate(rows)
    )
    text = "\n".join([HEADER, "", *lines]) if rows else ""
    by_name = MappingProxyType({e.name: e for e in entries})
    return Listing(text, entries, chars, used, wanted, source, MappingProxyType(left_out), by_name)
