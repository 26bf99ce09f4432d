"""Fuzz: random settings documents and random rule edits. After every edit each key the edit did
not touch has the same parsed value, the same number texts and the same place; a broken file is
refused and left byte for byte as it was.

SKILLDECK_FUZZ_SEED picks the run (a fixed default, so `make test` is repeatable) and
SKILLDECK_FUZZ_N the number of documents (small by default; `make fuzz` sets a large one). A
failure names the seed and the document to replay it.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from engine import SettingsEditError
from engine.base.jsondoc import JsonDocError, JsonObject, Number, loads
from engine.permissions.settings_edit import add_rule, remove_rule

SEED = int(os.environ.get("SKILLDECK_FUZZ_SEED", "14"))
N = int(os.environ.get("SKILLDECK_FUZZ_N", "120"))

BEHAVIORS = ("allow", "ask", "deny")
RULES = ("Bash", "Bash(git *)", "Skill(deploy)", "Read(./.env)", "Edit(/src/**)", "WebFetch(domain:é.example)", "mcp__x__*")
KEYS = ("model", "env", "hooks", "permissions", "a", "b", "ключ", "キー", "emoji 😀", "tab\there", 'quote"', "back\\slash", "")
NUMBERS = (
    "0", "-0", "7", "-12", "1.10", "0.0", "-0.0e-0", "1e999", "-1e999", "1E+2", "2.5e-3", "1e-400",
    "12345678901234567890123", "-98765432109876543210.000100", "9" * 400, "0.1", "3.14159265358979323846264338327950288",
)  # fmt: skip
CHARS = "aZ09 _-/.é中😀\u2028\u00a0\x7f"
ESCAPES = (
    '\\"',
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\\u0000",
    "\\u001f",
    "\\ud800",
    "\\udfff",
    "\\ud83d\\ude00",
    "\\u00e9",
)


class Gen:
    """JSON text written by hand, so numbers can take every form and layout varies."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.indent = rng.choice(["", " ", "  ", "    ", "\t"])

    def string(self) -> str:
        parts = [
            self.rng.choice(CHARS) if self.rng.random() < 0.7 else self.rng.choice(ESCAPES) for _ in range(self.rng.randrange(8))
        ]
        return '"' + "".join(parts) + '"'

    def key(self) -> str:
        return json.dumps(self.rng.choice(KEYS), ensure_ascii=self.rng.random() < 0.3)

    def value(self, depth: int) -> str:
        kind = self.rng.choice(
            ["number", "string", "literal", "array", "object"] if depth < 6 else ["number", "string", "literal"]
        )
        if kind == "number":
            return self.rng.choice(NUMBERS)
        if kind == "string":
            return self.string()
        if kind == "literal":
            return self.rng.choice(["true", "false", "null"])
        if kind == "array":
            return self.layout("[", "]", [self.value(depth + 1) for _ in range(self.rng.randrange(4))], depth)
        return self.obj(depth)

    def obj(self, depth: int, extra: list[str] | None = None) -> str:
        items = [f"{self.key()}:{self.rng.choice(['', ' '])}{self.value(depth + 1)}" for _ in range(self.rng.randrange(5))]
        items += extra or []
        self.rng.shuffle(items)
        return self.layout("{", "}", items, depth)

    def layout(self, start: str, end: str, items: list[str], depth: int) -> str:
        if not items:
            return start + end
        if not self.indent:
            return start + ",".join(items) + end
        pad = "\n" + self.indent * (depth + 1)
        return start + pad + ("," + pad).join(items) + "\n" + self.indent * depth + end

    def permissions(self, depth: int) -> str:
        roll = self.rng.random()
        if roll < 0.05:
            return self.rng.choice(['"allow"', "[]", "7"])  # not an object: adding is refused
        lists = []
        for behavior in self.rng.sample(BEHAVIORS, self.rng.randrange(4)):
            if self.rng.random() < 0.05:
                lists.append(f'"{behavior}": {{}}')  # not a list
            else:
                rules = [json.dumps(r) for r in self.rng.sample(RULES, self.rng.randrange(4))]
                lists.append(f'"{behavior}": ' + self.layout("[", "]", rules, depth + 2))
        if self.rng.random() < 0.3:
            lists.append('"defaultMode": "default"')
        return self.layout("{", "}", lists, depth + 1)

    def document(self) -> str:
        extra = [f'"permissions": {self.permissions(0)}'] if self.rng.random() < 0.7 else []
        text = self.obj(0, extra)
        # Keys other than permissions may repeat at the top: they must stay as written.
        return text


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _strict_json(text: str) -> Any:
    """Python's parser, minus the NaN/Infinity it accepts and JSON does not: the oracle."""
    return json.loads(text, parse_constant=_no_constant)


def _without(obj: JsonObject, key: str) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in obj.pairs if k != key]


def _rules(doc: JsonObject, behavior: str) -> Any:
    permissions = doc.get("permissions")
    return permissions.get(behavior) if isinstance(permissions, JsonObject) else None


def _check_edit(path: Path, rng: random.Random, where: str) -> None:
    before_bytes = path.read_bytes()
    before = loads(before_bytes.decode())
    behavior = rng.choice(BEHAVIORS)
    rule = rng.choice(RULES)
    adding = rng.random() < 0.6
    try:
        if adding:
            add_rule(path, rule, behavior)
        else:
            remove_rule(path, rule, behavior)
    except SettingsEditError as exc:
        permissions = before.get("permissions")
        current = _rules(before, behavior)
        legit = (
            adding
            and (
                (permissions is not None and not isinstance(permissions, JsonObject))
                or (current is not None and not isinstance(current, list))
            )
        ) or before.count("permissions") > 1
        assert legit, f"{where}: refused a valid edit: {exc}\n{before_bytes!r}"
        assert path.read_bytes() == before_bytes, f"{where}: a refused edit changed the file"
        return
    text = path.read_bytes().decode()
    _strict_json(text)
    after = loads(text)
    assert _without(after, "permissions") == _without(before, "permissions"), (
        f"{where}: other keys changed\n{before_bytes!r}\n{text!r}"
    )
    keys = [k for k, _ in before.pairs]
    added_permissions = adding and "permissions" not in keys and rule not in (_rules(before, behavior) or [])
    assert [k for k, _ in after.pairs] == keys + ["permissions"] * added_permissions, f"{where}: key order changed"
    old_perm, new_perm = before.get("permissions"), after.get("permissions")
    if isinstance(old_perm, JsonObject):
        assert _without(new_perm, behavior) == _without(old_perm, behavior), f"{where}: other permissions changed"
    old_rules = _rules(before, behavior)
    if not isinstance(old_rules, list):
        old_rules = [] if adding or old_rules is None else old_rules  # remove leaves what is not a list alone
    if isinstance(old_rules, list):
        expected = (old_rules if rule in old_rules else [*old_rules, rule]) if adding else [r for r in old_rules if r != rule]
    else:
        expected = old_rules
    assert (_rules(after, behavior) if _rules(after, behavior) is not None else []) == expected, (
        f"{where}: {behavior} is {_rules(after, behavior)}, expected {expected}"
    )


BREAKERS = (
    lambda t, r: t[: r.randrange(1, len(t))],  # cut short
    lambda t, r: t[:-1] + ",}" if t.endswith("}") else t + ",",  # trailing comma
    lambda t, r: t.replace("null", "NaN", 1) if "null" in t else t[:-1] + ',"x":Infinity}',
    lambda t, r: t[:-1] + ',"deep":' + "[" * 150 + "]" * 150 + "}",
    lambda t, r: "\ufeff" + t,  # a byte order mark
    lambda t, r: t[:1] + '"permissions":{},"permissions":{},' + t[1:] if t != "{}" else '{"permissions":1,"permissions":2}',
    lambda t, r: t[: (i := r.randrange(len(t)))] + r.choice(["'", "}", "]", "\\", "\x01", "tru"]) + t[i:],
)


def test_random_documents_and_edits_keep_every_other_key(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    path = tmp_path / "settings.json"
    edits = 0
    for n in range(N):
        text = Gen(rng).document()
        _strict_json(text)  # the generator writes valid JSON
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for e in range(rng.randrange(1, 5)):
            _check_edit(path, rng, f"seed {SEED}, document {n}, edit {e}")
            edits += 1
        assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"], f"seed {SEED}, document {n}: litter"
    assert edits >= N


def test_random_broken_documents_are_refused_and_left_alone(tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    path = tmp_path / "settings.json"
    refused = 0
    for n in range(N):
        good = Gen(rng).document()
        broken = rng.choice(BREAKERS)(good, rng)
        data = broken.encode("utf-8", "surrogatepass")
        if rng.random() < 0.1:
            data = data[:1] + b"\xff\xfe" + data[1:]  # not UTF-8
        if not data.strip():
            continue  # an empty file is refused only after the re-read window: tested on its own
        path.write_bytes(data)
        try:
            loads(data.decode("utf-8"))
            continue  # the breaker happened to keep it valid
        except (UnicodeDecodeError, JsonDocError):
            pass
        for edit in (lambda: add_rule(path, "Skill(x)", "allow"), lambda: remove_rule(path, "Bash")):
            try:
                edit()
            except SettingsEditError as exc:
                assert "settings.json" in str(exc)
            else:
                raise AssertionError(f"seed {SEED + 1}, document {n}: a broken file was edited\n{data!r}")
            assert path.read_bytes() == data, f"seed {SEED + 1}, document {n}: a broken file changed"
        refused += 1
        assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]
    assert refused >= N // 2, f"only {refused} of {N} documents were broken"


def test_number_texts_survive_in_every_position(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    body = ",".join(f'"n{i}":{text}' for i, text in enumerate(NUMBERS))
    path.write_text("{" + body + ',"list":[' + ",".join(NUMBERS) + "]}")
    assert add_rule(path, "Skill(x)", "deny")
    after = loads(path.read_text())
    assert [after.get(f"n{i}") for i in range(len(NUMBERS))] == [Number(t) for t in NUMBERS]
    assert after.get("list") == [Number(t) for t in NUMBERS]
