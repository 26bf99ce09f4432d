"""A tool call against the rules, files and working folders: the part of deciding that needs no
parser of Bash. `RuleBook` finds the first rule that covers a call, decides a file tool's call on
its paths, and knows the working folders; engine/bash judges a Bash line with it, and
engine/permissions/decide.py (`Permissions`) puts the two together with the permission modes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .pathreach import expand_path, glob_reach, inside, protected, real, shell_forms
from .ruleindex import RuleIndex
from .rules import EDIT_TOOLS, READ_TOOLS, input_matches, parse_rule, path_matches, path_rule_reaches_into, tool_matches
from .settings import PlacedRule, Settings


@dataclass(frozen=True)
class Decision:
    decision: str  # "allow" | "ask" | "deny"
    rule: PlacedRule | None
    reason: str
    # The permission mode that made this decision ("" when the rules and defaults made it).
    mode: str = ""
    # Claude Code's own words for this decision where skilldeck knows them (engine/permissions/bash/said.py),
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


class RuleBook:
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
