"""The details pane: a shadowed skill says which one runs and is not called listed; named
`arguments:` are shown (issue 17)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tui.app import SkilldeckApp
from tui.widgets import details, markdown_body
from tui.widgets.markdown_body import MarkdownBody, render_markdown

from .conftest import loaded, until
from .test_app import _walk_to, text_of


def _facts(app: SkilldeckApp) -> dict[str, str]:
    """The facts table as key -> value (the table's rows fold long values; first line is enough)."""
    rows: dict[str, str] = {}
    for line in text_of(app.query_one("#details-facts", Static)).splitlines():
        key, _, value = line.partition("  ")
        if key.strip():
            rows[key.strip()] = value.strip()
    return rows


async def test_a_shadowed_skill_is_not_listed_and_names_the_one_that_runs(app: SkilldeckApp) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        while app.tiers.current is None or app.tiers.current.shadow is None:
            await pilot.press("j")
        assert app.tiers.current.skill.name == "security-review"
        listed = _facts(app)["in model listing"]
        assert not listed.startswith("yes"), listed
        assert listed.startswith("no: shadowed; the managed skill of this name is listed instead"), listed
        relations = text_of(app.query_one("#details-relations", Static))
        assert "/security-review and the model's Skill tool run that one" in relations
        await until(pilot, lambda: app.settled, what="the body")


async def test_named_arguments_are_shown(app: SkilldeckApp) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "deploy")
        assert _facts(app).get("arguments") == "$target = word 1"
        await _walk_to(pilot, "release-notes")
        assert "arguments" not in _facts(app), "no row for a skill without named arguments"


async def test_a_moving_cursor_renders_no_body_until_it_rests(app: SkilldeckApp, monkeypatch: pytest.MonkeyPatch) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "api-conventions")
        body = app.query_one("#details-body", MarkdownBody)
        pane = app.query_one(details.SkillDetails)
        await until(
            pilot,
            lambda: app.settled and pane.body_shown_for is not None and body.size.width > 0,
            what="the body of api-conventions drawn and laid out",
        )
        wait = app.query_one("#details-body-wait", Static)
        assert body.display and not wait.display
        assert body.rendered_width == body.size.width, "rendered at the width it is drawn"
        shown = body.source
        # The cursor does not rest on the next skill long enough for its body to be read.
        monkeypatch.setattr(details, "BODY_DEBOUNCE_S", 600)
        await pilot.press("j")
        monkeypatch.undo()
        assert not body.display and wait.display and body.source == shown, "waiting: the old rows hidden, none rendered"
        await pilot.press("k")
        await until(pilot, lambda: app.settled and body.display, what="the body of api-conventions again")
        assert body.source == shown and not wait.display
        await pilot.press("j")
        await until(pilot, lambda: app.settled and body.display and body.source != shown, what="the next body")
        assert "pydantic" not in body.source


async def test_the_body_is_rendered_again_at_a_new_width(app: SkilldeckApp) -> None:
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "api-conventions")
        body = app.query_one("#details-body", MarkdownBody)
        await until(pilot, lambda: app.settled and body.rendered_width == body.size.width > 0, what="the body drawn")
        wide = body.rendered_width
        await pilot.resize_terminal(100, 40)
        await until(pilot, lambda: body.rendered_width == body.size.width < wide, what="the body at the new width")
        lines = [strip.text for strip in (body.render_line(y) for y in range(body.size.height))]
        assert all(len(line) <= body.size.width for line in lines) and any(line.strip() for line in lines)


def test_facts_draw_as_the_grid_they_replace() -> None:
    rows = [
        ("path", Text("~/a/very/long/path/without/any/spaces/to/fold/at/all/SKILL.md")),
        ("model can invoke", Text("yes", "green")),
        ("description", Text.assemble("Ship the branch to staging or production, then tell the team ", ("(frontmatter)", "dim"))),
        ("when_to_use", Text("—")),
    ]
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for key, value in rows:
        grid.add_row(key, value)
    for width in (30, 50, 120):
        console = Console(width=width, file=io.StringIO(), color_system="truecolor")
        assert _cells(console, details.Facts(rows)) == _cells(console, grid), width


def _cells(console: Console, renderable: details.Facts | Table) -> list[list[tuple[str, str]]]:
    """Each line's characters and their styles, trailing spaces left out (a grid pads its cells)."""
    out = []
    for line in console.render_lines(renderable, pad=False):
        row = [(ch, str(s.style or "").replace("none", "") if ch != " " else "") for s in line for ch in s.text]
        while row and row[-1][0] == " ":
            row.pop()
        out.append(row)
    return out


async def test_2_gives_the_details_their_scrolling_keys_and_keeps_the_place(app: SkilldeckApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "api-conventions")
        await until(pilot, lambda: app.settled, what="the body")
        pane = app.query_one(details.SkillDetails)
        await pilot.press("2")
        assert isinstance(app.focused, details.DetailsKeys) and app.focused.parent is pane
        await pilot.press("down", "down", "pagedown")
        await until(pilot, lambda: pane.scroll_y > 2, what="the details scrolled")
        where = pane.scroll_y
        await pilot.press("1", "2")
        await pilot.pause()
        assert pane.scroll_y == where, "coming back to the details keeps the reader's place"
        await pilot.press("home")
        await until(pilot, lambda: pane.scroll_y == 0, what="home")
        await pilot.press("1")
        await pilot.click(pane)
        assert isinstance(app.focused, details.DetailsKeys), "a click gives the details the keys"


def test_a_huge_body_is_previewed_in_part_and_says_so() -> None:
    # A 20,000-row table took Rich 9 s to lay out, holding the interpreter's lock all along.
    table = "|a|b|\n|-|-|\n" + "|x|y|\n" * 20_000
    rows = ["".join(segment.text for segment in row) for row in render_markdown(table, 60)]
    assert markdown_body.MAX_LINES <= len(rows) < markdown_body.MAX_LINES + 20
    assert "more characters not shown here" in " ".join(rows[-3:])
    assert all(len(row) <= 60 for row in rows)
    plain = ["".join(segment.text for segment in row) for row in render_markdown("# Title\n\nsome *text*", 40)]
    assert "Title" in plain[0] and not any("not shown" in row for row in plain)
