"""The installed `skilldeck --demo` in a real terminal (tmux): keys in, screen text out."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.llm_server import MessagesServer, Reply

EXE = Path(sys.executable).parent / "skilldeck"


def tmux_command(socket: str, *args: str) -> list[str]:
    """A tmux command on the test's own server: no user config, and no outer tmux (a CI runner
    inside tmux, say) whose clients or window-size option could resize our window mid-test."""
    return ["tmux", "-L", socket, "-f", "/dev/null", *args]


class Terminal:
    def __init__(self, name: str) -> None:
        self.name = name

    def tmux(self, *args: str) -> str:
        return subprocess.run(tmux_command(self.name, *args), check=True, capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        return self.wait_until(lambda screen: text in screen, timeout, f"{text!r} to appear")

    def wait_until(self, predicate, timeout: float = 60.0, what: str = "the condition") -> str:  # type: ignore[no-untyped-def]
        """Poll the captured screen until `predicate` holds; fail with the screen after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if predicate(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")
            self.pause()

    def pause(self) -> None:
        """A few milliseconds' round trip to the tmux server between two looks at the screen."""
        subprocess.run(tmux_command(self.name, "wait-for", "-S", "never"), check=False, timeout=1, capture_output=True)

    def alive(self) -> bool:
        return subprocess.run(tmux_command(self.name, "has-session", "-t", self.name), capture_output=True).returncode == 0


@contextmanager
def open_terminal(command: str, env: dict[str, str] | None = None) -> Iterator[Terminal]:
    assert shutil.which("tmux"), "make test installs tmux; run the suite through make test"
    assert EXE.exists(), f"the installed command is missing at {EXE}"
    name = f"skilldeck-e2e-{uuid.uuid4().hex[:8]}"
    extra = [arg for key, value in (env or {}).items() for arg in ("-e", f"{key}={value}")]
    env_without_tmux = {key: value for key, value in os.environ.items() if key != "TMUX"}
    subprocess.run(
        tmux_command(
            name, "new-session", "-d", "-s", name, "-x", "120", "-y", "36", "-e", "TERM=xterm-256color", *extra, command
        ),
        check=True,
        env=env_without_tmux,
    )
    term = Terminal(name)
    try:
        yield term
    finally:
        subprocess.run(tmux_command(name, "kill-server"), capture_output=True)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    with open_terminal(f"{EXE} --demo") as term:
        yield term


def quit_app(terminal: Terminal) -> None:
    terminal.keys("q")
    deadline = time.monotonic() + 60
    while terminal.alive() and time.monotonic() < deadline:
        terminal.pause()
    assert not terminal.alive(), "q quits the app (and the tmux session with it)"


def test_demo_browse_search_and_quit(terminal: Terminal) -> None:
    # The title can show before the tree has its rows; wait for the whole first screen.
    terminal.wait_until(lambda screen: all(tier in screen for tier in ("15 skills", "managed", "bundled")), what="the tiers")
    terminal.wait_for("/security-review")
    terminal.keys("j", "j")
    terminal.wait_for("/daily-notes")
    terminal.keys("/")
    terminal.wait_for("search names")
    terminal.keys("d", "e", "p", "l")
    terminal.wait_for("deploy  project")
    terminal.keys("Enter")
    terminal.wait_for("/deploy")
    terminal.keys("3")
    terminal.wait_for("yaml-invalid")
    terminal.keys("4")
    terminal.wait_for("The following skills are available")
    terminal.keys("?")
    terminal.wait_for("skilldeck keys")
    terminal.keys("Escape")
    # ESC followed at once by q reads as alt+q; wait for the help to close first.
    terminal.wait_until(lambda screen: "skilldeck keys" not in screen)
    quit_app(terminal)


def test_run_a_skill_against_the_local_server(tmp_path: Path) -> None:
    """The installed command, a key in the environment, --base-url: enter runs the skill, a
    tool call is approved in the modal, the answer streams in, the session is saved."""
    # `env printf`: printf alone is read-only (Claude Code runs it unasked); env makes it a command to ask.
    call = {"id": "t1", "name": "Bash", "input": {"command": "env printf from-e2e"}}
    with MessagesServer() as server:
        server.script(Reply(tool_uses=[call]), Reply(text="The notes are ready: e2e-answer-42."))
        env = {"ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(tmp_path / "state")}
        with open_terminal(f"{EXE} --demo --base-url {server.url}", env) as terminal:
            terminal.wait_for("15 skills")
            terminal.keys("/")
            terminal.wait_for("search names")
            terminal.keys("r", "e", "l", "e", "a", "s")
            terminal.wait_for("release-notes  project")
            terminal.keys("Enter")
            terminal.wait_for("/release-notes")
            terminal.keys("Enter")
            screen = terminal.wait_for("Allow Bash")
            assert "env printf from-e2e" in screen
            terminal.keys("o")
            screen = terminal.wait_for("e2e-answer-42")
            assert "anthropic" in screen and "claude-sonnet-5-5" in screen
            assert server.requests[0]["messages"][0]["content"][0]["text"].startswith(
                "<command-message>release-notes</command-message>"
            )
            assert server.requests[1]["messages"][-1]["content"][0]["content"] == "from-e2e"
            # What the user types after a run goes to the composer (issue 34): `t`, `a` and `q` do nothing else.
            terminal.keys(*"thanks a lot")
            terminal.wait_for("thanks a lot")
            assert terminal.alive()
            terminal.keys("Escape")
            # ESC followed at once by q reads as alt+q: wait for the composer to be left first.
            terminal.wait_until(lambda screen: "Leave" not in screen, what="the composer left")
            quit_app(terminal)
    sessions = list((tmp_path / "state" / "skilldeck" / "sessions").glob("*.jsonl"))
    assert len(sessions) == 1 and "e2e-answer-42" in sessions[0].read_text()


def test_cli_output_in_a_terminal_is_laid_out_to_its_width(tmp_path: Path) -> None:
    """The same `skilldeck list` that prints tab-separated full lines into a pipe (test_cli_scripts)
    draws a table to the terminal's 120 columns, in colour, a long description cut with an ellipsis."""
    project = tmp_path / "p"
    skill = project / ".claude" / "skills" / "release-notes" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: release-notes\ndescription: " + "Compose the release notes from every merged PR. " * 6 + "\n---\n"
    )
    flags = f"--project {project} --user-dir {tmp_path / 'u'} --no-bundled"
    # `exec cat` keeps the pane open on what was printed until the test ends the server.
    with open_terminal(f"sh -c '{EXE} list {flags}; exec cat'") as terminal:
        screen = terminal.wait_for("run skilldeck validate for details")
        header = next(line for line in screen.splitlines() if line.lstrip().startswith("name"))
        assert header.split() == ["name", "source", "invoked", "by", "context", "description"]
        row = next(line for line in screen.splitlines() if "release-notes" in line)
        assert row.rstrip().endswith("…") and len(row) <= 120, row
        assert "\x1b[" in terminal.tmux("capture-pane", "-p", "-e", "-t", terminal.name), "colour in a terminal"


def test_an_app_that_dies_of_an_exception_exits_non_zero() -> None:
    # Before: the traceback was printed and the status was 0 (a MemoryError in the details pane
    # ended the app that way). The crash is planted in the real app's on_mount.
    script = (
        "import tui.app as a\n"
        "def boom(self): raise RuntimeError('planted crash')\n"
        "a.SkilldeckApp.on_mount = boom\n"
        "from tui.cli.main import main\n"
        "raise SystemExit(main(['--demo', '--backend', 'offline']))\n"
    )
    with open_terminal(f'sh -c \'{sys.executable} -c "$0"; echo exit status $?; exec cat\' "{script}"') as terminal:
        screen = terminal.wait_for("exit status", timeout=60)
        assert "exit status 1" in screen, screen


def test_a_closed_terminal_leaves_no_demo_folder_behind(tmp_path: Path) -> None:
    """Issue 34: closing the terminal (SIGHUP) left the demo's temporary folder behind."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    with open_terminal(f"{EXE} --demo --backend offline", {"TMPDIR": str(temp)}) as terminal:
        terminal.wait_for("15 skills")
        assert [p.name.startswith("skilldeck-demo-") for p in temp.iterdir()] == [True]
        pid = int(terminal.tmux("display-message", "-p", "-t", terminal.name, "#{pane_pid}"))
        ended = os.pidfd_open(pid)
        terminal.tmux("kill-session", "-t", terminal.name)  # the terminal closes: its processes get SIGHUP
        # The process itself ends (it went on, spinning a core, reading the closed terminal): its
        # pidfd becomes readable when it exits.
        try:
            assert select.select([ended], [], [], 60)[0] == [ended], "the demo outlived its terminal"
        finally:
            os.close(ended)
        deadline = time.monotonic() + 60
        while any(temp.iterdir()) and time.monotonic() < deadline:
            terminal.pause()  # a round trip to the tmux server between two looks, as wait_until does
        assert list(temp.iterdir()) == []
