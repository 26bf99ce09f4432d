"""`skilldeck compare [NAME [ARGS]]`: the user's own Claude Code, recorded offline in a sandbox,
against skilldeck's prediction: the listing line by line, what Claude Code skipped, and with
NAME the blocks a typed `/NAME ARGS` sent. Exit 0 identical, 1 not, 2 cannot run."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from rich.text import Text

from engine import CompareError, CompareRow, Comparison, Workspace, compare_with_claude, find_claude, json_printable, printable

from . import render

# How each status reads: a mark that survives without colour, words, a colour.
MARKS = {
    "identical": ("=", "identical", "green"),
    "differs": ("≠", "differs", "bold red"),
    "only-claude": ("+", "only in Claude Code", "bold yellow"),
    "only-skilldeck": ("-", "only in skilldeck", "bold yellow"),
    "claude-own": ("·", "Claude Code's own", "dim"),
}
# A block of a typed skill can be long: this many of its lines are shown.
BLOCK_LINES = 12


def add_parser(sub: argparse._SubParsersAction, loc: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "compare",
        parents=[loc],
        help="run your own Claude Code offline and show where skilldeck's prediction differs",
        description="Run your installed Claude Code once, offline (a private network namespace, a recording server on "
        "127.0.0.1, a dummy key, no hook or MCP server, every write thrown away), in this project with your config, and "
        "compare what it sent with skilldeck's prediction: the listing line by line, what it skipped and why, and with "
        "NAME the blocks a typed /NAME ARGS sent. Exit 0 when identical, 1 when not, 2 when it cannot run.",
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="a skill to invoke as typed: /NAME ARGS")
    p.add_argument("args", nargs="*", metavar="ARGS", help="its arguments, as typed after /NAME")
    p.add_argument("--claude", metavar="PATH", help="the claude to run (default: the one on PATH)")
    p.add_argument(
        "--allow-network",
        action="store_true",
        help="run even where no private network namespace can be made: the run then has the host network and its "
        "writes are not thrown away (hooks and MCP servers stay off)",
    )
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="the comparison as one JSON object")


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    def progress(text: str) -> None:
        if not render.err.plain:
            render.err.print(Text(text + " …", style="dim"))

    text = args.args[0] if len(args.args) == 1 else shlex.join(args.args)
    try:
        claude = find_claude(args.claude, workspace.locations.environ)
        result = compare_with_claude(
            claude, workspace.locations, args.name, text, allow_network=args.allow_network, progress=progress
        )
    except CompareError as exc:
        render.err.print(Text(f"skilldeck compare: {printable(str(exc))}", style="red"))
        return 2
    if args.json:
        # json.dumps escapes C0 controls; json_printable escapes the DEL and C1 it leaves raw.
        sys.stdout.write(json_printable(json.dumps(result.to_dict(), indent=2, ensure_ascii=False)) + "\n")
    else:
        show(result)
    return 0 if result.identical else 1


def show(result: Comparison) -> None:
    out = render.out
    where = "sealed off (private network, writes thrown away)" if result.contained else "NOT sealed off"
    out.print(Text(f"Claude Code {result.claude.version} ({result.claude.path}) · model {result.model or '?'} · {where}"))
    entries = [r for r in result.listing if r.name != "(header)"]
    counts = {s: sum(1 for r in entries if r.status == s) for s in MARKS}
    summary = ", ".join(f"{n} {MARKS[s][1]}" for s, n in counts.items() if n)
    out.rule(f"listing: {summary or 'no entries'}", align="left")
    for row in result.listing:
        if row.status != "claude-own":
            _row(row)
    if result.own:
        out.print(Text(f"· Claude Code's own (not skilldeck's to load, counted in the budget): {', '.join(result.own)}", "dim"))
    if result.skipped:
        out.rule("what Claude Code logged as skipped", align="left")
        for line in result.skipped:
            out.print(Text(printable(line)))
    if result.invoked:
        agree = all(r.status == "identical" for r in result.invocation)
        out.rule(f"{result.invoked}: {'identical' if agree else 'differs'}", align="left")
        for row in result.invocation:
            _row(row, block=True)
    for note in result.notes:
        out.print(Text(f"note: {note}", style="yellow"))
    verdict = "identical" if result.identical else "differs"
    out.print(Text(f"{verdict} · {result.seconds:.1f} s", style="bold green" if result.identical else "bold red"))


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


def _row(row: CompareRow, block: bool = False) -> None:
    mark, words, style = MARKS.get(row.status, ("?", row.status, ""))
    label = f"{row.name}: " if block else ""
    if row.status == "identical":
        head = row.claude if not block else (row.claude or "").split("\n", 1)[0]
        render.out.print(Text.assemble((f"{mark} ", style), label, printable(head or "")))
    elif row.status == "differs":
        render.out.print(Text.assemble((f"{mark} ", style), (label, style), (words, style), f": {printable(row.difference)}"))
        render.out.print(Text(f"    Claude Code: {_shown(row.claude, block)}"))
        render.out.print(Text(f"    skilldeck:   {_shown(row.skilldeck, block)}"))
    else:
        text = row.claude if row.status == "only-claude" else row.skilldeck
        extra = f" ({printable(row.difference)})" if row.difference else ""
        render.out.print(Text.assemble((f"{mark} {label}{words}{extra}: ", style), _shown(text, block)))
