"""The prompt a skill run sends, rendered as Claude Code renders it (BEHAVIOR.md §5), minus its holes.

Order: the base-directory line, then one pass that substitutes arguments and variables (so no
substituted text is expanded again), then the `!` shell commands, whose output is not scanned.

Two departures, both for safety, both invisible for a well-behaved skill:
- The `!` patterns are found in the skill file's own body before anything is substituted, so
  only a pattern its author wrote can ever run. A `` !`cmd` `` or a ```` ```! ```` fence inside
  typed arguments or a model's Skill `args` stays text, neutralised as Claude Code does (`\\! `).
- Inside a `!` command each substituted value is one inert shell word (engine/shellquote.py),
  while the prose around it gets the value as typed.

A preview (`shell="preview"`, the default) never runs anything: each command is replaced by a
note saying what the permission rules would decide for it. A real run (`shell="execute"`) runs
the allowed ones with a time and output bound (engine/shell.py) and fails as Claude Code fails.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .model import Skill
from .shell import OUTPUT_CAP, TIMEOUT_S, run_bounded
from .shellquote import UnquotableError, contexts, quote_in

SHELL_TIMEOUT_S = TIMEOUT_S
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
# In a substituted argument: a `!` that opens an inline pattern or ends a ```! fence opener.
_LIVE_BANG = re.compile(r"!(?=`)|(?<=```)!")

ShellMode = Literal["preview", "execute"]
# What the permission rules decide for a Bash command: ("allow" | "ask" | "deny", reason).
ShellCheck = Callable[[str], tuple[str, str]]


class ExpansionError(Exception):
    """The invocation fails, with Claude Code's message."""


@dataclass
class ShellRun:
    pattern: str
    command: str
    output: str | None  # None: not run (a preview, or disabled by policy)
    exit_code: int | None
    decision: str = ""  # what the rules decide for the command: allow, ask, deny
    reason: str = ""
    ran: bool = False
    cut: bool = False  # the output passed the cap and was cut


@dataclass
class Expansion:
    text: str
    shell: list[ShellRun] = field(default_factory=list)


@dataclass(frozen=True)
class Pattern:
    """A `!` pattern of the skill's body, with its values substituted (quoted) in."""

    text: str
    command: str


def split_arguments(args: str) -> list[str]:
    """Shell-style: `"hello world" x` is two arguments. Unbalanced quotes fall back to spaces."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def neutralise(value: str) -> str:
    """`value` with every `!` that could open a shell pattern written `\\! `, as Claude Code does."""
    return _LIVE_BANG.sub(r"\\! ", value)


class _Substituter:
    """One pass over arguments and variables. `used` says whether any argument was substituted
    (Claude Code appends `ARGUMENTS:` when none was). `$N` needs no word character after it, so
    prose such as "costs $2M" is left alone."""

    def __init__(self, args: str, names: tuple[str, ...], variables: dict[str, str]) -> None:
        self.args = args
        self.positional = split_arguments(args) if args else []
        self.named = {name: self.positional[i] if i < len(self.positional) else "" for i, name in enumerate(names)}
        self.variables = variables
        self.used = False

    def value(self, m: re.Match[str]) -> tuple[str | None, bool]:
        """(the value for this token, whether it is an argument), or (None, _) to keep it as written."""
        whole = m.group(0)
        index = m.group(1) or m.group(2)
        if index is not None:
            i = int(index)
            return (self.positional[i], True) if i < len(self.positional) else (None, False)
        if whole == "$ARGUMENTS":
            return self.args, True
        if m.group(3):
            return self.variables.get(m.group(3)), False
        if m.group(4) in self.named:
            return self.named[m.group(4)], True
        return None, False

    def prose(self, text: str) -> str:
        def one(m: re.Match[str]) -> str:
            if m.group(0) == "\\$":
                return "$"
            value, argument = self.value(m)
            if value is None:
                return m.group(0)
            self.used |= argument
            return neutralise(value) if argument else value

        return _TOKEN.sub(one, text)

    def command(self, text: str) -> str:
        matches = list(_TOKEN.finditer(text))
        where = contexts(text, [m.start() for m in matches])
        pieces: list[str] = []
        last = 0
        for m, context in zip(matches, where, strict=True):
            pieces.append(text[last : m.start()])
            last = m.end()
            if m.group(0) == "\\$":
                pieces.append("$")
                continue
            value, argument = self.value(m)
            if value is None:
                pieces.append(m.group(0))
                continue
            self.used |= argument
            try:
                pieces.append(quote_in(value, context))
            except UnquotableError:
                raise ExpansionError(
                    f"A value substituted into the shell command {text!r} needs quoting, and where it stands (a here-document, "
                    "${...} or backquotes) skilldeck cannot quote it safely: move the placeholder out of that construct"
                ) from None
        pieces.append(text[last:])
        return "".join(pieces)


def substitute(text: str, args: str, names: tuple[str, ...], variables: dict[str, str]) -> tuple[str, bool]:
    """Prose substitution of `text` (no `!` patterns considered), and whether an argument was used."""
    sub = _Substituter(args, names, variables)
    return sub.prose(text), sub.used


def _patterns(body: str) -> list[tuple[int, int, int, int]]:
    """(start, end, command start, command end) of each `!` pattern, fenced blocks first."""
    spans = sorted(
        [(m.start(), m.end(), m.start(1), m.end(1)) for m in _FENCED.finditer(body)]
        + [(m.start(), m.end(), m.start(1), m.end(1)) for m in _INLINE.finditer(body)]
    )
    kept: list[tuple[int, int, int, int]] = []
    for span in spans:
        if kept and span[0] < kept[-1][1]:
            continue  # an inline pattern inside a fenced block
        kept.append(span)
    return kept


def render(skill: Skill, body: str, args: str, session_id: str, project_dir: Path) -> list[str | Pattern]:
    """The skill text as prose pieces and `!` patterns, every value substituted, nothing run."""
    variables = {
        "CLAUDE_SKILL_DIR": str(skill.base_dir),
        "CLAUDE_SESSION_ID": session_id,
        "CLAUDE_PROJECT_DIR": str(project_dir),
    }
    if skill.source.plugin is not None:
        variables["CLAUDE_PLUGIN_ROOT"] = str(skill.source.root)
    sub = _Substituter(args, skill.arguments, variables)
    # The base-directory line is ours, not the author's: it is never scanned for patterns.
    pieces: list[str | Pattern] = [f"Base directory for this skill: {skill.base_dir}\n\n"]
    last = 0
    for start, end, cmd_start, cmd_end in _patterns(body):
        pieces.append(sub.prose(body[last:start]))
        command = sub.command(body[cmd_start:cmd_end])
        pieces.append(Pattern(body[start:cmd_start] + command + body[cmd_end:end], command))
        last = end
    pieces.append(sub.prose(body[last:]))
    if args and not sub.used:
        pieces.append(f"\n\nARGUMENTS: {neutralise(args)}")
    return pieces


def render_text(skill: Skill, body: str, args: str, session_id: str, project_dir: Path) -> str:
    """The skill text before its `!` commands run."""
    return "".join(p if isinstance(p, str) else p.text for p in render(skill, body, args, session_id, project_dir))


def preview_note(pattern: str, decision: str, reason: str) -> str:
    """What a preview shows in place of a command's output."""
    verdict = "would run" if decision == "allow" else "would fail the invocation (only an allowed command runs)"
    return f"[preview, not run: {pattern} · rules: {decision} ({reason}) · a real run {verdict}]"


def _execute(pattern: Pattern, cwd: Path, timeout: float, cap: int) -> tuple[str, ShellRun]:
    try:
        result = run_bounded(pattern.command, cwd, timeout, cap)
    except OSError as exc:
        raise ExpansionError(f'Shell command failed for pattern "{pattern.text}" ({exc.strerror or exc})') from None
    run = ShellRun(pattern.text, pattern.command, result.output, result.exit_code, "allow", "", True, result.cut)
    if result.timed_out:
        raise ExpansionError(f'Shell command failed for pattern "{pattern.text}" (no answer in {timeout:g} s: stopped)')
    if not result.ok:
        raise ExpansionError(f'Shell command failed for pattern "{pattern.text}"')
    return result.output, run


def run_shell(
    pieces: list[str | Pattern],
    cwd: Path,
    check: ShellCheck,
    disabled: bool,
    shell: ShellMode = "preview",
    timeout: float = SHELL_TIMEOUT_S,
    cap: int = OUTPUT_CAP,
) -> Expansion:
    """Replace each pattern by its output (execute), or by what would happen (preview)."""
    runs: list[ShellRun] = []
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        if disabled:
            runs.append(ShellRun(piece.text, piece.command, None, None))
            out.append(DISABLED)
            continue
        decision, reason = check(piece.command)
        if shell == "preview":
            runs.append(ShellRun(piece.text, piece.command, None, None, decision, reason))
            out.append(preview_note(piece.text, decision, reason))
            continue
        if decision != "allow":
            raise ExpansionError(f'Shell command permission check failed for pattern "{piece.text}"')
        output, run = _execute(piece, cwd, timeout, cap)
        run.reason = reason
        runs.append(run)
        out.append(output)
    return Expansion("".join(out), runs)


def expand(
    skill: Skill,
    args: str,
    *,
    session_id: str,
    project_dir: Path,
    check: ShellCheck,
    shell_disabled: bool = False,
    body: str | None = None,
    shell: ShellMode = "preview",
    timeout: float = SHELL_TIMEOUT_S,
) -> Expansion:
    """Everything Claude Code does to a skill before the model sees it. `shell="execute"` runs
    the allowed `!` commands (blocking the calling thread, up to `timeout` seconds each)."""
    pieces = render(skill, skill.read_body() if body is None else body, args, session_id, project_dir)
    return run_shell(pieces, project_dir, check, shell_disabled, shell, timeout)
