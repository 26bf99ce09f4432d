"""Frontmatter fields as Claude Code reads them, and what is off with them.

The reader (`reader.py`) turns one file's parsed frontmatter into `Skill` fields; it leans on
how Claude Code coerces values (`values.py`), the keys it knows (`names.py`), its reading of
`hooks:` and of hooks written outside it (`hooks.py`), and the Agent Skills spec (`spec.py`).
"""

from __future__ import annotations

from .hooks import GUARD_EVENTS, HOOK_EVENTS, HOOK_TYPES, guard_outside_hooks, hooks_problems, hooks_review
from .names import KNOWN_FIELDS, SPEC_FIELDS, suggest_field
from .reader import MAX_UNKNOWN_REPORTED, FieldReader
from .spec import BODY_LIMIT, LIMITS, SPEC_COMPATIBILITY_MAX, SPEC_NAME_MAX, SpecChecks, spec_name_problems
from .values import EFFORT_LEVELS, as_bool, cc_paths, effort_level, split_tools

__all__ = [
    "BODY_LIMIT",
    "EFFORT_LEVELS",
    "GUARD_EVENTS",
    "HOOK_EVENTS",
    "HOOK_TYPES",
    "KNOWN_FIELDS",
    "LIMITS",
    "MAX_UNKNOWN_REPORTED",
    "SPEC_COMPATIBILITY_MAX",
    "SPEC_FIELDS",
    "SPEC_NAME_MAX",
    "FieldReader",
    "SpecChecks",
    "as_bool",
    "cc_paths",
    "effort_level",
    "guard_outside_hooks",
    "hooks_problems",
    "hooks_review",
    "spec_name_problems",
    "split_tools",
    "suggest_field",
]
