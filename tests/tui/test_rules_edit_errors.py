"""A settings edit that cannot be made is a message in the CLI and in the app, never a traceback,
a hang or a lost file (the installed command in a real process, the app under Textual's pilot)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import write
from tests.tui.conftest import demo_app, loaded, until

EXE = Path(sys.executable).parent / "skilldeck"


def _fifo(path: Path) -> None:
    os.mkfifo(path)


BROKEN: dict[str, Callable[[Path], object]] = {
    "unparsable": lambda p: p.write_text("{ not json"),
    "a folder": lambda p: p.mkdir(),
    "a FIFO": _fifo,
    "not UTF-8": lambda p: p.write_bytes(b'{"permissions": {"allow": ["Skill(x)"]}, "a": "\xff"}'),
    "NaN": lambda p: p.write_text('{"permissions": {"allow": ["Skill(x)"]}, "a": NaN}'),
}


def _skilldeck(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "1000"}  # one line per message, whatever the terminal
    return subprocess.run(
        [str(EXE), *argv, "--project", str(project), "--user-dir", str(project.parent / "user"), "--no-bundled"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip


@pytest.mark.parametrize("case", list(BROKEN))
@pytest.mark.parametrize("argv", [("allow", "Skill(y)"), ("deny", "Bash(rm *)"), ("unrule", "Skill(x)")])
def test_the_cli_refuses_with_a_message(tmp_path: Path, case: str, argv: tuple[str, ...]) -> None:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    BROKEN[case](local)
    before = local.read_bytes() if local.is_file() and not local.is_fifo() else None
    result = _skilldeck(project, *argv)
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr and result.stderr.startswith("refused: "), result.stderr
    assert "settings.local.json" in result.stderr, result.stderr
    if before is not None:
        assert local.read_bytes() == before
    assert sorted(p.name for p in local.parent.iterdir()) == ["settings.local.json"]


def test_rule_text_that_looks_like_markup_is_printed_as_typed(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    result = _skilldeck(project, "allow", "not a rule [/red]")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "'not a rule [/red]' is not a rule" in result.stderr


@pytest.mark.parametrize("case", ["a folder", "not UTF-8", "NaN"])
async def test_the_rules_pane_shows_the_refusal_and_the_app_goes_on(tmp_path: Path, case: str) -> None:
    app = demo_app(tmp_path / "demo")
    local = tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json"
    if local.exists():
        local.unlink()
    BROKEN[case](local)
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        await pilot.press("5", "a")
        await until(pilot, lambda: any(n.title == "Not written" for n in app.notices), what="the refusal")
        note = next(n for n in app.notices if n.title == "Not written")
        assert "settings.local.json" in note.message
        assert app.is_running
    assert app.return_code in (None, 0)
    assert sorted(p.name for p in local.parent.iterdir() if p.name.startswith(("settings.local", ".settings.local"))) == [
        "settings.local.json"
    ]


def test_an_ordinary_edit_still_goes_through(tmp_path: Path) -> None:
    project = tmp_path / "p"
    local = write(project / ".claude" / "settings.local.json", '{"env": {"N": 1e999}}\n')
    (project / ".git").mkdir()
    result = _skilldeck(project, "allow", "Skill(y)")
    assert result.returncode == 0, result.stderr
    assert (
        local.read_text()
        == '{\n  "env": {\n    "N": 1e999\n  },\n  "permissions": {\n    "allow": [\n      "Skill(y)"\n    ]\n  }\n}\n'
    )


async def test_a_refusal_naming_a_folder_that_looks_like_markup_is_shown_as_written(tmp_path: Path) -> None:
    """The refusal names the file; a `[/bold]` in its folder was read as Textual markup when the
    toast was drawn, and the app ended with a MarkupError."""
    folder = tmp_path / "demo [/bold] [b]"
    app = demo_app(folder)
    local = folder / "acme-app" / ".claude" / "settings.local.json"
    local.write_text("{ not json")
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        await pilot.press("5", "a")
        await until(
            pilot, lambda: any(str(local) in str(t.render()) for t in app.screen.query("Toast")), what="the refusal, as written"
        )
        assert app.is_running
    assert app.return_code in (None, 0)
    assert local.read_text() == "{ not json"


def test_terminal_controls_in_a_refusal_never_reach_the_terminal(tmp_path: Path) -> None:
    project = tmp_path / "repo\x1b]52;c;cHduZWQ=\x1b\\\x9b2J"  # a clipboard write and a C1 screen clear
    (project / ".git").mkdir(parents=True)
    write(project / ".claude" / "settings.local.json", "{ not json")
    result = _skilldeck(project, "allow", "Skill(y)")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "\x1b" not in result.stderr and "\x9b" not in result.stderr
    assert "repo^[]52;c;cHduZWQ=^[\\<0x9b>2J" in result.stderr
