"""Read one SKILL.md or command file into a `Skill`, failing open with diagnostics."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from .diagnostics import Sink
from .fields import FieldReader
from .frontmatter import Decoded, Parsed, Split, cc_text, decode, first_line_description, js_string, parse, split
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


# Claude Code skips a SKILL.md in a skills folder over 1,000,000 bytes, and a command file or a
# plugin's skill or command over 1,048,576 bytes ("[skills] skipping ...: N bytes exceeds 1000000
# byte limit", "loadMarkdownFilesFromDir: skipping ...", "Skipping plugin skill ...").
SKILL_MAX_BYTES = 1_000_000
MARKDOWN_MAX_BYTES = 1_048_576
# The most any skill file is read to (the larger limit): `Skill.read_body` reads with it.
MAX_FILE_BYTES = MARKDOWN_MAX_BYTES
# Claude Code ignores a `name:` longer than this ("Frontmatter "name" of ... is over 256 characters").
NAME_MAX = 256
# One diagnostic per repeated key up to this many, then one for the rest.
MAX_DUPLICATES_REPORTED = 20


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
    if fm_name is not None and len(fm_name) > NAME_MAX:
        line, column = (parsed.position("name") if parsed else None) or (None, None)
        sink.warning(
            "limit-exceeded",
            path,
            f"name: is {len(fm_name):,} characters, over Claude Code's {NAME_MAX} limit; Claude Code ignores it",
            "use a short name (the Agent Skills spec allows 64 characters)",
            line=line,
            column=column,
            skill=provisional,
        )
        fm_name = None
    name = _effective_name(entry)
    default = "Skill" if entry.is_skill_md else "Custom command"

    def fallback() -> tuple[str, str]:
        # Only needed without a description, or to say in a diagnostic what Claude Code lists.
        return first_line_description(text, default, parts.body_offset)

    _file_diagnostics(sink, path, name, data, info, parts, parsed, fallback)

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
        commands = loaded_from is LoadedFrom.COMMANDS
        if fm_name and fm_name != entry.stem and (entry.is_skill_md or commands) and not entry.name_from_frontmatter:
            _name_mismatch(sink, path, entry, fm_name, name, parsed.position("name") if parsed else None, loaded_from)
    limit_reader = reader or FieldReader(parse(""), path, sink, name)
    limit_reader.limits(values, body_chars)
    if entry.is_skill_md and not parts.terminated:
        # No frontmatter Claude Code could read: the spec's required name and description are absent.
        limit_reader.spec_missing()

    return Skill(
        name=name,
        # A command has no label in Claude Code: `name:` is ignored (recorded: fm_command_name).
        display_name=(fm_name if loaded_from is not LoadedFrom.COMMANDS else None) or entry.stem,
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


# Keys whose effect a user would miss most when Claude Code drops the whole frontmatter.
_NOTABLE = ("disable-model-invocation", "user-invocable", "allowed-tools", "context", "model", "paths", "hooks", "agent")
_DOCUMENT_END = re.compile(r"^\.\.\.[ \t]*\r?$", re.MULTILINE)
_TOP_KEY = re.compile(r"^([A-Za-z0-9_-]+)[ \t]*:", re.MULTILINE)


def _lost(yaml_text: str) -> str:
    """`; disable-model-invocation is not applied` for the notable keys a dropped block sets."""
    keys = [k for k in dict.fromkeys(_TOP_KEY.findall(yaml_text[:20_000])) if k in _NOTABLE]
    if not keys:
        return ""
    listed = ", ".join(keys)
    return f"; {listed} {'is' if len(keys) == 1 else 'are'} not applied"


def _file_diagnostics(
    sink: Sink,
    path: Path,
    name: str,
    data: bytes,
    info: Decoded,
    parts: Split,
    parsed: Parsed | None,
    fallback: Callable[[], tuple[str, str]],
) -> None:
    clean = bool(data.strip()) and not info.bom and info.bad_utf8_line is None and not info.crlf
    read = parts.terminated and not parts.close_inline and parsed is not None and not parsed.error
    if clean and read and not (parsed.not_mapping or parsed.notes or parsed.duplicates):  # type: ignore[union-attr]
        return  # the common case: nothing to say, and no fallback to work out
    lists = f"lists this as `{name}: {cc_text(fallback()[0])[:120]}`"
    lists_as = f"Claude Code {lists}"
    if not data.strip():
        sink.warning(
            "empty-file",
            path,
            f"the file is empty; {lists_as} and the prompt is empty",
            "write a frontmatter with a description, then the instructions",
            skill=name,
        )
        return
    if info.bom:
        sink.info(
            "bom",
            path,
            "the file starts with a UTF-8 byte-order mark; Claude Code drops it before looking for the frontmatter, "
            "other tools may not",
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
        stripped = parts.text.lstrip("\ufeff \t\r\n")
        if parts.text.lstrip("\ufeff").startswith("----"):
            sink.warning(
                "frontmatter-missing",
                path,
                f"line 1 is `----`, not `---`, so Claude Code reads no frontmatter: every field is ignored and {lists_as}",
                "open the frontmatter with exactly three dashes",
                line=1,
                skill=name,
            )
        elif stripped.startswith("---") and stripped != parts.text.lstrip("\ufeff"):
            line = parts.text.count("\n", 0, len(parts.text) - len(stripped)) + 1
            sink.warning(
                "frontmatter-missing",
                path,
                f"the frontmatter starts on line {line}, not on line 1, so Claude Code reads none: every field "
                f"is ignored and {lists_as}",
                "move the opening --- to the very first line",
                line=line,
                skill=name,
            )
        else:
            sink.info(
                "frontmatter-missing",
                path,
                f"no frontmatter: {lists_as} (its first line)",
                "start the file with ---, a description: line, and ---",
                line=1,
                skill=name,
            )
        return
    if not parts.terminated:
        sink.error(
            "frontmatter-unterminated",
            path,
            f"the frontmatter opened on line 1 is never closed, so Claude Code reads the whole file as the "
            f"prompt and ignores every field: {lists_as}",
            "add a line containing only --- after the last frontmatter key",
            line=1,
            skill=name,
        )
        return
    if parts.close_inline:
        _early_close(sink, path, name, parts)
    assert parsed is not None
    if parsed.error and parsed.error.refused:
        sink.error(
            "frontmatter-bounds",
            path,
            f"{parsed.error.message}; here the skill loads with empty metadata (no description, no flags), "
            "so what skilldeck shows for it may differ from Claude Code",
            "keep the frontmatter small and flat: a few key: value lines, no YAML anchors or aliases",
            line=parts.first_line,
            skill=name,
        )
    elif parsed.error and not parsed.repaired_lines and _DOCUMENT_END.search(parts.yaml_text):
        sink.error(
            "yaml-invalid",
            path,
            "a `...` line ends the YAML document and more follows: Claude Code reads several documents, not "
            f"key: value pairs, so it ignores every field and {lists}{_lost(parts.yaml_text)}",
            "remove the `...` line",
            line=parsed.error.line,
            column=parsed.error.column,
            skill=name,
        )
    elif parsed.error and not parsed.repaired_lines:
        sink.error(
            "yaml-invalid",
            path,
            f"invalid YAML in the frontmatter ({parsed.error.message}), even after Claude Code's repair retry: "
            f'Claude Code ignores every field ("failed to parse and was ignored") and {lists}'
            f"{_lost(parts.yaml_text)}",
            'fix the YAML; values containing `: `, `#`, `[` or quotes need "double quotes"',
            line=parsed.error.line,
            column=parsed.error.column,
            skill=name,
        )
    elif parsed.error:
        source = parts.yaml_text.split("\n")
        tabbed = [n for n in parsed.repaired_lines if source[n - parts.first_line].startswith("\t")]
        quoted = [n for n in parsed.repaired_lines if n not in tabbed]
        changes = []
        if quoted:
            changes.append(f"quotes the value on line {', '.join(map(str, quoted))}")
        if tabbed:
            changes.append(f"turns the leading tabs on line {', '.join(map(str, tabbed))} into spaces")
        sink.warning(
            "yaml-repaired",
            path,
            f"invalid YAML ({parsed.error.message}); Claude Code reads it only because its retry "
            f"{' and '.join(changes)}; other tools reject it",
            "put the value in double quotes" if quoted else "indent with spaces, not tabs",
            line=parsed.error.line,
            column=parsed.error.column,
            skill=name,
        )
    if parsed.not_mapping:
        sink.error(
            "frontmatter-not-mapping",
            path,
            f"the frontmatter is a YAML {parsed.not_mapping}, not key: value pairs; Claude Code ignores it and {lists}",
            "write one key: value pair per line",
            line=parts.first_line,
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
            f"`{key}` appears more than once; Claude Code takes the last value, strict YAML parsers reject the file",
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


def _early_close(sink: Sink, path: Path, name: str, parts: Split) -> None:
    """The block closed at a `---` that is not a line of its own: say what went where."""
    line = parts.close_line
    # The whole of the closing line, found from the block's end (never splitting the whole file).
    text = parts.text
    close = parts.yaml_offset + len(parts.yaml_text)
    begin = text.rfind("\n", 0, close) + 1
    end = text.find("\n", close)
    whole = text[begin : len(text) if end < 0 else end]
    if whole.strip(" \t\r") == "-" * len(whole.strip(" \t\r")) and len(whole.strip(" \t\r")) > 3:
        message = (
            f"line {line} is `{whole.strip()}`: Claude Code closes the frontmatter at its first three dashes "
            f"and the rest, `{whole.strip()[3:]}`, becomes the first line of the prompt"
        )
        hint = "close the frontmatter with exactly ---"
    elif whole.lstrip().startswith("---"):
        message = (
            f"the frontmatter closes at the `---` on line {line}; the text after it on that line "
            f"(`{whole.strip()[3:].strip()[:60]}`) becomes the first line of the prompt"
        )
        hint = "put nothing after the closing ---"
    else:
        message = (
            f"Claude Code ends the frontmatter at the `---` inside line {line} (`{whole.strip()[:80]}`), not at "
            "the --- line below it: that line is cut there and everything after it, the rest of the frontmatter "
            "included, becomes the prompt"
        )
        hint = 'never write --- inside the frontmatter: quote the value and write it otherwise (e.g. "—")'
    # The keys after the early close that the author meant as frontmatter: up to the next `---` line.
    rest = text[close + 3 : close + 20_003]
    end_line = re.search(r"^---[ \t]*\r?$", rest, re.MULTILINE)
    message += _lost(rest[: end_line.start()] if end_line else "")
    sink.warning("frontmatter-early-close", path, message, hint, line=line, skill=name)
