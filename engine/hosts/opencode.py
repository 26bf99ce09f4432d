"""(issue 36) The opencode host: not written yet."""

from __future__ import annotations

from .host import SkillHost

OPENCODE: SkillHost
