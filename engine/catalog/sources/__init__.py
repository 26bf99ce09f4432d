"""Loaders: one per kind of source. Each yields tier roots in precedence order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import LoadedFrom, Source
from ..skillfile import Entry


@dataclass(frozen=True, slots=True)
class Tier:
    """A source and the files found in it, ready to be read."""

    source: Source
    entries: tuple[Entry, ...]
    loaded_from: LoadedFrom
    # Consecutive tiers with the same key are listed as one, sorted by name (Claude Code sorts
    # all legacy commands together, whichever folder they come from).
    merge: str = ""
    # The tier's skills are not available at session start (a nested `.claude/skills`).
    nested: bool = False
    # Per file, fields a plugin manifest sets over the file's own (its `commands` map).
    overrides: Mapping[Path, Mapping[str, Any]] | None = None
