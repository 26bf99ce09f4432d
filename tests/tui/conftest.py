"""The real app on the bundled demo workspace, driven by Textual's pilot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.worker import WorkerCancelled, WorkerError, WorkerFailed

from engine.demo import make_demo
from tests.llm_server import MessagesServer
from tui.app import SkilldeckApp
from tui.view import PathDisplay


def demo_app(folder: Path, **kw: object) -> SkilldeckApp:
    """The demo app, its state folder (sessions, the remembered theme) inside `folder`: never the
    developer's own, so a theme they chose does not change the snapshots."""
    environ = {"XDG_STATE_HOME": str(folder.parent / f"{folder.name}-state")}
    return SkilldeckApp(make_demo(folder, environ), PathDisplay.default([(folder, "<demo>")]), blink=False, **kw)  # type: ignore[arg-type]


def served_app(tmp_path: Path, server: MessagesServer | None) -> SkilldeckApp:
    """The demo app whose runs go to the local Messages API server (offline when None)."""
    folder = tmp_path / "demo"
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    if server is not None:
        env |= {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k"}
    return SkilldeckApp(make_demo(folder, env), PathDisplay.default([(folder, "<demo>")]), blink=False)


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def run_done(app: SkilldeckApp) -> bool:
    return not any(w.group == "run" and w.is_running for w in app.workers)


@pytest.fixture
def app(tmp_path: Path) -> SkilldeckApp:
    return demo_app(tmp_path / "demo")


# How long a test waits for what it waits on before it fails: generous, since a test that fails
# on a busy 2-core machine only because it was slow says nothing (a 5 s wait for the catalog did).
GENEROUS_S = 60.0


async def until(pilot, predicate: Callable[[], object], timeout: float = GENEROUS_S, what: str = "") -> None:  # type: ignore[no-untyped-def]
    """Let the app run until `predicate()` holds; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.02)


def fake_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$EDITOR as a script that writes the arguments it was given into the returned file."""
    import stat

    record = tmp_path / "editor-args"
    editor = tmp_path / "fake-vi" / "vi"
    editor.parent.mkdir()
    editor.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\n')
    editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    return record


async def back_to_tree(pilot) -> None:  # type: ignore[no-untyped-def]
    """From the composer (where a run leaves the focus) back to the tiers tree, as a user does:
    escape leaves the composer, `1` goes to the tree."""
    await pilot.press("escape", "1")
    assert pilot.app.focused is pilot.app.tiers


async def workers_done(app) -> None:  # type: ignore[no-untyped-def]
    """Every worker of the app ended, however: an exclusive group cancels a worker when a newer one
    starts (the rules pane's, after a reload), which Textual's wait_for_complete raises for."""
    while running := [w for w in app.workers if not w.is_finished]:
        for worker in running:
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass
            except WorkerError:  # not started yet: let the loop start it
                await asyncio.sleep(0)


async def loaded(pilot) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: pilot.app.loaded_once, what="the catalog to load")
    await workers_done(pilot.app)
    await pilot.pause()
