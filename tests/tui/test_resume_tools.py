"""`--resume` shows every tool block as it was: the call, who decided and what, its result
(issue 34, major 3: a resumed conversation showed only the user's lines and the model's text)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Collapsible, Static

from engine.demo import make_demo
from tests.llm_server import MessagesServer, Reply
from tui.app import SkilldeckApp
from tui.screens.approve import ApproveScreen
from tui.view import PathDisplay

from .conftest import loaded, run_done, served_app, until
from .test_app import _walk_to, text_of


def _blocks(app: SkilldeckApp) -> list[tuple[str, str]]:
    """Each tool block: its title and its result, as drawn."""
    return [
        (str(block.title), text_of(block.query_one(".tool-result", Static)).strip())
        for block in app.query(".tool").results(Collapsible)
    ]


async def test_a_resumed_conversation_shows_each_tool_block_with_its_verdict_and_result(
    tmp_path: Path, server: MessagesServer
) -> None:
    written = tmp_path / "demo" / "acme-app" / "notes.txt"
    calls = [
        {"id": "t0", "name": "Bash", "input": {"command": "env printf approved"}},
        {"id": "t1", "name": "Write", "input": {"file_path": str(written), "content": "kept\n"}},
        {"id": "t2", "name": "Bash", "input": {"command": "env printf refused"}},
        {"id": "t3", "name": "Skill", "input": {"skill": "release-notes"}},
    ]
    server.script(Reply(tool_uses=calls), Reply(text="All four are done."))
    app = served_app(tmp_path, server)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "daily-notes")
        await pilot.press("enter")
        for key in ("o", "a", "d"):
            asked = len(app.query(".tool"))
            await until(pilot, lambda: isinstance(app.screen, ApproveScreen), what=f"the approval answered with {key}")
            await pilot.press(key)
            await until(pilot, lambda n=asked: len(app.query(".tool")) > n or run_done(app), what="the next call")
        await until(pilot, lambda: run_done(app) and "All four are done." in app.conversation.answers[-1].source, what="the end")
        await until(pilot, lambda: app.conversation.settled, what="the answer drawn")
        live = _blocks(app)
        assert app.session.runner is not None
        saved = app.session.runner.transcript.path
    assert [title for title, _ in live] == [
        "Bash · allowed once · done",
        "Write · allowed always · done",
        "Bash · denied by you",
        "model invoked /release-notes · allowed by rule Skill(release-notes) (project) · launched",
    ]
    assert live[0][1] == "approved" and written.read_text() == "kept\n"

    folder = tmp_path / "again"
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    resumed = SkilldeckApp(make_demo(folder, env), PathDisplay.default([(folder, "<demo>")]), blink=False, resume=saved)
    async with resumed.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: resumed.session.runner is not None and run_done(resumed), what="the resumed conversation")
        await until(pilot, lambda: len(_blocks(resumed)) == 4, what="the tool blocks")
        assert _blocks(resumed) == live
