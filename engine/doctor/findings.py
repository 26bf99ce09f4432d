"""A doctor finding: which plugin or marketplace, how bad, a stable code, what happened and the fix."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Finding:
    plugin: str | None
    marketplace: str | None
    severity: str
    code: str
    message: str
    # The exact command or edit that fixes it ("" for a note that needs none).
    fix: str
    path: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "plugin": self.plugin,
            "marketplace": self.marketplace,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "fix": self.fix,
            "path": None if self.path is None else str(self.path),
        }


@dataclass
class Findings:
    items: list[Finding] = field(default_factory=list)

    def add(
        self, severity: str, code: str, message: str, fix: str, *, plugin: str | None = None, path: Path | None = None,
        marketplace: str | None = None,
    ) -> None:  # fmt: skip
        if marketplace is None and plugin is not None and "@" in plugin:
            marketplace = plugin.rpartition("@")[2]
        self.items.append(Finding(plugin, marketplace, severity, code, message, fix, path))
