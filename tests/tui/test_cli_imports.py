"""`skilldeck list --json` loads the loader, not the rest: the engine's face imports a name's module
when first asked for, and the CLI imports a command's module (and rich) only to run that command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import engine

_HEAVY = (
    "textual",
    "rich",
    "anthropic",
    "asyncio",
    "watchdog",
    "engine.compare",
    "engine.evals",
    "engine.runner.loop",
    "engine.runner.invoke",
    "engine.reload.watch",
    "engine.permissions.settings_edit",
    "engine.listing.build",
    "engine.permissions.decide",
    "logging",
    "tempfile",
    "uuid",
)


def test_every_name_of_the_face_resolves_from_its_table() -> None:
    assert set(engine._WHERE) == set(engine.__all__)
    for name in engine.__all__:
        assert getattr(engine, name) is not None, name


def test_the_parser_offers_the_scopes_the_engine_edits() -> None:
    from tui.cli import args as cli_args

    assert cli_args.EDITABLE_SCOPES == engine.EDITABLE_SCOPES


def test_the_parser_offers_every_agent_the_engine_knows() -> None:
    from engine.hosts.registry import hosts
    from tui.cli import args as cli_args

    assert cli_args.HOST_KEYS == engine.HOST_KEYS
    assert cli_args.MODEL_KEYS == engine.MODEL_KEYS and set(cli_args.TITLES) == set(engine.HOST_KEYS)
    assert set(cli_args.HOST_KEYS) == {"claude-code", *hosts()}


def test_list_json_imports_none_of_the_rest(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from tui.cli.main import main\n"
        f"main(['list', '--json', '--no-bundled', '--project', {str(tmp_path)!r}, '--user-dir', {str(tmp_path / 'u')!r},"
        f" '--managed-dir', {str(tmp_path / 'm')!r}])\n"
        f"heavy = {_HEAVY!r}\n"
        # The other commands' modules (cli_run, cli_why, ...); not the arguments or the JSON writer.
        "loaded = sorted(m for m in sys.modules if m.startswith(heavy) or m.startswith('tui.cli_') and m not in ('tui.cli.args', 'tui.cli.jsonout'))\n"
        "print(loaded, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert '"skills": []' in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"
