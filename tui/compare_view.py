"""A comparison with Claude Code as lines of text, the same for `skilldeck compare` and the app's
listing pane: each row with a mark that reads without colour, the skipped list, the notes and a
summary line. Every text from Claude Code or a skill goes through `printable`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from engine import CompareRow, Comparison, printable

# How each status reads: a mark that survives without colour, words, a colour.
MARKS = {
    "identical": ("=", "identical", "green"),
    "differs": ("≠", "differs", "bold red"),
    "only-claude": ("+", "only in Claude Code", "bold yellow"),
    "only-skilldeck": ("-", "only in skilldeck", "bold yellow"),
    "claude-own": ("·", "Claude Code's own", "dim"),
}
AGREE = ("identical", "claude-own")
# A block of a typed skill can be long: this many of its lines are shown.
BLOCK_LINES = 12


@dataclass(frozen=True)
class Heading:
    """A section's title: a rule in a terminal or a pane, `── title` in plain output."""

    title: str


Line = Text | Heading


def differences(result: Comparison) -> int:
    return sum(1 for r in (*result.listing, *result.invocation) if r.status not in AGREE)


def verdict(result: Comparison) -> Text:
    """The summary: identical or how many differ, which Claude Code, how long it took."""
    n = differences(result)
    said = "identical" if n == 0 else f"{n} difference{'s' if n != 1 else ''}"
    return Text(f"{said} · Claude Code {result.claude.version} · {result.seconds:.1f} s", "bold green" if n == 0 else "bold red")


def comparison_lines(result: Comparison, path: Callable[[Path], str] = str, summary_first: bool = False) -> list[Line]:
    """Everything `skilldeck compare` prints, in order; `path` shows the binary's path. The summary
    ends the CLI's output (the last line a terminal shows), and opens a pane's (its first screen)."""
    where = "sealed off (private network, writes thrown away)" if result.contained else "NOT sealed off"
    shown = printable(path(result.claude.path))
    lines: list[Line] = [
        Text(f"Claude Code {result.claude.version} ({shown}) · model {printable(result.model or '?')} · {where}")
    ]
    entries = [r for r in result.listing if r.name != "(header)"]
    counts = {s: sum(1 for r in entries if r.status == s) for s in MARKS}
    summary = ", ".join(f"{n} {MARKS[s][1]}" for s, n in counts.items() if n)
    lines.append(Heading(f"listing: {summary or 'no entries'}"))
    lines += [line for row in result.listing if row.status != "claude-own" for line in row_lines(row)]
    if result.own:
        own = printable(", ".join(result.own))
        lines.append(Text(f"· Claude Code's own (not skilldeck's to load, counted in the budget): {own}", "dim"))
    if result.skipped:
        lines.append(Heading("what Claude Code logged as skipped"))
        lines += [Text(printable(line)) for line in result.skipped]
    if result.invoked:
        agree = all(r.status == "identical" for r in result.invocation)
        lines.append(Heading(f"{printable(result.invoked)}: {'identical' if agree else 'differs'}"))
        lines += [line for row in result.invocation for line in row_lines(row, block=True)]
    lines += [Text(f"note: {printable(note)}", style="yellow") for note in result.notes]
    return [verdict(result), *lines] if summary_first else [*lines, verdict(result)]


def _shown(text: str | None, block: bool) -> str:
    if text is None:
        return ""
    if not block:
        return printable(text)
    lines = text.split("\n")
    # Continued under the first line's text ("    Claude Code: " and "    skilldeck:   " are as wide).
    indent = "\n" + " " * 17
    more = f"{indent}… {len(lines) - BLOCK_LINES} more lines" if len(lines) > BLOCK_LINES else ""
    return indent.join(printable(line) for line in lines[:BLOCK_LINES]) + more


def row_lines(row: CompareRow, block: bool = False) -> list[Line]:
    mark, words, style = MARKS.get(row.status, ("?", row.status, ""))
    label = f"{printable(row.name)}: " if block else ""
    if row.status == "identical":
        head = row.claude if not block else (row.claude or "").split("\n", 1)[0]
        return [Text.assemble((f"{mark} ", style), label, printable(head or ""))]
    if row.status == "differs":
        return [
            Text.assemble((f"{mark} ", style), (label, style), (words, style), f": {printable(row.difference)}"),
            Text(f"    Claude Code: {_shown(row.claude, block)}"),
            Text(f"    skilldeck:   {_shown(row.skilldeck, block)}"),
        ]
    text = row.claude if row.status == "only-claude" else row.skilldeck
    extra = f" ({printable(row.difference)})" if row.difference else ""
    return [Text.assemble((f"{mark} {label}{words}{extra}: ", style), _shown(text, block))]
