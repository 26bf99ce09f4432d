"""What Claude Code asks before running whatever the rules allow, beyond what the parser finds
(parse.py names the operators and expansions): a wildcard in what a command changes, a `$` in a
path, a path a variable decides. Recorded: bash_operators_allowed, deny_through_expansions, and
typed_shell_dollar_skill_dir (a skill folder whose path holds a `$`).
"""

from __future__ import annotations

import re

from .commands import READS_PATHS, WRITES_PATHS, Invocation
from .syntax import Word

# Commands whose first argument is a pattern or a program, not a path.
SCRIPT_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "awk", "sed", "jq"})
# `$name`, `${...}`, `$(...)` written in a word.
_VARIABLE = re.compile(r"\$[A-Za-z_{(]")
# Claude Code's words for a path a variable decides (said.py holds the others).
VARIABLE_SAID = "A variable in this command can't be checked before it runs"


def path_arguments(inv: Invocation) -> list[Word]:
    """The words after the command name that may be paths (options skipped, `--opt=value` kept
    when the value looks like a path)."""
    out: list[Word] = []
    options = True
    for word in inv.words[1:]:
        value = word.value
        if options and value == "--":
            options = False
        elif options and value is not None and value.startswith("-") and value != "-":
            _, eq, rest = value.partition("=")
            if eq and ("/" in rest or rest.startswith(("~", "."))):
                out.append(Word(rest, rest, word.glob, word.brace, rest.startswith("~")))
        else:
            out.append(word)
    return out


def decided_when_run(invs: list[Invocation]) -> str | None:
    """A path argument Claude Code asks about under any rule: a wildcard or a brace in what
    touch, rm, mv... change (`touch x*`), a literal `$name` in a path (`cat '$HOME'/x`)."""
    for inv in invs:
        if inv.name not in WRITES_PATHS and inv.name not in READS_PATHS:
            continue
        writes = inv.name in WRITES_PATHS
        args = path_arguments(inv)[1 if inv.name in SCRIPT_FIRST else 0 :]
        odd = next((w.raw for w in args if _VARIABLE.search(w.value or "") or (writes and w.glob)), None)
        if odd is None and writes and any(w.brace for w in inv.words):
            odd = inv.command.text
        if odd is not None:
            return odd
    return None


def unknown_said(raw: str) -> str:
    """Claude Code's words for a path it cannot know before the line runs, where known."""
    plain = raw.replace('"', "")
    return VARIABLE_SAID if re.search(r"\$[A-Za-z_]", plain) and "'" not in raw else ""
