"""One behavior's permission rules, indexed by what a call must hold for a rule to cover it.

A settings file can hold 100,000 rules (1.7 MB): tried one by one, a single `check` took 53 s.
Here a call meets only the rules of its own tool (plus those naming tools by a wildcard, and
its MCP server's), and a Bash command only the rules that begin with its first word (plus those that
begin with a wildcard). Precedence is kept: candidates come back in the rules' own order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rules import EDIT_TOOLS, READ_TOOLS, bash_rule_word
from .settings import PlacedRule


class RuleIndex:
    def __init__(self, rules: Sequence[PlacedRule]) -> None:
        self.rules = tuple(rules)
        self._by_tool: dict[str, list[int]] = {}
        self._by_word: dict[str, list[int]] = {}
        self._wide: list[int] = []
        for at, placed in enumerate(self.rules):
            tool, spec = placed.rule.tool, placed.rule.specifier
            word = bash_rule_word(spec) if tool == "Bash" and spec is not None else None
            if "*" in tool:
                self._wide.append(at)
            elif word is not None:
                self._by_word.setdefault(word, []).append(at)
            else:
                self._by_tool.setdefault(tool, []).append(at)

    def candidates(self, tool: str, tool_input: dict[str, Any] | None = None) -> list[PlacedRule]:
        """The rules that may cover a call of `tool` (for Bash, of this command), in order."""
        found = set(self._wide)
        names = {tool, *(["Read"] if tool in READ_TOOLS else []), *(["Edit"] if tool in EDIT_TOOLS else [])}
        if tool.startswith("mcp__"):
            names.add("mcp__" + tool[5:].split("__", 1)[0])  # `mcp__server` covers its every tool
        for name in names:
            found.update(self._by_tool.get(name, ()))
        if tool == "Bash":
            words = str((tool_input or {}).get("command", "")).split(maxsplit=1)
            found.update(self._by_word.get(words[0].casefold() if words else "", ()))
        return [self.rules[at] for at in sorted(found)]
