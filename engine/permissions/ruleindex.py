"""One behavior's permission rules, indexed by what a call must hold for a rule to cover it.

A settings file can hold 100,000 rules (1.7 MB): tried one by one, a single `check` took 53 s.
Here a call meets only the rules of its own tool (plus those naming tools by a wildcard, and
its MCP server's), and a Bash command only the rules that begin with its first word (plus those that
begin with a wildcard). Precedence is kept: candidates come back in the rules' own order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .rules import EDIT_TOOLS, PREFIX_KEY, READ_TOOLS, bash_rule_key
from .settings import PlacedRule

# Rule tests one decision may make (a Bash line meets the rules once per command and form): past
# this the call is asked. 100,000 rules that all begin with a wildcard, against a line of 1,000
# commands, were 10^8 tests; a real settings file never comes near.
MAX_RULE_TESTS = 200_000


class RuleBudgetExceeded(Exception):
    """More rule tests than MAX_RULE_TESTS in one decision."""


@dataclass
class _Budget:
    left: int = MAX_RULE_TESTS


_budget: ContextVar[_Budget | None] = ContextVar("rule_budget", default=None)


@contextmanager
def rule_budget() -> Iterator[None]:
    """Count the rule tests of one decision (see MAX_RULE_TESTS); nested budgets share the first."""
    token = _budget.set(_budget.get() or _Budget())
    try:
        yield
    finally:
        _budget.reset(token)


def spend(tests: int) -> None:
    budget = _budget.get()
    if budget is not None:
        budget.left -= tests
        if budget.left < 0:
            raise RuleBudgetExceeded(f"more than {MAX_RULE_TESTS:,} rule tests")


class RuleIndex:
    def __init__(self, rules: Sequence[PlacedRule]) -> None:
        self.rules = tuple(rules)
        self._by_tool: dict[str, list[int]] = {}
        self._by_key: dict[tuple[str, str], list[int]] = {}
        self._wide: list[int] = []
        for at, placed in enumerate(self.rules):
            tool, spec = placed.rule.tool, placed.rule.specifier
            key = bash_rule_key(spec) if tool == "Bash" and spec is not None else None
            if "*" in tool:
                self._wide.append(at)
            elif key is not None:
                self._by_key.setdefault(key, []).append(at)
            else:
                self._by_tool.setdefault(tool, []).append(at)

    def candidates(self, tool: str, tool_input: dict[str, Any] | None = None) -> list[PlacedRule]:
        """The rules that may cover a call of `tool` (for Bash, of this command), in order. Each
        is counted against the decision's rule budget (rule_budget)."""
        found = set(self._wide)
        names = {tool, *(["Read"] if tool in READ_TOOLS else []), *(["Edit"] if tool in EDIT_TOOLS else [])}
        if tool.startswith("mcp__"):
            # `mcp__server` covers its every tool; a server's name may itself hold `_`s.
            rest = tool[5:]
            at = rest.find("__")
            while at > 0:
                names.add("mcp__" + rest[:at])
                at = rest.find("__", at + 1)
        for name in names:
            found.update(self._by_tool.get(name, ()))
        if tool == "Bash":
            command = str((tool_input or {}).get("command", "")).strip()
            words = command.split(maxsplit=1)
            found.update(self._by_key.get(("word", words[0].casefold() if words else ""), ()))
            start = command[: PREFIX_KEY * 2].casefold()
            for length in range(1, PREFIX_KEY + 1):
                found.update(self._by_key.get(("prefix", start[:length]), ()))
        spend(len(found))
        return [self.rules[at] for at in sorted(found)]
