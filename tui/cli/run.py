"""`skilldeck run`: a skill against a model, headless, streaming to the terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from typing import Any

from rich.markup import escape

from engine import (
    UNANSWERED,
    Added,
    Call,
    Failed,
    Fork,
    Notice,
    Preparing,
    Result,
    RunEvent,
    Sending,
    Streamed,
    Workspace,
    call_from_rule,
    json_printable,
    printable,
)

from . import render

# Stops after which the model was still working: the user may let it go on.
CONTINUABLE = ("turn-limit", "max-tokens", "stop", "pause-turn")


def _event_dict(event: RunEvent) -> dict[str, Any]:
    if isinstance(event, Streamed):
        return {"type": "text", "text": event.delta}
    if isinstance(event, Added):
        return {
            "type": "message",
            "role": event.message.role,
            "meta": event.message.meta,
            "kind": event.message.kind,
            "text": event.message.text,
        }
    if isinstance(event, Call):
        return {
            "type": "tool_call",
            "id": event.id,
            "name": event.name,
            "input": event.input,
            "decision": event.decision,
            "reason": event.reason,
        }
    if isinstance(event, Result):
        return {"type": "tool_result", "id": event.id, "text": event.text, "is_error": event.is_error}
    if isinstance(event, Fork):
        return {
            "type": "fork",
            "skill": event.skill,
            "phase": event.phase,
            "result": event.result,
            "transcript": str(event.transcript or ""),
        }
    if isinstance(event, Failed):
        return {"type": "error", "kind": event.error.kind, "message": event.error.message}
    if isinstance(event, Notice):
        return {"type": "notice", "kind": event.kind, "message": event.message}
    if isinstance(event, Preparing):
        return {"type": "preparing", "skill": event.skill, "args": event.args}
    if isinstance(event, Sending):
        sent = event.request
        return {"type": "request", "model": sent.model, "messages": len(sent.messages), "tools": [t["name"] for t in sent.tools]}
    return {"type": "usage", "input_tokens": event.input_tokens, "output_tokens": event.output_tokens}


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    catalog = workspace.load()
    permissions = workspace.permissions()
    failed: list[str] = []
    bad = [rule for rule in args.allow if call_from_rule(rule) is None]
    if bad:
        render.err.print(f"[red]--allow {escape(printable(repr(bad[0])))} is not a rule[/]")
        return 2
    permissions = permissions.with_allow(args.allow, "--allow")
    unknown = render.unknown_typed(args.name, catalog)
    if unknown is not None:
        # Said before any transcript is made: nothing ran, so there is nothing to go back to.
        if args.json:
            error = {"type": "error", "kind": "unknown-skill", "message": unknown}
            sys.stdout.write(json_printable(json.dumps(error, ensure_ascii=False)) + "\n")
        return 1
    interactive = sys.stdin.isatty()

    def emit(event: RunEvent) -> None:
        if isinstance(event, Failed):
            failed.append(event.error.message)
        if args.json:
            sys.stdout.write(json_printable(json.dumps(_event_dict(event), ensure_ascii=False)) + "\n")
            sys.stdout.flush()
        elif isinstance(event, Notice):
            render.err.print(f"\n[yellow]{escape(printable(event.message))}[/]")
        else:
            render.run_event(event)

    async def ask(tool: str, tool_input: dict[str, Any], decision: Any) -> str:
        if not interactive:
            shown = escape(printable(f"{tool} {json.dumps(tool_input, ensure_ascii=False)}"))
            render.err.print(f"[yellow]denied {shown}: needs approval and there is no terminal (use --allow)[/]")
            return UNANSWERED  # the model is told what Claude Code's print mode tells it
        shown = printable(f"{tool} {json.dumps(tool_input, ensure_ascii=False)}")
        answer = await asyncio.to_thread(input, f"Allow {shown}? [o]nce / [a]lways / [d]eny: ")
        return {"o": "once", "a": "always"}.get(answer.strip().lower()[:1], "deny")

    runner = workspace.session(
        catalog, backend=workspace.backend(args.backend), ask=ask, emit=emit, model=args.model, permissions=permissions
    )
    transcript = runner.transcript
    text = args.args[0] if len(args.args) == 1 else shlex.join(args.args)
    try:
        asyncio.run(runner.invoke(args.name, text, fork=args.fork))
    except KeyboardInterrupt:
        render.err.print("[yellow]cancelled[/]")
        return 130
    if not args.json:
        sys.stdout.write("\n")
        # A run refused before its first message (a skill only the model may invoke) wrote none.
        if transcript.path.is_file():
            render.err.print(f"[dim]transcript: {escape(printable(str(transcript.path)))}[/]")
        if runner.stopped is not None and runner.stopped.kind in CONTINUABLE and transcript.path.is_file():
            # `run` is one shot: going on happens in the app, from this transcript.
            render.err.print(f"[dim]to go on: skilldeck --resume {transcript.session_id}, then send 'continue'[/]")
    return 1 if failed else 0
