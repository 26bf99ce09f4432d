"""The app and the CLI say why a run stopped and let the user go on (issue 14, "Runs")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.conftest import Tree, skill_text, write
from tests.llm_server import MessagesServer, Reply
from tests.tui.test_cli import _args
from tui.cli.main import main
from tui.screens.approve import ApproveScreen

from .conftest import loaded, run_done, served_app, until
from .test_app import text_of

STRAY = {"name": "Teleport", "input": {"to": "mars"}}  # no such tool: an error result, no approval, one more turn


async def _say(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.query_one("#composer").focus()
    await pilot.press(*text, "enter")


async def test_the_turn_bound_is_shown_and_ctrl_r_goes_on_without_repeating_the_message(
    tmp_path: Path, server: MessagesServer
) -> None:
    server.script(Reply(tool_uses=[{"id": "a", **STRAY}]), Reply(tool_uses=[{"id": "b", **STRAY}]), Reply(text="Arrived."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        (await app.session.open_runner()).max_turns = 2
        await _say(pilot, "go")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the stop")
        shown = text_of(app.query(".error").first(Static))
        assert "Stopped after 2 turns" in shown and "continue" in shown
        await pilot.press("ctrl+r")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 3, what="the third request")
        sent = server.requests[2]["messages"]
        said = [m["content"][0]["text"] for m in sent if m["role"] == "user" and m["content"][0]["type"] == "text"]
        assert said == ["go"], "not sent twice"
        assert sent[-1]["content"][0]["tool_use_id"] == "b"


async def test_an_always_rule_that_cannot_be_saved_runs_once_and_says_why(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(tool_uses=[{"id": "e", "name": "Bash", "input": {"command": "env printf approved"}}]), Reply(text="Ok."))
    app = served_app(tmp_path, server)
    local = write(tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json", "{ broken")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _say(pilot, "go")
        await until(pilot, lambda: isinstance(app.screen, ApproveScreen), what="the approval modal")
        await pilot.press("a")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 2, what="the second request")
        assert server.requests[1]["messages"][-1]["content"][0]["content"] == "approved"
        notes = [n.message for n in app.notices]
        assert any("Bash(env printf approved) was not saved" in n and str(local) in n for n in notes), notes
        assert app.is_running, "the app lives on"
    assert local.read_text() == "{ broken"


def _run_cli(tree: Tree, server: MessagesServer, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("XDG_STATE_HOME", str(tree.root / "state"))
    tree.skill("go", skill_text(name="go", description="Goes."))
    return main(_args(tree, "run", "go", "--backend", "anthropic", "--base-url", server.url, *extra))


def test_the_cli_reports_a_cut_call_and_how_to_go_on(
    tree: Tree, server: MessagesServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.script(Reply(tool_uses=[{"id": "c", "name": "Bash", "raw": '{"command": "rm -rf '}], stop_reason="max_tokens"))
    assert _run_cli(tree, server, monkeypatch) == 1
    err = capsys.readouterr().err
    assert "was not run" in err and "to go on: skilldeck --resume" in err


def test_the_cli_json_carries_notices(
    tree: Tree, server: MessagesServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.script(Reply(text="A long answer that", stop_reason="max_tokens"))
    assert _run_cli(tree, server, monkeypatch, "--json") == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {"type": "notice", "kind": "cut", "message": "The answer was cut off at the output limit (8192 tokens)."} in lines


async def test_a_transcript_that_cannot_be_read_is_not_resumed_and_not_written_to(
    tmp_path: Path, server: MessagesServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine import Message, Transcript

    saved = Transcript.create("big", {"XDG_STATE_HOME": str(tmp_path / "state")})
    saved.append(Message.user("an earlier question that is longer than the cap below"))
    before = saved.path.read_bytes()
    monkeypatch.setattr("engine.runner.conversation.TRANSCRIPT_CAP", 10)  # stands for a transcript of many gigabytes
    server.script(Reply(text="Fresh start."))
    app = served_app(tmp_path, server)
    app.resume_path = saved.path
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: any("Cannot resume" in n.message for n in app.notices), what="the refusal")
        assert (
            app.session.runner is not None
            and app.session.runner.messages == []
            and app.session.runner.transcript.path != saved.path
        )
        await _say(pilot, "hello")
        await until(pilot, lambda: run_done(app) and len(server.requests) == 1, what="the request")
    assert saved.path.read_bytes() == before


UNFINISHED = [
    ("refusal", "refusal", "declined"),
    ("pause_turn", "pause-turn", "paused"),
    ("model_context_window_exceeded", "context-full", "context window"),
]


@pytest.mark.parametrize(("stop", "kind", "said"), UNFINISHED)
def test_the_cli_says_why_an_unfinished_answer_stopped(
    tree: Tree,
    server: MessagesServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stop: str,
    kind: str,
    said: str,
) -> None:
    """A refusal, a paused turn and a full context window are answers that are not complete:
    `run` says so and exits 1, in text and in --json."""
    server.script(Reply(text="Part of an answer", stop_reason=stop), Reply(text="Part of an answer", stop_reason=stop))
    assert _run_cli(tree, server, monkeypatch) == 1
    err = capsys.readouterr().err
    assert said in err and stop in err
    assert ("to go on: skilldeck --resume" in err) is (kind == "pause-turn")
    assert _run_cli(tree, server, monkeypatch, "--json") == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["kind"] for line in lines if line["type"] == "error"] == [kind]


@pytest.mark.parametrize(("stop", "kind", "said"), UNFINISHED[:1])
async def test_the_app_says_why_an_unfinished_answer_stopped(
    tmp_path: Path, server: MessagesServer, stop: str, kind: str, said: str
) -> None:
    server.script(Reply(text="I will not", stop_reason=stop))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _say(pilot, "go")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the stop")
        assert said in text_of(app.query(".error").first(Static))


@pytest.mark.parametrize("json_out", [False, True])
def test_a_state_folder_that_cannot_be_used_is_said_once_and_the_run_goes_on(
    tree: Tree, server: MessagesServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], json_out: bool
) -> None:
    """XDG_STATE_HOME names a file (it was a traceback): the answer is what the user asked for, so
    the run goes on unsaved, says so once, and offers no transcript to resume."""
    tree.skill("look", skill_text(body="Look.\n", name="look", description="Looks.", context="fork"))
    state = write(tree.root / "state-file", "not a folder")
    server.script(
        Reply(tool_uses=[{"id": "s", "name": "Skill", "input": {"skill": "look"}}]), Reply(text="Seen."), Reply(text="Done.")
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    tree.skill("go", skill_text(name="go", description="Goes."))
    code = main(_args(tree, "run", "go", "--backend", "anthropic", "--base-url", server.url, *(["--json"] if json_out else [])))
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err
    said = "not being saved" in (out if json_out else err)
    assert said and (out + err).count("not being saved") == 1, (out, err)
    assert str(state) in (out if json_out else err)
    assert "Done." in out and "--resume" not in err and "transcript:" not in err
    assert state.read_text() == "not a folder"
