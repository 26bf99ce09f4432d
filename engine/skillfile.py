"""Read one SKILL.md or command file into a `Skill`, failing open with diagnostics."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from .diagnostics import Sink
from .fields import FieldReader
from .frontmatter import Decoded, Parsed, Split, decode, first_line_description, parse, split
from .model import LoadedFrom, Skill, Source
from .safeio import NotRegularFile, TooLarge, read_regular


class Entry(NamedTuple):
    """A file a loader found, and how its command name is formed. (A named tuple: thousands
    are made per load and a tuple is the cheapest immutable record.)"""

    path: Path
    # The name part that comes from the folder (skills) or file stem (commands).
    stem: str
    # "plugin" for `plugin:stem`, "ns:sub" for a command in commands/ns/sub/, or "".
    namespace: str = ""
    # Plugin skills: `name:` replaces the part after `plugin:`.
    name_from_frontmatter: bool = False
    is_skill_md: bool = True

    @property
    def base_dir(self) -> Path:
        return self.path.parent


def _effective_name(entry: Entry, fm_name: str | None) -> str:
    stem = fm_name if (entry.name_from_frontmatter and fm_name) else entry.stem
    return f"{entry.namespace}:{stem}" if entry.namespace else stem


# A SKILL.md or command file longer than this is not read (the body limit is 15,000
# characters; the largest file in the corpus is 60 KB).
MAX_FILE_BYTES = 4 * 1024 * 1024
# One diagnostic per repeated key up to this many, then one for the rest.
MAX_DUPLICATES_REPORTED = 20


def load_entry(entry: Entry, source: Source, loaded_from: LoadedFrom, sink: Sink) -> Skill | None:
    path = entry.path
    provisional = _effective_name(entry, None)
    try:
        # Only a regular file, never past the cap: a FIFO or /dev/zero linked as SKILL.md
        # would otherwise block the load for ever or fill the memory.
        data, st = read_regular(path, MAX_FILE_BYTES)
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
        sink.error(
            "unreadable",
            path,
            f"cannot read this file: it is {exc.strerror}",
            "a skill file is a few KB: check it",
            skill=provisional,
        )
        return None
    except OSError as exc:
        sink.error("unreadable", path, f"cannot read this file: {exc.strerror or exc}", "check the file", skill=provisional)
        return None

    text, info = decode(data)
    parts = split(text)
    parsed = parse(parts.yaml_text) if parts.terminated else None
    fm = parsed.data if parsed else {}
    raw_name = fm.get("name")
    fm_name = None if raw_name is None or isinstance(raw_name, (list, dict)) else str(raw_name)
    if isinstance(raw_name, bool):
        fm_name = "true" if raw_name else "false"
    name = _effective_name(entry, fm_name)

    _file_diagnostics(sink, path, name, data, info, parts, parsed)

    # A frontmatter that did not parse leaves nothing to check field by field.
    readable = parsed is not None and parsed.not_mapping is None and not (parsed.error and not parsed.repaired_lines)
    reader = FieldReader(parsed, path, sink, name) if readable and parsed else None
    body_chars = parts.body_chars
    description_text = reader.text("description") if reader else None
    if description_text is not None and description_text.strip():
        description, description_source = description_text, "frontmatter"
    else:
        description, description_source = first_line_description(
            text, "Skill" if entry.is_skill_md else "Custom command", parts.body_offset
        )

    values: dict[str, str | None] = {}
    kwargs: dict[str, object] = {}
    if reader:
        kwargs = reader.read()
        values = {
            "name": fm_name,
            "description": description_text,
            "when_to_use": kwargs.get("when_to_use"),  # type: ignore[dict-item]
            "argument-hint": kwargs.get("argument_hint"),  # type: ignore[dict-item]
        }
        if entry.is_skill_md:
            reader.spec(entry.stem)
        if fm_name is not None and fm_name != entry.stem and entry.is_skill_md:
            _name_mismatch(sink, path, entry, fm_name, name, parsed.position("name") if parsed else None)
    limit_reader = reader or FieldReader(parse(""), path, sink, name)
    limit_reader.limits(values, body_chars)

    return Skill(
        name=name,
        display_name=fm_name or entry.stem,
        description=description,
        description_source=description_source,
        source=source,
        loaded_from=loaded_from,
        path=path,
        body_offset=parts.body_offset,
        body_chars=body_chars,
        inode=(st.st_dev, st.st_ino),
        stamp=(st.st_mtime_ns, st.st_size),
        **kwargs,  # type: ignore[arg-type]
    )


def _name_mismatch(sink: Sink, path: Path, entry: Entry, fm_name: str, name: str, pos: tuple[int, int] | None) -> None:
    line, column = pos if pos else (None, None)
    if entry.name_from_frontmatter:
        message = f"name: `{fm_name}` differs from the folder `{entry.stem}`; in a plugin it sets the command: /{name}"
    else:
        message = (
            f"name: `{fm_name}` differs from the folder `{entry.stem}`; the command is /{name} "
            f"(the folder wins) and `{fm_name}` is only a display label"
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


def _file_diagnostics(sink: Sink, path: Path, name: str, data: bytes, info: Decoded, parts: Split, parsed: Parsed | None) -> None:
    if not data.strip():
        sink.warning(
            "empty-file",
            path,
            "the file is empty; it loads with a placeholder description and an empty prompt",
            "write a frontmatter with a description, then the instructions",
            skill=name,
        )
        return
    if info.bom:
        sink.error(
            "bom",
            path,
            "the file starts with a UTF-8 byte-order mark, so Claude Code does not see the "
            "frontmatter: every field is ignored and the first line becomes the description",
            "save the file as UTF-8 without BOM",
            line=1,
            column=1,
            skill=name,
        )
    if info.bad_utf8_line is not None:
        sink.warning(
            "not-utf8",
            path,
            f"byte {info.bad_utf8_offset} is not UTF-8; Claude Code reads it as U+FFFD (�)",
            "re-save the file as UTF-8 (iconv -f latin1 -t utf-8)",
            line=info.bad_utf8_line,
            skill=name,
        )
    if info.crlf:
        sink.info(
            "crlf",
            path,
            "CRLF line endings: Claude Code reads the file, but its YAML repair retry skips CRLF lines",
            "convert to LF (dos2unix) to be safe",
            skill=name,
        )
    if not parts.has_frontmatter:
        if not info.bom:
            sink.info(
                "frontmatter-missing",
                path,
                "no frontmatter: the description is taken from the first line of the body",
                "start the file with ---, a description: line, and ---",
                line=1,
                skill=name,
            )
        return
    if not parts.terminated:
        sink.error(
            "frontmatter-unterminated",
            path,
            "the frontmatter opened on line 1 is never closed, so Claude Code reads the whole "
            "file as the prompt and ignores every field",
            "add a line containing only --- after the last frontmatter key",
            line=1,
            skill=name,
        )
        return
    assert parsed is not None
    if parsed.error and parsed.error.refused:
        sink.error(
            "frontmatter-bounds",
            path,
            f"{parsed.error.message}; here the skill loads with empty metadata (no description, no flags), "
            "so what skilldeck shows for it may differ from Claude Code",
            "keep the frontmatter small and flat: a few key: value lines, no YAML anchors or aliases",
            line=2,
            skill=name,
        )
    elif parsed.error and not parsed.repaired_lines:
        sink.error(
            "yaml-invalid",
            path,
            f"invalid YAML in the frontmatter: {parsed.error.message}; Claude Code loads the "
            "skill with empty metadata (no description, no flags)",
            'fix the YAML; values containing `: `, `#`, `[` or quotes need "double quotes"',
            line=parsed.error.line,
            column=parsed.error.column,
            skill=name,
        )
    elif parsed.error:
        lines = ", ".join(str(n) for n in parsed.repaired_lines)
        sink.warning(
            "yaml-repaired",
            path,
            f"invalid YAML ({parsed.error.message}); it only loads because Claude Code quotes "
            f"the value on line {lines} and retries; other tools will reject it",
            "put the value in double quotes",
            line=parsed.error.line,
            column=parsed.error.column,
            skill=name,
        )
    if parsed.not_mapping:
        sink.error(
            "frontmatter-not-mapping",
            path,
            f"the frontmatter is a YAML {parsed.not_mapping}, not key: value pairs; every field is ignored",
            "write one key: value pair per line",
            line=2,
            skill=name,
        )
    for line, column, note in parsed.notes:
        sink.warning(
            "invalid-value",
            path,
            note[:300],
            "remove the tag, or write the value the tag expects",
            line=line,
            column=column,
            skill=name,
        )
    for key, line, column in parsed.duplicates[:MAX_DUPLICATES_REPORTED]:
        sink.warning(
            "duplicate-key",
            path,
            f"`{key}` appears more than once; the last value wins here, strict YAML parsers reject the file",
            f"keep a single `{key}:`",
            line=line,
            column=column,
            skill=name,
        )
    extra = parsed.duplicates[MAX_DUPLICATES_REPORTED:]
    if extra:
        key, line, column = extra[0]
        sink.warning(
            "duplicate-key",
            path,
            f"{len(extra):,} more repeated keys (`{key[:60]}` ...); the last value of each wins",
            "keep a single line per key",
            line=line,
            column=column,
            skill=name,
        )
