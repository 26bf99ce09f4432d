"""The evals tab (the routing lab in the app) and the listing pane's what-if keys: the real app on
the demo workspace, its runs against the local Messages API server scripting the model's choices."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from engine.demo import make_demo
from tests.engine.evals.test_evals_helpers import dropped, request_text, skill_reply
from tests.llm_server import MessagesServer, Reply
from tui.app import SkilldeckApp
from tui.evals.ask import AskScreen
from tui.evals.detail import EvalDetailScreen
from tui.evals.pane import EvalRequests, EvalsPane
from tui.screens.help import HelpScreen
from tui.view import PathDisplay
from tui.widgets.listing import ListingPane

from .conftest import loaded, until, workers_done
from .test_app import text_of

# The scripted model: each demo request's route (a skill, or None for a plain answer).
ROUTES: dict[str, str | None] = {
    "Review this diff, it changes how we store the API secrets": "security-review",
    "Note this: the staging database moves on Friday": "daily-notes",
    # Stolen: the security review takes the API request.
    "Add a GET /invoices endpoint that follows our API rules": "security-review",
    "Draft the release notes for everything since v2.3": "release-notes",
    "Where in the codebase do we retry failed payments? Give me file references.": "research",
    "The linter complains about unused imports, fix them": "shared-lint",
    "Commit what I staged": "git:commit",
    "What is 17 times 23?": None,
    "Write a short poem about spring": None,
}
RELEASE = "Draft the release notes for everything since v2.3"
# Requests in the demo's plan: 9 with the listing as it is, 8 with their skill's description dropped.
TOTAL = 17


def demo_router(overrides: dict[str, Reply] | None = None) -> Any:
    def choose(body: dict[str, Any]) -> Reply:
        text = request_text(body)
        if overrides and text in overrides:
            return overrides[text]
        if text == RELEASE and dropped(body, "release-notes"):
            return skill_reply(None, "I can draft them; which tag?")
        return skill_reply(ROUTES[text], "On it.")

    return choose


def evals_app(tmp_path: Path, server: MessagesServer | None, **kw: Any) -> SkilldeckApp:
    folder = tmp_path / "demo"
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    if server is not None:
        env |= {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"}
    return SkilldeckApp(make_demo(folder, env), PathDisplay.default([(folder, "<demo>")]), blink=False, **kw)


def _pane(app: SkilldeckApp) -> EvalsPane:
    return app.query_one(EvalsPane)


def matrix(text: str) -> dict[str, dict[str, int]]:
    """The matrix as the tab shows it: expected -> called -> count (columns are numbered as the rows)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Expected (rows)"))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 1 :]:
        cells = line.split()
        if cells and cells[0] == "expected":
            continue
        if len(cells) < 3 or not cells[0].isdigit():
            if rows:
                break
            continue
        rows[cells[1]] = cells[2:]
    names = list(rows)
    return {row: {names[i]: int(c) for i, c in enumerate(cells) if c != "·"} for row, cells in rows.items()}


def skill_line(text: str, skill: str) -> list[str]:
    start = text.index("Per skill")
    return next(line.split() for line in text[start:].splitlines() if line.split()[:1] == [skill])


async def open_evals(pilot) -> EvalsPane:  # type: ignore[no-untyped-def]
    await loaded(pilot)
    await pilot.press("7")
    pane = _pane(pilot.app)
    await until(pilot, lambda: pane.ready, what="the eval requests to be planned")
    await pilot.pause()
    return pane


async def run_to_the_end(pilot, pane: EvalsPane) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("R")
    await until(pilot, lambda: pane.report is not None and not pane.running, what="the run to end")
    await pilot.pause()


async def test_a_run_shows_the_matrix_bars_steals_and_changes_and_an_edit_re_asks_only_what_it_changed(
    tmp_path: Path, server: MessagesServer
) -> None:
    server.choose = demo_router()
    app = evals_app(tmp_path, server)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await open_evals(pilot)
        said = "17 requests to claude-sonnet-5-5: 9 with the listing as it is, 8 with their skill's description dropped"
        assert said in pane.status_text and "Estimate: 17 to send, ~" in pane.status_text
        assert app.query_one(EvalRequests).option_count == TOTAL and app.focused is app.query_one(EvalRequests)
        await run_to_the_end(pilot, pane)
        shown = pane.report_text
        assert len(server.requests) == TOTAL and server.max_in_flight <= 4
        grid = matrix(shown)
        assert grid["api-conventions"] == {"security-review": 1}
        assert grid["security-review"] == {"security-review": 1} and grid["none"] == {"none": 1}
        assert skill_line(shown, "api-conventions")[1:2] == ["0%"] and "security-review" in skill_line(shown, "api-conventions")
        # security-review: its own request and a stolen one, so half right.
        assert skill_line(shown, "security-review")[1] == "100%" and "50%" in skill_line(shown, "security-review")
        assert f"≠ {RELEASE}  release-notes → none" in shown
        assert "Usage: 17 requests sent, 187 input and 119 output tokens" in shown and "estimated ~" in shown
        assert "Some requests did not go where expected." in shown

        # enter on a request: what was sent and what the model answered.
        await pilot.press("enter")
        assert isinstance(app.screen, EvalDetailScreen)
        detail = text_of(app.screen.query_one("#evaldetail-text", Static))
        assert "The model called the Skill tool for security-review" in detail and '"max_tokens": 256' in detail
        assert "On it." in detail and "Review this diff" in detail
        await pilot.press("escape")
        assert not isinstance(app.screen, EvalDetailScreen)

        # Again: every answer from the cache, nothing sent.
        await run_to_the_end(pilot, pane)
        assert len(server.requests) == TOTAL and "17 answers came from the cache" in pane.report_text

        # Edit a description on disk: the catalog reloads, the tab plans again, and a run asks
        # everything the edit changed: all but the request with research's own line dropped.
        old = pane.plan
        skill = tmp_path / "demo" / "acme-app" / ".claude" / "skills" / "research" / "SKILL.md"
        skill.write_text(skill.read_text().replace("Research a question", "Investigate a question"))
        await until(pilot, lambda: pane.plan is not old and pane.ready, what="the new plan")
        assert "stale" in pane.report_text and "Estimate: 16 to send" in pane.status_text
        assert "; 1 answered from the cache" in pane.status_text
        await run_to_the_end(pilot, pane)
        assert len(server.requests) == TOTAL + TOTAL - 1 and "1 answers came from the cache" in pane.report_text
        assert "stale" not in pane.report_text


async def test_a_failure_mid_run_keeps_the_other_answers_and_says_what_failed(tmp_path: Path, server: MessagesServer) -> None:
    server.choose = demo_router({"Commit what I staged": Reply(status=400)})
    app = evals_app(tmp_path, server)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await open_evals(pilot)
        await run_to_the_end(pilot, pane)
        shown = pane.report_text
        # Both variants of the request failed; the rest were answered and counted.
        assert "Partial: 2 requests failed (listed at the end)" in shown and "! Commit what I staged (listed):" in shown
        assert matrix(shown)["daily-notes"] == {"daily-notes": 1} and "git:commit" not in matrix(shown)
        rows = [text_of_option(app, i) for i in range(TOTAL)]
        assert sum(row.startswith("!") for row in rows) == 2 and sum(row.startswith("✓") for row in rows) == 12


def text_of_option(app: SkilldeckApp, index: int) -> str:
    prompt = app.query_one(EvalRequests).get_option_at_index(index).prompt
    return str(getattr(prompt, "plain", prompt))


@pytest.mark.parametrize("key", ["x", "escape"])
async def test_x_or_escape_cancels_a_run_and_the_partial_report_says_what_is_missing(
    tmp_path: Path, server: MessagesServer, key: str
) -> None:
    server.choose = demo_router({"Commit what I staged": Reply(hang=True)})
    app = evals_app(tmp_path, server)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await open_evals(pilot)
        await pilot.press("R")
        await until(pilot, lambda: len(server.requests) == TOTAL and server.in_flight == 2, what="only the hung two")
        await until(pilot, lambda: "15/17 answered" in pane.status_text, what="the progress line")
        assert pane.running
        await pilot.press(key)
        await until(pilot, lambda: pane.report is not None and not pane.running, what="the cancel")
        await pilot.pause()
        assert "Partial: 2 requests not answered (cancelled)" in pane.report_text
        assert "Usage: 15 requests sent" in pane.report_text


async def test_quitting_during_a_run_cancels_it_and_keeps_the_answers(tmp_path: Path, server: MessagesServer) -> None:
    server.choose = demo_router({"Commit what I staged": Reply(hang=True)})
    app = evals_app(tmp_path, server)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await open_evals(pilot)
        await pilot.press("R")
        await until(pilot, lambda: "15/17 answered" in pane.status_text, what="all but the hung two")
        await pilot.press("q")
    assert app.return_code in (0, None)
    # The fifteen answers are on disk for the next run.
    kept = (tmp_path / "state" / "skilldeck" / "evals" / "routing.jsonl").read_text().splitlines()
    assert len(kept) == 15


async def test_offline_shows_the_requests_and_the_estimate_and_sends_nothing(tmp_path: Path, server: MessagesServer) -> None:
    # A key and a server are there: the offline backend, chosen, still sends nothing.
    app = evals_app(tmp_path, server, backend="offline")
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await open_evals(pilot)
        status = pane.status_text
        assert "Offline backend: nothing is sent" in status and "Estimate: 17 to send" in status
        assert app.query_one(EvalRequests).option_count == TOTAL
        await pilot.press("R")
        await pilot.pause()
        assert pane.report is None and not pane.running
        await pilot.press("enter")
        assert isinstance(app.screen, EvalDetailScreen)
        detail = text_of(app.screen.query_one("#evaldetail-text", Static))
        assert "Not asked yet" in detail and '"max_tokens": 256' in detail and "security-review:" in detail
        await pilot.press("escape")
    assert server.requests == []


async def test_no_eval_file_says_how_to_write_one_and_a_new_catalog_is_planned_when_the_tab_shows(tmp_path: Path) -> None:
    app = evals_app(tmp_path, None)
    evals = tmp_path / "demo" / "acme-app" / ".claude" / "skill-evals.yaml"
    kept = evals.read_text()
    evals.unlink()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await open_evals(pilot)
        assert "No eval file" in pane.status_text and ".claude/skill-evals.yaml" in pane.status_text
        assert not app.query_one(EvalRequests).display
        # Written while another tab shows, then r: the tab plans only once it shows again.
        await pilot.press("4")
        evals.write_text(kept)
        catalog = app.view.catalog if app.view else None
        await pilot.press("r")
        await until(pilot, lambda: app.view is not None and app.view.catalog is not catalog, what="the reload")
        await workers_done(app)
        assert not pane.ready and pane.plan is None
        await pilot.press("7")
        await until(pilot, lambda: pane.ready and pane.plan is not None, what="the plan")
        assert app.query_one(EvalRequests).option_count == TOTAL and "Estimate: 17 to send" in pane.status_text


async def test_what_if_in_the_listing_pane_with_no_model(tmp_path: Path, server: MessagesServer) -> None:
    app = evals_app(tmp_path, server)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await pilot.press("4")
        listing = app.query_one(ListingPane)
        await pilot.press("D")
        assert isinstance(app.screen, AskScreen)
        await pilot.press(*"research", "enter")
        await until(pilot, lambda: listing.what_if_result is not None, what="the what-if")
        said = listing.what_if_said
        assert "What if: disable research" in said and "leave the listing: research" in said
        assert "gain their description: nobody" in said
        await pilot.press("B")
        await pilot.press(*["backspace"] * 10, *"500", "enter")
        await until(pilot, lambda: "budget of 500" in listing.what_if_said, what="the budget what-if")
        said = listing.what_if_said
        _, result = listing.what_if_result or (None, None)
        assert result is not None and result.lost and result.next_to_lose
        assert (
            f"lose their description: {', '.join(result.lost)}" in said and "budget: 482 of 500 characters, 18 to spare" in said
        )
        assert text_of(app.query_one("#listing-whatif", Static)).startswith("What if: a budget of 500")
        await pilot.press("S", *"research 10", "enter")
        await until(pilot, lambda: "shorten research" in listing.what_if_said, what="the shorten what-if")
        _, shortened = listing.what_if_result or (None, None)
        assert shortened is not None and shortened.after.used < shortened.before.used
        assert "What if: shorten research to 10 characters" in listing.what_if_said
        # A name no skill has: said, nothing computed.
        await pilot.press("D", *"nobody", "enter")
        await pilot.pause()
        assert "shorten research" in listing.what_if_said
    assert server.requests == []


async def test_the_key_list_has_the_evals_tab_and_the_what_if_keys(tmp_path: Path) -> None:
    app = evals_app(tmp_path, None)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        sections = dict(app.screen.sections)
        evals = dict(sections["Evals tab"])
        assert evals["R"] == "Run evals" and evals["x escape"] == "Cancel evals" and "enter" in evals
        listing = dict(sections["Listing pane"])
        assert listing["D"] == "What if: disable a skill" and listing["B"] == "What if: set the budget"
        assert ("7", "Evals pane") in sections["Anywhere"]
