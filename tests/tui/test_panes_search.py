"""Search in the app: each result's description has a line of its own, and the highlighted
result is previewed in the details pane while the search stays open (issue 17)."""

from __future__ import annotations

from textual.widgets import Input, Static

from tui.app import SkilldeckApp
from tui.widgets.search import ResultsList, SearchBox

from .conftest import loaded, until
from .test_app import text_of


def _lines(results: ResultsList, count: int) -> list[str]:
    return [results.render_line(y).text.rstrip() for y in range(count)]


def _title(app: SkilldeckApp) -> str:
    return text_of(app.query_one("#details-title", Static))


async def test_a_plugin_result_shows_its_description(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("slash", *"format")
        results = app.query_one(ResultsList)
        await until(pilot, lambda: [r.skill.name for r in results.results] == ["demo-tools:format-check"], what="one result")
        await pilot.pause()
        first, second = _lines(results, 2)
        assert first.startswith("demo-tools:format-check  plugin demo-tools")
        # The left pane is 45 columns here: the description gets (nearly) all of a line.
        assert second.strip().startswith("Check formatting of the files changed"), second


async def test_the_highlighted_result_previews_in_details_and_escape_goes_back(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: "/security-review" in _title(app), what="the first skill")
        await pilot.press("slash", *"notes")
        box = app.query_one(SearchBox)
        results = app.query_one(ResultsList)
        await until(pilot, lambda: bool(results.results) and results.results[0].skill.name == "daily-notes", what="results")
        await until(pilot, lambda: "/daily-notes" in _title(app), what="daily-notes previewed")
        target = results.results[0].skill.path
        await until(pilot, lambda: app.body_shown_for == target, what="its body")
        assert box.display and app.focused is app.query_one("#search-input"), "the search stays open while previewing"
        await pilot.press("down")
        await until(pilot, lambda: "/release-notes" in _title(app), what="the next result previewed")
        await pilot.press("escape")
        assert not box.display
        await until(pilot, lambda: "/security-review" in _title(app), what="back on the skill selected before searching")


async def test_the_search_field_opened_again_shows_what_is_typed_from_its_first_letter(app: SkilldeckApp) -> None:
    """Closed with a query in it, the field kept a column of sideways scroll: typed `godot`, it showed `odot`."""
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        field = app.query_one("#search-input", Input)
        for _ in range(2):
            await pilot.press("slash", *"godot")
            await until(pilot, lambda: field.value == "godot", what="the query")
            await pilot.pause()
            shown = "".join(segment.text for segment in field.render_line(0))
            assert shown.startswith("godot"), repr(shown)
            await pilot.press("escape")


async def test_the_highlighted_result_stays_on_screen_and_is_the_one_drawn_lit(app: SkilldeckApp) -> None:
    # The results are drawn a line at a time: moving past the last row on screen scrolls, and
    # only the highlighted row is drawn reversed.
    async with app.run_test(size=(100, 14)) as pilot:
        await loaded(pilot)
        await pilot.press("slash", "e")
        results = app.query_one(ResultsList)
        await until(pilot, lambda: len(results.results) > 8, what="many results")
        rows = results.size.height // 2
        assert rows > 1 and len(results.results) > rows, "more results than the rows on screen"

        def lit_rows() -> list[int]:
            return [
                y // 2 for y in range(results.size.height) if any(s.style and s.style.reverse for s in results.render_line(y))
            ]

        for step in range(rows + 2):
            await until(pilot, lambda step=step: results.highlighted == step, what=f"result {step} highlighted")
            await pilot.pause()
            name = results.results[step].skill.name
            lit = lit_rows()
            assert len(set(lit)) == 1, lit
            assert results.render_line(lit[0] * 2).text.startswith(name), (step, name)
            await pilot.press("down")
