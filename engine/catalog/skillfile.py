"""Read one SKILL.md or command file into a `Skill`, failing open with diagnostics."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from ..base.safeio import NotRegularFile, TooLarge, read_regular
from .diagnostics import Sink
from .fields import FieldReader
from .filediagnostics import file_diagnostics
from .frontmatter import cc_text, decode, first_line_description, js_string, parse, split, utf16_len
from .model import MARKDOWN_MAX_BYTES, SKILL_MAX_BYTES, LoadedFrom, Skill, Source


class Entry(NamedTuple):
    """A file a loader found, and how its command name is formed. (A named tuple: thousands
    are made per load and a tuple is the cheapest immutable record.)"""

    path: Path
    # The name part that comes from the folder (skills) or file stem (commands).
    stem: str
    # "plugin" for `plugin:stem`, "ns:sub" for a command in commands/ns/sub/, or "".
    namespace: str = ""
    # Set by the plugin loaders for a skill the catalog names from its `name:` (a plugin's own
    # SKILL.md); every other skill is named by its folder, `name:` being only a label.
    name_from_frontmatter: bool = False
    is_skill_md: bool = True

    @property
    def base_dir(self) -> Path:
        return self.path.parent


def _effective_name(entry: Entry) -> str:
    """The command name: from the folder (or file stem), never from `name:` (recorded:
    tests/oracle/cases/listing/plugin_basic, `- tools:lint (tools:renamed)`). A plugin's own
    naming (folder characters, a root SKILL.md) is finished by the catalog."""
    return f"{entry.namespace}:{entry.stem}" if entry.namespace else entry.stem


def _label(entry: Entry, fm_name: str) -> str:
    """The label Claude Code lists a skill under: `name:`, in a plugin prefixed with its name."""
    if entry.namespace and not fm_name.startswith(f"{entry.namespace}:"):
        return f"{entry.namespace}:{fm_name}"
    return fm_name


# Claude Code ignores a `name:` longer than this ("Frontmatter "name" of ... is over 256 characters").
NAME_MAX = 256


def size_limit(loaded_from: LoadedFrom) -> int:
    return SKILL_MAX_BYTES if loaded_from in (LoadedFrom.SKILLS, LoadedFrom.BUNDLED) else MARKDOWN_MAX_BYTES


def _too_large(sink: Sink, path: Path, size: int, limit: int, skill: str, loaded_from: LoadedFrom) -> None:
    what = (
        "a SKILL.md in a skills folder"
        if limit == SKILL_MAX_BYTES
        else ("a plugin's skill or command file" if loaded_from is LoadedFrom.PLUGIN else "a command file")
    )
    sink.error(
        "limit-exceeded",
        path,
        f"skipped: {size:,} bytes over the {limit:,} limit; Claude Code does not load {what} "
        "larger than that, so this skill is not in its listing and /" + skill + " does not exist there",
        "move the bulk into files next to it (references/, scripts/) that the skill reads when it needs them",
        skill=skill,
    )


def load_entry(entry: Entry, source: Source, loaded_from: LoadedFrom, sink: Sink) -> Skill | None:
    path = entry.path
    provisional = _effective_name(entry)
    limit = size_limit(loaded_from)
    try:
        # Only a regular file, never past the limit: a FIFO or /dev/zero linked as SKILL.md
        # would otherwise block the load for ever or fill the memory.
        data, st = read_regular(path, limit)
    except FileNotFoundError:
        if os.path.islink(path):
            sink.warning(
                "broken-symlink",
                path,
                "symlink to a file that does not exist; the skill does not load",
                "fix the target or delete the link",
                skill=provisional,
            )
        else:
            # Listed by the scan, gone by the read: it was deleted meanwhile.
            sink.warning("unreadable", path, "the file went away while it was being loaded", "load again", skill=provisional)
        return None
    except PermissionError:
        sink.error(
            "unreadable",
            path,
            "cannot read this file (permission denied), so the skill does not load",
            f"chmod a+r {path}",
            skill=provisional,
        )
        return None
    except NotRegularFile as exc:
        sink.error(
            "unreadable",
            path,
            f"cannot read this file: {exc.strerror}; the skill does not load",
            "make it a regular file (Claude Code cannot use it either)",
            skill=provisional,
        )
        return None
    except TooLarge as exc:
        _too_large(sink, path, exc.size, limit, provisional, loaded_from)
        return None
    except OSError as exc:
        sink.error("unreadable", path, f"cannot read this file: {exc.strerror or exc}", "check the file", skill=provisional)
        return None

    text, info = decode(data)
    parts = split(text)
    parsed = parse(parts.yaml_text, parts.first_line) if parts.terminated else None
    fm = parsed.data if parsed else {}
    raw_name = fm.get("name")
    fm_name = None if raw_name is None else js_string(raw_name)
    # Counted as Claude Code counts, in UTF-16 units (an astral letter is two).
    # (A name of at most NAME_MAX / 2 characters is within it in any case.)
    if fm_name is not None and len(fm_name) > NAME_MAX // 2 and utf16_len(fm_name) > NAME_MAX:
        line, column = (parsed.position("name") if parsed else None) or (None, None)
        sink.warning(
            "limit-exceeded",
            path,
            f"name: is {utf16_len(fm_name):,} UTF-16 units, over Claude Code's {NAME_MAX} limit; Claude Code ignores it",
            "use a short name (the Agent Skills spec allows 64 characters)",
            line=line,
            column=column,
            skill=provisional,
        )
        fm_name = None
    name = provisional
    default = "Skill" if entry.is_skill_md else "Custom command"

    def fallback() -> tuple[str, str]:
        # Only needed without a description, or to say in a diagnostic what Claude Code lists.
        return first_line_description(text, default, parts.body_offset)

    file_diagnostics(sink, path, name, data, info, parts, parsed, fallback, loaded_from is LoadedFrom.PLUGIN)

    # A frontmatter that did not parse leaves nothing to check field by field.
    readable = parsed is not None and parsed.not_mapping is None and not (parsed.error and not parsed.repaired_lines)
    reader = FieldReader(parsed, path, sink, name) if readable and parsed else None
    body_chars = parts.body_chars
    description_text = reader.description() if reader else None
    if description_text is not None:
        description, description_source = description_text, "frontmatter"
    else:
        description, description_source = fallback()
    description = cc_text(description)

    values: dict[str, str | None] = {}
    # Skill's keyword arguments, keyed by field name from FieldReader's table: each value's type
    # depends on its key, which only Skill(**kwargs) checks.
    kwargs: dict[str, Any] = {}
    if reader:
        kwargs = reader.read()
        values = {
            "name": fm_name,
            "description": description_text,
            "when_to_use": kwargs.get("when_to_use"),
            "argument-hint": kwargs.get("argument_hint"),
        }
        if entry.is_skill_md:
            reader.spec(entry.stem)
        commands = loaded_from is LoadedFrom.COMMANDS
        if fm_name and fm_name != entry.stem and (entry.is_skill_md or commands) and not entry.name_from_frontmatter:
            _name_mismatch(sink, path, entry, fm_name, name, parsed.position("name") if parsed else None, loaded_from)
    limit_reader = reader or FieldReader(parse(""), path, sink, name)
    limit_reader.limits(values, body_chars)
    if entry.is_skill_md and not parts.terminated:
        # No frontmatter Claude Code could read: the spec's required name and description are absent.
        limit_reader.spec_missing()

    # A command has no label in Claude Code: `name:` is ignored (recorded: fm_command_name).
    display_name = (fm_name if loaded_from is not LoadedFrom.COMMANDS else None) or entry.stem
    if loaded_from is LoadedFrom.PLUGIN and entry.is_skill_md and entry.namespace and not entry.name_from_frontmatter:
        # A plugin skill's label as the catalog lists it (assembly._plugin_label): made here once,
        # where a copy of the whole Skill per label cost more than its diagnostic at 15,000 skills.
        display_name = _label(entry, display_name) if display_name != entry.stem else display_name
    return Skill(
        name=name,
        display_name=display_name,
        description=description,
        description_source=description_source,
        source=source,
        loaded_from=loaded_from,
        path=path,
        body_offset=parts.body_offset,
        body_chars=body_chars,
        inode=(st.st_dev, st.st_ino),
        stamp=(st.st_mtime_ns, st.st_size),
        **kwargs,
    )


def _name_mismatch(
    sink: Sink, path: Path, entry: Entry, fm_name: str, name: str, pos: tuple[int, int] | None, loaded_from: LoadedFrom
) -> None:
    line, column = pos if pos else (None, None)
    if loaded_from is LoadedFrom.COMMANDS:
        # Claude Code reads a SKILL.md under commands/ as a command: no label at all.
        message = f"name: `{fm_name}` is ignored: Claude Code names a command after its file, /{name}, with no label"
    else:
        label = _label(entry, fm_name)
        message = (
            f"name: `{fm_name}` differs from the folder `{entry.stem}`; the command is /{name} (the folder wins) "
            f"and `{label}` is only the label Claude Code lists it under (`- {name} ({label}): ...`)"
        )
    sink.warning(
        "name-mismatch",
        path,
        message,
        f"rename the folder to `{fm_name}` or set name: {entry.stem}",
        line=line,
        column=column,
        skill=name,
    )
