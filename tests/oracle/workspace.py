"""A permission case as files: the project, a private home and a folder outside both.

A case is JSON (tests/oracle/cases/permissions/*.json). Paths are written with placeholders,
`{project}`, `{home}` and `{outside}`, so the recorder and the tests rebuild the same workspace
anywhere:

    {"about": "...",
     "settings": {"user": {...}, "project": {...}, "local": {...}},   # each a settings.json body
     "trusted": true,            # projects[{project}].hasTrustDialogAccepted in {home}/.claude.json
                                 # (or a folder: "{project}/.." trusts the folder above)
     "files": {"{project}/README.md": "text"},
     "dirs": ["{project}/src"],
     "symlinks": {"{project}/docs": "{outside}"},
     "cwd": "{project}/sub",     # where Claude Code starts (default: {project})
     "tools": ["Bash", "Glob"],  # --tools for the run (2.1.328 offers Glob and Grep only when named)
     "calls": [{"tool": "Bash", "input": {"command": "echo hi"}, "marker": "x"}]}

`marker` (default `x`) is a file in the project that the call creates only if something it
should not run ran; the recorder checks it after each call and removes it. `watch` is a text
the call should not be able to show (a file name or content outside); for an allowed call the
recording says whether the result held it (`shown`).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CASES = Path(__file__).parent / "cases" / "permissions"
RECORDINGS = Path(__file__).parent / "recordings" / "permissions"
SETTINGS_FILES = {"user": "{home}/.claude/settings.json", "project": "{project}/.claude/settings.json",
                  "local": "{project}/.claude/settings.local.json"}  # fmt: skip


@dataclass(frozen=True)
class Places:
    root: Path

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    def fill(self, value: Any) -> Any:
        """`value` with every placeholder replaced, inside strings, lists and dicts."""
        if isinstance(value, str):
            return (
                value.replace("{project}", str(self.project))
                .replace("{home}", str(self.home))
                .replace("{outside}", str(self.outside))
            )
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, dict):
            return {self.fill(k): self.fill(v) for k, v in value.items()}
        return value


def start_folder(case: dict[str, Any], places: Places) -> Path:
    """The folder Claude Code is started in: the project unless the case says otherwise."""
    return Path(places.fill(case.get("cwd", "{project}")))


def load_cases() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(CASES.glob("*.json"))}


def trust_file(places: Places) -> Path:
    return places.home / ".claude.json"


def build(case: dict[str, Any], root: Path, git: bool = True) -> Places:
    """Write the case's workspace under `root` (an empty folder, symlinks resolved)."""
    places = Places(root)
    for folder in (places.project, places.home / ".claude", places.outside):
        folder.mkdir(parents=True, exist_ok=True)
    if git:
        subprocess.run(["git", "init", "-q", str(places.project)], check=True, timeout=30)
    for folder in case.get("dirs", []):
        Path(places.fill(folder)).mkdir(parents=True, exist_ok=True)
    for name, text in case.get("files", {}).items():
        path = Path(places.fill(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(places.fill(text))
    for name, target in case.get("symlinks", {}).items():
        link = Path(places.fill(name))
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(places.fill(target))
    for scope, body in case.get("settings", {}).items():
        path = Path(places.fill(SETTINGS_FILES[scope]))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(places.fill(body), indent=2) + "\n")
    start_folder(case, places).mkdir(parents=True, exist_ok=True)
    trusted = case.get("trusted")
    # true trusts the project; a path (with placeholders) trusts that folder instead.
    folder = os.path.normpath(places.fill(trusted)) if isinstance(trusted, str) else str(places.project)
    projects = {folder: {"hasTrustDialogAccepted": True}} if trusted else {}
    trust_file(places).write_text(json.dumps({"projects": projects}) + "\n")
    return places
