"""The prompt a skill run sends, rendered as Claude Code renders it (BEHAVIOR.md §5), minus its holes.

Order (Claude Code 2.1.328, checked against tests/oracle/recordings/invoke/typed_*): the
base-directory line (skill folders only, not command files), the `${CLAUDE_...}` variables, then
the arguments in Claude Code's passes (no substituted value is read again), then the `!` shell
commands, whose output is not scanned.

Two departures, both for safety, both invisible for a well-behaved skill:
- The `!` patterns are found in the skill file's own body before anything is substituted, so
  only a pattern its author wrote can ever run (Claude Code finds them after: a folder name
  holding `` !`cmd` `` would be run). A pattern in typed arguments or a model's Skill `args`
  stays text, broken as Claude Code breaks it (`` !` `` becomes `` ! ` ``, a `!` after
  whitespace `\\!`).
- Inside a `!` command each substituted value is one inert shell word (engine/base/shellquote.py),
  while the prose around it gets the value as typed (Claude Code pastes it into the command:
  `echo $ARGUMENTS` with `a 'b c'` prints `a b c` there, `a 'b c'` here).

A preview (`shell="preview"`, the default) never runs anything: each command is replaced by a
note saying what the permission rules would decide for it. A real run (`shell="execute"`) runs
the allowed ones with a time and output bound (engine/runner/shell.py) and fails as Claude Code fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..base.shellquote import UnquotableError, contexts, quote_in
from ..catalog.model import LoadedFrom, Skill
from .argwords import split_arguments
from .shell import OUTPUT_CAP, TIMEOUT_S, CommandStop, exit_ok, failure_text, result_text, run_bounded

SHELL_TIMEOUT_S = TIMEOUT_S
DISABLED = "[shell command execution disabled by policy]"

# Claude Code's two private marks (it turns any in the skill text into U+FFFD first): a `$` that
# no later step may read as a placeholder, and the two edges of a substituted value.
PROTECTED = "\uffff"
EDGE = "\ufffe"
# More than this many characters of skill text and substituted values fail the invocation.
SUBSTITUTION_LIMIT = 4_000_000
# Named arguments Claude Code considers: the first 64, each at most 64 characters long.
NAMES_MAX = 64
NAME_CHARS_MAX = 64
# Claude Code's `!` patterns: a ```! fence (anywhere, its command up to the next ```), and
# !`cmd` at the start of a line or after whitespace, outside a `code` span.
_FENCED = re.compile(r"```!\s*\n?([\s\S]*?)\n?```")
_INLINE = re.compile(r"(?:(?<=\s)|(?<=^))!`([^`]+)`", re.M)
_CODE_SPAN = re.compile(r"`[^`\n]+`")

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
    # The pattern and command as Claude Code runs them, values substituted unquoted ("" when no
    # value was substituted): what it refuses in that form is refused here too.
    sent_text: str = ""
    sent_command: str = ""


def neutralise(value: str) -> str:
    """`value` with every `!` that could open a shell pattern broken, as Claude Code breaks them in
    a substituted argument: `` `! `` and `` !` `` get a space, a `!` after whitespace a backslash."""
    value = value.replace("`!", "` !").replace("!`", "! `")
    return re.sub(r"(^|\s)!", r"\1\\!", value, flags=re.M)


def _guard(value: str) -> str:
    """A substituted value that no later step reads again, between two edges."""
    clean = value.replace(PROTECTED, "\ufffd").replace(EDGE, "\ufffd").replace("$", PROTECTED)
    return EDGE + clean + EDGE


def _unguard(value: str) -> str:
    return value.replace(PROTECTED, "$")


def _finish(text: str) -> str:
    return text.replace(PROTECTED, "$").replace(EDGE, "")


@dataclass
class Variables:
    """The `${CLAUDE_...}` values a skill may use (those Claude Code fills for its kind of file)."""

    values: dict[str, str]

    def fill(self, text: str, wrap: Callable[[str], str] = lambda v: v) -> str:
        for name, value in self.values.items():
            text = text.replace("${" + name + "}", wrap(value))
        return text


class _Substituter:
    """Claude Code's argument substitution (2.1.328): after the variables, a `\\$` before a
    placeholder keeps it as written, then named arguments (longest name first), `$ARGUMENTS[N]`,
    `$N` (no word character after it, so "costs $2M" stays) and `$ARGUMENTS`, each pass over the
    text as the last one left it; a substituted value is never read again. With arguments and no
    placeholder, an `ARGUMENTS:` line is added. `args=None` (a model's call without arguments)
    substitutes the variables only. The same state runs over every piece of one skill text."""

    def __init__(self, args: str | None, names: tuple[str, ...], variables: Variables, size: int) -> None:
        self.args = args
        self.variables = variables
        self.words = split_arguments(args) if args else []
        named = [(n, i) for i, n in enumerate(names) if n and len(n) <= NAME_CHARS_MAX][:NAMES_MAX]
        self.named = sorted(named, key=lambda item: -len(item[0]))
        escapable = "|".join([r"\d", "ARGUMENTS", *(re.escape(n) + r"(?![\[\w])" for n, _ in self.named)])
        self.escape = re.compile(r"(?<!\\)\\\$(?=" + escapable + ")")
        self.size = size
        self.used = False

    def word(self, index: int) -> str | None:
        return self.words[index] if index < len(self.words) else None

    def value(self, raw: str | None, prose: bool) -> str:
        """A value as it goes into the text: its variables filled and, in prose, its `!` broken."""
        raw = raw or ""
        done = self.variables.fill(raw)
        if prose:
            done = neutralise(done)
        self.size += max(len(raw), len(done))
        if self.size > SUBSTITUTION_LIMIT:
            raise ExpansionError(
                f"This skill, command or hook and the arguments filled into it add up to more than {SUBSTITUTION_LIMIT:,} "
                "characters. Use shorter arguments or fewer placeholders such as $ARGUMENTS."
            )
        return _guard(done)

    def run(self, text: str, prose: bool) -> str:
        text = text.replace(PROTECTED, "\ufffd").replace(EDGE, "\ufffd")
        text = self.variables.fill(text, _guard)
        if self.args is None:
            return text

        def used(value: str) -> str:
            self.used = True
            return value

        text = self.escape.sub(PROTECTED, text)
        for name, index in self.named:
            pattern = re.compile(r"\$" + re.escape(name) + r"(?![\[\w])")

            def by_name(_: re.Match[str], i: int = index) -> str:
                return used(self.value(self.word(i), prose))

            text = pattern.sub(by_name, text)

        def indexed(m: re.Match[str]) -> str:
            found = self.word(int(m.group(1)))
            return PROTECTED + m.group(0)[1:] if found is None else used(self.value(found, prose))

        text = re.sub(r"\$ARGUMENTS\[(\d+)\]", indexed, text)

        def positional(m: re.Match[str]) -> str:
            found = self.word(int(m.group(1)))
            return m.group(0) if found is None else used(self.value(found, prose))

        text = re.sub(r"\$(\d+)(?!\w)", positional, text)
        args = self.args
        return _replace_all(text, "$ARGUMENTS", lambda: used(self.value(args, prose)))

    def tail(self) -> str:
        """The `ARGUMENTS:` line Claude Code adds when no placeholder took the arguments."""
        if self.args and not self.used:
            return "\n\nARGUMENTS: " + self.value(self.args, True)
        return ""


def _replace_all(text: str, needle: str, make: Callable[[], str]) -> str:
    parts = text.split(needle)
    out = [parts[0]]
    for part in parts[1:]:
        out += [make(), part]
    return "".join(out)


def _quote_values(command: str) -> str:
    """A substituted command with each value (between edges) written as one inert shell word for
    where it stands; the author's own text is left as written."""
    pieces = command.split(EDGE)
    if len(pieces) == 1:
        return _finish(command)
    template_parts = pieces[0::2]
    values = [_unguard(v) for v in pieces[1::2]]
    positions = []
    length = 0
    for part in template_parts[:-1]:
        length += len(part)
        positions.append(length)
    template = "".join(template_parts)
    where = contexts(template, positions)
    out = [_finish(template_parts[0])]
    for value, context, part in zip(values, where, template_parts[1:], strict=True):
        try:
            out.append(quote_in(value, context))
        except UnquotableError:
            raise ExpansionError(
                f"A value substituted into the shell command {_finish(''.join(pieces[0::2]))!r} needs quoting, and where it "
                "stands (a here-document, ${...} or backquotes) skilldeck cannot quote it safely: move the placeholder out "
                "of that construct"
            ) from None
        out.append(_finish(part))
    return "".join(out)


def _patterns(body: str) -> list[tuple[int, int, int, int]]:
    """(start, end, command start, command end) of each `!` pattern, fenced blocks first; an inline
    pattern inside a fenced block, or inside a `code` span, is text."""
    spans = [(m.start(), m.end(), m.start(1), m.end(1)) for m in _FENCED.finditer(body)]
    if "!`" in body:
        # Code spans blanked out (same length), except those a `!` or a backquote opens.
        blanked = _CODE_SPAN.sub(
            lambda m: m.group(0) if m.start() > 0 and body[m.start() - 1] in "!`" else "`" + " " * (len(m.group(0)) - 2) + "`",
            body,
        )
        spans += [(m.start(), m.end(), m.start(1), m.end(1)) for m in _INLINE.finditer(blanked)]
    kept: list[tuple[int, int, int, int]] = []
    for span in sorted(spans):
        if kept and span[0] < kept[-1][1]:
            continue
        if not body[span[2] : span[3]].strip():
            continue  # an empty command: Claude Code leaves the pattern as text
        kept.append(span)
    return kept


def has_base_dir(skill: Skill) -> bool:
    """Claude Code writes the base-directory line (and fills ${CLAUDE_SKILL_DIR}) for a skill
    folder's SKILL.md, not for a command file (a legacy command, or a plugin's command)."""
    if skill.loaded_from is LoadedFrom.COMMANDS or skill.loaded_from is LoadedFrom.PLUGIN:
        return skill.path.name == "SKILL.md"
    return True


def variables(skill: Skill, session_id: str, project_dir: Path, effort: str, plugin_data: Path | None = None) -> Variables:
    """The variables Claude Code fills for this kind of skill, in its order."""
    values: dict[str, str] = {}
    if skill.source.plugin is not None:
        values["CLAUDE_PLUGIN_ROOT"] = str(skill.source.root)
        values["CLAUDE_PROJECT_DIR"] = str(project_dir)
        if plugin_data is not None:
            values["CLAUDE_PLUGIN_DATA"] = str(plugin_data)
        if has_base_dir(skill):
            values["CLAUDE_SKILL_DIR"] = str(skill.base_dir)
        values["CLAUDE_SESSION_ID"] = session_id
    else:
        if has_base_dir(skill):
            values["CLAUDE_SKILL_DIR"] = str(skill.base_dir)
        values["CLAUDE_PROJECT_DIR"] = str(project_dir)
        values["CLAUDE_SESSION_ID"] = session_id
    values["CLAUDE_EFFORT"] = effort
    return Variables(values)


def render(
    skill: Skill,
    body: str,
    args: str | None,
    session_id: str,
    project_dir: Path,
    effort: str = "medium",
    plugin_data: Path | None = None,
) -> list[str | Pattern]:
    """The skill text as prose pieces and `!` patterns, every value substituted, nothing run."""
    sub = _Substituter(args, skill.arguments, variables(skill, session_id, project_dir, effort, plugin_data), 0)
    head = f"Base directory for this skill: {skill.base_dir}\n\n" if has_base_dir(skill) else ""
    sub.size = len(head) + len(body)
    # The base-directory line is ours, not the author's: it is never scanned for patterns.
    pieces: list[str | Pattern] = [head] if head else []
    last = 0
    for start, end, cmd_start, cmd_end in _patterns(body):
        pieces.append(_finish(sub.run(body[last:start], prose=True)))
        filled = sub.run(body[cmd_start:cmd_end], prose=False)
        command, sent = _quote_values(filled), _finish(filled)
        # The command Claude Code runs is the pattern's text trimmed, with CR LF as LF.
        text, run = body[start:cmd_start] + command + body[cmd_end:end], command.strip().replace("\r\n", "\n")
        if sent == command:
            pieces.append(Pattern(text, run))
        else:
            sent_text = body[start:cmd_start] + sent + body[cmd_end:end]
            pieces.append(Pattern(text, run, sent_text, sent.strip().replace("\r\n", "\n")))
        last = end
    pieces.append(_finish(sub.run(body[last:], prose=True)))
    tail = sub.tail()
    if tail:
        pieces.append(_finish(tail))
    return pieces


def render_text(skill: Skill, body: str, args: str | None, session_id: str, project_dir: Path, effort: str = "medium") -> str:
    """The skill text before its `!` commands run."""
    pieces = render(skill, body, args, session_id, project_dir, effort)
    return "".join(p if isinstance(p, str) else p.text for p in pieces)


def preview_note(pattern: str, decision: str, reason: str) -> str:
    """What a preview shows in place of a command's output."""
    verdict = "would run" if decision == "allow" else "would fail the invocation (only an allowed command runs)"
    return f"[preview, not run: {pattern} · rules: {decision} ({reason}) · a real run {verdict}]"


def _execute(pattern: Pattern, cwd: Path, timeout: float, cap: int, stop: CommandStop | None = None) -> tuple[str, ShellRun]:
    try:
        result = run_bounded(pattern.command, cwd, timeout, cap, stop)
    except OSError as exc:
        raise ExpansionError(f'Shell command failed for pattern "{pattern.text}": [stderr]\n{exc.strerror or exc}') from None
    run = ShellRun(pattern.text, pattern.command, result.output, result.exit_code, "allow", "", True, result.cut)
    if result.timed_out:
        raise ExpansionError(f'Shell command failed for pattern "{pattern.text}" (no answer in {timeout:g} s: stopped)')
    # Stopped at the output cap (a command that prints for ever) is no failure: it is cut.
    if not (result.cut or exit_ok(pattern.command, result.exit_code)):
        raise ExpansionError(f'Shell command failed for pattern "{pattern.text}": {failure_text(result.output)}')
    return result_text(result.output), run


def run_shell(
    pieces: list[str | Pattern],
    cwd: Path,
    check: ShellCheck,
    disabled: bool,
    shell: ShellMode = "preview",
    timeout: float = SHELL_TIMEOUT_S,
    cap: int = OUTPUT_CAP,
    stop: CommandStop | None = None,
) -> Expansion:
    """Replace each pattern by its output (execute), or by what would happen (preview).
    `stop` ends a running command from another thread (shell.CommandStopped is raised)."""
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
        # As Claude Code checks it (values unquoted: a skill folder whose path holds a `$` is a
        # variable to it, and refused), then as skilldeck runs it (quoted).
        forms = [(piece.sent_command, piece.sent_text)] if piece.sent_command else []
        for command, text in [*forms, (piece.command, piece.text)]:
            (decision, reason), shown = check(command), text
            if decision != "allow":
                break
        if shell == "preview":
            runs.append(ShellRun(piece.text, piece.command, None, None, decision, reason))
            out.append(preview_note(piece.text, decision, reason))
            continue
        if decision != "allow":
            why = reason or "Permission denied"
            raise ExpansionError(f'Shell command permission check failed for pattern "{shown}": {why}')
        output, run = _execute(piece, cwd, timeout, cap, stop)
        run.reason = reason
        runs.append(run)
        out.append(output)
    return Expansion("".join(out), runs)


def expand(
    skill: Skill,
    args: str | None,
    *,
    session_id: str,
    project_dir: Path,
    check: ShellCheck,
    shell_disabled: bool = False,
    body: str | None = None,
    shell: ShellMode = "preview",
    timeout: float = SHELL_TIMEOUT_S,
    effort: str = "medium",
    plugin_data: Path | None = None,
    stop: CommandStop | None = None,
) -> Expansion:
    """Everything Claude Code does to a skill before the model sees it. `shell="execute"` runs
    the allowed `!` commands (blocking the calling thread, up to `timeout` seconds each).
    `effort` fills ${CLAUDE_EFFORT}; `plugin_data` is a plugin's ${CLAUDE_PLUGIN_DATA}."""
    text = skill.read_body() if body is None else body
    pieces = render(skill, text, args, session_id, project_dir, effort, plugin_data)
    return run_shell(pieces, project_dir, check, shell_disabled, shell, timeout, stop=stop)
