"""`skilldeck compare [NAME [ARGS]]`: the user's own Claude Code, recorded offline in a sandbox,
against skilldeck's prediction: the listing line by line, what Claude Code skipped, and with
NAME the blocks a typed `/NAME ARGS` sent. Exit 0 identical, 1 not, 2 cannot run."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from rich.text import Text

from engine import CompareError, Comparison, Workspace, compare_with_claude, find_claude, json_printable, printable

from ..compare_view import Heading, comparison_lines
from . import render


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    def progress(text: str) -> None:
        if not render.err.plain:
            render.err.print(Text(text + " …", style="dim"))

    text = args.args[0] if len(args.args) == 1 else shlex.join(args.args)
    try:
        claude = find_claude(args.claude, workspace.locations.environ, allow_network=args.allow_network)
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
    for line in comparison_lines(result):
        if isinstance(line, Heading):
            render.out.rule(line.title, align="left")
        else:
            render.out.print(line)
