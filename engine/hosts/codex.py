"""(issue 36) The codex host: not written yet."""

from __future__ import annotations

from .host import SkillHost

CODEX: SkillHost
