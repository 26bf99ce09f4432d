"""A run sends what Claude Code sends, byte for byte (tests/oracle/recordings/invoke/run_*.json).

Each recorded case is played again on skilldeck: its workspace rebuilt, a local Messages API
server answering the main conversation with the case's tool calls, one per turn, and every
subagent (fork) with the answer the recording server gave. skilldeck's Runner goes through
the same conversation, and what it sent is compared with what Claude Code sent:

- per call, the tool result the model received (its text and whether it is an error) and the
  texts the call added after it (a skill's text, the re-invocation note);
- the model and effort (output_config.effort) of each main request and the tools it offers, of those skilldeck has (Claude Code's
  others, Agent, ToolSearch and so on, are not skilldeck's), and its listing: the place of the role "system" message that
  carries it in `messages` and its text, byte for byte (Claude Code's own entries and its other system messages left out);
- per subagent, its model, its effort, its tools (of those skilldeck has), its task and its listing;
- for a case that goes on with the session (`then`: Claude Code resumed, skilldeck's Runner resumed
  from its transcript), each main request's user and assistant messages, byte for byte (Claude
  Code's context reminders and system messages left out).

Claude Code joins the user messages that follow one another into one, putting a newline after
each text but the last. The comparison reads skilldeck's messages before they are joined for
sending, so it takes that newline back off Claude Code's texts, and nothing else.

`python -m tests.engine.runner.test_oracle_run` prints each case's calls side by side.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Locations, Transcript, Workspace
from engine.llm import backend_for, listing_in_messages
from engine.runner.loop import Runner
from engine.runner.skillcalls import UNANSWERED
from tests.llm_server import Reply
from tests.oracle.record_invoke import block as recorded_block
from tests.oracle.server import SUBAGENT_ANSWER, ScriptServer
from tests.oracle.workspace import HERE, build, load_cases, start_folder

RECORDINGS = HERE / "recordings" / "invoke"
VERSION = (HERE / "VERSION").read_text().strip()
# The tools skilldeck has: of Claude Code's, only these are compared.
OURS = {"Bash", "Edit", "Glob", "Grep", "Read", "Skill", "Write"}


def recordings() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(RECORDINGS.glob("run_*.json"))}


RECORDED = recordings()


def flag_values(args: list[str], flag: str) -> list[str]:
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == flag]


def _texts(message: dict[str, Any]) -> list[str]:
    return [b["text"] for b in message["content"] if b.get("type") == "text" and "text" in b]


def _unjoined(texts: list[str]) -> list[str]:
    """Texts as sent before Claude Code joined them: the newline it put after each but the last, off."""
    return [t.removesuffix("\n") for t in texts[:-1]] + texts[-1:]


def _result(block: dict[str, Any]) -> dict[str, Any]:
    content = block["content"]
    text = content if isinstance(content, str) else "".join(b.get("text", "") for b in content)
    return {"content": text, "is_error": bool(block.get("is_error"))}


def _conversation(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The user and assistant messages (Claude Code's system messages, the listing's among them, left out)."""
    return [m for m in messages if m["role"] != "system"]


def theirs_per_call(recording: dict[str, Any]) -> list[dict[str, Any]]:
    """What each call sent back in Claude Code's run: its result and the texts after it. The
    request after call k carries its result and, at the end, what it added."""
    out = []
    main = recording["main"]
    for k in range(len(main) - 1):
        last = _conversation(main[k + 1]["messages"])[-1]
        results = [b for b in last["content"] if b.get("type") == "tool_result"]
        before = _texts(_conversation(main[k]["messages"])[-1]) if k else []
        added = _texts(last)[len(before) :]
        out.append({"result": _result(results[k]) if k < len(results) else None, "after": _unjoined(added)})
    return out


def _known(tools: list[str]) -> list[str]:
    return sorted(t for t in tools if t in OURS)


def _task(blocks: list[dict[str, Any]]) -> str:
    return [b["text"] for b in blocks if b.get("type") == "text" and "text" in b][-1]


LISTING_MARK = [{"type": "text", "own": "listing"}]
OWN_SYSTEM = [{"type": "text", "own": "system"}]


def _listing(at: int | None, lines: list[str] | None) -> list[Any] | None:
    """[index in messages, text] of a listing's system message, as compared. A listing of Claude Code's
    own skills alone (left out of the recording: only the header and the blank line are left) is
    none: skilldeck, with nothing to list, sends no listing message."""
    return None if at is None or lines is None or len(lines) == 2 else [at, "\n".join(lines)]


def their_listing(request: dict[str, Any], lines: list[str] | None) -> list[Any] | None:
    """Where a main request carried the listing's system message, and its text. Claude Code's other
    system messages (its own texts, which skilldeck does not send) are not counted."""
    kept = [m for m in request["messages"] if m["content"] != OWN_SYSTEM]
    return _listing(next((i for i, m in enumerate(kept) if m["content"] == LISTING_MARK), None), lines)


def our_listing(body: dict[str, Any]) -> list[Any] | None:
    found = listing_in_messages(body["messages"])
    return None if found is None else [found[0], found[1]]


def their_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """A main request's user and assistant messages, Claude Code's own blocks and system messages left out."""
    kept = [
        {"role": m["role"], "content": [b for b in m["content"] if not b.get("own")]} for m in _conversation(request["messages"])
    ]
    return [m for m in kept if m["content"]]


def our_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    """skilldeck's request's user and assistant messages, each block as a recording keeps it."""
    return [{"role": m["role"], "content": [recorded_block(b) for b in m["content"]]} for m in _conversation(body["messages"])]


def theirs_summary(recording: dict[str, Any]) -> dict[str, Any]:
    return {
        "messages": [their_messages(r) for r in recording["main"]] if recording.get("then") else None,
        "models": [r["model"] for r in recording["main"]],
        "efforts": [r["effort"] for r in recording["main"]],
        "tools": [_known(r["tools"]) for r in recording["main"]],
        "listing": [their_listing(r, recording["listing"]) for r in recording["main"]],
        "subagents": sorted(
            json.dumps(
                {
                    "model": s["model"],
                    "effort": s["effort"],
                    "tools": _known(s["tools"]),
                    "task": _task(s["task"]),
                    "listing": _listing(s["listing_at"], s["listing"]),
                }
            )
            for s in recording["subagents"]
        ),
    }


def is_fork(body: dict[str, Any]) -> bool:
    """A request of skilldeck's fork: its own system prompt says it is a subagent."""
    return "You are a subagent" in str(body.get("system"))


class Replay(ScriptServer):
    """The recording server's script for skilldeck's requests: the main conversation gets the
    case's calls, one per turn; a fork gets the answer every subagent got."""

    def _reply(self, body: dict[str, Any]) -> Reply:
        if is_fork(body):
            return Reply(text=SUBAGENT_ANSWER)
        done = sum(1 for m in body["messages"] if m["role"] == "user" for b in m["content"] if b.get("type") == "tool_result")
        if done < len(self.calls):
            call = self.calls[done]
            return Reply(tool_uses=[{"id": f"toolu_oracle_{done:03d}", "name": call["tool"], "input": call["input"]}])
        return Reply(text="done")


def play(name: str, root: Path) -> tuple[list[dict[str, Any]], dict[str, Any], Runner]:
    """Run skilldeck on the case: what each call sent back, and the summary of its requests."""
    case = load_cases("invoke")[name]
    recording = RECORDED[name]
    places = build(case, root)
    with Replay([places.fill(c) for c in case["calls"]], lambda index, block: None) as server:
        environ = {
            "HOME": str(places.home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{server.port}",
            "ANTHROPIC_API_KEY": "k",
            "XDG_STATE_HOME": str(places.root / "state"),
        }
        args = places.fill(case.get("args", []))
        locations = Locations(
            start_folder(case, places), user_dir=places.home / ".claude", managed_dir=places.root / "managed", bundled=False,
            add_dirs=tuple(Path(p) for p in flag_values(args, "--add-dir")),
            plugin_dirs=tuple(Path(p) for p in flag_values(args, "--plugin-dir")), environ=environ,
        )  # fmt: skip
        workspace = Workspace(locations)

        async def ask(tool: str, tool_input: dict[str, Any], decision: Any) -> str:
            # Print mode: nobody to ask (recorded: run_skill_asked).
            return UNANSWERED

        def new_runner(transcript: Transcript) -> Runner:
            return Runner(
                locations=locations, catalog=workspace.load(), backend=backend_for("anthropic", environ),
                permissions=workspace.permissions(), transcript=transcript, ask=ask, emit=lambda event: None,
                model=recording["main"][0]["model"], max_turns=len(case["calls"]) + 2,
            )  # fmt: skip

        runner = new_runner(Transcript.create("oracle", environ))
        prompt = places.fill(case["prompt"])
        if prompt.startswith("/"):
            # Typed: the skill's command, as the app and `skilldeck run` send it.
            name, _, args = prompt[1:].partition(" ")
            asyncio.run(runner.invoke(name, args.strip()))
        else:
            asyncio.run(runner.send(prompt))
        for then in case.get("then", []):
            # Going on with the saved session, as Claude Code's `--resume` run did: a new runner
            # that reads the conversation back from its transcript.
            path = runner.transcript.path
            runner = new_runner(Transcript(path, path.stem))
            runner.resume(path)
            asyncio.run(runner.send(places.fill(then)))
        requests = list(server.requests)
    main = [r for r in requests if not is_fork(r)]
    subagents = [r for r in requests if is_fork(r)]
    ours = {
        "messages": [our_messages(r) for r in main] if case.get("then") else None,
        "models": [r["model"] for r in main],
        "efforts": [(r.get("output_config") or {}).get("effort") for r in main],
        "tools": [_known([t["name"] for t in r["tools"]]) for r in main],
        "listing": [our_listing(r) for r in main],
        "subagents": sorted(
            json.dumps(
                {
                    "model": r["model"],
                    "effort": (r.get("output_config") or {}).get("effort"),
                    "tools": _known([t["name"] for t in r["tools"]]),
                    "task": _task_of(r),
                    "listing": our_listing(r),
                }
            )
            for r in subagents
        ),
    }
    return _per_call(runner), _placeholders(ours, places.root), runner


def _task_of(body: dict[str, Any]) -> str:
    first = body["messages"][0]["content"]
    return first if isinstance(first, str) else "".join(b.get("text", "") for b in first)


def _per_call(runner: Runner) -> list[dict[str, Any]]:
    """Each tool result skilldeck sent and the texts of the messages that came after it."""
    out: list[dict[str, Any]] = []
    for message in runner.messages:
        if message.role == "assistant":
            continue
        for block in message.blocks:
            if block.type == "tool_result":
                out.append({"result": {"content": block.text, "is_error": block.is_error}, "after": []})
        if message.kind != "tool" and out:
            out[-1]["after"] += [b.text for b in message.blocks if b.type == "text"]
    return out


def _placeholders(value: Any, root: Path) -> Any:
    """Workspace paths written as the recordings write them."""
    text = json.dumps(value)
    for name in ("project", "home", "outside"):
        text = text.replace(json.dumps(str(root / name))[1:-1], "{" + name + "}")
    return json.loads(text.replace(json.dumps(str(root))[1:-1], "{root}"))


def compare(name: str, root: Path) -> tuple[list[tuple[Any, Any]], dict[str, Any], dict[str, Any]]:
    calls, ours, _ = play(name, root)
    theirs = theirs_per_call(RECORDED[name])
    mine = _placeholders(calls, root)
    return list(zip(theirs, mine + [None] * (len(theirs) - len(mine)), strict=True)), theirs_summary(RECORDED[name]), ours


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_run_sends_what_claude_code_sent(name: str, tmp_path: Path) -> None:
    pairs, theirs, ours = compare(name, Path(os.path.realpath(tmp_path)))
    for index, (cc, sd) in enumerate(pairs):
        call = load_cases("invoke")[name]["calls"][index]
        assert sd == cc, f"call {index} {call['tool']} {json.dumps(call['input'])}: Claude Code {VERSION} sent {cc}"
    assert ours["messages"] == theirs["messages"], "each main request's messages after the session went on"
    assert ours["models"] == theirs["models"], "the model of each main request"
    assert ours["efforts"] == theirs["efforts"], "the effort (output_config.effort) of each main request"
    assert ours["tools"] == theirs["tools"], "tools offered in each main request"
    assert ours["listing"] == theirs["listing"], "each main request's listing: the system message's place and text"
    assert ours["subagents"] == theirs["subagents"], "each subagent's model, tools, task and listing"


# Permission recordings (tests/oracle/recordings/permissions) whose every decision skilldeck
# makes as Claude Code does: the model's Skill calls and the permission modes.
DECISION_CASES = ("why_skill_calls", "run_skill_fields", "run_mode_accept_edits", "run_mode_plan", "run_mode_dont_ask",
                  "run_mode_bypass", "run_mode_default", "run_skill_untrusted", "run_mode_accept_edits_untrusted")  # fmt: skip
# Where skilldeck is stricter on purpose (the security work, issue 14), with why.
STRICTER = {
    ("run_mode_accept_edits", 3): "Bash that writes files (touch) is still asked in acceptEdits",
    ("run_mode_accept_edits", 4): "Bash that writes files (mkdir) is still asked in acceptEdits",
    ("run_mode_accept_edits", 10): "Bash that removes and writes files is still asked in acceptEdits",
    **{
        ("run_mode_accept_edits_untrusted", i): "a repository not trusted cannot set acceptEdits for itself (Claude Code's "
        "print mode takes it)"
        for i in (0, 2, 3, 4, 10)
    },
    ("run_mode_plan", 0): "plan mode writes no file: refused (Claude Code refuses it after a request)",
    ("run_mode_plan", 1): "plan mode writes no file: refused (Claude Code refuses it after a request)",
    ("run_mode_plan", 2): "plan mode edits no file: refused (Claude Code refuses it after a request)",
    ("run_mode_plan", 6): "a read outside the working folders is still asked in plan mode",
}
RANK = {"allow": 0, "ask": 1, "deny": 2}


def _decision_calls() -> list[tuple[str, int]]:
    out = []
    for name in DECISION_CASES:
        recording = json.loads((HERE / "recordings" / "permissions" / f"{name}.json").read_text())
        out += [(name, i) for i, c in enumerate(recording["calls"]) if c["decision"] in ("allow", "ask", "deny")]
    return out


def decide_as_skilldeck(name: str, index: int, root: Path) -> tuple[str, str, str]:
    """(Claude Code's decision, skilldeck's, skilldeck's reason) for one recorded call; a Skill
    call is decided with the skill itself, as the runner decides it."""
    from engine import Permissions, read_settings

    call = json.loads((HERE / "recordings" / "permissions" / f"{name}.json").read_text())["calls"][index]
    case = load_cases()[name]
    places = build(case, root)
    environ = {"HOME": str(places.home), "XDG_STATE_HOME": str(places.root / "state")}
    locations = Locations(
        start_folder(case, places), user_dir=places.home / ".claude", managed_dir=places.root / "managed", environ=environ
    )
    permissions = Permissions(
        read_settings(locations), locations.project, home=places.home, repo_dirs=tuple(locations.project_dirs())
    )
    tool_input = places.fill(call["input"])
    if call["tool"] == "Skill":
        skill = Workspace(locations).load().get(tool_input["skill"])
        assert skill is not None
        ours = permissions.decide_skill_call(skill)
    else:
        ours = permissions.decide(call["tool"], tool_input)
    return call["decision"], ours.decision, ours.reason


@pytest.mark.parametrize(("name", "index"), _decision_calls())
def test_decisions_are_claude_codes(name: str, index: int, tmp_path: Path) -> None:
    theirs, ours, reason = decide_as_skilldeck(name, index, Path(os.path.realpath(tmp_path)))
    if (name, index) in STRICTER:
        assert RANK[ours] > RANK[theirs], STRICTER[(name, index)]
    else:
        assert ours == theirs, f"Claude Code {VERSION}: {theirs}; skilldeck: {ours} ({reason})"


def test_recordings_are_of_the_pinned_version_and_cover_every_case() -> None:
    cases = {n for n in load_cases("invoke") if n.startswith("run_")}
    assert set(RECORDED) == cases, "run `python -m tests.oracle.record_invoke CASE` after adding a case"
    for name, recording in RECORDED.items():
        assert recording["claude_code_version"] == VERSION, name


if __name__ == "__main__":
    import tempfile

    for case_name in sys.argv[1:] or sorted(RECORDED):
        with tempfile.TemporaryDirectory() as tmp:
            pairs, theirs, ours = compare(case_name, Path(os.path.realpath(tmp)))
            for i, (cc, sd) in enumerate(pairs):
                mark = "==" if cc == sd else "!="
                print(f"{case_name}[{i}] {mark}\n  CC {cc}\n  SD {sd}")
            for key in theirs:
                print(f"{case_name} {key}: {'==' if theirs[key] == ours[key] else '!='}\n  CC {theirs[key]}\n  SD {ours[key]}")
