"""Deciding a tool call as Claude Code does: deny, then ask, then allow; no match means ask.

A deny anywhere beats an allow anywhere (there are no allow exceptions to a broad deny). A Bash
line is allowed only when every command it would run is allowed (engine/bash), and denied or
asked when any is. A file path is matched as written (with `~` expanded) and as it really is
(symlinks followed): a deny or ask on either form holds, an allow must hold for the real path,
and the no-rule pass for reads only applies when the real path is inside a working folder. A
skill's `allowed-tools` can be layered on as temporary allow rules: they pre-approve, they never
override a deny or an ask.

`permissions.defaultMode` changes what an unmatched call gets, as recorded on Claude Code
(tests/oracle/cases/permissions/run_mode_*): `dontAsk` refuses whatever would be asked;
`plan` refuses a Bash command or a Skill call that would be asked, and every file edit;
`acceptEdits` allows Edit and Write inside the working folders. skilldeck is stricter in two
places, on purpose: `plan` still asks before a read outside the working folders (Claude Code
reads it), and `acceptEdits` still asks before Bash commands that write files (`touch`,
`mkdir`, `rm`; Claude Code runs them). `bypassPermissions` decides as the default mode does
(recorded: Claude Code run as root ignores it; skilldeck never skips the checks).

The model's Skill call (`decide_skill_call`) is decided as Claude Code decides it: a deny rule
refuses, an allow rule allows, a skill that sets none of `allowed-tools`, `disallowed-tools` or
`hooks` runs without asking (its other fields cannot widen what the model may do), and any
other skill is asked. Claude Code does not apply ask rules to the Skill tool (recorded:
why_skill_calls, run_skill_fields).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..catalog.locations import Locations
from ..catalog.model import Skill, SourceKind
from .bash.check import decide_bash
from .pathreach import inside, real
from .rulebook import LOOSER_MODES, MODES, Decision, RuleBook, call_from_rule, default_mode
from .ruleindex import RuleBudgetExceeded, rule_budget
from .rules import EDIT_TOOLS, READ_TOOLS, input_matches, parse_rule
from .settings import PlacedRule, read_settings

# What a skill may set that changes what runs under it: any of them and its call is asked.
SKILL_WIDENING_FIELDS = ("allowed_tools", "disallowed_tools", "hooks")


class Permissions(RuleBook):
    @classmethod
    def load(cls, locations: Locations) -> Permissions:
        return cls(
            read_settings(locations), locations.project, dirs=locations.add_dirs, repo_dirs=tuple(locations.project_dirs())
        )

    def with_allow(self, rules: Iterable[str], scope: str) -> Permissions:
        """These permissions with extra allow rules (texts that are not rules are ignored)."""
        extra = [PlacedRule(rule, "allow", None, scope) for rule in map(parse_rule, rules) if rule is not None]
        return Permissions(self.settings, self.cwd, self.home, (*self.extra_allow, *extra), self.dirs[1:], self.repo_dirs)

    def with_allowed_tools(self, skill: Skill) -> Permissions:
        """These permissions while `skill` runs: its `allowed-tools` pre-approved, unless the
        skill comes from an untrusted project (a cloned repository approves nothing itself)."""
        if not self.settings.trust.trusted and self.from_repository(skill):
            return self
        return self.with_allow(skill.allowed_tools, f"allowed-tools of /{skill.name}")

    def from_repository(self, skill: Skill) -> bool:
        """Whether a skill was written by the project (its .claude/skills or .claude/commands)."""
        if skill.source.kind not in (SourceKind.PROJECT, SourceKind.COMMANDS):
            return False
        # As found and as resolved: a repository's `.claude/skills` may be a symlink to a folder
        # outside it (another clone), and what it links to is still the repository's choice.
        roots = (skill.source.root, real(skill.source.root))
        folders = (*self.repo_dirs, *(real(folder) for folder in self.repo_dirs))
        return any(inside(root, folders) for root in roots)

    def decide(self, tool: str, tool_input: dict[str, Any]) -> Decision:
        try:
            with rule_budget():
                decided = self._decide(tool, tool_input)
        except RuleBudgetExceeded as exc:
            decided = Decision(
                "ask",
                None,
                f"the call meets {exc} against the settings' rules, so skilldeck asks instead of deciding "
                "(a settings file with that many wildcard rules is not one Claude Code was made for)",
            )
        return self._in_mode(tool, self._untrusted(tool, tool_input, self._checked(decided)))

    def _untrusted(self, tool: str, tool_input: dict[str, Any], decision: Decision) -> Decision:
        """An asked call that a rule of the project would allow, were the project trusted, says
        so: "no rule allows" hid the user's own rule sitting in the file."""
        if decision.decision != "ask" or self.settings.trust.trusted:
            return decision
        for placed in self.settings.rules:
            if placed.behavior != "allow" or self.settings.ignored(placed) is None:
                continue
            if input_matches(placed.rule, tool, tool_input, placed.file, self.cwd, self.home, fold=False):
                why = (
                    f"{decision.reason} (the project's own {placed.text} ({placed.scope}) would allow it, but the "
                    "project is not trusted: trust it to count its rules)"
                )
                return Decision("ask", decision.rule, why, decision.mode, decision.said)
        return decision

    def _in_mode(self, tool: str, decision: Decision) -> Decision:
        """What the permission mode makes of a call: `plan` writes no file whatever the rules say
        (Claude Code refuses it: "while in plan mode"); `dontAsk`, and `plan` for Bash and the
        Skill tool, refuse what would be asked. (Claude Code's plan mode asks a safety classifier
        about those; offline it refuses them, as recorded. skilldeck has no classifier and
        refuses them too: never looser than a check it cannot make.)"""
        if decision.decision == "deny":
            return decision
        if self.mode == "plan" and tool in EDIT_TOOLS:
            return Decision("deny", None, "defaultMode plan: no file is written while planning", "plan")
        if decision.decision != "ask":
            return decision
        if self.mode == "dontAsk" or (self.mode == "plan" and tool in ("Bash", "Skill")):
            why = f"{decision.reason}; defaultMode {self.mode} refuses what it would ask"
            return Decision("deny", decision.rule, why, self.mode)
        return decision

    def denied_tools(self) -> set[str]:
        """Tools a bare deny rule (`Skill`, `Bash(*)`) takes away: Claude Code does not offer them."""
        return {p.rule.tool for p in self._rules("deny") if p.rule.specifier in (None, "*")}

    def _checked(self, decision: Decision) -> Decision:
        broken = self.settings.unreadable
        if decision.decision == "allow" and broken:
            # A settings file that could not be read may hold a deny for this very call.
            return Decision(
                "ask",
                None,
                f"{broken[0].path} could not be read, so the deny rules it may hold are unknown: skilldeck asks "
                f"instead of allowing (it would have been: {decision.reason})",
            )
        return decision

    def _decide(self, tool: str, tool_input: dict[str, Any]) -> Decision:
        if tool == "Bash":
            return decide_bash(self, str(tool_input.get("command", "")))
        if tool in READ_TOOLS or tool in EDIT_TOOLS:
            return self._decide_files(tool, self.targets(tool, tool_input))
        for behavior in ("deny", "ask"):
            placed = self.first_rule(behavior, tool, tool_input)
            if placed is not None:
                return Decision(behavior, placed, f"{behavior} rule {placed.text} ({placed.scope})")
        placed = self.first_rule("allow", tool, tool_input)
        if placed is not None:
            return Decision("allow", placed, f"allow rule {placed.text} ({placed.scope})")
        return Decision("ask", None, "no rule matches, so Claude Code asks")

    # Paths -----------------------------------------------------------------------------------

    def decide_skill(self, name: str) -> Decision:
        """What the model's Skill tool meets for `name` by the rules alone (the skill unknown).
        A user typing `/name` meets none of it."""
        return self.decide("Skill", {"skill": name})

    def decide_skill_call(self, skill: Skill) -> Decision:
        """The model's Skill call for this skill, as Claude Code decides it (module docstring)."""
        call = {"skill": skill.name}
        placed = self.first_rule("deny", "Skill", call)
        if placed is not None:
            return Decision("deny", placed, f"deny rule {placed.text} ({placed.scope})")
        placed = self.first_rule("allow", "Skill", call)
        if placed is not None:
            decision = Decision("allow", placed, f"allow rule {placed.text} ({placed.scope})")
        else:
            widening = [f.replace("_", "-") for f in SKILL_WIDENING_FIELDS if getattr(skill, f)]
            if widening:
                decision = Decision("ask", None, f"the skill sets {', '.join(widening)}, so Claude Code asks")
            else:
                decision = Decision(
                    "allow", None, "the skill sets no allowed-tools, disallowed-tools or hooks: Claude Code does not ask"
                )
        return self._in_mode("Skill", self._checked(decision))


__all__ = ["LOOSER_MODES", "MODES", "Decision", "Permissions", "RuleBook", "call_from_rule", "default_mode"]
