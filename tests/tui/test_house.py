"""The house rules of tui/, read from the source: the app and the CLI use only the engine's public
face (`engine` itself), and only Textual's public API."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every absolute import in a file."""
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, [a.name for a in node.names]))
    return out


def test_tui_imports_only_the_engines_face() -> None:
    offenders = [
        f"{path.relative_to(TUI.parent)}: {module}"
        for path in sorted(TUI.rglob("*.py"))
        for module, _ in _imports(path)
        if module.startswith("engine.")
    ]
    assert offenders == [], "import these from `engine` (engine/__init__.py), adding them to its face if needed"


def test_tui_imports_no_private_textual_module() -> None:
    offenders = [
        f"{path.relative_to(TUI.parent)}: {module}"
        for path in sorted(TUI.rglob("*.py"))
        for module, names in _imports(path)
        if module.split(".")[0] == "textual"
        and (any(part.startswith("_") for part in module.split(".")) or any(n.startswith("_") for n in names))
    ]
    assert offenders == []


def test_every_worker_starts_under_the_error_policy() -> None:
    """A worker started with `run_worker` would end the app when it raises: every one goes
    through tui/workers.py (`start`, or the app's `start_worker`)."""
    offenders = [
        f"{path.relative_to(TUI.parent)}:{node.lineno}"
        for path in sorted(TUI.rglob("*.py"))
        if path.name != "workers.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Attribute) and node.attr == "run_worker"
    ]
    assert offenders == []
