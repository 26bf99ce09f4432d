"""(issue 36) The gemini host: not written yet."""

from __future__ import annotations

from .host import SkillHost

GEMINI: SkillHost
