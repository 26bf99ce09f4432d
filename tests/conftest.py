"""Shared helpers: real folders in a temporary directory, shaped like Claude Code's tiers."""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Catalog, Locations, Workspace


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def skill_text(body: str = "Do the thing.\n", **fields: Any) -> str:
    lines = ["---"]
    for key, value in fields.items():
        lines.append(f"{key.replace('__', '-')}: {value}")
    lines.append("---")
    return "\n".join(lines) + "\n" + body


class Tree:
    """A workspace on disk: a project inside a git repository, a user and a managed folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = root / "repo"
        self.project = self.repo
        self.user = root / "user"
        self.managed = root / "managed"
        (self.repo / ".git").mkdir(parents=True)
        self.user.mkdir()
        self.managed.mkdir()
        # The user accepted Claude Code's trust dialog for this project (engine/permissions/trust.py), so its
        # own allow rules count; tests of an untrusted clone call `distrust()`.
        self.trust_file = self.user / ".claude.json"
        self.trust_file.write_text(json.dumps({"projects": {str(self.project): {"hasTrustDialogAccepted": True}}}))

    def distrust(self) -> None:
        self.trust_file.unlink()

    def skills(self, tier: str = "project") -> Path:
        return {
            "project": self.project / ".claude" / "skills",
            "user": self.user / "skills",
            "managed": self.managed / ".claude" / "skills",
        }[tier]

    def skill(self, name: str, text: str | bytes | None = None, tier: str = "project", **fields: Any) -> Path:
        if text is None:
            fields.setdefault("description", f"The {name} skill.")
            text = skill_text(**fields)
        return write(self.skills(tier) / name / "SKILL.md", text)

    def locations(self, **kw: Any) -> Locations:
        kw.setdefault("project", self.project)
        kw.setdefault("user_dir", self.user)
        kw.setdefault("managed_dir", self.managed)
        kw.setdefault("bundled", False)
        kw.setdefault("environ", {})
        return Locations(**kw)

    def load(self, **kw: Any) -> Catalog:
        return Workspace(self.locations(**kw)).load()


@pytest.fixture(autouse=True)
def private_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's state folder (sessions, Claude Code's own skills as recorded, caches, the
    error log) is its own, never the user's: a test run wrote 24 records into the user's
    $XDG_STATE_HOME/skilldeck/claude-own/. Child processes inherit it."""
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def make_chain(top: Path, depth: int) -> Path:
    """`top` holding a chain of `depth` nested folders `a/a/...`; returns the deepest. Built
    relative to a descriptor: os.makedirs recurses per level, and the whole path may pass PATH_MAX."""
    top.mkdir(parents=True)
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("a", dir_fd=fd)
            inner = os.open("a", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    return Path(str(top) + "/a" * depth)


def remove_chain(top: Path, depth: int) -> None:
    """Remove what `make_chain` made (and files in its deepest folder), deepest first:
    shutil.rmtree, and pytest's clean-up of old temporary folders, recurse per level and fail on it."""
    deepest = str(top) + "/a" * depth
    for name in os.listdir(deepest):
        os.unlink(os.path.join(deepest, name))
    for level in range(depth, -1, -1):
        os.rmdir(str(top) + "/a" * level)


def codes(catalog: Catalog, path: Path | None = None) -> list[str]:
    return [d.code for d in catalog.diagnostics if path is None or d.path == path]


def only(catalog: Catalog, code: str) -> Any:
    found = [d for d in catalog.diagnostics if d.code == code]
    assert len(found) == 1, (code, [d.to_dict() for d in catalog.diagnostics])
    return found[0]


Loader = Callable[..., Catalog]


def run_as_nobody(work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `work` in a forked child that, when we are root, first becomes `nobody`: root reads
    every file and has its own inotify quota, so permission and limit errors are only real for
    another user. The child's result comes back as JSON through a pipe; an exception in the
    child comes back as {"error": ...}."""
    import json
    import os

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        result: dict[str, Any]
        try:
            os.close(read_fd)
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            result = work()
        except BaseException as exc:
            result = {"error": repr(exc)}
        finally:
            os.write(write_fd, json.dumps(result).encode())
            os._exit(0)
    os.close(write_fd)
    chunks = []
    while chunk := os.read(read_fd, 65536):
        chunks.append(chunk)
    os.close(read_fd)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks))
