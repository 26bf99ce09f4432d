"""Record what the pinned Claude Code sends when a skill is invoked: `make oracle`.

An invocation case (tests/oracle/cases/invoke/*.json) is a workspace as in workspace.py plus:

    "prompt": "/deploy staging now",                     # the -p text (typed as the user's message)
    "calls": [{"tool": "Skill", "input": {"skill": "deploy", "args": "x"}}],   # scripted model calls
    "env": {"CLAUDE_CODE_EFFORT_LEVEL": "high"},          # more environment (placeholders allowed)
    "args": ["--model", "claude-opus-4-5"],               # more command-line flags
    "cc_bundled": true,                                   # keep Claude Code's bundled skills (default: off)
    "then": ["next"]                                      # prompts for the same session, resumed

Claude Code runs once per case in print mode (private HOME, loopback only) against server.py,
which answers the main conversation with the case's calls, one per turn, then "done", and every
subagent (a typed fork's too) with the subagent's answer. With `then`, the first run saves its
session and each later prompt is a run of its own that resumes it (`--resume`), as a user goes
on with a conversation the next day; `main` and `subagents` hold the requests of every run. The
recording keeps only what skilldeck must predict, with the workspace folders as placeholders
(`{project}`, `{home}`, `{outside}`, `{root}`) and the session id as `{session}`:

- `main`: every request of the main conversation, in order: `model`, `tools` (the names
  offered, sorted), `effort` (output_config.effort, or null) and `messages`: each message's role
  and content blocks (text; tool_use name and input; tool_result content and is_error). The
  context reminders Claude Code adds to the first user message (its git status and attribution
  texts, known by their openings in a plain run) are kept as `{"type": "text", "own": "context"}`.
  Its `role: "system"` messages inside `messages` are kept where they are, as markers (their text
  is Claude Code's own): `{"type": "text", "own": "listing"}` for the one that carries the skill
  listing (whose lines are `listing`), `{"type": "text", "own": "system"}` for any other;
- `listing`: the listing's lines as the first main request carried them, Claude Code's own
  entries left out (as record_listing does);
- `updates` (when there are any): the listing updates the last main request carries, each as its
  text: what a read or an edit brought in (engine/listing/touch.py predicts them);
- `subagents`: every request that is not the main conversation and offers tools (a fork, an
  agent; told from the main conversation by its own system prompt, compared while recording
  with a plain run's): its `model`, `tools`, `effort`, first message (the task, its context
  reminders as markers), `listing_at` (the index in `messages` of the system message that
  carries the listing, or null) and `listing` (its lines, as the main one's), sorted, once each;
- `exit`: Claude Code's exit status; `result`: the stream's final result text (a refusal of a
  typed command is printed there).

Never stored: Claude Code's system prompt, tool descriptions, or its context texts. The raw
requests, stream and debug log of the last run stay in .oracle/runs/invoke/<case>/ (ignored).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.listing.build import HEADER
from tests.oracle.record import ORACLE, VERSION, chosen_cases, run_claude, stream_event
from tests.oracle.record_listing import baseline, case_names, entry_name, init_event, listing_lines
from tests.oracle.server import is_subagent
from tests.oracle.workspace import HERE, Places, build

RECORDINGS = HERE / "recordings" / "invoke"
REMINDER = "<system-reminder>"


def placeholders(value: Any, places: Places, session: str | None) -> Any:
    """`value` with the workspace folders (and the session id) written as placeholders."""
    if isinstance(value, str):
        for name, folder in (("project", places.project), ("home", places.home), ("outside", places.outside)):
            value = value.replace(str(folder), "{" + name + "}")
        value = value.replace(str(places.root), "{root}")
        return value.replace(session, "{session}") if session else value
    if isinstance(value, list):
        return [placeholders(v, places, session) for v in value]
    if isinstance(value, dict):
        return {placeholders(k, places, session): placeholders(v, places, session) for k, v in value.items()}
    return value


def tool_names(body: dict[str, Any]) -> list[str]:
    return sorted(str(t.get("name")) for t in body.get("tools") or [] if isinstance(t, dict))


def effort(body: dict[str, Any]) -> str | None:
    config = body.get("output_config")
    return config.get("effort") if isinstance(config, dict) else None


def blocks_of(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def block(raw: dict[str, Any]) -> dict[str, Any]:
    """What skilldeck predicts of one content block."""
    kind = raw.get("type")
    if kind == "text":
        return {"type": "text", "text": raw.get("text", "")}
    if kind == "tool_use":
        return {"type": "tool_use", "name": raw.get("name"), "input": raw.get("input")}
    if kind == "tool_result":
        content = raw.get("content")
        kept = content if isinstance(content, str) else [block(b) for b in blocks_of(content)]
        return {"type": "tool_result", "content": kept, "is_error": bool(raw.get("is_error"))}
    return {"type": kind}


def opening(text: str) -> str:
    """Enough of a context reminder to know it again (compared while recording, never stored)."""
    return text[:60]


def carries_listing(message: dict[str, Any]) -> bool:
    return any(HEADER in str(b.get("text", "")) for b in blocks_of(message.get("content")))


def listing_at(body: dict[str, Any]) -> int | None:
    """The index of the system message that carries the listing, or None."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    return next((i for i, m in enumerate(messages) if m.get("role") == "system" and carries_listing(m)), None)


UPDATE_OPENINGS = ("New skills discovered in ", HEADER)


def listing_updates(bodies: list[dict[str, Any]]) -> list[str]:
    """The listing updates the last request carries (system messages after a touch: the skills a
    read or an edit brought in), each as its text. The first listing (inside Claude Code's own
    environment text) is not one."""
    out = []
    for body in bodies:
        for message in body.get("messages") or []:
            if isinstance(message, dict) and message.get("role") == "system":
                out += [t for b in blocks_of(message.get("content")) if (t := str(b.get("text", ""))).startswith(UPDATE_OPENINGS)]
    return out


def conversation(body: dict[str, Any], context: frozenset[str]) -> list[dict[str, Any]]:
    """The request's messages; Claude Code's context reminders (those a plain run puts in its first
    message, known by their opening) and its system messages (one carries the listing) kept as
    markers only."""
    out: list[dict[str, Any]] = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        if message.get("role") == "system":
            own = "listing" if carries_listing(message) else "system"
            out.append({"role": "system", "content": [{"type": "text", "own": own}]})
            continue
        kept = []
        for raw in blocks_of(message.get("content")):
            text = raw.get("text")
            if raw.get("type") == "text" and isinstance(text, str) and opening(text) in context:
                kept.append({"type": "text", "own": "context"})
            else:
                kept.append(block(raw))
        out.append({"role": message.get("role"), "content": kept})
    return out


def prompt_head(body: dict[str, Any]) -> str:
    """The opening of the request's own system prompt (its last system block): the main
    conversation's differs from every subagent's. Compared while recording, never stored."""
    system = body.get("system")
    last = system[-1] if isinstance(system, list) and system else {}
    text = last.get("text", "") if isinstance(last, dict) else str(system or "")
    return text.strip()[:60]


def is_main(body: dict[str, Any], head: str) -> bool:
    """The main conversation: it offers tools and has the main system prompt (a fork or an agent
    has its own; a typed fork in print mode sends no main request at all)."""
    return bool(body.get("tools")) and prompt_head(body) == head


def final_result(stream: str) -> str | None:
    """The stream's final result text (a refusal of a typed command is printed there)."""
    return stream_event(stream, "result").get("result")


def run(
    case: dict[str, Any], keep: Path, now_ms: int, head: str = ""
) -> tuple[list[dict[str, Any]], str, int, Places, str | None]:
    """Run Claude Code on the case (once, or once per prompt with `then`): the requests it sent,
    its last stream, its exit status (the first that is not 0). `head`, the main system prompt's
    opening: a request offering tools without it is a subagent's, answered as one (Claude Code
    marks a fork the model calls, not the one a user types in print mode)."""
    tmp = tempfile.mkdtemp(prefix="oracle-")
    places = build(case, Path(os.path.realpath(tmp)), now_ms=now_ms)
    calls = [places.fill(c) for c in case.get("calls", [])]

    def subagent(body: dict[str, Any]) -> bool:
        return is_subagent(body) or bool(head and body.get("tools") and prompt_head(body) != head)

    then = case.get("then", [])
    proc, requests = run_claude(case, places, places.fill(case["prompt"]), calls, keep, subagent, "" if then else None)
    session = init_event(proc.stdout).get("session_id")
    status = proc.returncode
    if then and not session:
        raise RuntimeError("the first run named no session to resume")
    for step, prompt in enumerate(then, 1):
        (keep / f"then{step}").mkdir(exist_ok=True)
        proc, more = run_claude(case, places, places.fill(prompt), calls, keep / f"then{step}", subagent, session)
        requests, status = requests + more, status or proc.returncode
    return requests, proc.stdout, status, places, session


def subagent(
    body: dict[str, Any], context: frozenset[str], kept: Callable[[list[str] | None], list[str] | None]
) -> dict[str, Any]:
    task = (conversation(body, context) or [{}])[0].get("content")
    return {
        "model": body.get("model"),
        "tools": tool_names(body),
        "effort": effort(body),
        "task": task,
        "listing_at": listing_at(body),
        "listing": kept(listing_lines([body])),
    }


@dataclass(frozen=True)
class Known:
    """What a plain run of an empty workspace shows of Claude Code's own: how the main system
    prompt opens, and the openings of the context reminders before the prompt "hi"."""

    head: str
    context: frozenset[str]


def known(now_ms: int) -> Known:
    keep = ORACLE / "runs" / "invoke" / "_baseline"
    keep.mkdir(parents=True, exist_ok=True)
    requests, _, _, places, _ = run({"prompt": "hi"}, keep, now_ms)
    subprocess.run(["rm", "-rf", str(places.root)], check=False, timeout=120)
    first = next((b for b in requests if b.get("tools")), {})
    texts = [b.get("text") for m in first.get("messages") or [] if m.get("role") == "user" for b in blocks_of(m.get("content"))]
    context = frozenset(opening(t) for t in texts if isinstance(t, str) and t.startswith(REMINDER))
    return Known(prompt_head(first), context)


def record(name: str, case: dict[str, Any], own: dict[str, Any], plain: Known, now_ms: int) -> dict[str, Any]:
    keep = ORACLE / "runs" / "invoke" / name
    keep.mkdir(parents=True, exist_ok=True)
    requests, stream, status, places, session = run(case, keep, now_ms, plain.head)
    try:
        main = [b for b in requests if is_main(b, plain.head)]
        others = [b for b in requests if b.get("tools") and not is_main(b, plain.head)]
        theirs = own["listing"] - case_names(case)

        def kept_lines(listing: list[str] | None) -> list[str] | None:
            return None if listing is None else listing[:2] + [line for line in listing[2:] if entry_name(line) not in theirs]

        kept = kept_lines(listing_lines(main[:1]))
        subagents = {json.dumps(subagent(b, plain.context, kept_lines), sort_keys=True) for b in others}
        recording = {
            "claude_code_version": VERSION,
            "case": name,
            "about": case.get("about", ""),
            "prompt": case["prompt"],
            **({"then": case["then"]} if case.get("then") else {}),
            "main": [
                {"model": b.get("model"), "tools": tool_names(b), "effort": effort(b), "messages": conversation(b, plain.context)}
                for b in main
            ],
            "listing": kept,
            **({"updates": updates} if (updates := listing_updates(main[-1:])) else {}),
            # Sorted and once each: subagents run side by side and ask in no fixed order.
            "subagents": [json.loads(s) for s in sorted(subagents)],
            "result": final_result(stream),
            "exit": status,
        }
        return placeholders(recording, places, session)
    finally:
        subprocess.run(["rm", "-rf", str(places.root)], check=False, timeout=120)


def main() -> int:
    chosen = chosen_cases("invoke", "tests.oracle.record_invoke", __doc__)
    if chosen is None:
        return 2
    now_ms = int(time.time() * 1000)
    own = baseline(now_ms)
    plain = known(now_ms)
    if not plain.head or not plain.context:
        print("oracle: the plain run sent no main request with context reminders", file=sys.stderr)
        return 2
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    for name, case in chosen.items():
        recording = record(name, case, own, plain, now_ms)
        (RECORDINGS / f"{name}.json").write_text(json.dumps(recording, indent=2, ensure_ascii=False) + "\n")
        print(f"invoke {name}: {len(recording['main'])} main requests, {len(recording['subagents'])} subagent requests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
