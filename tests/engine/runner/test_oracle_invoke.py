"""Typing `/name args` sends what Claude Code sends, byte for byte (tests/oracle/recordings/invoke/typed_*).

Each recorded typed case's workspace is rebuilt; skilldeck builds the prompt for the typed text
as a real run does (the allowed `!` commands run) and the messages go through `api_messages`, as
the run's first request carries them. Compared with the recording: every block of the first user
message that is not one of Claude Code's own context reminders (its git status and attribution
texts, which skilldeck does not send); for a typed fork, the subagent's task; for a refused or
failed invocation, Claude Code's error text; the model a skill names and the effort it sets. A
real run (through the SDK) is also compared on the listing: the role "system" message that carries
it, its place in `messages` and its text (Claude Code's own entries left out, as recorded).

`python -m tests.engine.runner.test_oracle_invoke` prints which cases agree.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from engine import Locations, Workspace
from engine.llm import listing_in_messages, resolve_model
from engine.runner.conversation import api_messages
from engine.runner.expand import ExpansionError
from engine.runner.invoke import InvocationError, build_prompt, parse_typed
from tests.llm_server import MessagesServer, Reply
from tests.oracle.record_invoke import placeholders
from tests.oracle.replay import case_locations, flag_values
from tests.oracle.workspace import HERE, Places, build, load_cases

RECORDINGS = HERE / "recordings" / "invoke"
VERSION = (HERE / "VERSION").read_text().strip()
# The recording writes Claude Code's session id as this placeholder; skilldeck is given it as its own.
SESSION = "{session}"


def recordings() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(RECORDINGS.glob("typed_*.json"))}


RECORDED = recordings()


def theirs(recording: dict[str, Any]) -> dict[str, Any]:
    """What Claude Code sent for the typed text (or the error it printed instead)."""
    if recording["main"]:
        first = recording["main"][0]
        # Every user message of the first request (the `@file` attachments come before the command's).
        blocks = [[b for b in m["content"] if not b.get("own")] for m in first["messages"] if m["role"] != "system"]
        return {"blocks": blocks, "model": first["model"], "effort": first["effort"]}
    if recording["subagents"]:
        task = recording["subagents"][0]["task"]
        return {"fork": [b for b in task if not b.get("own")]}
    return {"error": recording["result"]}


def their_listing(recording: dict[str, Any]) -> tuple[int, str] | None:
    """Where the first request (a typed fork's: the subagent's) carried the listing's system message,
    and its text (Claude Code's own entries left out, as recorded). Claude Code's other system
    messages are its own texts, which skilldeck does not send: they are not counted."""
    if recording["main"]:
        kept = [m for m in recording["main"][0]["messages"] if m["content"] != [{"type": "text", "own": "system"}]]
        at = next((i for i, m in enumerate(kept) if m["content"] == [{"type": "text", "own": "listing"}]), None)
        lines = recording["listing"]
    elif recording["subagents"]:
        at, lines = recording["subagents"][0]["listing_at"], recording["subagents"][0]["listing"]
    else:
        return None  # refused: nothing was sent
    if at is None or lines is None or len(lines) == 2:
        # No listing, or one of Claude Code's own skills alone (left out of the recording): skilldeck,
        # with nothing to list, sends no listing message.
        return None
    return at, "\n".join(lines)


def skilldeck_side(case: dict[str, Any], root: Path) -> tuple[Places, Locations]:
    """The case's workspace, and where skilldeck looks in it as the recorded run did."""
    places = build(case, root)
    return places, case_locations(case, places)


def ours(case: dict[str, Any], root: Path) -> dict[str, Any]:
    """What skilldeck sends for the case's typed text, with the workspace folders as placeholders."""
    places, locations = skilldeck_side(case, root)
    catalog = Workspace(locations).load()
    name, typed = parse_typed(places.fill(case["prompt"]))
    try:
        prompt = build_prompt(locations, catalog, name, typed, session_id=SESSION, shell="execute", typed=True)
    except (InvocationError, ExpansionError) as exc:
        return {"error": placeholders(str(exc), places, None)}
    sent = api_messages(prompt.messages)
    assert prompt.to_dict()["sent"] == sent, "`skilldeck prompt --json` shows what is sent"
    if prompt.context == "fork":
        return {"fork": placeholders([{"type": b["type"], "text": b["text"]} for b in sent[0]["content"]], places, None)}
    blocks = placeholders([[{"type": b["type"], "text": b["text"]} for b in m["content"]] for m in sent], places, None)
    model = resolve_model(prompt.model, locations.environ) if prompt.model else None
    return {"blocks": blocks, "model": model, "effort": prompt.effort}


def compare(name: str, root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    recording = RECORDED[name]
    want = theirs(recording)
    got = ours(load_cases("invoke")[name], root)
    # The session's own model is the runner's (skilldeck's default); a skill's is ours.
    if "model" in got and got["model"] is None:
        got["model"] = want["model"]
    return want, got


def test_every_typed_case_is_recorded_with_the_pinned_version() -> None:
    cases = {n for n in load_cases("invoke") if n.startswith("typed_")}
    assert set(RECORDED) == cases, "run `make oracle` after adding or removing an invocation case"
    assert {r["claude_code_version"] for r in RECORDED.values()} == {VERSION}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_typed_invocation_sends_what_claude_code_sends(name: str, tmp_path: Path) -> None:
    want, got = compare(name, Path(os.path.realpath(tmp_path)))
    assert got == want


REFUSED = sorted(n for n, r in RECORDED.items() if not r["main"] and not r["subagents"])


@pytest.mark.parametrize("name", REFUSED)
def test_skilldeck_prompt_prints_claude_codes_refusal(name: str, tmp_path: Path) -> None:
    """`skilldeck prompt NAME ARGS` (Workspace.expand, the allowed commands run) fails with the
    text Claude Code printed for the same typed command."""
    places, locations = skilldeck_side(load_cases("invoke")[name], Path(os.path.realpath(tmp_path)))
    workspace = Workspace(locations)
    typed_name, typed = parse_typed(places.fill(RECORDED[name]["prompt"]))
    with pytest.raises((InvocationError, ExpansionError)) as failed:
        workspace.expand(workspace.load(), typed_name, typed, run_shell=True)
    assert placeholders(str(failed.value), places, None) == RECORDED[name]["result"]


RAN = sorted(n for n, r in RECORDED.items() if r["main"] or r["subagents"])


@pytest.mark.parametrize("name", RAN)
def test_a_run_sends_the_recorded_first_request(name: str, tmp_path: Path) -> None:
    """`skilldeck run` (a Workspace session through the real SDK to a local server) sends as its
    first request exactly what Claude Code sent: every user message, the listing's system message
    (where it is and its text), the model and the effort; for a typed fork, the subagent's task
    and listing."""
    want = theirs(RECORDED[name])
    case = load_cases("invoke")[name]
    places = build(case, Path(os.path.realpath(tmp_path)))
    with MessagesServer() as server:
        server.script(Reply(text="done"), Reply(text="done"))
        environ = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(places.root / "state")}
        workspace = Workspace(case_locations(case, places, environ))

        async def ask(tool: str, tool_input: dict[str, Any], decision: Any) -> str:
            return "deny"

        session = workspace.session(
            workspace.load(), backend=workspace.backend("anthropic"), ask=ask, emit=lambda event: None,
            model=next(iter(flag_values(places.fill(case.get("args", [])), "--model")), None),
        )  # fmt: skip
        name_typed, typed = parse_typed(places.fill(case["prompt"]))
        asyncio.run(session.invoke(name_typed, typed))
        first = server.requests[0]
    sent = placeholders(
        [[{"type": b["type"], "text": b["text"]} for b in m["content"]] for m in first["messages"] if m["role"] != "system"],
        places,
        session.transcript.session_id,
    )
    # The listing: one system message, at Claude Code's place in `messages`, byte for byte.
    assert sum(m["role"] == "system" for m in first["messages"]) <= 1
    listing = listing_in_messages(first["messages"])
    assert (listing and (listing[0], placeholders(listing[1], places, None))) == their_listing(RECORDED[name])
    if "fork" in want:
        assert sent[0] == want["fork"]
        return
    assert sent == want["blocks"]
    assert first["model"] == want["model"] and first["output_config"] == {"effort": want["effort"]}


def main() -> int:
    same = 0
    for name in sorted(RECORDED):
        with tempfile.TemporaryDirectory() as tmp:
            want, got = compare(name, Path(os.path.realpath(tmp)))
        same += want == got
        print(f"{name}: {'same' if want == got else 'DIFFERS'}")
        if want != got:
            print(f"  theirs: {json.dumps(want, ensure_ascii=False)}\n  ours:   {json.dumps(got, ensure_ascii=False)}")
    print(f"all: {same}/{len(RECORDED)} typed invocations identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
