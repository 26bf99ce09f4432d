"""The text the model receives about the available skills, under Claude Code's character budget.

BEHAVIOR.md §4: a header, then `- name: description` (with ` - when_to_use` when present) for
every model-invocable skill, each entry's text capped at 1,536 characters. Over the budget every
name stays and descriptions are dropped, least-used skills first.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .model import Skill

HEADER = "The following skills are available for use with the Skill tool:"
ENTRY_TEXT_CAP = 1536
CONTEXT_TOKENS = 200_000
CHARS_PER_TOKEN = 4
BUDGET_SHARE = 0.01
DEFAULT_BUDGET = int(CONTEXT_TOKENS * CHARS_PER_TOKEN * BUDGET_SHARE)
BUDGET_ENV = "SLASH_COMMAND_TOOL_CHAR_BUDGET"


def budget_from_env(environ: Mapping[str, str] | None = None) -> int:
    env = os.environ if environ is None else environ
    try:
        value = int(env.get(BUDGET_ENV, ""))
    except ValueError:
        return DEFAULT_BUDGET
    return value if value > 0 else DEFAULT_BUDGET


@dataclass(frozen=True, slots=True)
class ListingEntry:
    name: str
    line: str
    full_line: str
    trimmed: bool
    # True when the entry's text was cut at ENTRY_TEXT_CAP.
    capped: bool


@dataclass(frozen=True, slots=True)
class Listing:
    text: str
    entries: tuple[ListingEntry, ...]
    budget: int
    # Characters the entries take (the header is not counted against the budget).
    used: int
    # What the entries would take with every description kept.
    wanted: int

    @property
    def trimmed(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries if e.trimmed)


def entry_line(skill: Skill) -> tuple[str, bool]:
    text = skill.description
    if skill.when_to_use:
        text = f"{text} - {skill.when_to_use}"
    capped = len(text) > ENTRY_TEXT_CAP
    if capped:
        text = text[: ENTRY_TEXT_CAP - 1] + "…"
    return f"- {skill.name}: {text}", capped


def build_listing(
    skills: Iterable[Skill],
    budget: int | None = None,
    usage: Mapping[str, int] | None = None,
) -> Listing:
    """The listing for `skills` (pass the model-invocable ones, in catalog order)."""
    budget = budget_from_env() if budget is None else budget
    usage = usage or {}
    chosen = [s for s in skills if s.model_invocable]
    full = [entry_line(s) for s in chosen]
    lines = [line for line, _ in full]
    wanted = used = sum(len(line) + 1 for line in lines)
    trimmed: set[int] = set()
    if used > budget:
        # Least used first; among equals, the later entries lose their descriptions first.
        order = sorted(range(len(chosen)), key=lambda i: (usage.get(chosen[i].name, 0), -i))
        for i in order:
            if used <= budget:
                break
            short = f"- {chosen[i].name}"
            used -= len(lines[i]) - len(short)
            lines[i] = short
            trimmed.add(i)
    entries = tuple(ListingEntry(s.name, lines[i], full[i][0], i in trimmed, full[i][1]) for i, s in enumerate(chosen))
    text = "\n".join([HEADER, *lines])
    return Listing(text, entries, budget, used, wanted)
