"""The hosts skilldeck can show exactly, by their --agent name, in the order screens list them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .codex import CODEX
from .copilot import COPILOT
from .gemini import GEMINI
from .host import SkillHost, view
from .model import DEFAULT, HOST_KEYS, HostView, Place
from .opencode import OPENCODE

if TYPE_CHECKING:
    from ..catalog.assembly import Catalog
    from ..catalog.locations import Locations


def hosts() -> dict[str, SkillHost]:
    return {h.key: h for h in (CODEX, GEMINI, OPENCODE, COPILOT)}


def host_view(key: str, place: Place, locations: Locations | None = None, catalog: Catalog | None = None) -> HostView:
    """What host `key` makes of `place`. Claude Code's view comes from skilldeck's own loader
    (`locations` and an already loaded `catalog` save a second load)."""
    if key == DEFAULT:
        # Claude Code's loader only when its view is asked for: `list --agent codex` on 15,000
        # skills must not pay for importing the catalog, the listing and the workspace.
        from .claude_code import ClaudeCodeHost

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
