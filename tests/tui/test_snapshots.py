"""Each pane at 80x24 and 160x48, drawn from the demo workspace (paths shown as <demo>)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.llm_server import MessagesServer, Reply
from tui.screens.approve import ApproveScreen
from tui.widgets.listing import ListingPane

from .conftest import demo_app, loaded, run_done, served_app, until
from .recorded_compare import recorded_comparison
from .test_app import _walk_to
from .test_evals_app import demo_router, evals_app, open_evals, run_to_the_end

PANES = {
    "details": ["j", "j", "j", "j", "j"],
    "broken": ["j", "j", "j", "j", "j", "j"],
    "diagnostics": ["3"],
    "listing": ["4"],
    "rules": ["j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "5"],
    "search": ["slash", "r", "e", "v"],
    "help": ["question_mark"],
}


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("pane", list(PANES))
def test_pane(snap_compare, tmp_path: Path, pane: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = demo_app(tmp_path / "demo")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await loaded(pilot)
        await pilot.press(*PANES[pane])
        # The body is read after the cursor rests; wait for it rather than for time.
        await until(pilot, lambda: app.settled and app.permissions is not None, what="the details to settle")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


# The conversation pane against the local Messages API server: what each state looks like.
ANSWER = "Release notes for **v2.0**:\n\n- Faster search\n- A conversation pane\n\nNothing breaking."
CONVERSATIONS = {
    # A run with an allowed tool call (collapsed) and a streamed Markdown answer.
    "run": ("release-notes", "enter", [Reply(tool_uses=[{"id": "t1", "name": "Bash", "input": {"command": "date +%F"}}]),
                                       Reply(text=ANSWER, chunk=5)]),
    # A call no rule allows: the approval modal over the pane.
    "approval": ("daily-notes", "enter", [Reply(tool_uses=[{"id": "t1", "name": "Bash", "input": {"command": "rm -rf build"}}])]),
    # A forked skill: one block with the subagent's answer, then the result message.
    "fork": ("research", "enter", [Reply(tool_uses=[{"id": "g1", "name": "Bash", "input": {"command": "grep -rn require_login src"}}]),
                                   Reply(text="Sessions are checked in `auth/session.py`, in `require_login()`.")]),
    # An API error inline, with the retry key.
    "error": ("release-notes", "enter", [Reply(status=529)]),
}  # fmt: skip
SIZES = {"run": [(80, 24), (160, 48)], "approval": [(160, 48)], "fork": [(160, 48)], "error": [(160, 48)]}


@pytest.mark.parametrize(
    ("state", "size"),
    [pytest.param(state, size, id=f"{state}-{size[0]}x{size[1]}") for state, sizes in SIZES.items() for size in sizes],
)
def test_conversation(snap_compare, tmp_path: Path, server: MessagesServer, state: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    skill, key, replies = CONVERSATIONS[state]
    server.script(*replies)
    app = served_app(tmp_path, server)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await loaded(pilot)
        await _walk_to(pilot, skill)
        await pilot.press(key)
        if state == "approval":
            await until(pilot, lambda: isinstance(app.screen, ApproveScreen), what="the approval modal")
        else:
            await until(pilot, lambda: run_done(app) and len(server.requests) == len(replies), what="the run to finish")
        await until(pilot, lambda: app.settled, what="the details to settle")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_listing_compared(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The listing pane with a finished comparison: a run recorded from the pinned Claude Code on
    the demo (recorded_compare.py), so that no time or path of this run is drawn."""
    app = demo_app(tmp_path / "demo")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await loaded(pilot)
        await pilot.press("4")
        app.query_one(ListingPane).show_comparison(recorded_comparison())
        await until(pilot, lambda: app.settled and app.permissions is not None, what="the details to settle")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(160, 48), run_before=run_before)


def test_evals_matrix(snap_compare, server: MessagesServer) -> None:  # type: ignore[no-untyped-def]
    """The evals tab after a run the local server answers by script (tests/tui/test_evals_app.py):
    the matrix, the bars, a stolen request, a route that changes with a description dropped. Each
    request holds the working directory, so the token estimate counts its length: the demo is built
    at a path of one length on every machine (/tmp/sd-evals- and 8 random characters)."""
    server.choose = demo_router()
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="sd-evals-") as folder:
        app = evals_app(Path(folder), server)

        async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
            pane = await open_evals(pilot)
            await run_to_the_end(pilot, pane)
            await until(pilot, lambda: app.settled and app.permissions is not None, what="the details to settle")
            await pilot.pause()

        assert snap_compare(app, terminal_size=(160, 48), run_before=run_before)
