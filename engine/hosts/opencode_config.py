"""OpenCode 1.18.33's config as far as its skills go, read as its binary reads it: the folders it
takes skills from besides `.claude` and `.agents`, the files it merges, and the permission rules
that decide whether the `skill` tool, and each skill, is offered.

Files, merged in this order (a later one wins, key by key): `config.json`, `opencode.json` and
`opencode.jsonc` in `$XDG_CONFIG_HOME/opencode` (any of them unreadable: all three are dropped and
OpenCode goes on with its defaults); `$OPENCODE_CONFIG`; `opencode.json(c)` from the top of the
project down to the start folder; `opencode.json(c)` in each `.opencode` folder from the start
folder up, then `~/.opencode`, then `$OPENCODE_CONFIG_DIR`; `$OPENCODE_CONFIG_CONTENT`;
`$OPENCODE_PERMISSION` (the `permission` object alone). A project file it cannot read stops
OpenCode before it sends anything. The text is JSON with comments and trailing commas.

`permission` becomes rules in the order JavaScript enumerates the object (keys that are array
indices first): `"skill": "deny"` is (skill, `*`, deny), `"skill": {"x*": "deny"}` is (skill,
`x*`, deny), and a key such as `"*"` is a rule for every tool. After OpenCode's own (`*`, `*`,
allow) and before the agent's own `permission`, the last rule whose tool and pattern match wins.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..base.bounds import json_too_deep
from ..base.globmatch import ANY, Char, Item, Opt, Pattern, Star
from ..base.safeio import read_regular

MAX_CONFIG_BYTES = 1_000_000
ACTIONS = ("allow", "ask", "deny")


@dataclass(frozen=True)
class Rule:
    permission: str  # a tool name or a pattern of them
    pattern: str  # a skill name or a pattern of them
    action: str
    source: str  # the file or variable that set it; "" for OpenCode's own default


@dataclass
class Settings:
    rules: list[Rule]
    stop: str = ""  # why OpenCode exits before it sends anything ("" when it does not)
    logs: list[str] = field(default_factory=list)
    skill_paths: list[str] = field(default_factory=list)  # `skills.paths` of the merged config, as written

    def decide(self, name: str) -> Rule:
        """The rule that decides a skill: the last one whose tool and pattern both match."""
        return self.decider()(name)

    def decider(self) -> Callable[[str], Rule]:
        """`decide` for many names: the rules about the skill tool picked once, and a `*` pattern
        matched without a matcher (15,000 skills, each against every rule, took a tenth of a second)."""
        rules = [rule for rule in reversed(self.rules) if matches("skill", rule.permission)]
        fallback = Rule("skill", "*", "ask", "")

        def decide(name: str) -> Rule:
            for rule in rules:
                if rule.pattern == "*" or matches(name, rule.pattern):
                    return rule
            return fallback

        return decide

    def tool_off(self) -> Rule | None:
        """The rule that takes the `skill` tool away (its last rule a `*` deny), or None."""
        for rule in reversed(self.rules):
            if matches("skill", rule.permission):
                return rule if rule.pattern == "*" and rule.action == "deny" else None
        return None


def flag(environ: Mapping[str, str], name: str) -> bool:
    return environ.get(name, "").lower() in ("1", "true")


def xdg_config(environ: Mapping[str, str], home: Path) -> Path:
    return Path(environ.get("XDG_CONFIG_HOME") or home / ".config") / "opencode"


def config_dirs(environ: Mapping[str, str], home: Path, levels: list[Path]) -> list[Path]:
    """OpenCode's config folders, each read for `skill/` and `skills/` too: its own under XDG, each
    `.opencode` from the start folder up, `~/.opencode`, `$OPENCODE_CONFIG_DIR`; once each."""
    out = [xdg_config(environ, home)]
    if not flag(environ, "OPENCODE_DISABLE_PROJECT_CONFIG"):
        out += [level / ".opencode" for level in levels if os.path.exists(level / ".opencode")]
    if os.path.exists(home / ".opencode"):
        out.append(home / ".opencode")
    if environ.get("OPENCODE_CONFIG_DIR"):
        out.append(Path(environ["OPENCODE_CONFIG_DIR"]))
    return list(dict.fromkeys(out))


class _Broken(ValueError):
    pass


def load(environ: Mapping[str, str], home: Path, levels: list[Path]) -> Settings:
    """The rules of the default agent for a session whose start folder and levels up to the
    project's top (nearest first) are `levels`."""
    layers: list[tuple[str, dict[str, Any]]] = []
    logs: list[str] = []
    own = xdg_config(environ, home)
    try:
        layers += [(str(p), _file(p)) for p in (own / "config.json", own / "opencode.json", own / "opencode.jsonc")]
    except _Broken as exc:
        layers = []
        logs.append(f'level=ERROR message="failed to load global config, using defaults" error="{exc}"')
    project = not flag(environ, "OPENCODE_DISABLE_PROJECT_CONFIG")
    files: list[Path] = []
    if environ.get("OPENCODE_CONFIG"):
        files.append(Path(environ["OPENCODE_CONFIG"]))
    if project:
        files += [level / name for level in reversed(levels) for name in ("opencode.json", "opencode.jsonc")]
    for folder in config_dirs(environ, home, levels):
        if folder.name == ".opencode" or str(folder) == environ.get("OPENCODE_CONFIG_DIR"):
            files += [folder / "opencode.json", folder / "opencode.jsonc"]
    try:
        layers += [(str(p), _file(p)) for p in files]
        if environ.get("OPENCODE_CONFIG_CONTENT"):
            layers.append(("$OPENCODE_CONFIG_CONTENT", _parse(environ["OPENCODE_CONFIG_CONTENT"], "$OPENCODE_CONFIG_CONTENT")))
    except _Broken as exc:
        return Settings([], str(exc), [*logs, str(exc)])
    if environ.get("OPENCODE_PERMISSION"):
        try:
            extra = json.loads(environ["OPENCODE_PERMISSION"])
            if isinstance(extra, dict):
                layers.append(("$OPENCODE_PERMISSION", {"permission": extra}))
        except ValueError:
            logs.append('level=WARN message="OPENCODE_PERMISSION contains invalid JSON, skipping"')
    return Settings(_rules(layers, home), "", logs, _skill_paths(layers))


def _skill_paths(layers: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """`skills.paths` as the merged config holds it (a later file's list replaces an earlier one)."""
    paths: Any = []
    for _, body in layers:
        skills = body.get("skills")
        if isinstance(skills, dict) and "paths" in skills:
            paths = skills["paths"]
    return [p for p in paths if isinstance(p, str) and p] if isinstance(paths, list) else []


def _rules(layers: list[tuple[str, dict[str, Any]]], home: Path) -> list[Rule]:
    merged: dict[str, Any] = {}
    origin: dict[tuple[str, str], str] = {}
    for source, body in layers:
        merged = _merge(merged, body)
        for key, pattern, _ in _leaves(body.get("permission"), home):
            origin[key, pattern] = source
    tools = merged.get("tools")
    permission = merged.get("permission")
    if isinstance(tools, dict):
        # OpenCode's older `tools: {"skill": false}`: permission entries it writes first.
        legacy = {("edit" if k in ("write", "edit", "patch") else k): ("allow" if v else "deny") for k, v in tools.items()}
        permission = _merge(legacy, permission if isinstance(permission, dict) else {})
    rules = [Rule("*", "*", "allow", "")]
    rules += [Rule(k, p, a, origin.get((k, p), "`tools`")) for k, p, a in _leaves(permission, home)]
    agent = merged.get("default_agent") if isinstance(merged.get("default_agent"), str) else "build"
    agents = merged.get("agent")
    own = agents.get(agent) if isinstance(agents, dict) else None
    if isinstance(own, dict):
        rules += [Rule(k, p, a, f"`agent.{agent}.permission`") for k, p, a in _leaves(own.get("permission"), home)]
    return rules


def _leaves(permission: Any, home: Path) -> Iterator[tuple[str, str, str]]:
    if not isinstance(permission, dict):
        return
    for key, value in _js_items(permission):
        if isinstance(value, str):
            yield key, "*", value
        elif isinstance(value, dict):
            for pattern, action in _js_items(value):
                if isinstance(action, str):
                    yield key, _expand(pattern, home), action


def _expand(pattern: str, home: Path) -> str:
    """OpenCode's `~` and `$HOME` in a pattern."""
    if pattern.startswith("~/"):
        return str(home) + pattern[1:]
    if pattern == "~":
        return str(home)
    if pattern.startswith("$HOME"):
        return str(home) + pattern[5:]
    return pattern


def _is_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1


def _js_items(obj: dict[str, Any]) -> list[tuple[str, Any]]:
    """The pairs in the order JavaScript gives them: array-index keys first, by value."""
    indices = sorted((k for k in obj if _is_index(k)), key=int)
    return [(k, obj[k]) for k in indices] + [(k, v) for k, v in obj.items() if not _is_index(k)]


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        out[key] = _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
    return out


def _file(path: Path) -> dict[str, Any]:
    try:
        data, _ = read_regular(path, cap=MAX_CONFIG_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError as exc:
        raise _Broken(f"Config file at {path} cannot be read: {exc.strerror or exc}") from None
    text = data.decode("utf-8", "replace")
    return _parse(text, str(path)) if text else {}


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        plain = _strip_jsonc(text)
        if json_too_deep(plain):
            raise ValueError("nested too deep for skilldeck to read")
        value = json.loads(plain, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise _Broken(f"Config file at {where} is not valid JSON(C): {exc}") from None
    if not isinstance(value, dict) or not _valid(value):
        raise _Broken(f"Config file at {where} is invalid")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _valid_permission(value: Any) -> bool:
    if isinstance(value, str):
        return value in ACTIONS
    if not isinstance(value, dict):
        return False
    return all(v in ACTIONS if isinstance(v, str) else isinstance(v, dict) and all(a in ACTIONS for a in v.values())
               for v in value.values())  # fmt: skip


def _valid(body: dict[str, Any]) -> bool:
    """The parts of OpenCode's config schema that bear on skills."""
    if "permission" in body and not _valid_permission(body["permission"]):
        return False
    agents = body.get("agent", {})
    if not isinstance(agents, dict) or not all(isinstance(a, dict) for a in agents.values()):
        return False
    if any("permission" in a and not _valid_permission(a["permission"]) for a in agents.values()):
        return False
    tools = body.get("tools", {})
    return isinstance(tools, dict) and all(isinstance(v, bool) for v in tools.values())


# Strings (closed or not), comments (closed or not), commas, and runs of anything else.
_JSONC_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?|,|[^",/]+|/', re.S)


def _strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas, as the jsonc parser takes it, made plain JSON
    (comments become spaces, line breaks kept, so an error still points at its line)."""
    out: list[str] = []
    comma = -1
    for match in _JSONC_TOKEN.finditer(text):
        token = match.group()
        if token.startswith("//") or token.startswith("/*"):
            if token.startswith("/*") and not token.endswith("*/"):
                raise ValueError("unclosed comment")
            out.append(re.sub(r"[^\n]", " ", token))
            continue
        if token == ",":
            comma = len(out)
        elif token.strip():
            if comma >= 0 and token.lstrip()[0] in "}]":
                out[comma] = " "
            comma = -1
        out.append(token)
    return "".join(out)


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> Pattern:
    """OpenCode's wildcard: `*` any run, `?` any one character, a final ` *` also matches nothing;
    matched in linear time whatever the pattern (engine/base/globmatch)."""
    pattern = pattern.replace("\\", "/")
    tail = pattern.endswith(" *")
    body = pattern[:-2] if tail else pattern
    items: list[Item] = [Star(ANY) if c == "*" else Char(ANY) if c == "?" else Char(c) for c in body]
    if tail:
        items.append(Opt((Char(" "), Star(ANY))))
    return Pattern(items)


def matches(text: str, pattern: str) -> bool:
    return _compiled(pattern).fullmatch(text.replace("\\", "/"))
