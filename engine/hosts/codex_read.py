"""How Codex CLI 0.169.0 reads one SKILL.md (docs/agents.md, Codex CLI, "Frontmatter"), each rule
from its recordings: the fences, strict YAML where its parser can tell, a line-by-line repair where
a value does not parse, `description` required, `name` falling back to the folder, whitespace made
single spaces, the 64-character name limit and the 1,024-character description cut.

Its refusals are worded as Codex logs them ("missing field `description`", "invalid YAML: ...").
Its YAML parser is libyaml's (through serde_yaml), as is PyYAML's C loader here, so syntax errors
read the same; every frontmatter is measured (base.bounds) before it is parsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

import yaml

from ..base.bounds import yaml_problem
from ..base.plainyaml import plain_mapping
from ..base.yamlload import Loader

MAX_NAME = 64
MAX_DESCRIPTION = 1024
# Rust's char::is_whitespace (Unicode White_Space): what its trim() and split_whitespace() drop.
# Python's str.strip() differs (it strips \x1c-\x1f, which Rust keeps).
_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
_RUNS = re.compile(f"[{re.escape(_WS)}]+")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
# Fields whose second occurrence serde refuses ("duplicate field `description`"); other keys are
# skipped unread, so a repeated `license:` is harmless.
_FIELDS = ("name", "description")
_FIX_YAML = "fix the YAML between the --- lines (quote a value that holds `: ` or starts with a bracket)"


@dataclass(frozen=True)
class Read:
    name: str
    description: str


@dataclass(frozen=True)
class Problem:
    why: str  # as Codex logs it after "failed to load skill <path>: "
    fix: str
    line: int | None = None  # in the file, 1-based


_NOT_RUST_SPACE = re.compile("[\x1c-\x1f]")


def rust_trim(text: str) -> str:
    return text.strip(_WS)


def single_line(text: str) -> str:
    """Every run of whitespace one space, none at either end (Codex's sanitize)."""
    if not _NOT_RUST_SPACE.search(text):
        # Python's whitespace is Rust's (Unicode White_Space) but for \x1c-\x1f: split() in C.
        return " ".join(text.split())
    return " ".join(part for part in _RUNS.split(text) if part)


def lines(text: str) -> list[str]:
    """Rust's str::lines: split at `\\n`, a `\\r` before it dropped, no empty last line."""
    parts = text.split("\n")
    last = parts.pop()  # the text after the last line break: a line only when not empty
    out = [p[:-1] if p.endswith("\r") else p for p in parts]
    return [*out, last] if last else out


def frontmatter(text: str) -> str | None:
    """The lines between a first line that is `---` (blanks around it allowed) and the next such
    line, or None: no fence on the first line, no closing fence, or nothing between them."""
    if text.startswith("---\n"):
        # The common file, without splitting its body into lines: no `\r`, no other `---` before
        # the closing fence, and that fence a line of its own.
        end = text.find("\n---", 3)
        if end > 3 and text[end + 4 : end + 5] in ("\n", "") and "---" not in text[4:end] and "\r" not in text[:end]:
            return text[4:end]
    rows = lines(text)
    if not rows or rust_trim(rows[0]) != "---":
        return None
    for at in range(1, len(rows)):
        if rust_trim(rows[at]) == "---":
            return "\n".join(rows[1:at]) if at > 1 else None
    return None


def read_skill(data: bytes, folder: str) -> Read | Problem:
    """The name and description Codex sends for this file's bytes, or why it refuses the file.
    `folder` is the name of the folder holding the SKILL.md (the fallback name)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Rust's Utf8Error, at the first bad byte of the file (t30 in frontmatter_types).
        if exc.reason == "unexpected end of data":
            why = f"incomplete utf-8 byte sequence from index {exc.start}"
        else:
            why = f"invalid utf-8 sequence of {exc.end - exc.start} bytes from index {exc.start}"
        return Problem(f"failed to read file: {why}", "save the file as UTF-8")
    block = frontmatter(text)
    if block is None:
        return Problem(
            "missing YAML frontmatter delimited by ---",
            "start the file with a line `---`, the fields, and a closing `---` (no blank line or byte order mark before it)",
        )
    too_much = yaml_problem(block)
    if too_much is not None:
        return Problem(f"skilldeck does not parse this frontmatter: {too_much}", "shorten the frontmatter")
    fields = _fields(block)
    if isinstance(fields, Problem):
        repaired = _repair(block)
        if repaired is not None and yaml_problem(repaired) is None:
            second = _fields(repaired)
            if not isinstance(second, Problem):
                fields = second
    if isinstance(fields, Problem):
        return fields
    name = single_line(fields.get("name") or "") or single_line(folder) or "skill"
    description = single_line(fields.get("description") or "")
    if len(name) > MAX_NAME:
        return Problem(
            f"invalid name: exceeds maximum length of {MAX_NAME} characters",
            f"shorten `name` to at most {MAX_NAME} characters (it has {len(name)})",
        )
    if not description:
        return Problem("missing field `description`", "add a `description:` line that says when to use the skill")
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 3] + "..."
    return Read(name, description)


def _mark(mark: yaml.Mark | None) -> str:
    return f"line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""


def _yaml_error(exc: yaml.MarkedYAMLError) -> Problem:
    """libyaml's error as serde_yaml words it: problem, where, then the context and where that
    began when it is elsewhere."""
    if exc.problem == "but found another document":
        why = "deserializing from YAML containing more than one document is not supported"
        return Problem(f"invalid YAML: {why}", "keep the frontmatter one YAML document (no `---` inside it)")
    text = str(exc.problem or "not valid YAML")
    pm, cm = exc.problem_mark, exc.context_mark
    if pm is not None and (pm.line or pm.column):
        text += f" at {_mark(pm)}"
    if exc.context:
        text += f", {exc.context}"
        if cm is not None and (cm.line or cm.column) and (pm is None or (cm.line, cm.column) != (pm.line, pm.column)):
            text += f" at {_mark(cm)}"
    return Problem(f"invalid YAML: {text}", _FIX_YAML, pm.line + 2 if pm is not None else None)


def _kind(node: yaml.Node) -> str:
    return "sequence" if isinstance(node, yaml.SequenceNode) else "map"


def _fields(block: str) -> dict[str, str | None] | Problem:
    """`name` and `description` as text (None when null), or the first error serde would raise
    reading the block into Codex's struct, in document order."""
    plain = plain_mapping(block)
    if plain is not None:  # the common frontmatter, read as serde_yaml reads it without a parser
        return {key: value for key, value in plain.items() if key in _FIELDS}
    try:
        root = yaml.compose(block, Loader=Loader)
    except yaml.MarkedYAMLError as exc:
        return _yaml_error(exc)
    except yaml.reader.ReaderError as exc:
        # libyaml's reader refuses the same characters, worded as serde_yaml words it.
        why = f"invalid YAML: control characters are not allowed at position {exc.position}"
        return Problem(why, "remove the control character (write it as an escape in a double-quoted value)")
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        return Problem(f"invalid YAML: {single_line(str(exc))[:300]}", _FIX_YAML)
    if root is None or (isinstance(root, yaml.ScalarNode) and not root.style and root.value in _NULLS):
        return {}
    if not isinstance(root, yaml.MappingNode):
        found = _kind(root) if not isinstance(root, yaml.ScalarNode) else f'string "{single_line(root.value)[:80]}"'
        return Problem(
            f"invalid YAML: invalid type: {found}, expected struct SkillFrontmatter at {_mark(root.start_mark)}",
            "write the frontmatter as `key: value` lines",
            root.start_mark.line + 2,
        )
    out: dict[str, str | None] = {}
    for key, value in root.value:
        if not isinstance(key, yaml.ScalarNode) or key.value not in _FIELDS:
            continue
        field = key.value
        if field in out:
            return Problem(f"invalid YAML: duplicate field `{field}`", f"keep one `{field}:` line", key.start_mark.line + 2)
        if not isinstance(value, yaml.ScalarNode):
            where = _mark(value.start_mark)
            return Problem(
                f"invalid YAML: {field}: invalid type: {_kind(value)}, expected a string at {where}",
                f"write `{field}` as one text value",
                value.start_mark.line + 2,
            )
        plain_null = not value.style and value.value in _NULLS and value.tag != "tag:yaml.org,2002:str"
        out[field] = None if plain_null else value.value
    return out


def _repair(block: str) -> str | None:
    """Codex's second try when the block does not parse: on each `key: value` line outside a block
    scalar, a plain value holding `: ` or starting with a flow or reserved character that does not
    parse alone is single-quoted (a trailing ` # comment` kept outside). None when no line changed."""
    changed = False
    block_indent: int | None = None
    out: list[str] = []
    for line in lines(block):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not rust_trim(line) or indent > block_indent:
                out.append(line)
                continue
            block_indent = None
        key, colon, value = line.partition(":")
        if not colon or not rust_trim(key) or (value and value[0] not in _WS):
            out.append(line)
            continue
        rest = value.lstrip(_WS)
        lead = value[: len(value) - len(rest)]
        scalar, comment = rest, ""
        for at, char in enumerate(rest):
            if char == "#" and (at == 0 or rest[at - 1] in _WS):
                cut = len(rest[:at].rstrip(_WS))
                scalar, comment = rest[:cut], rest[cut:]
                break
        scalar = scalar.rstrip(_WS)
        if not scalar or scalar[0] in "'\"":
            out.append(line)
            continue
        if scalar[0] in "|>":
            block_indent = indent
            out.append(line)
            continue
        colon_inside = any(c == ":" and n in _WS for c, n in pairwise(scalar))
        if not colon_inside and not (scalar[0] in "[{@`" and not _parses(scalar)):
            out.append(line)
            continue
        quoted = "'" + scalar.replace("'", "''") + "'"
        out.append(f"{key}:{lead}{quoted}{comment}")
        changed = True
    return "\n".join(out) if changed else None


def _parses(text: str) -> bool:
    if yaml_problem(text) is not None:
        return False
    try:
        yaml.compose(text, Loader=Loader)
    except (yaml.YAMLError, ValueError, RecursionError):
        return False
    return True
