"""How OpenCode 1.18.33 reads a SKILL.md's frontmatter, as its binary does it: gray-matter 4 over
js-yaml 3, retried once on a "sanitized" text, then the two fields its skill loader checks.

- gray-matter: a byte order mark is dropped; the file must start with `---` (not `----`); the rest
  of that line names a language (blank: YAML; `json`; `js`, which OpenCode evaluates as
  JavaScript); the block ends at the first `\\n---` anywhere after it, or at the end of the file
  when there is none (an unclosed frontmatter is read whole). A block of only comments is empty.
- js-yaml 3: plain scalars typed by its own schema (`yes` is text, `1_000`, `0x1F`, `1:30` and
  `2024-01-01` are not), a duplicate key is an error, a tab after a line's indentation is a space.
- The retry: when the parse throws, every top-level `key: value` line whose value holds a `:`
  becomes a literal block (`key: |-`) and the text is parsed again. A text the retry leaves as it
  was hits gray-matter's cache instead: no frontmatter, no error.
- The fields: `name` must be text; `description` text or absent. Without one the skill is loaded
  (it takes its name) but never listed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from ..base.bounds import json_too_deep, yaml_problem
from ..base.plainyaml import plain_mapping

if TYPE_CHECKING:
    _BASE = yaml.SafeLoader
else:
    _BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Unreadable(ValueError):
    """OpenCode drops the file; the message says why in its terms."""


@dataclass(frozen=True)
class Fields:
    name: str
    description: str | None  # None: absent (loaded under its name, never listed)


def read_fields(data: bytes) -> Fields:
    """The name and description OpenCode takes from a SKILL.md, or Unreadable."""
    # Bun's text() decodes as the WHATWG decoder does: bad bytes become U+FFFD, one BOM goes.
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    parsed = _load(text)
    if not isinstance(parsed, dict):
        if parsed is _NO_FRONTMATTER:
            raise Unreadable("has no frontmatter: OpenCode needs `---` alone on the first line")
        raise Unreadable("its frontmatter is empty or not a mapping, so it has no `name`")
    name = parsed.get("name")
    if "name" not in parsed:
        raise Unreadable("has no `name` field")
    if not isinstance(name, str):
        raise Unreadable(f"its `name` is {_kind(name)}, not text")
    description = parsed.get("description")
    if "description" in parsed and not isinstance(description, str):
        raise Unreadable(f"its `description` is {_kind(description)}, not text")
    return Fields(name, description)


def _kind(value: object) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, bytes):
        return "binary"
    return "a number or a date" if isinstance(value, _Typed) else type(value).__name__


_NO_FRONTMATTER = object()


def _load(text: str) -> Any:
    try:
        return _gray_matter(text)
    except Unreadable as first:
        fixed = _sanitize(text)
        if fixed == text:
            # gray-matter cached this text before the parse threw: the same call answers "no data".
            raise Unreadable(f"its frontmatter does not parse ({first}); OpenCode drops it without a word") from None
        try:
            return _gray_matter(fixed)
        except Unreadable as second:
            raise Unreadable(f"its frontmatter does not parse ({second}); OpenCode logs `failed to load skill`") from None


def _gray_matter(text: str) -> Any:
    text = text.removeprefix("\ufeff")  # gray-matter strips one more
    if not text.startswith("---") or text[3:4] == "-":
        return _NO_FRONTMATTER
    rest = text[3:]
    newline = re.search(r"\r?\n", rest)
    raw = rest[: newline.start()] if newline else rest[:-1]
    language = raw.strip()
    if language:
        rest = rest[len(raw) :]
    close = rest.find("\n---")
    matter = rest[: close if close >= 0 else len(rest)]
    if not re.sub(r"(?m)^\s*#[^\n]+", "", matter).strip():
        return {}
    return _parse(language, matter)


def _parse(language: str, matter: str) -> Any:
    lowered = language.lower()
    if not language or lowered in ("yaml", "yml"):
        return _yaml(matter)
    if language == "json":
        if len(matter) > 262_144 or json_too_deep(matter):
            raise Unreadable("a `---json` block too large or too deep for skilldeck to read")
        try:
            return json.loads(matter, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise Unreadable(f"a `---json` block that is not JSON: {exc}") from None
    if language == "javascript" or lowered in ("js", "javascript"):
        raise Unreadable("it is marked `---js`: OpenCode runs such a block as JavaScript to read it, which skilldeck never does")
    raise Unreadable(f'gray-matter engine "{language}" is not registered')


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _sanitize(text: str) -> str:
    """OpenCode's fallback: top-level `key: value` lines whose value holds a `:` become `key: |-`."""
    found = re.match(r"---\r?\n([\s\S]*?)\r?\n---", text)
    if not found:
        return text
    block = found.group(1)
    lines: list[str] = []
    for line in re.split(r"\r?\n", block):
        stripped = line.strip()
        pair = re.fullmatch(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*([^\n\r\u2028\u2029]*)", line)
        if stripped.startswith("#") or not stripped or line[:1].isspace() or pair is None:
            lines.append(line)
            continue
        value = pair.group(2).strip()
        if value in ("", ">", "|") or value[0] in "\"'" or ":" not in value:
            lines.append(line)
        else:
            lines += [f"{pair.group(1)}: |-", f"  {value}"]
    return text.replace(block, "\n".join(lines), 1)


# js-yaml 3's implicit types (DEFAULT_SAFE_SCHEMA), in its order: each makes a plain scalar a
# value that is not text.
_INT = re.compile(
    r"[-+]?(?:0|0b[01_]*[01]|0x[0-9a-fA-F_]*[0-9a-fA-F]|0[0-7_]*[0-7]|[1-9](?:[0-9_]*[0-9])?|[1-9][0-9_]*(?::[0-5]?[0-9])+)"
)
_FLOAT = re.compile(
    r"(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))(?<!_)"
)
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"
    r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"
)
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_TYPED = {"int": _INT, "float": _FLOAT, "timestamp": _TIMESTAMP}


@dataclass(frozen=True)
class _Typed:
    """A number or a date as js-yaml reads it: only its not being text matters here."""

    tag: str
    text: str

    def __str__(self) -> str:
        return self.text


class _JsYaml(_BASE):
    yaml_implicit_resolvers: dict[Any, Any] = {}


for _tag, _pattern, _first in (
    ("null", _NULL, ["~", "n", "N", ""]),
    ("bool", _BOOL, list("tTfF")),
    ("int", _INT, list("-+0123456789")),
    ("float", _FLOAT, list("-+0123456789.")),
    ("timestamp", _TIMESTAMP, list("0123456789")),
    ("merge", re.compile(r"<<"), ["<"]),
):
    _JsYaml.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(rf"^(?:{_pattern.pattern})\Z"), _first)


def _scalar_text(loader: _JsYaml, node: yaml.Node, pattern: re.Pattern[str]) -> str:
    text = str(loader.construct_scalar(node))  # type: ignore[arg-type]
    if not pattern.fullmatch(text):
        raise yaml.constructor.ConstructorError(None, None, f"cannot resolve `{text[:40]}` as {node.tag}", node.start_mark)
    return text


def _null(loader: _JsYaml, node: yaml.Node) -> None:
    _scalar_text(loader, node, _NULL)


def _bool(loader: _JsYaml, node: yaml.Node) -> bool:
    return _scalar_text(loader, node, _BOOL).lower() == "true"


def _typed(name: str) -> Any:
    def construct(loader: _JsYaml, node: yaml.Node) -> _Typed:
        return _Typed(name, _scalar_text(loader, node, _TYPED[name]))

    return construct


def _merge_value(loader: _JsYaml, node: yaml.Node) -> str:
    return str(loader.construct_scalar(node))  # type: ignore[arg-type]


def _js_key(key: object) -> str:
    """A mapping key as a JavaScript object holds it (js-yaml stores String(key))."""
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, list):
        return ",".join("[object Object]" if isinstance(k, dict) else _js_key(k) for k in key)
    if isinstance(key, dict):
        return "[object Object]"
    return str(key)


def _mapping(loader: _JsYaml, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
    """js-yaml's mapping: keys as text, a key written twice is an error (merged keys may be
    overridden)."""
    explicit = [k for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge"]
    loader.flatten_mapping(node)
    out: dict[str, Any] = {}
    seen: set[str] = set()
    for key_node, value_node in node.value:
        key = _js_key(loader.construct_object(key_node, deep=True))
        if any(key_node is k for k in explicit):
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicated mapping key `{key[:40]}`", key_node.start_mark)
            seen.add(key)
        out[key] = loader.construct_object(value_node, deep=deep)
    return out


_JsYaml.add_constructor("tag:yaml.org,2002:null", _null)
_JsYaml.add_constructor("tag:yaml.org,2002:bool", _bool)
for _name in _TYPED:
    _JsYaml.add_constructor(f"tag:yaml.org,2002:{_name}", _typed(_name))
_JsYaml.add_constructor("tag:yaml.org,2002:merge", _merge_value)
_JsYaml.construct_mapping = _mapping  # type: ignore[assignment,method-assign]

# After a line's leading spaces js-yaml skips tabs as it skips spaces; PyYAML refuses them.
_TABS_AFTER_INDENT = re.compile(r"(?m)^( *)\t[ \t]*")


def _yaml(matter: str) -> Any:
    if matter and matter[-1] not in "\r\n":
        matter += "\n"  # js-yaml adds one: a block scalar at the fence keeps its last line break
    problem = yaml_problem(matter)
    if problem is not None:
        raise Unreadable("skilldeck does not parse this frontmatter: " + problem.split(" (Claude Code")[0])
    plain = plain_mapping(matter.strip("\n"))  # gray-matter keeps the line break after the fence
    if plain is not None:  # the common frontmatter, as js-yaml reads it
        return plain
    try:
        return _pyyaml(matter)
    except yaml.scanner.ScannerError as exc:
        if "\t" not in matter:
            raise Unreadable(_describe(exc)) from None
        try:
            return _pyyaml(_TABS_AFTER_INDENT.sub(r"\1", matter))
        except yaml.YAMLError:
            raise Unreadable(_describe(exc)) from None
    except yaml.YAMLError as exc:
        raise Unreadable(_describe(exc)) from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise Unreadable(str(exc)[:200]) from None


def _pyyaml(text: str) -> Any:
    # js-yaml breaks lines at \n and \r only; PyYAML also at U+0085, U+2028 and U+2029, which
    # js-yaml keeps as text (b18 in [frontmatter_blocks]). They stand in the parse as characters
    # of a private plane that no frontmatter holds, and are put back in what it gives.
    swapped = text.translate(_TO_PRIVATE) if _BREAKS.search(text) and not _PRIVATE.search(text) else None
    loader = _JsYaml(swapped if swapped is not None else text)
    try:
        data = loader.get_single_data()
    finally:
        loader.dispose()
    return _restore(data) if swapped is not None else data


_BREAKS = re.compile("[\x85\u2028\u2029]")
_PRIVATE = re.compile("[\U000f0085\U000f2028\U000f2029]")
_TO_PRIVATE = {0x85: "\U000f0085", 0x2028: "\U000f2028", 0x2029: "\U000f2029"}
_FROM_PRIVATE = {0xF0085: "\x85", 0xF2028: "\u2028", 0xF2029: "\u2029"}


def _restore(data: Any) -> Any:
    """Every text in a parsed frontmatter with the stand-ins turned back (keys too)."""
    if isinstance(data, str):
        return data.translate(_FROM_PRIVATE)
    if isinstance(data, list):
        return [_restore(item) for item in data]
    if isinstance(data, dict):
        return {_restore(key): _restore(value) for key, value in data.items()}
    return data


def _describe(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    mark = getattr(exc, "problem_mark", None)
    return f"{problem} at line {mark.line + 1}" if mark is not None else str(problem)
