"""`make screenshots`: an SVG of each pane of the demo workspace, into screenshots/.

The demo is built in a fixed place and shown as <demo>, so the pictures only change when
the screens do.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.demo import make_demo  # noqa: E402
from tests.llm_server import MessagesServer, Reply  # noqa: E402
from tests.tui.recorded_compare import recorded_comparison  # noqa: E402
from tests.tui.test_evals_app import demo_router  # noqa: E402
from tui.app import SkilldeckApp  # noqa: E402
from tui.evals.pane import EvalsPane  # noqa: E402
from tui.screens.approve import ApproveScreen  # noqa: E402
from tui.view import PathDisplay  # noqa: E402
from tui.widgets.listing import ListingPane  # noqa: E402

Steps = Callable[[object], Awaitable[None]]


def demo_app(folder: Path) -> SkilldeckApp:
    return SkilldeckApp(make_demo(folder), PathDisplay.default([(folder, "<demo>")]), blink=False)


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(500):
        if pilot.app.settled and pilot.app.permissions is not None:
            break
        await pilot.pause(0.01)
    await pilot.pause()


SHOTS: list[tuple[str, list[str]]] = [
    ("tiers-and-details", ["down", "down", "down"]),
    ("broken-skill", ["down", "down", "down", "down", "down", "down", "down"]),
    ("diagnostics", ["3"]),
    ("listing", ["4"]),
    ("rules", ["j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "5"]),
    ("search", ["slash", "r", "e", "v"]),
    ("help", ["question_mark"]),
]


ANSWER = (
    "Release notes since **v1.4.0**:\n\n### Features\n\n- A conversation pane that runs skills from the keyboard\n"
    "- Faster fuzzy search\n\n### Fixes\n\n- Hot reload no longer misses renamed folders\n"
)
# A conversation against the local Messages API server: (name, search text, replies, until).
CONVERSATIONS: list[tuple[str, str, list[Reply], str]] = [
    ("run", "release", [Reply(tool_uses=[{"id": "t1", "name": "Bash", "input": {"command": "date +%Y-%m-%d"}}]),
                        Reply(text=ANSWER, chunk=6)], "done"),
    ("approval", "daily", [Reply(tool_uses=[{"id": "t1", "name": "Bash", "input": {"command": "echo \"$(date +%F): buy milk\" >> ~/notes.md"}}])],
     "approval"),
    ("fork", "research", [Reply(tool_uses=[{"id": "g1", "name": "Bash", "input": {"command": "grep -rn require_login src"}}]),
                          Reply(text="Sessions are checked in `src/auth/session.py`, in `require_login()`, on every request.")], "done"),
]  # fmt: skip


async def shoot_conversations(out: Path, size: tuple[int, int]) -> None:
    for name, search, replies, until in CONVERSATIONS:
        folder = Path(tempfile.mkdtemp(prefix="skilldeck-shot-"))
        try:
            with MessagesServer() as server:
                server.script(*replies)
                env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(folder / "state")}
                app = SkilldeckApp(
                    make_demo(folder / "demo", env), PathDisplay.default([(folder / "demo", "<demo>")]), blink=False
                )
                async with app.run_test(size=size) as pilot:
                    await settle(pilot)
                    await pilot.press("slash", *search, "enter")
                    await settle(pilot)
                    await pilot.press("enter")
                    for _ in range(500):
                        running = any(w.group == "run" and w.is_running for w in app.workers)
                        if (
                            isinstance(app.screen, ApproveScreen)
                            if until == "approval"
                            else not running and len(server.finished) == len(replies)
                        ):
                            break
                        await pilot.pause(0.01)
                    await settle(pilot)
                    app.save_screenshot(str(out / f"conversation-{name}.svg"))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"screenshots/conversation-{name}.svg")


async def shoot(out: Path, size: tuple[int, int]) -> None:
    for name, keys in SHOTS:
        folder = Path(tempfile.mkdtemp(prefix="skilldeck-shot-"))
        try:
            app = demo_app(folder)
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                for key in keys:
                    await pilot.press(key)
                await settle(pilot)
                app.save_screenshot(str(out / f"{name}.svg"))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"screenshots/{name}.svg")


async def shoot_compare(out: Path, size: tuple[int, int]) -> None:
    """The listing pane after C: a run of the pinned Claude Code on the demo, recorded (its time
    and paths fixed) in tests/tui/recorded_compare.json."""
    folder = Path(tempfile.mkdtemp(prefix="skilldeck-shot-"))
    try:
        app = demo_app(folder)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("4")
            app.query_one(ListingPane).show_comparison(recorded_comparison())
            await settle(pilot)
            app.save_screenshot(str(out / "listing-compare.svg"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("screenshots/listing-compare.svg")


async def shoot_evals(out: Path, size: tuple[int, int]) -> None:
    """The evals tab after a run whose answers the local server scripts (tests/tui/test_evals_app.py):
    one request stolen, one route changed when its skill's description is dropped."""
    folder = Path(tempfile.mkdtemp(prefix="skilldeck-shot-"))
    try:
        with MessagesServer() as server:
            server.choose = demo_router()
            env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(folder / "state")}
            app = SkilldeckApp(make_demo(folder / "demo", env), PathDisplay.default([(folder / "demo", "<demo>")]), blink=False)
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                await pilot.press("7")
                pane = app.query_one(EvalsPane)
                for _ in range(1000):
                    if pane.ready:
                        break
                    await pilot.pause(0.01)
                await pilot.press("R")
                for _ in range(1000):
                    if pane.report is not None and not pane.running:
                        break
                    await pilot.pause(0.01)
                await settle(pilot)
                app.save_screenshot(str(out / "evals.svg"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("screenshots/evals.svg")


async def shoot_agents(out: Path, size: tuple[int, int]) -> None:
    """`A` once: the tiers, diagnostics and listing as Codex CLI sees the demo (its .agents/skills
    and its user folder, not .claude/skills), the listing pane showing Codex's block."""
    folder = Path(tempfile.mkdtemp(prefix="skilldeck-shot-"))
    try:
        app = demo_app(folder)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("A")
            for _ in range(1000):
                if app.view is not None and app.view.listing.text.startswith("<skills_instructions>"):
                    break
                await pilot.pause(0.01)
            await pilot.press("4")
            await settle(pilot)
            app.save_screenshot(str(out / "agents-codex.svg"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("screenshots/agents-codex.svg")


if __name__ == "__main__":
    target = ROOT / "screenshots"
    target.mkdir(exist_ok=True)
    asyncio.run(shoot(target, (120, 36)))
    asyncio.run(shoot_conversations(target, (120, 36)))
    asyncio.run(shoot_compare(target, (120, 36)))
    asyncio.run(shoot_evals(target, (120, 36)))
    asyncio.run(shoot_agents(target, (120, 36)))
