"""The hosts skilldeck can show exactly, by their --agent name, in the order screens list them."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..base.safeio import read_regular
from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..catalog.model import Diagnostic, Severity
from .claude_code import ClaudeCodeHost
from .codex import CODEX
from .copilot import COPILOT
from .gemini import GEMINI
from .host import MAX_SKILL_BYTES, SkillHost, view
from .model import DEFAULT, HOST_KEYS, HostView, Place, Refusal, Root, Scope
from .opencode import OPENCODE
from .walk import SKILL_FILE


def hosts() -> dict[str, SkillHost]:
    return {h.key: h for h in (CODEX, GEMINI, OPENCODE, COPILOT)}


def host_view(key: str, place: Place, locations: Locations | None = None, catalog: Catalog | None = None) -> HostView:
    """What host `key` makes of `place`. Claude Code's view comes from skilldeck's own loader
    (`locations` and an already loaded `catalog` save a second load)."""
    if key == DEFAULT:
        return ClaudeCodeHost(locations).view(place, catalog)
    try:
        host = hosts()[key]
    except KeyError:
        raise ValueError(f"no agent {key!r}: one of {', '.join(HOST_KEYS)}") from None
    return view(host, place)


def agent_roots(place: Place) -> tuple[Path, ...]:
    """Every folder the other agents read skills from at `place` (for the watcher to follow)."""
    out: dict[Path, None] = {}
    for host in hosts().values():
        for root, _ in host.roots(place):
            out.setdefault(root.path)
    return tuple(out)


def refusals(paths: Iterable[Path]) -> list[Diagnostic]:
    """For each SKILL.md, a warning per agent that would refuse it wherever it stood: its reason in
    that agent's words, and the fix (`skilldeck validate`: valid in Claude Code, refused by Codex)."""
    out: list[Diagnostic] = []
    for path in paths:
        if path.name != SKILL_FILE:
            continue
        try:
            data, _ = read_regular(path, cap=MAX_SKILL_BYTES)
        except OSError:
            continue  # Claude Code's own diagnostics already say why it cannot be read
        root = Root(path.parent.parent, Scope.PROJECT, "")
        for host in hosts().values():
            read = host.read(data, str(path), root)
            if isinstance(read, Refusal):
                message = f"{host.title} {host.version} refuses it: {read.why}"
                out.append(Diagnostic(Severity.WARNING, "agent-refused", path, message, read.fix, line=read.line))
    return out
