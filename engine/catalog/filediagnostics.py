"""What is off with a skill file as a whole, said before its fields are read: an empty file, its
encoding and line endings, a frontmatter that is missing, unclosed or closed early, YAML that Claude
Code rejects or repairs, values read otherwise than YAML would, repeated keys."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .diagnostics import Sink
from .frontmatter import Decoded, Parsed, Split, cc_text

# One diagnostic per repeated key up to this many, then one for the rest.
MAX_DUPLICATES_REPORTED = 20

# Keys whose effect a user would miss most when Claude Code drops the whole frontmatter.
_NOTABLE = ("disable-model-invocation", "user-invocable", "allowed-tools", "context", "model", "paths", "hooks", "agent")
_DOCUMENT_END = re.compile(r"^\.\.\.[ \t]*\r?$", re.MULTILINE)
_TOP_KEY = re.compile(r"^([A-Za-z0-9_-]+)[ \t]*:", re.MULTILINE)


# Byte-order marks of the wide encodings an editor may save a file in, UTF-32's first (its LE mark
# starts with UTF-16LE's).
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32LE", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32BE", "UTF-32"),
    (b"\xff\xfe", "UTF-16LE", "UTF-16"),
    (b"\xfe\xff", "UTF-16BE", "UTF-16"),
)
# Without a mark, mostly-ASCII text in a wide encoding has its NUL bytes at fixed places: at these
# offsets in each group of `step` bytes (and not at the others).
_NUL_PLACES = ((4, (1, 2, 3), "UTF-32LE"), (4, (0, 1, 2), "UTF-32BE"), (2, (1,), "UTF-16LE"), (2, (0,), "UTF-16BE"))


def wide_encoding(data: bytes) -> tuple[str, str, str] | None:
    """(encoding, how it was told, iconv's name for it) when `data` is UTF-16 or UTF-32, by its
    byte-order mark or by where its NUL bytes fall in the first 4 KB; else None."""
    for bom, name, source in _BOMS:
        if data.startswith(bom):
            return name, "its byte-order mark says so", source
    head = data[:4096]
    if len(head) < 8 or head.count(0) < len(head) // 3:
        return None
    for step, places, name in _NUL_PLACES:
        groups = len(head) // step
        nul = [sum(1 for g in range(groups) if head[g * step + i] == 0) / groups for i in range(step)]
        if all(nul[i] > 0.7 for i in places) and all(nul[i] < 0.3 for i in range(step) if i not in places):
            return name, "its NUL bytes say so", name
    return None


def _lost(yaml_text: str) -> str:
    """`; disable-model-invocation is not applied` for the notable keys a dropped block sets."""
    keys = [k for k in dict.fromkeys(_TOP_KEY.findall(yaml_text[:20_000])) if k in _NOTABLE]
    if not keys:
        return ""
    listed = ", ".join(keys)
    return f"; {listed} {'is' if len(keys) == 1 else 'are'} not applied"


def file_diagnostics(
    sink: Sink,
    path: Path,
    name: str,
    data: bytes,
    info: Decoded,
    parts: Split,
    parsed: Parsed | None,
    fallback: Callable[[], tuple[str, str]],
    plugin: bool = False,
) -> None:
    # `data.strip()` is true when a byte is not ASCII blank: said without copying the file.
    clean = bool(data) and not data.isspace() and not info.bom and info.bad_utf8_line is None and not info.crlf
    read = parts.terminated and not parts.close_inline and parsed is not None and not parsed.error
    if clean and read and parsed is not None and not (parsed.not_mapping or parsed.notes or parsed.duplicates):
        return  # the common case: nothing to say, and no fallback to work out
    if plugin:
        # A plugin's entry is listed only with a description or when_to_use of its own, never on
        # the fallback (recorded: corpus_plugins): with every field ignored, it is not listed.
        lists = (
            f"loads it as /{name} but does not list it to the model (a plugin's skill or command is listed "
            "only with a description or when_to_use of its own)"
        )
        first = ""
    else:
        # As the listing writes it: `<` and `>` escaped (recorded: fm_html_ansi).
        shown = cc_text(fallback()[0])[:120].replace("<", "&lt;").replace(">", "&gt;")
        lists = f"lists this as `{name}: {shown}`"
        first = " (its first line)"
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
    wide = wide_encoding(data)
    if wide is not None:
        encoding, told, iconv_name = wide
        sink.warning(
            "not-utf8",
            path,
            f"the file is {encoding}, not UTF-8 ({told}); Claude Code reads every file as UTF-8, finds no "
            f"frontmatter in it, ignores every field and {lists}",
            f"re-save the file as UTF-8 (iconv -f {iconv_name} -t UTF-8 {path.name} > {path.name}.utf8, then rename it over)",
            line=1,
            skill=name,
        )
    elif info.bad_utf8_line is not None:
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
                f"no frontmatter: {lists_as}{first}",
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
            "nest fewer levels" if note.startswith("it nests") else "remove the tag, or write the value the tag expects",
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
