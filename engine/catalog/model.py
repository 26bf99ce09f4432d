"""The catalog's vocabulary: immutable values that may cross threads.

Nothing here touches the disk except `Skill.read_body`, which reads on demand so that a
catalog of ten thousand skills never holds their bodies in memory.
"""

from __future__ import annotations

import enum
import os
from dataclasses import asdict, dataclass, field
from json.encoder import encode_basestring as _json_text  # the C encoder's, as json.dumps(ensure_ascii=False)
from pathlib import Path
from typing import Any

from ..base.fastinit import init_by_slots
from ..base.safeio import read_regular
from .frontmatter import decode, split

# Claude Code skips a SKILL.md in a skills folder over 1,000,000 bytes, and a command file or a
# plugin's skill or command over 1,048,576 bytes ("[skills] skipping ...: N bytes exceeds 1000000
# byte limit", "loadMarkdownFilesFromDir: skipping ...", "Skipping plugin skill ...").
SKILL_MAX_BYTES = 1_000_000
MARKDOWN_MAX_BYTES = 1_048_576
# The most any skill file is read to (the larger limit): `Skill.read_body` reads with it.
MAX_FILE_BYTES = MARKDOWN_MAX_BYTES


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class SourceKind(enum.StrEnum):
    """Where a skill comes from, in the order skilldeck shows tiers and resolves clashes."""

    MANAGED = "managed"
    USER = "user"
    PROJECT = "project"
    ADD_DIR = "add-dir"
    PLUGIN = "plugin"
    COMMANDS = "commands"
    BUNDLED = "bundled"
    PATH = "path"  # `skilldeck validate PATH`: a folder named on the command line

    @property
    def rank(self) -> int:
        return _KIND_ORDER.index(self)


_KIND_ORDER = list(SourceKind)


class LoadedFrom(enum.StrEnum):
    """The file format a skill was read from (the seeds' `loadedFrom`)."""

    SKILLS = "skills"
    COMMANDS = "commands_DEPRECATED"
    PLUGIN = "plugin"
    BUNDLED = "bundled"


@dataclass(frozen=True, slots=True)
class Source:
    """One tier root: a skills folder, a commands folder, a plugin or the bundled set."""

    kind: SourceKind
    root: Path
    label: str
    # Position among all sources of the workspace; lower wins a name clash.
    order: int = 0
    plugin: str | None = None
    # The folder a name clash is scoped to, as Claude Code writes it (`extra`, `apps/web`): set
    # for --add-dir folders and for `.claude/skills` folders below the start folder.
    scope: str = ""
    # A plugin of a `--marketplace` folder: what installing it would give, not what Claude Code loads.
    preview: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = {
            "kind": self.kind.value,
            "root": str(self.root),
            "label": self.label,
            "plugin": self.plugin,
            "scope": self.scope,
        }
        return out | {"preview": True} if self.preview else out


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding about one file: what Claude Code will do with it, where, and what to do."""

    severity: Severity
    code: str
    path: Path
    message: str
    hint: str = ""
    line: int | None = None
    column: int | None = None
    skill: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "path": str(self.path),
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
            "skill": self.skill,
        }

    def to_json(self) -> str:
        """`to_dict()` as `json.dumps(..., ensure_ascii=False)` writes it, from one format string (as
        `Skill.to_json`: a catalog of 15,000 skills may hold as many diagnostics, one per skill).
        A value of another type than the field's (TypeError) is written the way json.dumps writes it."""
        try:
            return _diagnostic_json(self)
        except TypeError:
            import json

            return json.dumps(self.to_dict(), ensure_ascii=False, default=str)

    def where(self) -> str:
        if self.line is None:
            return str(self.path)
        if self.column is None:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Skill:
    """A loaded skill or command, as Claude Code would see it."""

    name: str
    display_name: str
    description: str
    # "frontmatter": the author wrote it; "body": taken from the first line of the body;
    # "default": the body was empty too.
    description_source: str
    source: Source
    loaded_from: LoadedFrom
    path: Path
    when_to_use: str | None = None
    argument_hint: str | None = None
    arguments: tuple[str, ...] = ()
    disable_model_invocation: bool = False
    user_invocable: bool = True
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    model: str | None = None
    effort: str | None = None
    context: str = "inline"
    agent: str | None = None
    background: bool = False
    hooks: Any = None
    paths: tuple[str, ...] = ()
    shell: str | None = None
    license: str | None = None
    compatibility: str | None = None
    metadata: Any = None
    version: str | None = None
    # Character offset and length of the body in the decoded file: the body is re-read when
    # asked for, never kept.
    body_offset: int = 0
    body_chars: int = 0
    # (device, inode) and (mtime_ns, size) of the file as read, for de-duplication and for
    # telling a changed file from an unchanged one without reading it.
    inode: tuple[int, int] | None = field(default=None, compare=False)
    stamp: tuple[int, int] = (0, 0)
    # When Claude Code makes the skill available: "start" (at session start, listed), "paths"
    # (a `paths:` skill: only once a file matching its paths is touched), "nested" (a
    # `.claude/skills` below the start folder: only once a file under that folder is touched).
    # Only "start" skills are in `Catalog.skills`; the others are in `Catalog.deferred`.
    activation: str = "start"
    # Set when the name is scoped (`extra:deploy`): the folder it is scoped to. Claude Code
    # scopes an --add-dir or nested skill whose name another skill already has, and lists it
    # with a note that it replaces the unscoped one for files under that folder.
    scope: str = ""

    @property
    def base_dir(self) -> Path:
        """The folder holding the skill file: `Base directory for this skill` in a run."""
        return self.path.parent

    @property
    def model_invocable(self) -> bool:
        return not self.disable_model_invocation

    @property
    def has_user_description(self) -> bool:
        return self.description_source == "frontmatter"

    def read_body(self) -> str:
        """The markdown the model receives, without the frontmatter, read from disk now."""
        # The file may have become a FIFO or a link to /dev/zero since the load: read it as the
        # load does (regular files only, bounded); the errors are OSErrors with a strerror.
        data, _ = read_regular(self.path, MAX_FILE_BYTES)
        text, _ = decode(data)
        return split(text).body

    def to_dict(self) -> dict[str, Any]:
        path = str(self.path)
        return {
            "name": self.name,
            "display_name": self.display_name,
            "description": self.description,
            "description_source": self.description_source,
            "source": self.source.kind.value,
            "source_label": self.source.label,
            "plugin": self.source.plugin,
            "loaded_from": self.loaded_from.value,
            "path": path,
            # str(self.base_dir), without making the parent Path (15,000 of them in `list --json`).
            "base_dir": os.path.dirname(path) or ".",
            "user_invocable": self.user_invocable,
            "model_invocable": self.model_invocable,
            "context": self.context,
            "agent": self.agent,
            "model": self.model,
            "effort": self.effort,
            "allowed_tools": list(self.allowed_tools),
            "disallowed_tools": list(self.disallowed_tools),
            "argument_hint": self.argument_hint,
            "arguments": list(self.arguments),
            "when_to_use": self.when_to_use,
            "version": self.version,
            "license": self.license,
            "compatibility": self.compatibility,
            "paths": list(self.paths),
            "body_chars": self.body_chars,
            "activation": self.activation,
            "scope": self.scope,
        }

    def to_json(self) -> str:
        """`to_dict()` as `json.dumps(..., ensure_ascii=False)` writes it, from one format string:
        `list --json` writes 15,000 of these, and a dict per skill for the C encoder cost three
        times this. The values have the types of the fields (text or None, flags, a count, lists
        of text); a value of another type (TypeError) is written the way json.dumps writes it."""
        try:
            return _skill_json(self)
        except TypeError:
            import json

            return json.dumps(self.to_dict(), ensure_ascii=False, default=str)


def _text_list(values: tuple[str, ...]) -> str:
    return f"[{', '.join(map(_json_text, values))}]"


def _skill_json(s: Skill) -> str:
    # Keys in the order of to_dict, which tests/engine/catalog/test_model_json.py checks this against.
    # Written out inline (no call per null, flag or empty list): a Python call per value cost
    # as much as the dict and the C encoder it replaces.
    if type(s.user_invocable) is not bool or type(s.body_chars) is not int:
        raise TypeError("a field of another type: written by json.dumps")
    t = _json_text
    source = s.source
    path = str(s.path)
    cut = path.rfind(os.sep)
    # os.path.dirname of a Path's text (no doubled or trailing separator) short of the root.
    base_dir = path[:cut] if cut > 0 else os.path.dirname(path) or "."
    plugin, agent, model, effort = source.plugin, s.agent, s.model, s.effort
    hint, when, version, lic, comp = s.argument_hint, s.when_to_use, s.version, s.license, s.compatibility
    return (
        f'{{"name": {t(s.name)}, "display_name": {t(s.display_name)}, "description": {t(s.description)}, '
        f'"description_source": {t(s.description_source)}, "source": {t(source.kind)}, "source_label": {t(source.label)}, '
        f'"plugin": {"null" if plugin is None else t(plugin)}, "loaded_from": {t(s.loaded_from)}, "path": {t(path)}, '
        f'"base_dir": {t(base_dir)}, "user_invocable": {"true" if s.user_invocable else "false"}, '
        f'"model_invocable": {"false" if s.disable_model_invocation else "true"}, "context": {t(s.context)}, '
        f'"agent": {"null" if agent is None else t(agent)}, "model": {"null" if model is None else t(model)}, '
        f'"effort": {"null" if effort is None else t(effort)}, '
        f'"allowed_tools": {_text_list(s.allowed_tools) if s.allowed_tools else "[]"}, '
        f'"disallowed_tools": {_text_list(s.disallowed_tools) if s.disallowed_tools else "[]"}, '
        f'"argument_hint": {"null" if hint is None else t(hint)}, '
        f'"arguments": {_text_list(s.arguments) if s.arguments else "[]"}, '
        f'"when_to_use": {"null" if when is None else t(when)}, "version": {"null" if version is None else t(version)}, '
        f'"license": {"null" if lic is None else t(lic)}, "compatibility": {"null" if comp is None else t(comp)}, '
        f'"paths": {_text_list(s.paths) if s.paths else "[]"}, "body_chars": {int.__repr__(s.body_chars)}, '
        f'"activation": {t(s.activation)}, "scope": {t(s.scope)}}}'
    )


init_by_slots(Skill)
# Made as often as skills where each file has something to say (a name that differs from its folder).
init_by_slots(Diagnostic)


def _diagnostic_json(d: Diagnostic) -> str:
    # Keys in the order of to_dict, which tests/engine/catalog/test_model_json.py checks this against.
    t, skill, line, column = _json_text, d.skill, d.line, d.column
    if not (line is None or type(line) is int) or not (column is None or type(column) is int):
        raise TypeError("not an int: written by json.dumps")  # a bool too, which json.dumps writes `true`
    return (
        f'{{"severity": {t(d.severity)}, "code": {t(d.code)}, "path": {t(str(d.path))}, '
        f'"line": {"null" if line is None else int.__repr__(line)}, '
        f'"column": {"null" if column is None else int.__repr__(column)}, "message": {t(d.message)}, '
        f'"hint": {t(d.hint)}, "skill": {"null" if skill is None else t(skill)}}}'
    )


@dataclass(frozen=True, slots=True)
class Shadowed:
    """A skill that lost a name clash: kept, with the one that hides it."""

    skill: Skill
    shadowed_by: Skill

    def to_dict(self) -> dict[str, Any]:
        out = self.skill.to_dict()
        out["shadowed_by"] = {
            "name": self.shadowed_by.name,
            "source": self.shadowed_by.source.kind.value,
            "path": str(self.shadowed_by.path),
        }
        return out


@dataclass(frozen=True, slots=True)
class LoadStats:
    """What a load read and how long it took."""

    files_read: int = 0
    tiers: int = 0
    elapsed_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
