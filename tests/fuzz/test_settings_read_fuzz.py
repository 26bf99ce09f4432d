"""Fuzz: settings files and plugin manifests made of random and mutated JSON, read from disk.

Properties, for every input: reading never raises, one read takes less than BOUND_S, a broken
file is skipped with a diagnostic while the user's own settings file beside it is still read
(its rule is there), and `read_json` gives exactly what `json.loads` gives whenever the text is
shallow enough to parse.

SKILLDECK_FUZZ_SEED picks the run (a fixed default, so `make test` is repeatable) and
SKILLDECK_FUZZ_N the number of inputs (small by default; `make fuzz` sets a large one). A
failure names the seed, the input's number and its first bytes.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from engine import Locations, read_settings
from engine.base.bounds import MAX_NESTING
from engine.catalog.diagnostics import Sink
from engine.catalog.jsonfile import read_json

SEED = int(os.environ.get("SKILLDECK_FUZZ_SEED", "14"))
N = int(os.environ.get("SKILLDECK_FUZZ_N", "200"))
BOUND_S = 2.0

USER = {"permissions": {"allow": ["Bash(git status)"]}}
TEMPLATES = (
    {"permissions": {"allow": ["Bash(npm test)", "Read(./src/**)"], "deny": ["Bash(curl *)"], "ask": []}},
    {"enabledPlugins": {"tools@mk": True, "off@mk": False}, "env": {"A": "1"}, "model": "opus"},
    {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}},
    {"name": "plugin", "skills": ["./a", "./b"], "commands": {"x": {"source": "./x.md"}}, "version": "1.0.0"},
    {"skillOverrides": {"a": {"disabled": True}}, "disableSkillShellExecution": True, "n": 1.5e300},
)
TOKENS = (
    "{", "}", "[", "]", ",", ":", '"', "\\", "\\u", "\\ud800", "0", "-", "1e999", "NaN", "Infinity", "true", "null",
    "//", "/*", "\n", "\r\n", "\t", " ", "\x00", "\ufeff", "é", "😀", '"permissions"', '"allow"', "9" * 4301,
)  # fmt: skip


def _deep(rng: random.Random) -> str:
    depth = rng.choice((MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 1_000, 100_000))
    opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
    return opener * depth + "1" + closer * depth * rng.randrange(2)


def _mutate(rng: random.Random, data: bytes) -> bytes:
    pos = rng.randrange(len(data) + 1)
    kind = rng.randrange(8)
    if kind == 0:
        return data[:pos] + rng.choice(TOKENS).encode("utf-8", "surrogatepass") + data[pos:]
    if kind == 1:
        return data[:pos] + data[min(len(data), pos + rng.randrange(1, 30)) :]
    if kind == 2:
        end = min(len(data), pos + rng.randrange(1, 60))
        return data[:end] + data[pos:end] * rng.randrange(1, 40) + data[end:]
    if kind == 3:
        return data[:pos] + bytes([rng.randrange(256)]) + data[pos + 1 :]
    if kind == 4:
        return b"\xef\xbb\xbf" + data
    if kind == 5:
        return data[:pos] + _deep(rng).encode() + data[pos:]
    if kind == 6:
        return data.replace(b"{", b'{"k": ' + _deep(rng).encode() + b", ", 1)
    return data[:pos] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80")) + data[pos:]


def make_input(rng: random.Random) -> bytes:
    data = json.dumps(rng.choice(TEMPLATES), indent=rng.choice((None, 2))).encode()
    for _ in range(rng.randrange(0, 5)):
        data = _mutate(rng, data)
    return data


def _check_one(loc: Locations, path: Path, data: bytes) -> None:
    path.write_bytes(data)
    sink = Sink()
    got = read_json(path, sink, "settings-invalid", "settings file")
    try:
        expected = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        expected = None
    if expected is not None and not sink.items:
        # Compared as text: a NaN inside is not equal to itself.
        assert json.dumps(got) == json.dumps(expected)
    if got is None:
        assert len(sink.items) == 1 and sink.items[0].path == path
    settings = read_settings(loc)
    assert [r.text for r in settings.rules if r.file == loc.user / "settings.json"] == ["Bash(git status)"]


def test_settings_read_fuzz(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".claude").mkdir(parents=True)
    user = tmp_path / "user"
    user.mkdir()
    (user / "settings.json").write_text(json.dumps(USER))
    loc = Locations(project=project, user_dir=user, managed_dir=tmp_path / "m", bundled=False, environ={})
    path = project / ".claude" / "settings.json"
    rng = random.Random(SEED)
    for i in range(N):
        data = make_input(rng)
        started = time.perf_counter()
        try:
            _check_one(loc, path, data)
        except BaseException as exc:
            raise AssertionError(f"seed {SEED}, input {i}: {data[:300]!r}") from exc
        elapsed = time.perf_counter() - started
        assert elapsed < BOUND_S, f"seed {SEED}, input {i} took {elapsed:.2f} s: {data[:300]!r}"
