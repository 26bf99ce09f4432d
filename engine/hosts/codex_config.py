"""What Codex CLI 0.169.0 takes from its user config about skills: `[[skills.config]]` switch-offs
by path or by name, and the warning it prints for `[features] skills` (docs/agents.md, Codex CLI,
"Switching a skill off"); and the `model` and `model_context_window` that size its budget
(model_in_config, model_window_small). The project's `.codex/config.toml` does nothing for
skills, trusted or not (switched_off_project), so only `$CODEX_HOME/config.toml` is read.

The file is someone else's: read through safeio with a cap, parsed by tomllib (pure Python: a
deep nesting is a RecursionError, caught), and a broken file never raises: it becomes a log line.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular
from .model import Place

# Far past any real config.toml (a few kilobytes); tomllib reads a megabyte in well under a second.
MAX_CONFIG_BYTES = 1_000_000


@dataclass(frozen=True)
class Rule:
    by: str  # "path" or "name"
    value: str  # the absolute SKILL.md path (symlinks resolved) or the exact name
    enabled: bool


@dataclass
class Switches:
    path: Path
    rules: list[Rule] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)  # what Codex (or skilldeck for it) says about them
    model: str | None = None  # top-level `model`: the model it runs with when not given one
    window: int | None = None  # top-level `model_context_window`

    @cached_property
    def _index(self) -> dict[tuple[str, str], int]:
        """Each selector's place in `rules` (one rule per selector): a skill is looked up once
        instead of against every rule, and a config may hold thousands."""
        return {(rule.by, rule.value): at for at, rule in enumerate(self.rules)}

    def off(self, name: str, paths: tuple[str, ...]) -> Rule | None:
        """The rule that leaves this skill off (rules apply in order: the last that names it by
        name or by path wins), or None."""
        index = self._index
        found = [index.get(("name", name), -1), *(index.get(("path", p), -1) for p in paths)]
        last = max(found)
        return self.rules[last] if last >= 0 and not self.rules[last].enabled else None


def codex_home(place: Place) -> Path:
    """`$CODEX_HOME` when set (relative to the start folder, as a shell would resolve it), else
    `~/.codex`."""
    given = place.environ.get("CODEX_HOME")
    if not given:
        return place.home / ".codex"
    return Path(os.path.normpath(place.start / given))


def switches(place: Place) -> Switches:
    home = codex_home(place)
    path = home / "config.toml"
    out = Switches(path)
    try:
        data, _ = read_regular(path, cap=MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return out
    except OSError as exc:
        out.logs.append(f"{path}: cannot be read ({exc.strerror or exc}); skilldeck reads no skill switch-offs from it")
        return out
    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
        out.logs.append(
            f"{path}: not valid TOML ({str(exc)[:200]}); Codex CLI stops with an error until it is fixed, "
            "and skilldeck reads no skill switch-offs from it"
        )
        return out
    model, window = config.get("model"), config.get("model_context_window")
    out.model = model if isinstance(model, str) else None
    # A TOML integer (a bool is no window; Codex reads it into a whole number of tokens).
    out.window = window if isinstance(window, int) and not isinstance(window, bool) else None
    features = config.get("features")
    if isinstance(features, dict) and "skills" in features:
        out.logs.append(f"user ({path}): `features.skills` is ignored.")
    skills = config.get("skills")
    if skills is None:
        return out
    rules = _rules(skills, home)
    if isinstance(rules, str):
        out.logs.append(f"invalid skills config: {rules} ({path}); Codex CLI ignores every [[skills.config]] entry")
    else:
        out.rules = rules
    return out


def _rules(skills: Any, home: Path) -> list[Rule] | str:
    """The entries in order, a later one for the same selector replacing the earlier; or why the
    whole table is unusable (Codex then ignores all of it)."""
    if not isinstance(skills, dict):
        return "`skills` is not a table"
    entries = skills.get("config", [])
    if not isinstance(entries, list):
        return "`skills.config` is not an array of tables"
    rules: list[Rule] = []
    for entry in entries:
        if not isinstance(entry, dict):
            return "an entry of `skills.config` is not a table"
        path, name, enabled = entry.get("path"), entry.get("name"), entry.get("enabled")
        if not isinstance(enabled, bool):
            return "an entry of `skills.config` has no `enabled = true|false`"
        if (path is not None and not isinstance(path, str)) or (name is not None and not isinstance(name, str)):
            return "`path` and `name` in `skills.config` must be strings"
        if (path is None) == (name is None):
            continue  # both or neither: Codex warns and skips the entry
        if path is not None:
            # Codex resolves the path it is given; skills are matched as reached and as resolved.
            try:
                rule = Rule("path", os.path.realpath(home / path), enabled)
            except (OSError, ValueError):  # a NUL in the path: no file has that name
                continue
        else:
            if not str(name).strip():
                continue
            rule = Rule("name", str(name).strip(), enabled)
        rules.append(rule)
    # A later entry for the same selector replaces the earlier one, taking its place in the order.
    last = {(rule.by, rule.value): at for at, rule in enumerate(rules)}
    return [rule for at, rule in enumerate(rules) if last[(rule.by, rule.value)] == at]
