"""Issue 36 in the app: `A` (and the palette) switch whose world the panes show; every agent's
verdict on the selected skill is a row of its details; a skill written into a folder only other
agents read appears at once in their view (the watcher follows their folders too). The demo holds
`.agents/skills` skills that Claude Code does not read (engine/demo.py `_other_agents`)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from tui.widgets.listing import ListingPane

from .conftest import demo_app, loaded, until
from .test_app import text_of


def _shown(app) -> set[str]:  # type: ignore[no-untyped-def]
    return {skill.name for skill in app.tiers.shown_skills()}


async def test_a_shows_each_agents_world_in_turn(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        assert "changelog" not in _shown(app) and "deploy" in _shown(app)
        app.tiers.focus()
        await pilot.press("A")
        await until(
            pilot,
            lambda: app.view is not None and app.view.listing.text.startswith("<skills_instructions>"),
            what="Codex's block",
        )
        assert app.deck.agents.key == "codex" and "as Codex CLI sees it" in app.sub_title
        await until(pilot, lambda: {"changelog", "review-pr", "db/migrate"} <= _shown(app), what="Codex's skills")
        assert "deploy" not in _shown(app)  # .claude/skills is Claude Code's, not Codex's
        pane = app.query_one(ListingPane)
        summary = lambda: text_of(app.query_one("#listing-summary", Static))  # noqa: E731
        await until(pilot, lambda: "What Codex CLI is told about skills" in summary(), what="Codex's listing summary")
        assert "5,440 tokens" in summary() and not pane.check_action("compare", ()) and not pane.check_action("what_if", ())
        await pilot.press("A")  # Gemini CLI: a `/` in a name becomes `-`
        await until(
            pilot, lambda: app.view is not None and app.view.listing.text.startswith("<available_skills>"), what="Gemini's block"
        )
        await until(pilot, lambda: {"changelog", "db-migrate"} <= _shown(app), what="Gemini's skills")
        await pilot.press("A", "A")  # OpenCode, then Copilot CLI: refuses a name with `/`, says why in its diagnostics
        await until(pilot, lambda: app.deck.agents.key == "copilot" and "changelog" in _shown(app), what="Copilot CLI's skills")
        assert "db/migrate" not in _shown(app)
        refused = [d for d in app.view.catalog.diagnostics if d.code == "agent-refused"]
        assert refused and refused[0].path.parent.name == "db-migrate" and "Copilot CLI" in refused[0].message
        await pilot.press("A")  # and back to Claude Code
        await until(pilot, lambda: app.deck.agents.key == "claude-code" and "deploy" in _shown(app), what="Claude Code again")


async def test_details_say_what_every_agent_does_with_the_skill(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.deck.agents.ready, what="every agent's view")
        app.go_to_path(app.view.catalog.skills["deploy"].path)
        facts = lambda: text_of(app.query_one("#details-facts", Static))  # noqa: E731
        await until(pilot, lambda: "Codex CLI not-read" in facts(), what="the agents row")
        assert "Claude Code" in facts() and "Copilot CLI" in facts()


async def test_a_skill_written_into_agents_folder_appears_in_that_agents_view(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        app.action_agent("codex")
        await until(pilot, lambda: "changelog" in _shown(app), what="Codex's view")
        folder = tmp_path / "demo" / "acme-app" / ".agents" / "skills" / "fresh"
        folder.mkdir()
        (folder / "SKILL.md").write_text("---\nname: fresh\ndescription: Written while the app runs.\n---\nBody.\n")
        await until(pilot, lambda: "fresh" in _shown(app), what="the new skill in Codex's view")


async def test_a_run_is_claude_codes_whichever_agent_the_panes_show(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        app.action_agent("codex")
        await until(pilot, lambda: "changelog" in _shown(app), what="Codex's view")
        app.go_to_path(next(s.path for s in app.view.catalog.skills.values() if s.name == "changelog"))
        app.tiers.focus()
        await pilot.press("enter")
        await until(pilot, lambda: any("Claude Code loads" in n.message for n in app.notices), what="the refusal to run")
        assert not app.session.running and app.session.runner is None
