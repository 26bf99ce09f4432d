"""Claude Code's order of names: JavaScript's `localeCompare`, which is ICU's root collation.

Claude Code sorts each skills folder, the legacy commands and each plugin's skills with
`a.localeCompare(b)`. ICU compares a whole string by base letters first (punctuation before
symbols and emoji before digits before letters, Latin before Greek, Cyrillic, ... and Han last;
case and accents ignored), then by accents, then by case and form (lower case first, then the
full-width, circled and other forms); that is why `_u` lists before `-h`, `10n` before `1n`,
`ea` before `éa`, `😀` before `0`, and `ａ` between `a` and `A` (recorded: order_scripts).

`collation.txt` holds that order for each code point of the Basic Multilingual Plane, the emoji
and symbol planes and Han extension B, made with Node's ICU by tests/oracle/make_collation.js
(the same order the binary gives: order_scripts). A character whose compatibility decomposition
is longer (`ﬁ`, `½`, `™`, Hangul syllables) weighs as that decomposition, told apart at the case
level; Latin letters ICU expands (`æ` as `ae`, `ß` as `ss`) likewise, at the accent level. A
character outside the table sorts after every other, by code point.
"""

from __future__ import annotations

import unicodedata
from array import array
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

from .collate_ascii import PRIMARY, SECONDARY, TERTIARY

_TABLE_FILE = Path(__file__).with_name("collation.txt")
_TOP = 0x2A6E0  # past the last code point the table holds


class _Table:
    """The weights of collation.txt by code point, read in two steps: at the first name that is
    not all ASCII, as far as the last ASCII character (a quarter of the file); the rest at the
    first character it does not reach."""

    def __init__(self) -> None:
        self.primary = array("i", [-1]) * _TOP
        self.secondary = array("i", [0]) * _TOP
        self.tertiary = array("i", [0]) * _TOP
        self.ignored: frozenset[int] = frozenset()
        self.state = (0, 0, 0)
        lines = _TABLE_FILE.read_text(encoding="ascii").splitlines()
        self.items: list[str] = []
        for line in lines:
            if line.startswith("ignorable "):
                self.ignored = frozenset(_codes(line.split()[1:]))
            elif not line.startswith("#"):
                self.items.extend(line.split())
        self.done = 0
        ascii_left = set(range(128)) - self.ignored
        while ascii_left and self.done < len(self.items):
            for lo, hi in self._read(self.done, self.done + 256):
                if lo < 128:
                    ascii_left.difference_update(range(lo, min(hi, 128)))
        self.complete = self.done >= len(self.items)

    def _read(self, start: int, end: int) -> list[tuple[int, int]]:
        """Weighs the items from `start` to `end`; the spans of code points they weighed. A span
        of many code points (a script's letters in order) is written as slices, not code by code:
        the part before the last ASCII letter holds 147,000 of them (0.1 s at import, one by one)."""
        primary, secondary, tertiary = self.primary, self.secondary, self.tertiary
        p, s, t = self.state
        seen: list[tuple[int, int]] = []
        for item in self.items[start:end]:
            level = item[0]
            first, _, last = item[1:].partition("-")
            lo = int(first, 16)
            hi = int(last, 16) + 1 if last else lo + 1
            seen.append((lo, hi))
            if hi - lo == 1:
                if level == "1":
                    p, s, t = p + 1, 0, 0
                elif level == "2":
                    s, t = s + 1, 0
                elif level == "3":
                    t += 1
                primary[lo], secondary[lo], tertiary[lo] = p, s, t
                continue
            # Each code point of a span steps its level's weight by one, as one by one above.
            n = hi - lo
            if level == "1":
                primary[lo:hi] = array("i", range(p + 1, p + n + 1))
                p, s, t = p + n, 0, 0
            else:
                primary[lo:hi] = array("i", [p]) * n
            if level == "2":
                secondary[lo:hi] = array("i", range(s + 1, s + n + 1))
                s, t = s + n, 0
            else:
                secondary[lo:hi] = array("i", [s]) * n
            if level == "3":
                tertiary[lo:hi] = array("i", range(t + 1, t + n + 1))
                t += n
            else:
                tertiary[lo:hi] = array("i", [t]) * n
        self.state, self.done = (p, s, t), min(end, len(self.items))
        return seen

    def finish(self) -> None:
        self._read(self.done, len(self.items))
        self.complete = True
        self.items = []


def _codes(spans: Iterable[str]) -> Iterator[int]:
    for span in spans:
        lo, _, hi = span.partition("-")
        yield from range(int(lo, 16), int(hi or lo, 16) + 1)


_TABLE_DATA: _Table | None = None


def _table() -> _Table:
    """The table, read at the first name that is not all ASCII (the ASCII weights are constants)."""
    global _TABLE_DATA
    if _TABLE_DATA is None:
        _TABLE_DATA = _Table()
    return _TABLE_DATA


# Letters ICU compares as two (`æ` as `ae`, `ß` as `ss`), told apart from them at the accent level.
_EXPANSIONS = {
    "Æ": "AE", "æ": "ae", "ß": "ss", "Ĳ": "IJ", "ĳ": "ij", "Œ": "OE", "œ": "oe", "ƍ": "zw", "ƾ": "ts",
    "Ǆ": "DZ", "ǅ": "Dz", "ǆ": "dz", "Ǉ": "LJ", "ǈ": "Lj", "ǉ": "lj", "Ǌ": "NJ", "ǋ": "Nj", "ǌ": "nj",
    "Ǣ": "AE", "ǣ": "ae", "Ǳ": "DZ", "ǲ": "Dz", "ǳ": "dz", "Ǽ": "AE", "ǽ": "ae", "ȸ": "db", "ȹ": "qp",
}  # fmt: skip
# Past every weight the table gives, at each level.
_OUTSIDE = 1 << 24
_EXPANSION_ACCENT = 1 << 20
_COMPATIBLE_FORM = 1 << 20


def _weight(code: int) -> tuple[int, int, int] | None:
    table = _table()
    if code < _TOP and table.primary[code] < 0 and not table.complete:
        table.finish()
    if code < _TOP and table.primary[code] >= 0:
        return table.primary[code], table.secondary[code], table.tertiary[code]
    return None


def table_ascii_weights() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The ASCII characters' weights as the table gives them: what collate_ascii.py holds."""
    weights = [_weight(c) or (_OUTSIDE + c, 0, 0) for c in range(128)]
    return tuple(w[0] for w in weights), tuple(w[1] for w in weights), tuple(w[2] for w in weights)


def _ascii_tables() -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    # An ASCII character has no expansion and never combines: its three weights are a lookup.
    chars = [chr(c) for c in range(128)]
    primary, secondary, tertiary = (dict(zip(chars, weights, strict=True)) for weights in (PRIMARY, SECONDARY, TERTIARY))
    return primary, secondary, tertiary


_P, _S, _T = _ascii_tables()


@lru_cache(maxsize=65536)
def collation_key(name: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], str]:
    """A sort key that orders names as `localeCompare` does: base letters, then accents, then
    case; the name itself breaks the last ties (a skills folder then puts them in the disk's
    order, as Claude Code does: scan.walk.disk_order_ties)."""
    if name.isascii():
        # Three lookups per character in C (a third of the time of the loop below).
        return tuple(map(_P.__getitem__, name)), tuple(map(_S.__getitem__, name)), tuple(map(_T.__getitem__, name)), name
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for char in unicodedata.normalize("NFC", name):
        expanded = _EXPANSIONS.get(char)
        if expanded is not None:
            # ICU tells them from the two letters at the accent level, after every accent.
            for i, letter in enumerate(expanded):
                primary.append(_P[letter])
                secondary.append(0 if i else _EXPANSION_ACCENT)
                tertiary.append(_T[letter])
            continue
        code = ord(char)
        weight = _weight(code)
        if weight is None:
            if code in _table().ignored:
                continue
            parts = unicodedata.normalize("NFKD", char)
            if parts != char:
                # `ﬁ` as `fi`, `½` as `1⁄2`, a Hangul syllable as its jamo: a form of them,
                # told apart at the last level.
                for part in parts:
                    _add(ord(part), primary, secondary, tertiary, _COMPATIBLE_FORM)
                continue
            weight = (0, 1 + code, 0) if unicodedata.combining(char) else (_OUTSIDE + code, 0, 0)
        _put(weight, primary, secondary, tertiary, 0)
    return tuple(primary), tuple(secondary), tuple(tertiary), name


def _add(code: int, primary: list[int], secondary: list[int], tertiary: list[int], form: int) -> None:
    weight = _weight(code)
    if weight is None:
        weight = (0, 1 + code, 0) if unicodedata.combining(chr(code)) else (_OUTSIDE + code, 0, 0)
    _put(weight, primary, secondary, tertiary, form)


def _put(weight: tuple[int, int, int], primary: list[int], secondary: list[int], tertiary: list[int], form: int) -> None:
    if weight[0] == 0:
        # A mark (an accent with no precomposed letter): it weighs at the accent level only.
        secondary.append(weight[1])
        return
    primary.append(weight[0])
    secondary.append(weight[1])
    tertiary.append(weight[2] + form)
