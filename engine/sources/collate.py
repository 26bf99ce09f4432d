"""Claude Code's order of names: JavaScript's `localeCompare`, which is ICU's root collation.

Claude Code sorts each skills folder, the legacy commands and each plugin's skills with
`a.localeCompare(b)`. ICU compares a whole string by base letters first (punctuation before
digits before letters, case and accents ignored), then by accents, then by case (lower case
first); that is why `_u` lists before `-h`, `10n` before `1n`, and `ea` before `éa`.

`_TABLE` holds that order for the characters names are made of (ASCII, Latin-1, Latin
Extended-A and -B, general punctuation): each entry is a level digit and a code point, in
collation order; the digit says how the character differs from the one before it (1: another
base letter, 2: another accent, 3: another case). It was made with Node's ICU:
`new Intl.Collator("en", {sensitivity: ...}).compare` over those characters one by one.
Characters outside it sort after every letter, by code point (ICU sorts the other scripts
after Latin, roughly in code point order).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_TABLE = (
    "10009 1000a 1000b 1000c 1000d 10020 300a0 1203e 1005f 12017 1002d 12010 32011 12012 12013 12014 "
    "12015 12053 1002c 1003b 1204f 1003a 10021 1203c 12049 100a1 1003f 12048 12047 100bf 1203d 1002e "
    "32024 12025 12026 100b7 12055 12056 12058 12059 1205a 1205b 1205c 1205d 1205e 10027 22018 22019 "
    "2201a 2201b 12039 1203a 10022 2201c 2201d 2201e 2201f 100ab 100bb 10028 10029 1005b 1005d 1007b "
    "1007d 12045 12046 12016 100a7 100b6 1204b 10040 1002a 1204e 12051 1002f 1005c 10026 1204a 10023 "
    "10025 12030 12031 12020 12021 12022 12023 12027 12043 1204c 1204d 12032 12033 12034 12057 12035 "
    "12036 12037 12038 1203b 1203f 12054 12040 12050 12041 12042 10060 100b4 1005e 100af 100a8 100b8 "
    "100b0 100a9 100ae 1002b 100b1 100f7 100d7 1003c 1003d 1003e 100ac 1007c 100a6 1007e 12052 12044 "
    "100a4 100a2 10024 100a3 100a5 10030 10031 300b9 100bd 100bc 10032 300b2 10033 300b3 100be 10034 "
    "10035 10036 10037 10038 10039 10061 30041 300aa 200e1 300c1 200e0 300c0 20103 30102 200e2 300c2 "
    "201ce 301cd 200e5 300c5 201fb 301fa 200e4 300c4 201df 301de 200e3 300c3 20227 30226 201e1 301e0 "
    "20105 30104 20101 30100 20201 30200 20203 30202 100e6 300c6 201fd 301fc 201e3 301e2 1023a 10062 "
    "30042 10180 30243 10181 10183 30182 10063 30043 20107 30106 20109 30108 2010d 3010c 2010b 3010a "
    "200e7 300c7 1023c 3023b 10188 30187 10064 30044 2010f 3010e 20111 30110 200f0 300d0 10238 101f3 "
    "301f2 301f1 201c6 301c5 301c4 10189 1018a 1018c 3018b 10221 10065 30045 200e9 300c9 200e8 300c8 "
    "20115 30114 200ea 300ca 2011b 3011a 200eb 300cb 20117 30116 20229 30228 20119 30118 20113 30112 "
    "20205 30204 20207 30206 10247 30246 101dd 3018e 1018f 10190 10066 30046 10192 30191 10067 30047 "
    "201f5 301f4 2011f 3011e 2011d 3011c 201e7 301e6 20121 30120 20123 30122 101e5 301e4 10193 10194 "
    "101a3 301a2 10068 30048 20125 30124 2021f 3021e 20127 30126 10195 301f6 10069 30049 200ed 300cd "
    "200ec 300cc 2012d 3012c 200ee 300ce 201d0 301cf 200ef 300cf 20129 30128 20130 2012f 3012e 2012b "
    "3012a 20209 30208 2020b 3020a 10133 30132 10131 10197 10196 1006a 3004a 20135 30134 201f0 10237 "
    "10249 30248 1006b 3004b 201e9 301e8 20137 30136 10199 30198 1006c 3004c 2013a 30139 2013e 3013d "
    "2013c 3013b 20142 30141 20140 3013f 101c9 301c8 301c7 1019a 3023d 10234 1019b 1006d 3004d 1006e "
    "3004e 20144 30143 201f9 301f8 20148 30147 200f1 300d1 20146 30145 101cc 301cb 301ca 1019d 1019e "
    "30220 10235 1014b 3014a 1006f 3004f 300ba 200f3 300d3 200f2 300d2 2014f 3014e 200f4 300d4 201d2 "
    "301d1 200f6 300d6 2022b 3022a 20151 30150 200f5 300d5 2022d 3022c 2022f 3022e 20231 30230 200f8 "
    "300d8 201ff 301fe 201eb 301ea 201ed 301ec 2014d 3014c 2020d 3020c 2020f 3020e 201a1 301a0 10153 "
    "30152 10186 1019f 10223 30222 10070 30050 101a5 301a4 10071 30051 10239 1024b 3024a 10138 10072 "
    "30052 20155 30154 20159 30158 20157 30156 20211 30210 20213 30212 101a6 1024d 3024c 10073 30053 "
    "2015b 3015a 2015d 3015c 20161 30160 2015f 3015e 20219 30218 2017f 100df 1023f 101a9 101aa 10074 "
    "30054 20165 30164 20163 30162 2021b 3021a 101be 10167 30166 1023e 101ab 101ad 301ac 101ae 10236 "
    "10075 30055 200fa 300da 200f9 300d9 2016d 3016c 200fb 300db 201d4 301d3 2016f 3016e 200fc 300dc "
    "201d8 301d7 201dc 301db 201da 301d9 201d6 301d5 20171 30170 20169 30168 20173 30172 2016b 3016a "
    "20215 30214 20217 30216 201b0 301af 10244 1019c 101b1 10076 30056 101b2 10245 10077 30057 20175 "
    "30174 10078 30058 10079 30059 200fd 300dd 20177 30176 200ff 30178 20233 30232 1024f 3024e 101b4 "
    "301b3 1021d 3021c 1007a 3005a 2017a 30179 2017e 3017d 2017c 3017b 1018d 101b6 301b5 10225 30224 "
    "10240 101b7 201ef 301ee 101b9 301b8 101ba 100fe 300de 101bf 301f7 101bb 101a8 301a7 101bd 301bc "
    "10185 30184 10242 30241 10149 101c0 101c1 101c2 101c3 100b5 "
)

_IGNORED = frozenset({0x00AD})  # the soft hyphen weighs nothing at any level
# Letters ICU compares as two (`æ` as `ae`, `ß` as `ss`), told apart from them at the accent level.
_EXPANSIONS = {
    "Æ": "AE", "æ": "ae", "ß": "ss", "Ĳ": "IJ", "ĳ": "ij", "Œ": "OE", "œ": "oe", "ƍ": "zw", "ƾ": "ts",
    "Ǆ": "DZ", "ǅ": "Dz", "ǆ": "dz", "Ǉ": "LJ", "ǈ": "Lj", "ǉ": "lj", "Ǌ": "NJ", "ǋ": "Nj", "ǌ": "nj",
    "Ǣ": "AE", "ǣ": "ae", "Ǳ": "DZ", "ǲ": "Dz", "ǳ": "dz", "Ǽ": "AE", "ǽ": "ae", "ȸ": "db", "ȹ": "qp",
}  # fmt: skip
_OUTSIDE = 1 << 20


def _weights() -> dict[str, tuple[int, int, int]]:
    out: dict[str, tuple[int, int, int]] = {}
    primary = secondary = tertiary = 0
    for item in "".join(_TABLE).split():
        level, char = item[0], chr(int(item[1:], 16))
        if level == "1":
            primary, secondary, tertiary = primary + 1, 0, 0
        elif level == "2":
            secondary, tertiary = secondary + 1, 0
        else:
            tertiary += 1
        out[char] = (primary, secondary, tertiary)
    return out


_WEIGHTS = _weights()
_EXPANSION_ACCENT = 1000


def _ascii_tables() -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    # An ASCII character has no expansion, is never ignored and never combines: its three
    # weights are a lookup (the controls that have none sort after every letter, as below).
    weights = {chr(c): _WEIGHTS.get(chr(c), (_OUTSIDE + c, 0, 0)) for c in range(128)}
    return ({c: w[0] for c, w in weights.items()}, {c: w[1] for c, w in weights.items()}, {c: w[2] for c, w in weights.items()})


_P, _S, _T = _ascii_tables()


def _printable_tables() -> tuple[bytes, bytes] | None:
    """The primary and tertiary weights of the printable ASCII characters as byte translation
    tables, when every one fits a byte and none has an accent weight (true of the table above):
    a name of those characters then gets its key from two `bytes.translate`, in C throughout."""
    printable = [chr(c) for c in range(0x20, 0x7F)]
    if any(_P[c] > 255 or _S[c] or _T[c] > 255 for c in printable):
        return None
    primary, tertiary = bytearray(256), bytearray(256)
    for c in printable:
        primary[ord(c)], tertiary[ord(c)] = _P[c], _T[c]
    return bytes(primary), bytes(tertiary)


_BYTE_TABLES = _printable_tables()
# Printable ASCII: no control character, whose weight (past _OUTSIDE) does not fit a byte.
_PRINTABLE = re.compile(r"[ -~]*")


@lru_cache(maxsize=65536)
def collation_key(name: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], str]:
    """A sort key that orders names as `localeCompare` does: base letters, then accents, then
    case; the name itself breaks the last ties so that the order never depends on the disk."""
    if _BYTE_TABLES is not None and name.isascii() and _PRINTABLE.fullmatch(name):
        # Nearly every name: the same weights as below, looked up by bytes.translate (half the
        # time of a lookup per character at 15,000 names).
        data = name.encode("ascii")
        return tuple(data.translate(_BYTE_TABLES[0])), (0,) * len(data), tuple(data.translate(_BYTE_TABLES[1])), name
    if name.isascii():
        # Three lookups per character in C (a third of the time of the loop below).
        return tuple(map(_P.__getitem__, name)), tuple(map(_S.__getitem__, name)), tuple(map(_T.__getitem__, name)), name
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    text = name if name.isascii() else unicodedata.normalize("NFC", name)
    for char in text:
        expanded = _EXPANSIONS.get(char)
        if expanded is not None:
            # ICU tells them from the two letters at the accent level, after every accent.
            for i, letter in enumerate(expanded):
                primary.append(_WEIGHTS[letter][0])
                secondary.append(0 if i else _EXPANSION_ACCENT)
                tertiary.append(_WEIGHTS[letter][2])
            continue
        weight = _WEIGHTS.get(char)
        if weight is None:
            code = ord(char)
            if code in _IGNORED:
                continue
            if unicodedata.combining(char):
                # An accent with no precomposed letter: it only weighs at the accent level.
                secondary.append(1 + code)
                continue
            weight = (_OUTSIDE + code, 0, 0)
        primary.append(weight[0])
        secondary.append(weight[1])
        tertiary.append(weight[2])
    return tuple(primary), tuple(secondary), tuple(tertiary), name
