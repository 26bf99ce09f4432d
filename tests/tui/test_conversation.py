"""The conversation pane under the pilot, against the local Messages API server."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

from textual.widgets import Collapsible, Input, Static, TabbedContent

from tests.llm_server import MessagesServer, Reply
from tui.app import SkilldeckApp
from tui.conversation.pane import ConversationPane
from tui.screens.approve import ApproveScreen

from .conftest import back_to_tree, loaded, run_done, served_app, until
from .test_app import _walk_to, text_of


async def _launch(pilot, skill: str, key: str = "enter") -> None:  # type: ignore[no-untyped-def]
    """Once the catalog is loaded, put the cursor on `skill` and press `key` (enter runs it, a
    asks for its arguments first)."""
    await loaded(pilot)
    await _walk_to(pilot, skill)
    await pilot.press(key)


def _answers(app: SkilldeckApp) -> list[str]:
    """The answers drawn in full (their text arrives a tick before it is drawn)."""
    return [a.source for a in app.query_one(ConversationPane).answers if a.settled]


async def test_offline_shows_the_request_and_how_to_go_online(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "release-notes")
        assert app.query_one(TabbedContent).active == "conversation"
        await until(pilot, lambda: run_done(app) and app.query(".offline-summary"), what="the offline answer")
        assert "ANTHROPIC_API_KEY" in text_of(app.query_one("#conversation-note", Static))
        # The whole request, behind ctrl+t: the JSON below its label line.
        body = json.loads(app.query_one(".offline-request", Static).content.plain.split("\n", 1)[1])  # type: ignore[union-attr]
        assert body["messages"][0]["content"][0]["text"].startswith("<command-message>release-notes</command-message>")


async def test_streamed_text_appears_in_order(tmp_path: Path, server: MessagesServer) -> None:
    text = "Here are the **release notes**, streamed in small pieces, in order: one, two, three."
    server.script(Reply(text=text, chunk=3))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "release-notes")
        await until(pilot, lambda: run_done(app) and _answers(app) == [text], what="the streamed answer")
        status = text_of(app.query_one("#conversation-status", Static))
        assert "anthropic" in status and "pre-approved: Bash(git log *)" in status
        assert server.requests[0]["model"] == "claude-sonnet-5-5", "the demo settings' model"


async def test_approval_once_always_and_deny(tmp_path: Path, server: MessagesServer) -> None:
    calls = [{"id": f"t{i}", "name": "Bash", "input": {"command": f"env printf call-{i}"}} for i in range(3)]
    server.script(Reply(tool_uses=calls), Reply(text="Done."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "daily-notes", "a")
        await pilot.press(*"buy milk", "enter")
        for key in ("o", "a", "d"):
            await until(pilot, lambda: isinstance(app.screen, ApproveScreen), what="the approval modal")
            assert isinstance(app.screen, ApproveScreen) and app.screen.tool_input["command"].startswith("env printf call-")
            await pilot.press(key)
        await until(pilot, lambda: run_done(app) and len(server.requests) == 2, what="the second request")
        sub = server.requests[1]
        results = {b["tool_use_id"]: b for b in sub["messages"][-1]["content"]}
        assert results["t0"]["content"] == "call-0" and results["t1"]["content"] == "call-1"
        assert results["t2"]["is_error"]
        local = json.loads((tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json").read_text())
        assert local["permissions"]["allow"] == ["Bash(env printf call-1)"]
        assert sub["messages"][0]["content"][0]["text"].endswith("<command-args>buy milk</command-args>\n")
        # The command block and the skill's prompt: two text blocks of one user message, as Claude Code sends them.
        assert 'Append "$(date +%F): buy milk" to ~/notes.md.' in sub["messages"][0]["content"][1]["text"]


async def test_escape_cancels_and_an_api_error_can_be_retried(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(hang=True), Reply(status=529), Reply(text="Recovered."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "release-notes")
        await until(pilot, lambda: len(server.requests) == 1, what="the request")
        await pilot.press("escape")
        await until(pilot, lambda: run_done(app), what="the cancel")
        runner = app.session.runner
        assert runner is not None and runner.messages[-1].role == "user"
        await back_to_tree(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the error")
        assert "overloaded" in text_of(app.query(".error").first(Static)).lower()
        app.query_one("#composer").focus()
        await pilot.press("ctrl+r")
        await until(pilot, lambda: run_done(app) and "Recovered." in _answers(app), what="the retry")


async def test_fork_shows_only_its_answer_and_meta_toggles_the_sent_prompt(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(text="It is in auth.py."), Reply(text="Inline answer."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "research")
        await until(pilot, lambda: run_done(app) and app.query(".fork-result"), what="the fork result")
        roles = [m["role"] for m in server.requests[0]["messages"]]
        assert roles == ["user", "system"], "a fork starts with no history: its task, then the listing's system message"
        assert text_of(app.query(".fork-result").first(Static)).strip() == 'Skill "research" completed (forked execution).'
        assert "It is in auth.py." in text_of(app.query_one(".fork-body", Static))
        assert text_of(app.query(".user").first(Static)).split() == ["you", "/research"], (
            "the user's command, as inline runs show it"
        )
        await back_to_tree(pilot)
        await pilot.press("g")
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and "Inline answer." in _answers(app), what="the inline answer")
        metas = [m for m in app.query(".meta").results(Static) if not m.has_class("context")]
        assert metas and all(m.styles.display == "none" for m in metas)
        app.query_one("#composer").focus()
        await pilot.press("ctrl+t")
        await until(pilot, lambda: app.query_one(ConversationPane).has_class("show-meta"), what="meta shown")
        assert all(m.styles.display == "block" for m in metas)

        def lines(text: str) -> list[str]:
            return [line.rstrip() for line in text.rstrip().splitlines()]

        # Below each label, exactly the text the model received: the typed fork as Claude Code sends it (its caveat,
        # the typed text, its answer as the command's output), the command tags, the skill prompt (Claude Code joins
        # neighbouring user messages into one: compare block by block). The listing's system message is not a
        # message of the conversation: the request context above shows it.
        shown = [lines(text_of(m))[1:] for m in metas]
        sent = [lines(b["text"]) for m in server.requests[1]["messages"] if m["role"] != "system" for b in m["content"]]
        assert shown == sent and sent[-1][0].startswith("Base directory for this skill:")
        assert sent[0][0].startswith("<local-command-caveat>") and sent[2][0].startswith("<local-command-stdout>")


async def test_resume_reopens_a_saved_conversation(tmp_path: Path, server: MessagesServer) -> None:
    from engine import Message, Transcript
    from engine.runner.conversation import Block

    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    saved = Transcript.create("earlier", env)
    saved.append(Message.user("What is in the repo?"))
    saved.append(Message("assistant", [Block("text", "A demo app.")]))
    server.script(Reply(text="Still a demo app."))
    app = served_app(tmp_path, server)
    app.resume_path = saved.path
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(
            pilot, lambda: app.session.runner is not None and len(app.session.runner.messages) == 2, what="the resumed session"
        )
        assert app.query_one(TabbedContent).active == "conversation"
        await until(pilot, lambda: _answers(app) == ["A demo app."], what="the resumed answer drawn")
        app.query_one("#composer").focus()
        await pilot.press(*"and now?", "enter")
        await until(pilot, lambda: run_done(app) and "Still a demo app." in _answers(app), what="the continued answer")
        sent = server.requests[0]["messages"]
        # The listing's system message goes after the conversation's first user message, resumed or not.
        assert [m["role"] for m in sent] == ["user", "system", "assistant", "user"]
        assert [m["content"][0]["text"] for m in sent if m["role"] != "system"] == [
            "What is in the repo?",
            "A demo app.",
            "and now?",
        ]
        assert len(Transcript.load(saved.path)) == 4, "the same session file goes on"


async def test_the_models_skill_call_shows_as_a_skill_and_meta_shows_the_listing(tmp_path: Path, server: MessagesServer) -> None:
    call = {"id": "s1", "name": "Skill", "input": {"skill": "release-notes", "args": "v2.0"}}
    server.script(Reply(tool_uses=[call]), Reply(text="Notes for v2.0."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        app.query_one("#composer").focus()
        await pilot.press(*"write the notes", "enter")
        await until(pilot, lambda: run_done(app) and "Notes for v2.0." in _answers(app), what="the answer after the skill")
        block = app.query(".skill-call").first(Collapsible)
        assert block.title == "model invoked /release-notes v2.0 · allowed by rule Skill(release-notes) (project) · launched"
        # The skill's prompt went in after the tool result, in the same user message, as in Claude Code.
        sent = server.requests[1]["messages"]
        assert sent[-1]["content"][0]["content"] == "Launching skill: release-notes"
        assert sent[-1]["content"][1]["text"].startswith("Base directory for this skill:")
        pane = app.query_one(ConversationPane)
        assert not app.query(".context")
        await pilot.press("ctrl+t")
        await until(pilot, lambda: bool(app.query(".context")), what="the request context")
        context = text_of(app.query_one(".context", Static))
        skill_tool = server.requests[1]["tools"][-1]
        assert skill_tool["name"] == "Skill" and skill_tool["description"] in context
        listing = server.requests[1]["messages"][1]
        assert listing["role"] == "system" and listing["content"][0]["text"] in context, "the listing's system message"
        assert "- release-notes:" in context and server.requests[1]["system"] in context
        assert pane.last_request is not None and pane.last_request.model == server.requests[1]["model"]


async def test_composer_completes_names_shows_hints_and_says_why_a_skill_cannot_be_typed(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        composer = app.query_one("#composer", Input)
        composer.focus()
        await pilot.press(*"/daily")
        await until(pilot, lambda: composer._suggestion == "/daily-notes ", what="the completion")
        await pilot.press("right")
        assert composer.value == "/daily-notes "
        hint = app.query_one("#composer-hint", Static)
        await until(pilot, lambda: hint.display, what="the argument hint")
        assert text_of(hint).startswith("/daily-notes [text to note]  Append a dated entry")
        composer.value = "/api-conventions"
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and app.query(".error"), what="the refusal")
        # Claude Code's own refusal (recorded: typed_not_user_invocable).
        assert "can only be invoked by Claude, not directly by users" in text_of(app.query(".error").first(Static))
        assert app.session.runner is not None and app.session.runner.messages == [], "nothing was sent"


async def test_quitting_while_an_approval_is_open_closes_the_run_cleanly(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(tool_uses=[{"id": "t1", "name": "Bash", "input": {"command": "env printf never"}}]))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "daily-notes")
        await until(pilot, lambda: isinstance(app.screen, ApproveScreen), what="the approval modal")
        runner = app.session.runner
    # Leaving the context quit the app with the run waiting on the modal; no worker may have failed.
    assert app.return_code in (0, None)
    assert runner is not None and runner.messages[-1].blocks[0].text == "Cancelled by the user"


async def test_a_new_conversation_starts_empty_and_frees_the_old_one(tmp_path: Path, server: MessagesServer) -> None:
    text = "## Notes\n\n" + "".join(f"Paragraph {n} of the **first** conversation.\n\n" for n in range(40))
    server.script(Reply(text=text, chunk=40))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "release-notes")
        await until(pilot, lambda: run_done(app) and _answers(app) == [text], what="the first answer")
        pane = app.query_one(ConversationPane)
        old_runner, shown = app.session.runner, [weakref.ref(w) for w in pane.transcript.children]
        assert len(shown) > 2
        await pilot.press("ctrl+n")
        assert app.session.runner is not old_runner and app.session.runner is not None and not app.session.runner.messages
        await until(pilot, lambda: not pane.transcript.children, what="the log to empty")

        def freed() -> bool:
            gc.collect()
            return all(ref() is None for ref in shown)

        # Textual keeps a widget's list of displayed children until next asked; an empty log
        # was never asked again, and kept the whole old conversation alive.
        await until(pilot, freed, what="the old conversation's widgets to be freed")


async def test_a_resumed_fork_shows_as_it_did_live(tmp_path: Path, server: MessagesServer) -> None:
    server.script(Reply(text="It is in **auth.py**."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(140, 40)) as pilot:
        await _launch(pilot, "research", "a")
        await pilot.press(*"the login flow", "enter")
        await until(pilot, lambda: run_done(app) and app.query(".fork-result"), what="the fork result")

        def shown() -> list[tuple[str, str]]:
            """Each visible entry of the log: its kind and its text (a fork's: its body's)."""
            out = []
            for child in app.query_one(ConversationPane).transcript.children:
                kind = next((k for k in ("user", "fork-result", "fork") if child.has_class(k)), None)
                if kind is not None:
                    body = child.query(".fork-body").results(Static) if kind == "fork" else [child]
                    out.append((kind, "".join(text_of(b) for b in body)))
            return out

        def titles() -> list[str]:
            return [str(block.title) for block in app.query(".fork").results(Collapsible)]

        live, live_titles = shown(), titles()
        assert [kind for kind, _ in live] == ["user", "fork", "fork-result"], live
        assert live[0][1].split() == ["you", "/research", "the", "login", "flow"] and "auth.py" in live[1][1]
        before = app.session.runner
        app.resume_session()
        await until(
            pilot,
            lambda: app.session.runner not in (None, before) and len(app.session.runner.messages) == 1,  # type: ignore[union-attr]
            what="the resumed session",
        )
        await until(pilot, lambda: shown() == live, what="the resumed conversation drawn as it was")
        assert titles() == live_titles == ["fork /research · done"]
