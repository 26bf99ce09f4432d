"""Commands whose real name a rule cannot see: `c?rl`, `$x`, an alias, `xargs -I% %`.

A rule that allows every Bash command (`Bash`) runs them, but a deny or ask rule on some commands
(`Bash(curl *)`) cannot tell whether they are what it names. `decide_bash` asks such a line when
there is such a rule, instead of letting the blanket allow carry it.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from .commands import Invocation

if TYPE_CHECKING:
    from ..rulebook import RuleBook
    from ..settings import PlacedRule


def hidden_name(invs: list[Invocation], opaque: list[str]) -> str | None:
    """Why some command the line runs may not be the name it shows, or None."""
    for inv in invs:
        first = inv.words[0] if inv.words else None
        if first is not None and (first.value is None or first.glob or first.brace):
            return f"the command name `{first.raw}` is decided when the line runs"
        if inv.name == "alias":
            return "it defines an alias"
        replace = _replacement(inv)
        if replace is not None:
            # `xargs -I% % evil`, `find ... -exec {} evil`: the input or a found file names the command.
            inner = next((i for i in invs if i.command is inv.command and i.via[-1:] == ("xargs",)), None)
            if inner is not None and inner.words and replace in (inner.words[0].value or replace):
                return f"the command name `{inner.words[0].raw}` is filled in by xargs"
        if first is not None and "{}" in (first.value or "") and "evaluated string" in inv.via:
            return f"the command name `{first.raw}` is a file find finds"
    for why in opaque:
        if "decided at run time" in why or "function" in why:
            return f"it has {why}"
    return None


def _replacement(inv: Invocation) -> str | None:
    """The text `xargs -I R` / `-i` / `--replace` fills in, when `inv` is such an xargs."""
    if inv.name != "xargs" or inv.peeled:
        return None
    words = [w.value or "" for w in inv.words[1:]]
    for i, value in enumerate(words):
        if not value.startswith("-") or value == "--":
            break
        if value in ("-I", "-J"):
            return words[i + 1] if i + 1 < len(words) else None
        if value.startswith(("-I", "-J", "-i")):
            return value[2:] or "{}"
        if value.startswith("--replace"):
            return value.partition("=")[2] or "{}"
    return None


def narrow_rule(perms: RuleBook) -> PlacedRule | None:
    """A deny or ask rule on some Bash commands (not all), if any."""
    for behavior in ("deny", "ask"):
        for placed in perms.settings.rules_for(behavior):
            if placed.rule.tool == "Bash" and placed.rule.specifier not in (None, "*"):
                return placed
    return None


# `$c`, `"$c"`, `${c}`, `"${c}"`: a word that is one variable and nothing else.
_ONE_VARIABLE = re.compile(r'"?\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})"?')
# Forms made per command before the rest of its variables are left as written.
_MAX_FORMS = 16


def assigned_forms(invs: list[Invocation], inv: Invocation) -> list[str]:
    """`c=curl; $c x` read with each variable the line assigns a literal value, for deny and ask
    rules: `curl x` (Claude Code denies the line by `Bash(curl *)`, recorded:
    deny_through_expansions). Every value the line gives a name counts."""
    values: dict[str, list[str]] = {}
    for other in invs:
        for assignment in other.command.assignments:
            name, _, value = (assignment.value or "").partition("=")
            if name and not name.endswith("+") and "[" not in name:
                values.setdefault(name, []).append(value)
    if not values:
        return []
    choices: list[list[str]] = []
    found = False
    for word in inv.words:
        m = _ONE_VARIABLE.fullmatch(word.raw) if word.value is None else None
        variable = str(m.group(1) or m.group(2)) if m else ""
        found |= variable in values
        choices.append(values.get(variable, [word.raw]) if variable else [word.raw if word.value is None else word.value])
    if not found:
        return []
    forms = itertools.islice(itertools.product(*choices), _MAX_FORMS)
    return [" ".join(form) for form in forms]
