"""Issue 38 in the app: the selected skill's use in its details, the tiers' "not used in 30 days"
filter, and the listing's mark on skills that lost their text and are not used. The demo carries
a session file as Claude Code writes it (engine/demo.py `_history`): /deploy typed twice, the
model's release-notes run and a refused research call."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tui.widgets.details import SkillDetails

from .conftest import demo_app, loaded, until
from .test_app import text_of


def _facts(app) -> str:  # type: ignore[no-untyped-def]
    return text_of(app.query_one("#details-facts", Static))


async def test_details_say_how_a_skill_was_used(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.deck.usage.ready, what="the transcripts to be read")
        app.go_to_path(app.view.catalog.skills["deploy"].path)
        await until(pilot, lambda: "typed 2" in _facts(app), what="deploy's use")
        assert "by the model 0" in _facts(app) and "last 2 days ago" in _facts(app)
        app.go_to_path(app.view.catalog.skills["research"].path)
        await until(pilot, lambda: "(1 failed)" in _facts(app), what="research's refused call")
        app.go_to_path(app.view.catalog.skills["daily-notes"].path)
        await until(pilot, lambda: "never, in 1 transcript" in _facts(app), what="an unused skill")
        assert app.query_one(SkillDetails).body_fits


async def test_the_tiers_filter_shows_the_skills_not_used_in_30_days(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.deck.usage.ready, what="the transcripts to be read")
        app.tiers.focus()
        for _ in range(3):  # all -> errors -> problems -> unused
            await pilot.press("t")
        await until(pilot, lambda: app.tiers.filter == "unused", what="the unused filter")
        shown = {skill.name for skill in app.tiers.shown_skills()}
        assert "daily-notes" in shown and "api-conventions" in shown
        assert not shown & {"deploy", "release-notes", "research"}
        assert "not used in 30 days" in str(app.tiers.border_title)


async def test_the_listing_marks_dropped_descriptions_that_are_not_used(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo", budget=120)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.deck.usage.ready, what="the transcripts to be read")
        await pilot.press("4")
        note = lambda: text_of(app.query_one("#listing-trimmed", Static))  # noqa: E731
        await until(pilot, lambda: "not used in 30 days" in note(), what="the mark")
        unused = note().split("not used in 30 days: ", 1)[1]
        assert "api-conventions" in unused and "deploy" not in unused.split(",")
