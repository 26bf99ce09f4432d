"""Agent types a forked skill may name (`agent:`), and the tools each one gets.

Built in: `general-purpose` (every tool), `Explore` and `Plan` (every tool but the ones that
write files: Claude Code gives them Bash, Read and Skill, recorded in run_forks). Custom agents are
Markdown files with frontmatter in `.claude/agents/` of the project (its folders up to the
repository root, nearest first) and in the user folder's `agents/`; they are known by their
frontmatter `name` (the file name when it has none), and the project's win over the user's, as
in Claude Code. `tools:` (a comma list or a YAML list) is what the agent may use, every tool when
absent; `disallowedTools:` is taken away from that.

An agent that is named but cannot be found or read is an `AgentError`: Claude Code falls back to
general-purpose there, which would hand a skill that asked for a narrow agent every tool, so
skilldeck refuses to run the fork and says why instead. Agent files come from a cloned
repository: each is read through safeio with a cap, parsed with the bounded frontmatter parser,
and only so many files are looked at.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular_text
from ..catalog.fields import split_tools
from ..catalog.frontmatter import parse, split
from ..catalog.locations import Locations

BUILTIN = ("general-purpose", "Explore", "Plan")
READ_ONLY_AGENTS = ("Explore", "Plan")
AGENT_FILE_CAP = 256 * 1024
MAX_AGENT_FILES = 500


class AgentError(Exception):
    """The agent a skill names cannot be used; the message says where skilldeck looked."""


@dataclass(frozen=True)
class Agent:
    name: str
    # None: every tool the run has; otherwise only these tool names.
    tools: tuple[str, ...] | None = None
    disallowed: tuple[str, ...] = ()
    model: str | None = None
    path: Path | None = None

    def may_use(self, tool: str, writers: Iterable[str]) -> bool:
        """Whether this agent is given `tool` (`writers`: the tools a read-only agent lacks)."""
        if tool in self.disallowed:
            return False
        if self.path is None and self.name in READ_ONLY_AGENTS:
            return tool not in set(writers)
        return self.tools is None or tool in self.tools

    def pick(self, available: dict[str, Any], writers: Iterable[str]) -> dict[str, Any]:
        """The subset of `available` tools this agent may use (never more than it says)."""
        names = tuple(writers)
        return {k: v for k, v in available.items() if self.may_use(k, names)}


def agent_folders(locations: Locations) -> list[Path]:
    """Where custom agents live, highest precedence first."""
    return [d / ".claude" / "agents" for d in locations.project_dirs()] + [locations.user / "agents"]


def _names(value: Any, path: Path, key: str) -> tuple[str, ...] | None:
    """Tool names of a `tools`-like field: `Read, Grep`, `[Read, Grep]`; `Bash(git *)` counts as Bash."""
    if value is None:
        return None
    if isinstance(value, str):
        items: list[Any] = split_tools(value)
    elif isinstance(value, list):
        items = value
    else:
        raise AgentError(f"{path}: `{key}` must be a comma list or a list of tool names, not {type(value).__name__}")
    return tuple(str(item).split("(", 1)[0].strip() for item in items if isinstance(item, str) and item.strip())


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    """The agent's name and frontmatter; AgentError when the file cannot be read as one."""
    try:
        text = read_regular_text(path, AGENT_FILE_CAP, errors="replace")
    except OSError as exc:
        raise AgentError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    parts = split(text)
    if not parts.terminated:
        raise AgentError(f"{path}: no frontmatter (--- lines) to read the agent from")
    parsed = parse(parts.yaml_text)
    if parsed.error is not None or parsed.not_mapping:
        problem = parsed.error.message if parsed.error else f"the frontmatter is a {parsed.not_mapping}, not a mapping"
        raise AgentError(f"{path}: the frontmatter cannot be read ({problem})")
    name = parsed.data.get("name")
    return (name.strip() if isinstance(name, str) and name.strip() else path.stem), parsed.data


def _candidates(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as entries:
            found = []
            for n, entry in enumerate(entries):
                if n >= MAX_AGENT_FILES:
                    break
                if entry.name.endswith(".md"):
                    found.append(Path(entry.path))
    except OSError:
        return []
    return sorted(found)


def find_agent(locations: Locations, name: str) -> Agent:
    """The agent called `name`: a custom one first, then a built-in; AgentError if there is none."""
    problems: list[str] = []
    for folder in agent_folders(locations):
        for path in _candidates(folder):
            try:
                found, data = _read(path)
            except AgentError as exc:
                # A broken file named after the agent is that agent: never fall back past it.
                if path.stem == name:
                    raise
                problems.append(str(exc))
                continue
            if found != name:
                continue
            model = data.get("model")
            return Agent(
                name,
                _names(data.get("tools"), path, "tools"),
                _names(data.get("disallowedTools", data.get("disallowed-tools")), path, "disallowedTools") or (),
                model if isinstance(model, str) and model != "inherit" else None,
                path,
            )
    if name in BUILTIN:
        return Agent(name)
    where = ", ".join(str(f) for f in agent_folders(locations))
    note = f" ({len(problems)} agent file(s) there could not be read)" if problems else ""
    raise AgentError(
        f"Agent {name!r} not found in {where}{note}. Claude Code would run the fork as general-purpose with every "
        "tool; skilldeck does not run it with more tools than its agent allows. Add the agent file, or change `agent:`."
    )
