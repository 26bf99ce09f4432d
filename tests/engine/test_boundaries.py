"""The engine runs headless: it never imports textual or tui."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_no_engine_module_imports_textual_or_tui() -> None:
    offenders = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in {"textual", "tui"}]
    assert offenders == []


def test_loading_the_engine_pulls_in_neither_textual_nor_tui_nor_anthropic() -> None:
    code = (
        "import sys, tempfile, pathlib\n"
        "import engine, engine.demo\n"
        "loc = engine.demo.make_demo(pathlib.Path(tempfile.mkdtemp()))\n"
        "engine.Workspace(loc).load()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'tui', 'anthropic'})\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_app_does_not_import_anthropic_before_a_run() -> None:
    code = (
        "import sys, asyncio, tempfile, pathlib\n"
        "from engine.demo import make_demo\n"
        "from tui.app import SkilldeckApp\n"
        "from tui.cli.main import build_parser\n"
        "app = SkilldeckApp(make_demo(pathlib.Path(tempfile.mkdtemp())))\n"
        "async def main():\n"
        "    async with app.run_test() as pilot:\n"
        "        while not app.loaded_once:\n"
        "            await pilot.pause(0.02)\n"
        "asyncio.run(main())\n"
        "print('anthropic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "False"
