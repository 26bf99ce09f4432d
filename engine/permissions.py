"""Deciding a tool call as Claude Code does: deny, then ask, then allow; no match means ask.

A deny anywhere beats an allow anywhere (there are no allow exceptions to a broad deny). A
compound Bash command is allowed only when every part is allowed, and denied or asked when any
part is. A skill's `allowed-tools` can be layered on as temporary allow rules: they pre-approve,
they never override a deny or an ask.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .locations import Locations
from .model import Skill
from .rules import READ_TOOLS, input_matches, parse_rule, split_command
from .settings import PlacedRule, Settings, read_settings


@dataclass(frozen=True)
class Decision:
    decision: str  # "allow" | "ask" | "deny"
    rule: PlacedRule | None
    reason: str

    @property
    def file(self) -> Path | None:
        return self.rule.file if self.rule else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "rule": self.rule.text if self.rule else None,
            "file": str(self.file) if self.file else None,
            "scope": self.rule.scope if self.rule else None,
            "reason": self.reason,
        }


def call_from_rule(text: str) -> tuple[str, dict[str, Any]] | None:
    """`Skill(deploy)` or `Bash(git push origin main)` read as a call to check."""
    rule = parse_rule(text)
    if rule is None:
        return None
    spec = rule.specifier or ""
    keys = {"Bash": "command", "Skill": "skill", "WebFetch": "url", "Glob": "path", "Grep": "path"}
    key = keys.get(rule.tool, "file_path" if rule.tool in ("Read", "Edit", "Write", "MultiEdit", "NotebookEdit") else "input")
    if rule.tool == "WebFetch" and spec.startswith("domain:"):
        spec = "https://" + spec[len("domain:") :] + "/"
    return rule.tool, {key: spec}


class Permissions:
    def __init__(self, settings: Settings, cwd: Path, home: Path | None = None, extra_allow: tuple[PlacedRule, ...] = ()) -> None:
        self.settings = settings
        self.cwd = cwd
        self.home = home or Path.home()
        self.extra_allow = extra_allow

    @classmethod
    def load(cls, locations: Locations) -> Permissions:
        return cls(read_settings(locations), locations.project)

    def with_allow(self, rules: Iterable[str], scope: str) -> Permissions:
        """These permissions with extra allow rules (texts that are not rules are ignored)."""
        extra = [PlacedRule(rule, "allow", None, scope) for rule in map(parse_rule, rules) if rule is not None]
        return Permissions(self.settings, self.cwd, self.home, (*self.extra_allow, *extra))

    def with_allowed_tools(self, skill: Skill) -> Permissions:
        """These permissions while `skill` runs: its `allowed-tools` pre-approved."""
        return self.with_allow(skill.allowed_tools, f"allowed-tools of /{skill.name}")

    def _rules(self, behavior: str) -> list[PlacedRule]:
        rules = self.settings.rules_for(behavior)
        return [*rules, *self.extra_allow] if behavior == "allow" else rules

    def _first(self, behavior: str, tool: str, tool_input: dict[str, Any]) -> PlacedRule | None:
        for placed in self._rules(behavior):
            if input_matches(placed.rule, tool, tool_input, placed.file, self.cwd, self.home):
                return placed
        return None

    def decide(self, tool: str, tool_input: dict[str, Any]) -> Decision:
        if tool == "Bash":
            return self._decide_bash(str(tool_input.get("command", "")))
        for behavior in ("deny", "ask"):
            placed = self._first(behavior, tool, tool_input)
            if placed is not None:
                return Decision(behavior, placed, f"{behavior} rule {placed.text} ({placed.scope})")
        placed = self._first("allow", tool, tool_input)
        if placed is not None:
            return Decision("allow", placed, f"allow rule {placed.text} ({placed.scope})")
        if tool in READ_TOOLS and self._inside(tool, tool_input):
            return Decision("allow", None, "read-only inside the working folder: Claude Code does not ask")
        return Decision("ask", None, "no rule matches, so Claude Code asks")

    def _inside(self, tool: str, tool_input: dict[str, Any]) -> bool:
        """Whether a read-only call stays in the working folder (reads elsewhere are asked)."""
        path = tool_input.get("file_path") or tool_input.get("path") or tool_input.get("notebook_path")
        pattern = str(tool_input.get("pattern", "")) if tool == "Glob" else ""
        if not path and pattern.startswith(("/", "~")):
            path = pattern.split("*", 1)[0] or "/"
        if not path:
            return True
        where = Path(os.path.normpath(self.cwd / Path(str(path)).expanduser()))
        return where.is_relative_to(self.cwd)

    def _decide_bash(self, command: str) -> Decision:
        parts = split_command(command) or [command]
        for behavior in ("deny", "ask"):
            for part in parts:
                placed = self._first(behavior, "Bash", {"command": part})
                if placed is not None:
                    where = f" (for `{part}`)" if len(parts) > 1 else ""
                    return Decision(behavior, placed, f"{behavior} rule {placed.text} ({placed.scope}){where}")
        allowed = []
        for part in parts:
            placed = self._first("allow", "Bash", {"command": part})
            if placed is None:
                why = f"no rule allows `{part}`" + (
                    ", so the whole command is asked" if len(parts) > 1 else ", so Claude Code asks"
                )
                return Decision("ask", None, why)
            allowed.append(placed)
        rules = ", ".join(dict.fromkeys(p.text for p in allowed))
        return Decision("allow", allowed[0], f"allowed by {rules}")

    def decide_skill(self, name: str) -> Decision:
        """What the model's Skill tool meets for `name`. A user typing `/name` meets none of it."""
        return self.decide("Skill", {"skill": name})
