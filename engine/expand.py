"""The prompt a skill run sends, rendered exactly as Claude Code renders it (BEHAVIOR.md §5).

Order: the base-directory line, then one pass that substitutes arguments and variables (so no
substituted text is expanded again), then the `!` shell commands, whose output is not scanned.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .model import Skill

SHELL_TIMEOUT_S = 120
DISABLED = "[shell command execution disabled by policy]"

_TOKEN = re.compile(
    r"\\\$"
    r"|\$ARGUMENTS\[(\d+)\]"
    r"|\$ARGUMENTS"
    r"|\$(\d+)(?!\w)"
    r"|\$\{(CLAUDE_SKILL_DIR|CLAUDE_SESSION_ID|CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}"
    r"|\$([A-Za-z_][A-Za-z0-9_]*)"
)
# `!`cmd`` at the start of a line or after whitespace; a fenced block opened with ```!
_INLINE = re.compile(r"(?:(?<=\s)|^)!`([^`\n]+)`", re.M)
_FENCED = re.compile(r"^```!\s*\n(.*?)\n```[ \t]*$", re.M | re.S)

# Decides whether a shell command may run: returns (allowed, reason).
ShellCheck = Callable[[str], tuple[bool, str]]


class ExpansionError(Exception):
    """The invocation fails, with Claude Code's message."""


@dataclass
class ShellRun:
    pattern: str
    command: str
    output: str
    exit_code: int | None


@dataclass
class Expansion:
    text: str
    shell: list[ShellRun] = field(default_factory=list)


def split_arguments(args: str) -> list[str]:
    """Shell-style: `"hello world" x` is two arguments. Unbalanced quotes fall back to spaces."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def substitute(text: str, args: str, names: tuple[str, ...], variables: dict[str, str]) -> tuple[str, bool]:
    """One pass over arguments and variables. Returns the text and whether any argument was
    substituted (Claude Code appends `ARGUMENTS:` when none was). `$N` needs no word character
    after it, so prose such as "costs $2M" is left alone."""
    positional = split_arguments(args) if args else []
    named = {name: positional[i] if i < len(positional) else "" for i, name in enumerate(names)}
    used = False

    def one(m: re.Match[str]) -> str:
        nonlocal used
        whole = m.group(0)
        if whole == "\\$":
            return "$"
        index = m.group(1) or m.group(2)
        if index is not None:
            i = int(index)
            if i >= len(positional):
                return whole
            used = True
            return positional[i]
        if whole == "$ARGUMENTS":
            used = True
            return args
        if m.group(3):
            return variables.get(m.group(3), whole)
        if m.group(4) in named:
            used = True
            return named[m.group(4)]
        return whole

    return _TOKEN.sub(one, text), used


def render_text(skill: Skill, body: str, args: str, session_id: str, project_dir: Path) -> str:
    """The skill text before its `!` commands run."""
    text = f"Base directory for this skill: {skill.base_dir}\n\n{body}"
    variables = {
        "CLAUDE_SKILL_DIR": str(skill.base_dir),
        "CLAUDE_SESSION_ID": session_id,
        "CLAUDE_PROJECT_DIR": str(project_dir),
    }
    if skill.source.plugin is not None:
        variables["CLAUDE_PLUGIN_ROOT"] = str(skill.source.root)
    text, used = substitute(text, args, skill.arguments, variables)
    if args and not used:
        text += f"\n\nARGUMENTS: {args}"
    return text


def run_shell(text: str, cwd: Path, check: ShellCheck, disabled: bool) -> Expansion:
    """Replace each `!` command by its output, or fail the whole invocation as Claude Code does."""
    runs: list[ShellRun] = []

    def execute(pattern: str, command: str) -> str:
        if disabled:
            runs.append(ShellRun(pattern, command, DISABLED, None))
            return DISABLED
        allowed, _reason = check(command)
        if not allowed:
            raise ExpansionError(f'Shell command permission check failed for pattern "{pattern}"')
        try:
            done = subprocess.run(
                ["/bin/sh", "-c", command],
                cwd=cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                timeout=SHELL_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ExpansionError(f'Shell command failed for pattern "{pattern}"') from None
        output = done.stdout.decode("utf-8", "replace").rstrip("\n")
        runs.append(ShellRun(pattern, command, output, done.returncode))
        if done.returncode != 0:
            raise ExpansionError(f'Shell command failed for pattern "{pattern}"')
        return output

    # Fenced blocks first; each replacement is final (outputs are never scanned again).
    pieces: list[str] = []
    last = 0
    spans = sorted(
        [(m.start(), m.end(), m.group(0), m.group(1)) for m in _FENCED.finditer(text)]
        + [(m.start(), m.end(), m.group(0), m.group(1)) for m in _INLINE.finditer(text)]
    )
    for start, end, pattern, command in spans:
        if start < last:
            continue  # an inline pattern inside a fenced block already replaced
        pieces.append(text[last:start])
        pieces.append(execute(pattern, command))
        last = end
    pieces.append(text[last:])
    return Expansion("".join(pieces), runs)


def expand(
    skill: Skill,
    args: str,
    *,
    session_id: str,
    project_dir: Path,
    check: ShellCheck,
    shell_disabled: bool = False,
    body: str | None = None,
) -> Expansion:
    """Everything Claude Code does to a skill before the model sees it."""
    text = render_text(skill, skill.read_body() if body is None else body, args, session_id, project_dir)
    return run_shell(text, project_dir, check, shell_disabled)
