"""The bounded, cycle-safe walk of skills and commands folders.

Claude Code only looks at `<skills>/<dir>/SKILL.md`. Everything else a user may have put in a
skills folder (a loose `foo.md`, a `skill.md`, a skill nested one level too deep, a dangling
symlink) is reported here instead of being skipped silently. The walk is bounded: depth 6, 2,000
folders per root explained when they are not skills (skill folders are never bounded: Claude
Code loads them all), 100,000 names read per root (a hostile folder), cycles detected by
canonical path. Hidden folders load, as in Claude Code
2.1.328 (`.hidden/SKILL.md` is the skill `.hidden`, `commands/.x.md` the command `.x`); a skills
folder named `synced` is reserved for Claude Code's account sync and never loads.

Each result is in Claude Code's order: `localeCompare` of the names (sources/collate.py).

What every walk shares (bounds, cycles, symlinks, listing a folder): `walk.py`; skills folders:
`skills.py`; commands folders: `commands.py`.
"""

from __future__ import annotations

from .commands import MAX_COMMAND_DEPTH, scan_commands_root
from .skills import RESERVED_DIR, NameResult, lowercase_skill_file, plugin_skill_stem, scan_skills_root, single_skill
from .walk import MAX_DEPTH, MAX_DIRS_PER_ROOT, MAX_NAMES_PER_ROOT, entry_order, real_folder, root_problem

__all__ = [
    "MAX_COMMAND_DEPTH",
    "MAX_DEPTH",
    "MAX_DIRS_PER_ROOT",
    "MAX_NAMES_PER_ROOT",
    "RESERVED_DIR",
    "NameResult",
    "entry_order",
    "lowercase_skill_file",
    "plugin_skill_stem",
    "real_folder",
    "root_problem",
    "scan_commands_root",
    "scan_skills_root",
    "single_skill",
]
