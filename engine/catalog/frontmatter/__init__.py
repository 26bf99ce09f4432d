"""Split a markdown file into YAML frontmatter and body, and parse the YAML as Claude Code does.

Claude Code 2.1.328 reads the file as UTF-8 (bad bytes become U+FFFD), drops a BOM, takes the
block from a first line `---` to the next `---` wherever it stands, parses it as YAML 1.2 (Bun's
parser), retries once after quoting values that usually break YAML and turning leading tabs into
spaces, and falls back to empty metadata. Descriptions, when_to_use and argument hints are then
cleaned (`cc_text`). This package reproduces that and remembers everything a user needs to fix the
file: positions, repaired lines, duplicate keys. Each rule is recorded on the binary:
tests/oracle/cases/listing/fm_*.json.

Decoding and splitting the block: `block.py`; the YAML parse and repair: `yamlparse.py`; the
texts Claude Code keeps (cleaned descriptions, the body fallback): `cctext.py`; JavaScript's
String(), trim() and UTF-16 lengths, which all of them use: `js.py`.
"""

from __future__ import annotations

from .block import Decoded, Split, decode, split
from .cctext import FALLBACK_MAX, cc_text, first_line_description
from .js import JS_SPACE, JS_TRIM, js_number, js_string, utf16_cut, utf16_len
from .yamlparse import MAX_NOTES, Parsed, YamlProblem, parse, repair

__all__ = [
    "FALLBACK_MAX",
    "JS_SPACE",
    "JS_TRIM",
    "MAX_NOTES",
    "Decoded",
    "Parsed",
    "Split",
    "YamlProblem",
    "cc_text",
    "decode",
    "first_line_description",
    "js_number",
    "js_string",
    "parse",
    "repair",
    "split",
    "utf16_cut",
    "utf16_len",
]
