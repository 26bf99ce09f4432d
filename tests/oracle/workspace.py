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
     "padded": {"{project}/big.md": {"text": "---\n...", "size": 1000001}},   # padded with x lines
     "binary": {"{project}/raw.md": "<base64>"},
     "archives": {"{outside}/corpus": "corpus/wshobson-agents.tar.gz"},   # extracted there
     "many": [{"dir": "{project}/.claude/skills", "count": 40, "desc_chars": 900, "prefix": "s"}],
     "cwd": "{project}/sub",     # where Claude Code starts (default: {project})
     "claude_json": {...},       # merged into {home}/.claude.json
     "usage": {"deploy": [3, 2]},   # skillUsage: used 3 times, last 2 days ago
     "tools": ["Bash", "Glob"],  # --tools for the run (2.1.328 offers Glob and Grep only when named)
     "setup": "git commit ...",  # a shell script (our own) run in {project} last: git repositories
     "calls": [{"tool": "Bash", "input": {"command": "echo hi"}, "marker": "x"}]}

`marker` (default `x`) is a file in the project that the call creates only if something it
should not run ran; the recorder checks it after each call and removes it. `watch` is a text
the call should not be able to show (a file name or content outside); for an allowed call the
recording says whether the result held it (`shown`).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CASES = HERE / "cases" / "permissions"
RECORDINGS = HERE / "recordings" / "permissions"
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


def load_cases(kind: str = "permissions") -> dict[str, dict[str, Any]]:
    """Every case of one kind (a folder under cases/), by name."""
    return {p.stem: json.loads(p.read_text()) for p in sorted((HERE / "cases" / kind).glob("*.json"))}


def trust_file(places: Places) -> Path:
    return places.home / ".claude.json"


def skill_usage(case: dict[str, Any], now_ms: int) -> dict[str, Any]:
    """`usage: {"name": [count, days_ago]}` as Claude Code's skillUsage records, aged from `now_ms`."""
    return {
        name: {"usageCount": count, "lastUsedAt": int(now_ms - days * 86_400_000)}
        for name, (count, days) in case.get("usage", {}).items()
    }


def build(case: dict[str, Any], root: Path, git: bool = True, now_ms: int = 0) -> Places:
    """Write the case's workspace under `root` (an empty folder, symlinks resolved); `now_ms`
    is the time the case's `usage` is aged from."""
    places = Places(root)
    for folder in (places.project, places.home / ".claude", places.outside):
        folder.mkdir(parents=True, exist_ok=True)
    if git and case.get("git", True):
        subprocess.run(["git", "init", "-q", str(places.project)], check=True, timeout=30)
    for folder in case.get("dirs", []):
        Path(places.fill(folder)).mkdir(parents=True, exist_ok=True)
    for name, text in case.get("files", {}).items():
        path = Path(places.fill(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(places.fill(text))
    for spec in case.get("many", []):
        # Generated skills: `count` folders under `dir` named `prefix`NNN, each with a description
        # of `desc_chars` characters (a repeated word and the skill's number).
        for number in range(spec["count"]):
            skill = f"{spec.get('prefix', 'skill')}{number:03d}"
            words = (f"{skill} " + "lorem " * (spec["desc_chars"] // 6 + 1))[: spec["desc_chars"]].strip()
            path = Path(places.fill(spec["dir"])) / skill / "SKILL.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"---\nname: {skill}\ndescription: {words}\n---\nBody of {skill}.\n")
    for name, spec in case.get("padded", {}).items():
        # A big file: `text`, then lines of `x` up to `size` bytes.
        path = Path(places.fill(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        head = places.fill(spec["text"]).encode()
        rest = max(0, spec["size"] - len(head))
        path.write_bytes(head + (b"x" * 99 + b"\n") * (rest // 100) + b"x" * (rest % 100))
    for name, archive in case.get("archives", {}).items():
        # A real collection, kept compressed in tests/oracle/corpus/ (our own test data: trusted).
        with tarfile.open(HERE / archive) as tar:
            tar.extractall(places.fill(name), filter="data")
    for name, data in case.get("binary", {}).items():
        path = Path(places.fill(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
    for name, target in case.get("symlinks", {}).items():
        link = Path(places.fill(name))
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(places.fill(target))
    for scope, body in case.get("settings", {}).items():
        path = Path(places.fill(SETTINGS_FILES[scope]))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(places.fill(body), indent=2) + "\n")
    if case.get("setup"):
        # Repository states files cannot write (commits, a partial clone): no user or system git
        # config, a fixed identity.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(places.home), "GIT_CONFIG_NOSYSTEM": "1"}
        env |= {
            f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER") for what, value in (("NAME", "t"), ("EMAIL", "t@t"))
        }
        script = places.fill(case["setup"])
        subprocess.run(["sh", "-ec", script], cwd=places.project, env=env, check=True, timeout=120, capture_output=True)
    start_folder(case, places).mkdir(parents=True, exist_ok=True)
    trusted = case.get("trusted")
    # true trusts the project; a path (with placeholders) trusts that folder instead.
    folder = os.path.normpath(places.fill(trusted)) if isinstance(trusted, str) else str(places.project)
    projects = {folder: {"hasTrustDialogAccepted": True}} if trusted else {}
    # `claude_json`: more of the user's ~/.claude.json (skillUsage, ...), merged over the trust record.
    config = {"projects": projects, **places.fill(case.get("claude_json", {}))}
    if case.get("usage"):
        config["skillUsage"] = skill_usage(case, now_ms)
    trust_file(places).write_text(json.dumps(config) + "\n")
    return places
