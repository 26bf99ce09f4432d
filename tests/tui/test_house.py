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


def _tui_module(path: Path) -> str:
    parts = list(path.relative_to(TUI.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _tui_imports(path: Path) -> set[str]:
    """The tui modules a file imports, relative or absolute, including those under TYPE_CHECKING
    (an import cycle that only the type checker sees is still one a maintainer must untangle)."""
    here = _tui_module(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    known = {_tui_module(p) for p in TUI.rglob("*.py")}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            # `from . import workers` names a module, not a name in a module.
            candidates = [f"{module}.{a.name}" for a in node.names] + [module]
        elif isinstance(node, ast.Import):
            candidates = [a.name for a in node.names]
        else:
            continue
        found.update(c for c in candidates if c in known and c != "tui")
    return found


def test_no_file_imports_the_app_back_and_tui_has_no_import_cycle() -> None:
    graph = {_tui_module(p): _tui_imports(p) for p in sorted(TUI.rglob("*.py"))}
    # Only the CLI, which starts the app, may import it.
    assert sorted(m for m, deps in graph.items() if "tui.app" in deps) == ["tui.cli.main"]
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep] if dep in path else [module, dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
    # The check sees imports at all: the app imports its panes.
    assert "tui.conversation.pane" in graph["tui.app"] and "tui.workers" in graph["tui.deck"]


def test_the_suite_keeps_its_state_in_a_private_folder(tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """Issue 34: a test run wrote records into the user's own state folder (tests/conftest.py)."""
    import os

    state = Path(os.environ.get("XDG_STATE_HOME", "~/.local/state")).expanduser()
    assert state.is_relative_to(tmp_path_factory.getbasetemp())
