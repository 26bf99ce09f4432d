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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .locations import Locations
from .model import Skill, SourceKind
from .pathreach import expand_path, glob_reach, inside, protected, real, shell_forms
from .ruleindex import RuleBudgetExceeded, RuleIndex, rule_budget
from .rules import EDIT_TOOLS, READ_TOOLS, input_matches, parse_rule, path_matches, path_rule_reaches_into, tool_matches
from .settings import PlacedRule, Settings, read_settings


@dataclass(frozen=True)
class Decision:
    decision: str  # "allow" | "ask" | "deny"
    rule: PlacedRule | None
    reason: str
    # The permission mode that made this decision ("" when the rules and defaults made it).
    mode: str = ""
    # Claude Code's own words for this decision where skilldeck knows them (engine/bash/said.py),
    # else "": what a refused `!` command prints.
    said: str = ""

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


MODES = ("default", "acceptEdits", "plan", "dontAsk", "bypassPermissions")
# Modes that let more run than the default: a cloned repository's own settings cannot set them
# before the workspace is trusted.
LOOSER_MODES = ("acceptEdits", "bypassPermissions")
# What a skill may set that changes what runs under it: any of them and its call is asked.
SKILL_WIDENING_FIELDS = ("allowed_tools", "disallowed_tools", "hooks")


def default_mode(settings: Settings) -> str:
    """`permissions.defaultMode` from the highest-precedence settings file that sets a known one."""
    for file in settings.files:
        permissions = file.data.get("permissions") if file.data else None
        mode = permissions.get("defaultMode") if isinstance(permissions, dict) else None
        if mode not in MODES:
            continue
        if mode in LOOSER_MODES and file.scope in ("project", "local") and not settings.trust.trusted:
            continue
        return str(mode)
    return "default"


class Permissions:
    def __init__(
        self,
        settings: Settings,
        cwd: Path,
        home: Path | None = None,
        extra_allow: tuple[PlacedRule, ...] = (),
        dirs: tuple[Path, ...] = (),
        repo_dirs: tuple[Path, ...] = (),
    ) -> None:
        self.settings = settings
        self.cwd = cwd
        self.home = home or Path.home()
        self.extra_allow = extra_allow
        # The working folders (the project and each --add-dir): what reads need no rule for.
        self.dirs = (cwd, *(d for d in dirs if d != cwd))
        self.real_dirs = tuple(real(d) for d in self.dirs)
        # The project's folders up to its repository root: where a cloned repository's own
        # skills live (their allowed-tools wait for workspace trust).
        self.repo_dirs = repo_dirs or (cwd,)
        self.mode = default_mode(settings)
        self._indexes: dict[str, RuleIndex] = {}

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

    def _rules(self, behavior: str) -> list[PlacedRule]:
        rules = self.settings.rules_for(behavior)
        return [*rules, *self.extra_allow] if behavior == "allow" else rules

    def _index(self, behavior: str) -> RuleIndex:
        index = self._indexes.get(behavior)
        if index is None:
            index = self._indexes[behavior] = RuleIndex(self._rules(behavior))
        return index

    def first_rule(self, behavior: str, tool: str, tool_input: dict[str, Any]) -> PlacedRule | None:
        """The first `behavior` rule that covers this call as given (no parsing, no paths)."""
        for placed in self._index(behavior).candidates(tool, tool_input):
            if input_matches(placed.rule, tool, tool_input, placed.file, self.cwd, self.home, fold=behavior != "allow"):
                return placed
        return None

    def blanket(self, tool: str) -> PlacedRule | None:
        """An allow rule for the whole tool (`Bash`, `Bash(*)`), if any."""
        return next(
            (p for p in self._rules("allow") if tool_matches(p.rule, tool) and p.rule.specifier in (None, "*")),
            None,
        )

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
            from .bash.check import decide_bash

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
    def targets(self, tool: str, tool_input: dict[str, Any]) -> list[Path | None]:
        """The places a file tool call reaches, as absolute paths with `~` expanded (None for a
        place that cannot be known before the call runs, such as `*/../x`)."""
        path = tool_input.get("file_path") or tool_input.get("path") or tool_input.get("notebook_path")
        if path is not None and not isinstance(path, str):
            return [None]
        root = expand_path(path or ".", self.cwd, self.home)
        out: list[Path | None] = [root]
        pattern = tool_input.get("pattern") if tool == "Glob" else tool_input.get("glob") if tool == "Grep" else None
        if pattern is not None:
            out.append(glob_reach(root, pattern, self.home) if isinstance(pattern, str) else None)
        return list(dict.fromkeys(out))

    def path_rule(self, behavior: str, tool: str, path: Path, resolved: bool, within: bool = False) -> PlacedRule | None:
        """The first `behavior` rule for `tool` that covers `path` (a tool-wide rule covers all);
        with `within`, also a rule covering anything inside the folder `path`."""
        for placed in self._index(behavior).candidates(tool):
            spec = placed.rule.specifier
            if not tool_matches(placed.rule, tool):
                continue
            if spec is None or spec == "*":
                return placed
            # A deny or ask holds whatever the case (a case-insensitive disk opens either); an allow
            # needs the case it names.
            args = (spec, path, placed.file, self.cwd, self.home, resolved, behavior != "allow")
            if path_rule_reaches_into(*args) if within else path_matches(*args):
                return placed
        return None

    def decide_path(self, tool: str, path: Path | None, within: bool = False) -> Decision:
        """A file tool's call on one place; `within` for a call that reads a whole folder."""
        return self._decide_files(tool, [path], within)

    def _decide_files(self, tool: str, targets: list[Path | None], within: bool = False) -> Decision:
        known = [t for t in targets if t is not None]
        forms = [(t, False) for t in known] + [(real(t), True) for t in known]
        if tool in ("Glob", "Grep"):
            # A search reads the folder's contents: a rule on everything inside it (`secrets/**`)
            # covers searching it (recorded: Grep of secrets/ is denied by Read(./secrets/**)).
            forms += [(folder / "_", resolved) for folder, resolved in forms]
        # A deny or ask also meets the places a shell would make of `~+`, `$PWD`, `$HOME` in it.
        # (The place counts as a folder too: Claude Code denies Read of `~+/secrets` by `Read(./secrets/**)`.)
        expanded = [(f, False) for t in known for f in shell_forms(t, self.cwd, self.home)]
        for behavior in ("deny", "ask"):
            for path, resolved in [*forms, *expanded]:
                reach = within or (path, resolved) in expanded
                placed = self.path_rule(behavior, tool, path, resolved, reach)
                if placed is not None:
                    where = f" (it resolves to {path})" if resolved and path not in known else ""
                    return Decision(behavior, placed, f"{behavior} rule {placed.text} ({placed.scope}){where}")
        if tool in EDIT_TOOLS:
            for path, _ in forms:
                why = protected(path)
                if why:
                    return Decision("ask", None, f"writing {path} is always asked: {why} (as in Claude Code)")
        if len(known) < len(targets):
            # Only a rule for the whole tool can allow a place we cannot know.
            placed = self.blanket(tool)
            if placed is not None:
                return Decision("allow", placed, f"allow rule {placed.text} ({placed.scope})")
            return Decision(
                "ask",
                None,
                "the call reaches a place that cannot be known before it runs (`..` after a wildcard), so it is asked",
            )
        escape = next((t for t in known if inside(t, self.dirs) and not self.is_inside(t)), None)
        if escape is not None:
            # Written inside the project, really outside it: a symlink. No rule carries a call
            # through one (recorded: neither Read(./docs/**) nor Read(//<target>/**) does).
            return Decision("ask", None, f"{escape} leads outside the working folder through a symlink, so Claude Code asks")
        # An allow must hold for the place as written and as it really is.
        allowed = [self.path_rule("allow", tool, t, False) and self.path_rule("allow", tool, real(t), True) for t in known]
        if allowed and all(allowed):
            placed = allowed[0]
            assert placed is not None
            return Decision("allow", placed, f"allow rule {placed.text} ({placed.scope})")
        if tool in READ_TOOLS and all(self.is_inside(t) for t in known):
            return Decision("allow", None, "read-only inside the working folder: Claude Code does not ask")
        if tool in EDIT_TOOLS and self.mode == "acceptEdits" and all(self.is_inside(t) for t in known):
            return Decision("allow", None, "defaultMode acceptEdits: edits inside the working folder are not asked")
        if tool in READ_TOOLS:
            outside = next(t for t in known if not self.is_inside(t))
            return Decision("ask", None, f"{outside} is outside the working folder, so Claude Code asks")
        return Decision("ask", None, "no rule matches, so Claude Code asks")

    def is_inside(self, path: Path) -> bool:
        """Whether `path`, symlinks followed, is inside a working folder."""
        return inside(real(path), self.real_dirs)

    def readable(self, path: Path, root: Path) -> bool:
        """Whether a file that a Glob or Grep found may be shown: no deny rule covers it (as found
        or resolved), and it really lies inside the folder searched or a working folder (a
        symlink in the project must not carry a search outside)."""
        where = real(path)
        if self.path_rule("deny", "Read", path, False) or self.path_rule("deny", "Read", where, True):
            return False
        return inside(where, (real(root), *self.real_dirs))

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
