"""Fuzz: SKILL.md files made of random and mutated bytes, loaded beside a good skill.

Properties, for every input: loading never raises, one load takes less than BOUND_S, the good
skill in the same folder loads unchanged, and the hostile file either loads or has a diagnostic.
The inputs lean on what breaks YAML readers: significant characters, deep nesting, aliases,
tags, huge numbers, bad UTF-8, a BOM, CRLF, NUL bytes.

SKILLDECK_FUZZ_SEED picks the run (a fixed default, so `make test` is repeatable) and
SKILLDECK_FUZZ_N the number of inputs (small by default; `make fuzz` sets a large one). A
failure names the seed, the input's number and its first bytes, and keeps the file to replay.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from engine import Locations, Workspace, build_listing
from engine.catalog.frontmatter import decode, parse, split

SEED = int(os.environ.get("SKILLDECK_FUZZ_SEED", "14"))
N = int(os.environ.get("SKILLDECK_FUZZ_N", "150"))
# A bound, not a benchmark: the slowest legitimate input (a 256 KB frontmatter) takes ~0.2 s.
BOUND_S = 2.0

GOOD = "---\nname: good\ndescription: The good one.\n---\nDo it.\n"
TEMPLATES = (
    "---\nname: x\ndescription: Does x. Use when y.\nallowed-tools: Read, Grep, Bash(git *)\n---\n# X\n\nBody $ARGUMENTS\n",
    "---\ndescription: >\n  folded\n  text\narguments: [a, b]\nmetadata:\n  k: {a: [1, 2]}\n  list:\n    - one\n    - two\n---\nBody\n",
    "---\ndescription: 'quoted: yes'\nuser-invocable: false\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\n!`echo hi`\n",
    "---\nname: a\ndescription: b\n---\n",
    "no frontmatter at all\n",
)
TOKENS = (
    ":", ": ", "-", "- ", "? ", "[", "]", "{", "}", ",", "#", "&a ", "*a", "&b ", "*b", "!", "!!", "|", ">", "%", "@",
    "`", "'", '"', "\\", "\t", "\n", "\r\n", "---\n", "...\n", "<<: *a\n", "  ", "\x00", "\ufeff", "\u2028", "é", "😀",
)  # fmt: skip
TAGS = (
    "!!timestamp x", "!!float x", "!!int x", "!!binary '@'", "!!python/object:os.system x", "!!set [1]",
    "!!omap [1]", "!!pairs x", "!!map [1]", "!<tag:yaml.org,2002:int> z", "!local x", "2020-02-31", "99999-01-01",
    "0x" + "f" * 5000, "1" * 4301, "-" + "9" * 5000, "1e99999", ".nan", "0o" + "7" * 5000, "1_2_3", "12:30:61",
)  # fmt: skip
KEYS = ("description", "name", "metadata", "arguments", "allowed-tools", "hooks", "paths", "user-invocable", "x")


def _deep(rng: random.Random) -> str:
    depth = rng.choice((10, 63, 64, 65, 100, 1_000, 30_000))
    shape = rng.randrange(4)
    if shape == 0:
        return "[" * depth + "]" * depth * rng.randrange(2)
    if shape == 1:
        return "{a: " * depth + "1" + "}" * depth * rng.randrange(2)
    if shape == 2:
        return "\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, min(depth, 400)))
    return "\n" + "- " * depth + "x"


def _bomb(rng: random.Random) -> str:
    width, levels = rng.randrange(2, 12), rng.randrange(2, 14)
    lines = [f"b0: &b0 [{', '.join(['lol'] * width)}]"]
    lines += [f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + f"\n{rng.choice(KEYS)}: *b{levels - 1}"


def _mutate(rng: random.Random, data: bytes) -> bytes:
    pos = rng.randrange(len(data) + 1)
    kind = rng.randrange(10)
    if kind == 0:
        return data[:pos] + rng.choice(TOKENS).encode() + data[pos:]
    if kind == 1:
        end = min(len(data), pos + rng.randrange(1, 40))
        return data[:pos] + data[end:]
    if kind == 2:
        end = min(len(data), pos + rng.randrange(1, 80))
        return data[:end] + data[pos:end] * rng.randrange(1, 50) + data[end:]
    if kind == 3:
        return data[:pos] + bytes([rng.randrange(256)]) + data[pos + 1 :]
    if kind == 4:
        return data[:pos] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80")) + data[pos:]
    if kind == 5:
        return b"\xef\xbb\xbf" + data
    if kind == 6:
        return data.replace(b"\n", b"\r\n")
    if kind == 7:
        return data.replace(b"---\n", f"---\n{rng.choice(KEYS)}: {rng.choice(TAGS)}\n".encode(), 1)
    if kind == 8:
        return data.replace(b"---\n", f"---\n{rng.choice(KEYS)}: {_deep(rng)}\n".encode(), 1)
    return data.replace(b"---\n", f"---\n{_bomb(rng)}\n".encode(), 1)


def _random_bytes(rng: random.Random) -> bytes:
    alphabet = "".join(TOKENS) + "abcxyz0129 \n\n\n"
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 400)))
    return (b"---\n" if rng.random() < 0.7 else b"") + text.encode("utf-8", "surrogatepass") + b"\n---\nbody\n"


def make_input(rng: random.Random) -> bytes:
    data = _random_bytes(rng) if rng.random() < 0.25 else rng.choice(TEMPLATES).encode()
    for _ in range(rng.randrange(1, 6)):
        data = _mutate(rng, data)
    return data


def _check_one(project: Path, loc: Locations, data: bytes) -> None:
    bad = project / ".claude" / "skills" / "bad" / "SKILL.md"
    bad.write_bytes(data)
    # The pure functions first (what the app's preview uses), then a whole load.
    text, _ = decode(data)
    parts = split(text)
    if parts.terminated:
        parse(parts.yaml_text)
    catalog = Workspace(loc).load()
    assert catalog.skills["good"].description == "The good one."
    if "bad" in catalog.skills:
        # What `list --json`, `show` and the listing do with a skill: nothing may expand a bomb.
        json.dumps(catalog.skills["bad"].to_dict(), default=str)
        build_listing(catalog.skills.values(), 8_000)
    else:
        assert any(d.path == bad for d in catalog.diagnostics)


def test_frontmatter_fuzz(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / ".claude" / "skills" / "good").mkdir(parents=True)
    (project / ".claude" / "skills" / "bad").mkdir()
    (project / ".claude" / "skills" / "good" / "SKILL.md").write_text(GOOD)
    loc = Locations(project=project, user_dir=tmp_path / "u", managed_dir=tmp_path / "m", bundled=False, environ={})
    rng = random.Random(SEED)
    slowest = 0.0
    for i in range(N):
        data = make_input(rng)
        started = time.perf_counter()
        try:
            _check_one(project, loc, data)
        except BaseException as exc:
            kept = tmp_path / f"failing-{i}.md"
            kept.write_bytes(data)
            raise AssertionError(f"seed {SEED}, input {i} (kept in {kept}): {data[:300]!r}") from exc
        elapsed = time.perf_counter() - started
        slowest = max(slowest, elapsed)
        assert elapsed < BOUND_S, f"seed {SEED}, input {i} took {elapsed:.2f} s: {data[:300]!r}"
    assert slowest < BOUND_S
