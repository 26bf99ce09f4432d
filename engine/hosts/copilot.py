"""(issue 36) The copilot host: not written yet."""

from __future__ import annotations

from .host import SkillHost

COPILOT: SkillHost
