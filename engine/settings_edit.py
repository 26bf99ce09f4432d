"""Adding and removing permission rules without ever damaging a settings file.

Each edit holds an exclusive lock (a `.lock` file beside the settings file, so that the lock
survives the rename), reads the file, refuses to touch it if it does not parse, changes only
`permissions.<behavior>`, and writes a temporary file in the same folder, fsyncs it and renames
it over the original: a reader sees the old file or the new one, never half of one. Every other
key keeps its value and its place; the output uses two-space indentation and a final newline.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .locations import Locations
from .rules import parse_rule
from .settings import BEHAVIORS

EDITABLE_SCOPES = ("local", "project", "user")


class SettingsEditError(Exception):
    """The edit was refused; the file is unchanged. The message says why and what to do."""


def scope_path(locations: Locations, scope: str) -> Path:
    paths = {s: p for s, p in locations.settings_files() if s != "managed"}
    if scope not in paths:
        raise SettingsEditError(f"unknown scope {scope!r}; use one of {', '.join(EDITABLE_SCOPES)}")
    return paths[scope]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsEditError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "it was left untouched. Fix it by hand, then try again."
        ) from None
    if not isinstance(data, dict):
        raise SettingsEditError(f"{path} does not hold a JSON object; it was left untouched")
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, path.stat().st_mode & 0o777)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _checked(rule: str, behavior: str) -> str:
    if behavior not in BEHAVIORS:
        raise SettingsEditError(f"unknown behavior {behavior!r}; use allow, ask or deny")
    parsed = parse_rule(rule)
    if parsed is None:
        raise SettingsEditError(f"{rule!r} is not a rule: write Tool or Tool(specifier), e.g. Skill(deploy)")
    return parsed.text


def add_rule(path: Path, rule: str, behavior: str) -> bool:
    """Add `rule` to `permissions.<behavior>` in `path`. False when it was already there."""
    text = _checked(rule, behavior)
    with _locked(path):
        data = _read(path)
        permissions = data.setdefault("permissions", {})
        if not isinstance(permissions, dict):
            raise SettingsEditError(f"{path}: `permissions` is not an object; it was left untouched")
        rules = permissions.setdefault(behavior, [])
        if not isinstance(rules, list):
            raise SettingsEditError(f"{path}: `permissions.{behavior}` is not a list; it was left untouched")
        if text in rules:
            return False
        rules.append(text)
        _write(path, data)
        return True


def remove_rule(path: Path, rule: str, behavior: str | None = None) -> list[str]:
    """Remove `rule` from `path` (from every list, or only `behavior`'s). Returns the lists
    it was removed from; the file is not rewritten when there was nothing to remove."""
    text = _checked(rule, behavior or "allow")
    with _locked(path):
        if not path.exists():
            return []
        data = _read(path)
        permissions = data.get("permissions")
        removed = []
        if isinstance(permissions, dict):
            for name in (behavior,) if behavior else BEHAVIORS:
                rules = permissions.get(name)
                if isinstance(rules, list) and text in rules:
                    permissions[name] = [r for r in rules if r != text]
                    removed.append(name)
        if removed:
            _write(path, data)
        return removed
