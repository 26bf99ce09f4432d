"""The hosts skilldeck can show exactly, by their --agent name, in the order screens list them."""

from __future__ import annotations

from .codex import CODEX
from .copilot import COPILOT
from .gemini import GEMINI
from .host import SkillHost
from .opencode import OPENCODE

DEFAULT = "claude-code"


def hosts() -> dict[str, SkillHost]:
    return {h.key: h for h in (CODEX, GEMINI, OPENCODE, COPILOT)}
