"""What each other agent would refuse of a set of SKILL.md files, wherever they stood: the
warnings `skilldeck validate` adds (valid in Claude Code, refused by Codex CLI)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..base.safeio import read_regular
from ..catalog.model import Diagnostic, Severity
from .host import MAX_SKILL_BYTES
from .model import Refusal, Root, Scope
from .registry import hosts
from .walk import SKILL_FILE


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
