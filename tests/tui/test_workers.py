"""One error policy for every worker: what a worker raises becomes an error toast and a line in
the error log under the state folder, and the app goes on (Textual's default would end it)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import TabbedContent

from tests.llm_server import MessagesServer
from tui.workers import error_log

from .conftest import loaded, served_app, until


def _broken_settings() -> None:
    raise ValueError("settings.local.json line 3: not JSON")


async def _broken_read() -> None:
    raise OSError(5, "Input/output error")


async def test_a_failing_worker_is_a_message_not_an_exit(tmp_path: Path, server: MessagesServer) -> None:
    app = served_app(tmp_path, server)
    async with app.run_test() as pilot:
        await loaded(pilot)
        app.start_worker(_broken_settings, "Saving the rule", thread=True)
        app.start_worker(_broken_read, "Reading the file")
        await until(pilot, lambda: sum(n.title == "Error" for n in app.notices) == 2, what="two error toasts")
        messages = sorted(n.message for n in app.notices if n.title == "Error")
        log = error_log(app.workspace.locations.environ)
        assert messages[0].startswith("Reading the file failed: OSError") and f"Details: {log}" in messages[0]
        assert messages[1].startswith("Saving the rule failed: ValueError: settings.local.json line 3: not JSON")
        assert "Traceback" in log.read_text() and "_broken_settings" in log.read_text()
        assert app.is_running and app.return_code is None
        # And the app still answers keys.
        await pilot.press("3")
        await until(pilot, lambda: app.query_one(TabbedContent).active == "diagnostics", what="the diagnostics tab")
