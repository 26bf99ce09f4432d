"""The hosts skilldeck can show exactly, by their --agent name, in the order screens list them."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, cast

from .host import SkillHost, view
from .model import DEFAULT, HOST_KEYS, HostView, Place

if TYPE_CHECKING:
    from ..catalog.assembly import Catalog
    from ..catalog.locations import Locations

# Each other agent's module and its host, imported when that agent is asked for: `list --agent
# gemini` need not load OpenCode's collation table or Codex's YAML repair (0.1 s of a run).
_MODULES = {"codex": ("codex", "CODEX"), "gemini": ("gemini", "GEMINI"), "opencode": ("opencode", "OPENCODE"),
            "copilot": ("copilot", "COPILOT")}  # fmt: skip


def host(key: str, model: str | None = None) -> SkillHost:
    """Agent `key`'s host; with `model`, as it runs with that model (Codex CLI alone: see
    MODEL_KEYS)."""
    try:
        module, name = _MODULES[key]
    except KeyError:
        raise ValueError(f"no agent {key!r}: one of {', '.join(HOST_KEYS)}") from None
    if model is not None:
        if key != "codex":
            raise ValueError(f"agent {key!r} sends the same skills block whatever the model")
        from .codex import Codex

        return Codex(model)
    return cast(SkillHost, getattr(importlib.import_module(f".{module}", __package__), name))


def hosts() -> dict[str, SkillHost]:
    """Every other agent's host, in HOST_KEYS order."""
    return {key: host(key) for key in HOST_KEYS if key != DEFAULT}


def host_view(
    key: str, place: Place, locations: Locations | None = None, catalog: Catalog | None = None, model: str | None = None
) -> HostView:
    """What host `key` makes of `place`, run with `model` where its block depends on one (Codex
    CLI; None: the agent's own choice). Claude Code's view comes from skilldeck's own loader
    (`locations` and an already loaded `catalog` save a second load; its model is the listing's)."""
    if key == DEFAULT:
        # Claude Code's loader only when its view is asked for: `list --agent codex` on 15,000
        # skills must not pay for importing the catalog, the listing and the workspace.
        from .claude_code import ClaudeCodeHost

        return ClaudeCodeHost(locations).view(place, catalog)
    return view(host(key, model), place)


def agent_roots(place: Place) -> tuple[Path, ...]:
    """Every folder the other agents read skills from at `place` (for the watcher to follow)."""
    out: dict[Path, None] = {}
    for host in hosts().values():
        for root, _ in host.roots(place):
            out.setdefault(root.path)
    return tuple(out)
