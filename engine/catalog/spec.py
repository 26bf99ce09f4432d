"""Agent Skills specification checks that concern folders rather than one file's frontmatter.

The per-file rules (name, description, compatibility, metadata, allowed-tools, the frontmatter
on line 1) are `spec-*` diagnostics of the load (engine/catalog/fields/). What is left is the folder a user
hands to `skilldeck validate`: the spec's skill is a folder with a SKILL.md, and a folder that
holds none (directly, or one level down as a folder of skills) is no skill at all: an error, so
that validate on a mistyped or emptied folder fails instead of passing with 0 skills checked.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from .assembly import Catalog
from .model import Diagnostic, Severity


def missing_skill_md(paths: Sequence[Path], catalog: Catalog) -> list[Diagnostic]:
    """A `spec-missing` diagnostic for each folder in `paths` under which the catalog holds no
    skill, loaded, shadowed or failed."""
    found = [s.path for s in catalog.skills.values()] + [s.skill.path for s in catalog.shadowed]
    # A SKILL.md that failed to load still counts: its own diagnostic says why.
    failed = [d.path for d in catalog.diagnostics if Path(d.path).name.lower() == "skill.md"]
    files = [os.path.abspath(f) for f in [*found, *failed]]
    out: list[Diagnostic] = []
    for raw in paths:
        folder = Path(os.path.abspath(raw))
        if not os.path.isdir(folder):
            continue  # a file, or nothing: the load already said so
        prefix = str(folder) + os.sep
        if any(f.startswith(prefix) for f in files):
            continue
        out.append(
            Diagnostic(
                Severity.ERROR,
                "spec-missing",
                folder,
                "no SKILL.md here, nor in any folder directly inside: the Agent Skills spec requires a skill folder "
                "to hold a SKILL.md, and Claude Code loads nothing from this one",
                f"add {folder.name}/SKILL.md with name: {folder.name} and a description",
            )
        )
    return out


def with_missing_skill_md(paths: Sequence[Path], catalog: Catalog) -> Catalog:
    """`catalog` with `missing_skill_md` findings added to its diagnostics."""
    found = missing_skill_md(paths, catalog)
    return dataclasses.replace(catalog, diagnostics=catalog.diagnostics + tuple(found)) if found else catalog
