"""Permission rules: `Tool` or `Tool(specifier)`, and whether one matches a tool call.

The matching follows Claude Code's documented semantics (BEHAVIOR.md §6 and the seeds):
- Skill: `Skill` (all), `Skill(name)` (exact), `Skill(name:*)` (every name starting with
  `name`, the seeds' prefix rule), `Skill(name *)` (that skill with any arguments).
- Bash: `*` matches anything anywhere; a trailing ` *` keeps a word boundary (`ls *` matches
  `ls -la` and `ls`, not `lsof`; `ls*` matches `lsof`); a trailing `:*` means ` *`, and only at
  the very end. A Bash line is read into the commands it runs by engine/bash before matching.
- Read / Edit: gitignore-style paths; `//abs`, `~/home`, `/relative-to-the-settings-file`,
  `relative-to-the-working-directory`. Read rules cover Read, Glob, Grep; Edit rules cover
  Edit, Write, MultiEdit and NotebookEdit.
- WebFetch: `domain:example.com` (and its subdomains).
- Tool names may be globs (`mcp__github__*`); `mcp__server` covers every tool of that server.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..base.globmatch import ANY, Char, Opt, Pattern, Star, StarGlob, gitignore_items

_RULE = re.compile(r"\s*([A-Za-z0-9_*.\-]+)\s*(?:\((.*)\))?\s*", re.S)
READ_TOOLS = frozenset({"Read", "Glob", "Grep", "LS", "NotebookRead"})
EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})


@dataclass(frozen=True)
class Rule:
    """One permission rule as written: `Tool` or `Tool(specifier)`."""

    text: str
    tool: str
    specifier: str | None


def parse_rule(text: str) -> Rule | None:
    m = _RULE.fullmatch(text)
    if m is None:
        return None
    tool, spec = m.group(1), m.group(2)
    if spec is not None and not spec.strip():
        return None
    return Rule(text.strip(), tool, spec)


def format_rule(tool: str, specifier: str | None = None) -> str:
    return tool if specifier is None else f"{tool}({specifier})"


# Tool names ------------------------------------------------------------------------------
def tool_matches(rule: Rule, tool: str) -> bool:
    if rule.tool == tool:
        return True
    if rule.tool == "Read" and tool in READ_TOOLS:
        return True
    if rule.tool == "Edit" and tool in EDIT_TOOLS:
        return True
    if "*" in rule.tool:
        return fnmatch.fnmatchcase(tool, rule.tool)
    if rule.tool.startswith("mcp__") and rule.tool.count("__") == 1:
        return tool.startswith(rule.tool + "__")
    return False


# Bash ------------------------------------------------------------------------------------
def bash_glob(spec: str, fold: bool = False) -> StarGlob:
    """The rule's pattern; with `fold`, for a command that is casefolded too (see input_matches)."""
    if fold:
        spec = spec.casefold()
    if spec.endswith(":*"):
        spec = spec[:-2] + " *"
    if spec.endswith(" *"):
        return StarGlob(spec[:-2], tail=True)
    return StarGlob(spec, tail=False)


# How many characters of a command's start a Bash rule without a whole first word is filed by.
PREFIX_KEY = 3


def bash_rule_key(spec: str) -> tuple[str, str] | None:
    """What engine/permissions/ruleindex.py files a Bash rule under: ("word", w) when every command it
    matches has the first word w, ("prefix", p) when they only share their first characters p
    (at most PREFIX_KEY), both casefolded; None when a wildcard or a space comes first. A
    command's first word is what str.split() gives: it ends where str.isspace() says."""
    if spec.endswith(":*"):
        spec = spec[:-2] + " *"
    literal = spec.split("*", 1)[0]
    if not literal or literal[0].isspace():
        return None
    end = next((at for at, c in enumerate(literal) if c.isspace()), 0)
    if end:
        return "word", literal[:end].casefold()
    return "prefix", literal.casefold()[:PREFIX_KEY]


# Paths -----------------------------------------------------------------------------------
_ANY_FOLDERS = Opt((Star(ANY), Char("/")))
_INSIDE = Opt((Char("/"), Star(ANY)))
_WILDCARDS = re.compile(r"[*?]")


@functools.lru_cache(maxsize=4096)
def _path_pattern(pattern: str, whole: bool) -> Pattern:
    """The rule's pattern for a path relative to its base; with `whole`, as path_matches uses
    it (gitignore's any depth for a pattern without `/`, and what is inside a folder it names)."""
    items = gitignore_items(pattern)
    if whole:
        items = [*([_ANY_FOLDERS] if "/" not in pattern else []), *items, _INSIDE]
    return Pattern(items)


def _may_match(spec: str, target: str) -> bool:
    """False when a literal piece of the rule is missing from the path: most rules of a long
    list are ruled out by this one substring search, before any folder is resolved. A piece is
    what lies between wildcards, cut at each `/` too (`a**/b` matches `ab`: the `/` after `**`
    may be absent), and a `.` segment is left out (`./.` names the start folder itself)."""
    if spec == "~":
        return True
    for prefix in ("//", "~/", "./", "/"):
        if spec.startswith(prefix):
            spec = spec[len(prefix) :]
            break
    for piece in _WILDCARDS.split(spec):
        for segment in piece.split("/"):
            if segment not in ("", ".") and segment not in target:
                return False
    return True


def settings_root(rule_file: Path | None, cwd: Path) -> Path:
    """What `/path` in a rule is relative to: the folder that holds the settings file's
    `.claude/` (the project, or the user config folder's parent), else the file's folder."""
    if rule_file is None:
        return cwd
    folder = rule_file.parent
    return folder.parent if folder.name == ".claude" else folder


def _rule_base(spec: str, rule_file: Path | None, cwd: Path, home: Path, resolved: bool) -> tuple[Path, str]:
    """The folder a path rule is anchored at and its pattern relative to that folder."""
    if spec.startswith("//"):
        base, pattern = Path("/"), spec[2:]
    elif spec == "~" or spec.startswith("~/"):
        base, pattern = home, spec[2:]
    elif spec.startswith("/"):
        base, pattern = settings_root(rule_file, cwd), spec[1:]
    else:
        base, pattern = cwd, spec[2:] if spec.startswith("./") else spec
    if resolved:
        base = Path(os.path.realpath(base))
    return base, pattern + "**" if pattern.endswith("/") else pattern


def _folded(base: Path, pattern: str, target: Path, fold: bool) -> tuple[Path, str, Path]:
    """With `fold`, the three without case: on a case-insensitive disk (macOS, Windows)
    `SECRETS/key.txt` is `secrets/key.txt`, and a deny or ask rule must hold for both."""
    if not fold:
        return base, pattern, target
    return Path(str(base).casefold()), pattern.casefold(), Path(str(target).casefold())


def path_matches(
    spec: str, path: str | Path, rule_file: Path | None, cwd: Path, home: Path, resolved: bool = False, fold: bool = False
) -> bool:
    """Whether a path rule covers `path` (absolute, or relative to `cwd`). With `resolved`, the
    path is a real path (symlinks followed) and the rule's base folder is resolved the same way,
    so that a rule for `./src/**` and a link inside src/ are compared in one world. With `fold`,
    case does not count (see _folded)."""
    target = Path(os.path.normpath(path if os.path.isabs(path) else cwd / path))
    if not _may_match(spec.casefold() if fold else spec, str(target).casefold() if fold else str(target)):
        return False
    base, pattern = _rule_base(spec, rule_file, cwd, home, resolved)
    base, pattern, target = _folded(base, pattern, target, fold)
    try:
        rel = target.relative_to(base).as_posix()
    except ValueError:
        return False
    # gitignore: a pattern without a slash matches at any depth; a rule for a folder covers
    # what is inside it.
    return _path_pattern(pattern, True).fullmatch(rel)


def path_rule_reaches_into(
    spec: str, folder: Path, rule_file: Path | None, cwd: Path, home: Path, resolved: bool = False, fold: bool = False
) -> bool:
    """Whether something inside `folder` could match the rule: a recursive read of the folder
    (`grep -r x secrets/`, `cat secrets/*`) reads what the rule covers. Errs towards yes."""
    if path_matches(spec, str(folder), rule_file, cwd, home, resolved, fold):
        return True
    base, pattern = _rule_base(spec, rule_file, cwd, home, resolved)
    base, pattern, folder = _folded(base, pattern, folder, fold)
    if base == folder or base.is_relative_to(folder):
        return True
    try:
        rel = folder.relative_to(base).parts
    except ValueError:
        return False
    if "/" not in pattern.rstrip("/"):
        return True  # matches at any depth, so possibly inside any folder under its base
    for have, want in zip(rel, pattern.split("/"), strict=False):
        if want == "**":
            return True
        if not _path_pattern(want, False).fullmatch(have):
            return False
    return True


# Skills ----------------------------------------------------------------------------------
def skill_matches(spec: str, name: str) -> bool:
    name = name.strip().removeprefix("/")
    if spec.endswith(":*"):
        return name.startswith(spec[:-2])
    if spec.endswith(" *"):
        return name == spec[:-2]
    return name == spec


# One call ----------------------------------------------------------------------------------
def input_matches(
    rule: Rule, tool: str, tool_input: dict[str, Any], rule_file: Path | None, cwd: Path, home: Path, fold: bool = False
) -> bool:
    """Whether `rule` covers this call. For Bash, `tool_input["command"]` must already be one
    simple command (see engine/bash). With `fold` (for deny and ask rules), a Bash rule holds
    whatever the case (both casefolded): on a case-insensitive disk (macOS) `CURL x` runs curl."""
    if not tool_matches(rule, tool):
        return False
    spec = rule.specifier
    if spec is None or spec == "*":
        return True
    if tool == "Bash":
        command = str(tool_input.get("command", "")).strip()
        return bash_glob(spec, fold).fullmatch(command.casefold() if fold else command)
    if tool == "Skill":
        return skill_matches(spec, str(tool_input.get("skill", "")))
    if tool in READ_TOOLS or tool in EDIT_TOOLS:
        path = tool_input.get("file_path") or tool_input.get("path") or tool_input.get("notebook_path")
        return isinstance(path, str) and path_matches(spec, path, rule_file, cwd, home)
    if tool == "WebFetch" and spec.startswith("domain:"):
        host = urlparse(str(tool_input.get("url", ""))).hostname or ""
        domain = spec[len("domain:") :].strip().lower()
        return host == domain or host.endswith("." + domain)
    first = next(iter(tool_input.values()), "") if tool_input else ""
    return fnmatch.fnmatchcase(str(first), spec)
