"""What Claude Code adds to the listing after the model reads or edits a file: the skills a
touch brings in, as the listing update it sends (a what-if: "after touching PATH").

Recorded on Claude Code 2.1.328 (tests/oracle/cases/invoke/run_paths_read, run_nested_read_clash,
run_nested_read_then_paths): after a tool touches a file, the next request carries a system
message with

- for each `.claude/skills` below the start folder that the file is under and that was not
  loaded yet: `New skills discovered in <dir>/.claude/skills, now available via the Skill tool:`
  and one `- name` line per skill, then a blank line;
- the listing header, a blank line, and a line per new entry: first the `paths:` skills whose
  patterns the file matches, in catalog order, then the nested skills. A nested skill whose
  name a loaded or active skill has (a `paths:` skill the same touch activates included) is
  `<dir>:name`, described as scoped to `<dir>/`; any other says where it is from. A nested
  skill loaded earlier under its plain name that a `paths:` skill now takes is sent again,
  scoped.

Patterns are read as Claude Code reads `paths:` (sources/pathsglob.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..catalog.assembly import Catalog
from ..catalog.model import Skill
from ..catalog.sources.pathsglob import paths_match
from .build import HEADER, entry_text


@dataclass
class TouchState:
    """What earlier touches of the session brought in: the `paths:` skills active (by path) and
    the nested skills loaded (by path, under the name each was sent with)."""

    active: set[Path] = field(default_factory=set)
    nested: dict[Path, str] = field(default_factory=dict)


def listing_update(catalog: Catalog, start: Path, touched: Path, state: TouchState | None = None) -> str:
    """The listing update Claude Code sends after a tool touches `touched` (absolute, or relative
    to the start folder), given what earlier touches brought in (`state`, updated); "" when the
    touch brings in nothing."""
    state = state if state is not None else TouchState()
    start = Path(os.path.realpath(start))
    path = touched if touched.is_absolute() else start / touched
    rel = _relative(Path(os.path.normpath(path)), start)
    waiting = [s for s in catalog.deferred if s.activation == "paths"]
    taken = set(catalog.skills) | {_base(s) for s in waiting if s.path in state.active}
    activated = [s for s in waiting if s.path not in state.active and paths_match(s.paths, rel)]
    taken |= {_base(s) for s in activated}
    state.active.update(s.path for s in activated)
    lines = [_line(s, _base(s), "") for s in activated if s.model_invocable]
    renamed = []
    for skill in catalog.deferred:
        sent = state.nested.get(skill.path)
        if skill.activation == "nested" and sent is not None and ":" not in sent and sent in {_base(s) for s in activated}:
            scoped = f"{skill.source.scope}:{sent}"
            state.nested[skill.path] = scoped
            if skill.model_invocable:
                renamed.append(_line(skill, scoped, skill.source.scope))
    discovered: dict[str, list[str]] = {}
    nested_lines = []
    for skill in catalog.deferred:
        scope = skill.source.scope
        if skill.activation != "nested" or skill.path in state.nested or rel is None or not _under(rel, scope):
            continue
        base = _base(skill)
        name = f"{scope}:{base}" if base in taken else base
        state.nested[skill.path] = name
        discovered.setdefault(scope, []).append(name)
        if skill.model_invocable:
            nested_lines.append(_line(skill, name, scope if ":" in name else "", origin=scope))
    body = [*lines, *renamed, *nested_lines]
    if not body and not discovered:
        return ""
    head = "".join(
        f"New skills discovered in {scope}/.claude/skills, now available via the Skill tool:\n"
        + "".join(f"- {name}\n" for name in names)
        + "\n"
        for scope, names in discovered.items()
    )
    return head + "\n".join([HEADER, "", *body]) if body else head.rstrip("\n")


def listing_updates(catalog: Catalog, start: Path, touched: Iterable[Path]) -> list[str]:
    """The update after each touch of a session, in order."""
    state = TouchState()
    return [listing_update(catalog, start, path, state) for path in touched]


def _base(skill: Skill) -> str:
    scope = skill.scope or skill.source.scope
    return skill.name.removeprefix(f"{scope}:") if scope else skill.name


def _line(skill: Skill, name: str, scope: str, origin: str = "") -> str:
    text, _ = entry_text(replace(skill, name=name, scope=scope))
    if origin and not scope:
        # Placed as entry_text places the scoped note: before a when_to_use.
        note = f" (from {origin}/.claude/skills — applies when working on files under {origin}/)"
        text = _with_note(skill, note)
    return f"- {name}: {text}"


def _with_note(skill: Skill, note: str) -> str:
    text = f"{skill.description}{note}"
    if skill.when_to_use:
        text = f"{text} - {skill.when_to_use}"
    bare, _ = entry_text(replace(skill, description=text, when_to_use="", scope=""))
    return bare


def _relative(path: Path, start: Path) -> str | None:
    try:
        return path.relative_to(start).as_posix()
    except ValueError:
        return None


def _under(rel: str, scope: str) -> bool:
    return bool(scope) and (rel == scope or rel.startswith(scope + "/"))
