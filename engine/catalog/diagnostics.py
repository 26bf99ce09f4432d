"""Collecting diagnostics while loading, and the stable codes they carry.

Every file that is not taken exactly as written gets one; the code is stable so that tests,
scripts (`skilldeck validate --json`) and the TUI can rely on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from .model import Diagnostic, Severity

# code -> what it means; the single list of codes skilldeck emits.
CODES: dict[str, str] = {
    "agent-refused": "another agent (Codex CLI, Gemini CLI, OpenCode, Copilot CLI) refuses the file",
    "agent-off": "the agent's own config switches the skill off",
    "agent-not-sent": "the agent reads the skill but does not send it (shadowed, or past its budget)",
    "yaml-invalid": "frontmatter YAML does not parse, even after Claude Code's repair retry",
    "yaml-repaired": "frontmatter YAML only parses after Claude Code quotes some values",
    "frontmatter-unterminated": "the opening --- has no closing ---",
    "frontmatter-not-mapping": "the frontmatter is YAML but not key: value pairs",
    "frontmatter-bounds": "the frontmatter is too large, too deeply nested or an alias bomb, so it is not parsed",
    "frontmatter-missing": "the file has no frontmatter Claude Code can read",
    "frontmatter-early-close": "Claude Code ends the frontmatter at a --- that is not a line of its own",
    "hooks-dropped": "a hook Claude Code cannot load, so it drops the skill's hooks and allowed-tools",
    "duplicate-key": "a frontmatter key appears twice",
    "bom": "the file starts with a UTF-8 byte-order mark (Claude Code drops it)",
    "crlf": "the file uses CRLF line endings",
    "not-utf8": "the file contains bytes that are not UTF-8",
    "empty-file": "the file is empty",
    "limit-exceeded": "a field, the body or the whole file is longer than its limit (a file over it is skipped)",
    "unknown-field": "a frontmatter key that Claude Code ignores",
    "invalid-value": "a frontmatter value of the wrong type or outside its choices",
    "name-mismatch": "name: differs from the folder name that gives the command its name",
    "spec-name": "the name breaks the Agent Skills specification",
    "spec-description": "the description breaks the Agent Skills specification",
    "spec-compatibility": "compatibility breaks the Agent Skills specification",
    "spec-field": "a key the Agent Skills specification does not allow",
    "spec-frontmatter": "the file does not start with the frontmatter the Agent Skills specification requires",
    "spec-metadata": "metadata breaks the Agent Skills specification (a map of text values)",
    "spec-allowed-tools": "allowed-tools breaks the Agent Skills specification (one space-separated string)",
    "spec-missing": "a folder given to validate holds no SKILL.md",
    "skill-file-lowercase": "the skill file is not spelled SKILL.md",
    "loose-markdown": "a .md file directly in a skills folder",
    "not-a-skill-dir": "a folder in a skills folder without SKILL.md",
    "too-deep": "a SKILL.md nested deeper than Claude Code looks",
    "symlink-cycle": "a symlink that leads back into its own path",
    "broken-symlink": "a symlink whose target does not exist",
    "unreadable": "a file or folder that cannot be read",
    "load-failed": "skilldeck failed on a file in a way it did not foresee (a bug to report)",
    "scan-limit": "the scan stopped at its directory or depth bound",
    "duplicate-file": "the same file reached twice (symlink); loaded once",
    "shadowed": "a skill hidden by another of the same name",
    "plugin-manifest": "a plugin or marketplace manifest that is missing, invalid or incomplete",
    "plugin-missing": "an enabled plugin whose files are not on disk",
    "plugin-off": "an installed or found plugin that no settings file enables, or that one switches off",
    "plugin-scope": "an enabled plugin installed only for another project (scope project or local)",
    "plugin-remote": "a marketplace plugin with a remote source, not loaded from disk",
    "settings-invalid": "a settings file that is not valid JSON",
    "settings-entry": "a settings entry that is not what Claude Code expects (skipped)",
    "watch-limit": "a folder polled because the system refused more inotify watches",
    "reserved-name": "a skills folder with a name Claude Code reserves (`synced`), never loaded",
    "not-loaded": "a file where Claude Code looks that it does not load (beside a command's SKILL.md, atop a plugin)",
    "plugin-folder": "a --plugin-dir that is a folder of plugins: which of them load",
    "scoped": "an --add-dir skill whose name another skill has: Claude Code keeps both, this one scoped (`dir:name`)",
    "deferred": "a skill Claude Code loads only later: a `paths:` skill, or one below the start folder",
    "renamed": "a plugin skill folder whose name Claude Code changes (odd characters become -)",
    "name-refused": "a name Claude Code does not offer at all (hidden characters, < or >, odd spaces, too long)",
}


class Where(TypedDict, total=False):
    """Where a diagnostic points beyond its file, as keywords of `Sink.error`/`warning`/`info`."""

    line: int | None
    column: int | None
    skill: str | None


class Sink:
    """An append-only list of diagnostics with short constructors."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    # Keyword parameters, not **Where: packing and unpacking a dict twice per diagnostic was a
    # third of making one (a catalog may hold one per skill).
    def add(
        self,
        severity: Severity,
        code: str,
        path: Path,
        message: str,
        hint: str = "",
        line: int | None = None,
        column: int | None = None,
        skill: str | None = None,
    ) -> None:
        assert code in CODES, code
        self.items.append(Diagnostic(severity, code, path, message, hint, line, column, skill))

    def error(
        self, code: str, path: Path, message: str, hint: str = "", *, line: int | None = None, column: int | None = None,
        skill: str | None = None,
    ) -> None:  # fmt: skip
        self.add(Severity.ERROR, code, path, message, hint, line, column, skill)

    def warning(
        self, code: str, path: Path, message: str, hint: str = "", *, line: int | None = None, column: int | None = None,
        skill: str | None = None,
    ) -> None:  # fmt: skip
        self.add(Severity.WARNING, code, path, message, hint, line, column, skill)

    def info(
        self, code: str, path: Path, message: str, hint: str = "", *, line: int | None = None, column: int | None = None,
        skill: str | None = None,
    ) -> None:  # fmt: skip
        self.add(Severity.INFO, code, path, message, hint, line, column, skill)

    def extend(self, other: Sink) -> None:
        self.items.extend(other.items)
