"""Turn parsed frontmatter into skill fields, as Claude Code reads them, and say what is off.

Claude Code ignores unknown keys and coerces odd values without a word; here each such case
becomes a diagnostic with the key's line, so a typo like `allowed_tools` is visible.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from pathlib import Path
from typing import Any

from .diagnostics import Sink
from .frontmatter import JS_TRIM, Parsed, cc_text, js_number, js_string

KNOWN_FIELDS = frozenset(
    {
        "name", "description", "when_to_use", "argument-hint", "arguments",
        "disable-model-invocation", "user-invocable", "allowed-tools", "disallowed-tools",
        "model", "effort", "context", "agent", "background", "hooks", "paths", "shell",
        "license", "compatibility", "metadata", "version",
    }
)  # fmt: skip
SPEC_FIELDS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
# Keys people write for a field under another name (agent files use `tools`, for instance).
_ALIASES = {
    "tools": "allowed-tools",
    "allowed": "allowed-tools",
    "args": "arguments",
    "hint": "argument-hint",
    "when": "when_to_use",
    "desc": "description",
    "title": "name",
    "globs": "paths",
    "model-invocable": "disable-model-invocation",
}
# What the field a typo meant would have done, for the unknown-field warning.
_EFFECTS = {
    "allowed-tools": "pre-approve those tools while the skill runs",
    "disable-model-invocation": "keep the model from invoking the skill and take it out of the listing",
    "user-invocable": "hide the skill from the / menu",
    "when_to_use": "add to the description in the listing",
    "argument-hint": "show a hint after /name",
    "context": "run the skill in a forked subagent",
    "paths": "load the skill only when matching files are touched",
    "model": "switch the model while the skill runs",
    "description": "set the text the model sees",
}
_NORMALISED = {k.replace("_", "-").lower(): k for k in KNOWN_FIELDS}
# Frontmatter key -> (Skill attribute, how to read it).
_READERS: dict[str, tuple[str, str]] = {
    "when_to_use": ("when_to_use", "string"),
    "argument-hint": ("argument_hint", "string"),
    "arguments": ("arguments", "arguments"),
    "disable-model-invocation": ("disable_model_invocation", "flag"),
    "user-invocable": ("user_invocable", "flag"),
    "allowed-tools": ("allowed_tools", "tools"),
    "disallowed-tools": ("disallowed_tools", "tools"),
    "model": ("model", "model"),
    "effort": ("effort", "effort"),
    "context": ("context", "context"),
    "agent": ("agent", "string"),
    "background": ("background", "flag"),
    "hooks": ("hooks", "hooks"),
    "paths": ("paths", "words"),
    "shell": ("shell", "shell"),
    "license": ("license", "text"),
    "compatibility": ("compatibility", "text"),
    "metadata": ("metadata", "raw"),
    "version": ("version", "string"),
}
_FLAG_DEFAULTS = {"disable-model-invocation": False, "user-invocable": True, "background": False}
_SPEC_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

LIMITS = {"name": 64, "description": 1024, "when_to_use": 1024, "argument-hint": 256}
BODY_LIMIT = 15_000
SPEC_NAME_MAX = 64
SPEC_COMPATIBILITY_MAX = 500

# Past this many unknown keys in one file, the rest are counted in one diagnostic: a file of
# thousands of keys must not cost thousands of fuzzy matches and bury every other finding.
MAX_UNKNOWN_REPORTED = 20

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def suggest_field(key: str) -> str | None:
    norm = key.replace("_", "-").lower()
    if norm in _NORMALISED:
        return _NORMALISED[norm]
    if norm in _ALIASES:
        return _ALIASES[norm]
    close = difflib.get_close_matches(norm, list(_NORMALISED), n=1, cutoff=0.75)
    return _NORMALISED[close[0]] if close else None


def as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        value = js_string(value)  # JavaScript's String(): 1.0 is "1"
    if isinstance(value, str):
        low = value.strip(JS_TRIM).lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return None


def split_tools(value: str) -> list[str]:
    """Split one allowed-tools string as Claude Code does: at commas and spaces outside
    parentheses (`Read, Bash(git add:*)`); other blanks stay inside a name, a `)` ends the
    parenthesis whatever opened it, blanks before a name are dropped."""
    if "(" not in value and ")" not in value:
        # The common case: split at commas, then at spaces.
        return [t for part in value.split(",") for t in _space_split(part)]
    out: list[str] = []
    cur = ""
    inside = False
    for ch in value:
        if ch == "(":
            inside = True
            cur += ch
        elif ch == ")":
            inside = False
            cur += ch
        elif ch in ", " and not inside:
            if cur.strip(JS_TRIM):
                out.append(cur.strip(JS_TRIM))
            cur = ""
        elif cur or ch.strip(JS_TRIM):
            cur += ch
    if cur.strip(JS_TRIM):
        out.append(cur.strip(JS_TRIM))
    return out


def _space_split(part: str) -> list[str]:
    out = []
    for word in part.split(" "):
        word = word.lstrip(JS_TRIM)
        if word.strip(JS_TRIM):
            out.append(word.strip(JS_TRIM))
    return out


_JS_WHITESPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
# `paths:` brace expansion bounds, as Claude Code's: at most 1,000 patterns and 4 MiB of them.
_PATH_RESULTS = 1000
_PATH_BYTES = 4_194_304
_BRACE = re.compile(r"([^{]*)\{([^}]+)\}([^\n\r\u2028\u2029]*)\Z")


def cc_paths(value: Any) -> tuple[str, ...]:
    """`paths:` as Claude Code reads it: strings (or the strings of a list) split at commas outside
    braces, braces expanded (`src/{a,b}/**`), a trailing `/**` dropped; none, or only `**`, is
    no condition at all (the skill is listed from the start)."""
    budget = [_PATH_RESULTS, _PATH_BYTES]
    patterns = [p[:-3] if p.endswith("/**") else p for p in _split_paths(value, budget)]
    patterns = [p for p in patterns if p]
    if not patterns or all(p == "**" for p in patterns):
        return ()
    return tuple(patterns)


def _split_paths(value: Any, budget: list[int]) -> list[str]:
    if isinstance(value, list):
        return [p for item in value for p in _split_paths(item, budget)]
    if not isinstance(value, str):
        return []
    parts: list[str] = []
    cur, depth = "", 0
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip(JS_TRIM))
            cur = ""
            continue
        cur += ch
    parts.append(cur.strip(JS_TRIM))
    return [p for part in parts if part for p in _expand(part, budget)]


def _expand(pattern: str, budget: list[int]) -> list[str]:
    """One pattern's brace expansion, within the shared budget; past it, the pattern unexpanded."""
    if "{" not in pattern:
        return [pattern]
    out: list[str] = []
    stack = [pattern]
    while stack:
        item = stack.pop()
        m = _BRACE.match(item)
        if not m:
            out.append(item)
            continue
        head, inner, tail = m.groups()
        options = [o.strip(JS_TRIM) for o in inner.split(",")]
        budget[1] -= len(item)
        count = len(out) + len(stack) + len(options)
        if budget[1] < 0 or count > budget[0] or count * len(pattern) > budget[1]:
            return [pattern]
        stack.extend(head + o + tail for o in reversed(options))
    budget[0] -= len(out)
    budget[1] -= len(out) * len(pattern)
    return out


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        # As JavaScript's String() writes them, which is what Claude Code shows.
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return str(value)


class FieldReader:
    """Reads one file's frontmatter into the keyword arguments of `Skill`."""

    def __init__(self, parsed: Parsed, path: Path, sink: Sink, skill: str) -> None:
        self.data = parsed.data
        self.parsed = parsed
        self.path = path
        self.sink = sink
        self.skill = skill

    def _at(self, key: str) -> dict[str, Any]:
        pos = self.parsed.position(key)
        out: dict[str, Any] = {"skill": self.skill}
        if pos:
            out["line"], out["column"] = pos
        return out

    def _bad(self, key: str, message: str, hint: str) -> None:
        self.sink.warning("invalid-value", self.path, message, hint, **self._at(key))

    def text(self, key: str) -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, (list, dict)):
            # `argument-hint: [file]` is a YAML list; Claude Code shows what was written.
            if key == "argument-hint":
                return self.parsed.value_text(key)
            self._bad(
                key,
                f"{key} should be text but is a YAML {type(value).__name__}; it is ignored",
                f'quote the value: {key}: "..."',
            )
            return None
        return _scalar_text(value)

    def description(self) -> str | None:
        """`description:` as Claude Code reads it: text trimmed (blank: none), a number or a
        boolean as JavaScript writes it, anything else dropped with a warning in its log."""
        value = self.data.get("description")
        if value is None:
            return None
        if isinstance(value, str):
            return value.strip(JS_TRIM) or None
        if isinstance(value, (bool, int, float)):
            return js_number(value)
        kind = "list" if isinstance(value, list) else "mapping" if isinstance(value, dict) else type(value).__name__
        self.sink.warning(
            "invalid-value",
            self.path,
            f'description is a YAML {kind}, not text: Claude Code drops it ("Description invalid for '
            f'{self.skill} - omitting") and lists the skill with the first line of the body instead',
            "write the description on one line, in double quotes if it holds `: `, `[` or `#`",
            **self._at("description"),
        )
        return None

    def string(self, key: str) -> str | None:
        """`String(value)` as Claude Code applies it to when_to_use, argument-hint, agent and
        version: a list becomes its items joined by commas, a mapping `[object Object]`."""
        value = self.data.get(key)
        if value is None:
            return None
        text = js_string(value)
        if isinstance(value, (list, dict)):
            self._bad(
                key,
                f"{key} is a YAML {'list' if isinstance(value, list) else 'mapping'}; Claude Code turns it into "
                f"the text `{text[:80]}`",
                f'quote the value to keep it as written: {key}: "{(self.parsed.value_text(key) or "")[:60]}"',
            )
        return cc_text(text) if key in ("when_to_use", "argument-hint") else text

    def effort(self) -> str | None:
        """A level (`med` is medium) or an integer, as Claude Code accepts it; otherwise ignored."""
        value = self.data.get("effort")
        level = effort_level(value)
        if level is None:
            shown = js_string(value)
            self.sink.error(
                "invalid-value",
                self.path,
                f'effort: `{shown[:60]}` is not an effort level, so Claude Code ignores it ("Skill {self.skill} '
                f"has invalid effort '{shown[:60]}'\") and the skill runs at the session's effort",
                f"use one of {', '.join(EFFORT_LEVELS)}, or an integer",
                **self._at("effort"),
            )
        return level

    def hooks(self) -> Any:
        """The skill's hooks, or None when Claude Code drops them (see `guard_trap`)."""
        value = self.data.get("hooks")
        problems, ignored = hooks_review(value) if _js_truthy(value) else ([], [])
        for note in ignored[:5]:
            self._bad("hooks", f'{note}; Claude Code ignores that entry ("entry ignored")', "fix or remove the entry")
        if problems:
            self.sink.error(
                "hooks-dropped",
                self.path,
                f"{problems[0]}: Claude Code loads this skill with no hooks and no allowed-tools (a "
                "PreToolUse/PermissionRequest hook it cannot load may be what guards them)",
                "write hooks: as a mapping of hook events to lists of {matcher, hooks: [{type, command}]}",
                **self._at("hooks"),
            )
            return None
        return value

    def guard_trap(self) -> str | None:
        """The top-level key that makes Claude Code drop the skill's hooks and allowed-tools, if any."""
        return guard_outside_hooks(self.data)

    def flag(self, key: str, default: bool) -> bool:
        """A boolean as Claude Code reads it: true/false, or text or a number that reads as
        1/true/yes/on or 0/false/no/off in any case; anything else, null included, is false."""
        if key not in self.data:
            return default
        raw = self.data[key]
        value = as_bool(raw)
        if value is None:
            shown = "empty" if raw is None else f"{js_string(raw)[:60]!r}"
            self._bad(
                key,
                f"{key}: {shown} is not a boolean; Claude Code reads it as false"
                + (", so the skill is hidden from the / menu" if key == "user-invocable" else ""),
                f"write {key}: true or {key}: false",
            )
            return False
        return value

    def tools(self, key: str) -> tuple[str, ...]:
        """Claude Code's tool list: a string, or the strings of a list (other items dropped),
        each split at commas and spaces outside parentheses; `*` alone if any entry is `*`."""
        value = self.data.get(key)
        if value is None or value is False or value == "" or (isinstance(value, (int, float)) and value == 0):
            return ()
        if isinstance(value, str):
            items = [value]
        elif isinstance(value, list):
            items = [v for v in value if isinstance(v, str)]
            if len(items) != len(value):
                self._bad(key, f"{key} holds items that are not text; Claude Code drops them", "quote each tool name")
        else:
            self._bad(key, f"{key} must be a string or a list of tool names; Claude Code ignores it", f"{key}: Read Grep")
            return ()
        tools = [t for item in items for t in split_tools(item)]
        return ("*",) if "*" in tools else tuple(tools)

    def arguments(self) -> tuple[str, ...]:
        """Argument names: words of a string or strings of a list; blank and all-digit ones dropped."""
        value = self.data.get("arguments")
        if not value or not isinstance(value, (str, list)):
            return ()
        items = _JS_WHITESPACE.split(value) if isinstance(value, str) else value
        names = tuple(v for v in items if isinstance(v, str) and v.strip(JS_TRIM) and not v.isdigit())
        if isinstance(value, list) and len(names) != len(value):
            self._bad("arguments", "arguments holds numbers or blanks; Claude Code drops them", "name each argument")
        return names

    def model(self) -> str | None:
        value = self.data.get("model")
        if not isinstance(value, str) or not value.strip(JS_TRIM):
            if value is not None:
                self._bad("model", "model must be text; Claude Code ignores it", "model: sonnet")
            return None
        model = value.strip(JS_TRIM)
        return None if model.lower() == "inherit" else model

    def shell(self) -> str | None:
        value = self.data.get("shell")
        if value is None:
            return None
        shell = js_string(value).strip(JS_TRIM).lower()
        if shell == "":
            return None
        if shell not in ("bash", "powershell"):
            self._bad(
                "shell",
                f"shell: {js_string(value)[:60]!r} is not bash or powershell; Claude Code falls back to bash "
                "(\"Frontmatter 'shell: ..' ... is not recognized\")",
                "shell: bash or shell: powershell",
            )
            return None
        return shell

    def words(self, key: str, sep: str | None = None) -> tuple[str, ...]:
        if key == "paths":
            return cc_paths(self.data.get(key))
        value = self.data.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            parts = value.split(sep) if sep else value.split()
            return tuple(p.strip() for p in parts if p.strip())
        if isinstance(value, list):
            return tuple(_scalar_text(v) for v in value if v is not None)
        self._bad(key, f"{key} must be a string or a list", f"{key}: [a, b]")
        return ()

    def read(self) -> dict[str, Any]:
        """Keyword arguments for `Skill` from the keys present (absent keys keep the defaults),
        warning about keys Claude Code does not know. `name` and `description` are read by the
        caller because they decide the command's name and the listing."""
        out: dict[str, Any] = {}
        unknown: list[str] = []
        for key, value in self.data.items():
            spec = _READERS.get(key)
            if spec is None:
                if key in GUARD_EVENTS and guard_outside_hooks({key: value}):
                    continue  # said by the hooks-dropped error below
                if key not in KNOWN_FIELDS:
                    unknown.append(key)
                    if len(unknown) <= MAX_UNKNOWN_REPORTED:
                        self._unknown(key)
                continue
            attr, kind = spec
            if kind == "text":
                result: Any = self.text(key)
            elif kind == "flag":
                result = self.flag(key, _FLAG_DEFAULTS[key])
            elif kind == "tools":
                result = self.tools(key)
            elif kind == "words":
                result = self.words(key, "," if key == "paths" else None)
            elif kind == "string":
                result = self.string(key)
            elif kind == "effort":
                result = self.effort()
            elif kind == "hooks":
                result = self.hooks()
            elif kind == "model":
                result = self.model()
            elif kind == "arguments":
                result = self.arguments()
            elif kind == "shell":
                result = self.shell()
            elif kind == "context":
                result = self.text(key)
                if result is not None and result not in ("fork", "inline"):
                    self._bad(
                        key, f"context: {result!r} is not `fork`; the skill runs inline", "write context: fork, or remove it"
                    )
                result = "fork" if result == "fork" else "inline"
            else:
                result = value
            if result is not None:
                out[attr] = result
        trap = self.guard_trap()
        if trap is not None:
            self.sink.error(
                "hooks-dropped",
                self.path,
                f"`{trap}` holds a PreToolUse/PermissionRequest hook outside `hooks:`, so Claude Code loads this "
                'skill with no hooks and no allowed-tools ("PreToolUse/PermissionRequest is declared at the '
                'frontmatter top level, outside "hooks"")',
                f"nest it under hooks:, as `hooks: {{{trap}: [...]}}`"
                if trap in HOOK_EVENTS
                else "move the hook into hooks:, under its event name (hooks: {PreToolUse: [...]})",
                **self._at(trap),
            )
            out.pop("hooks", None)
            out.pop("allowed_tools", None)
        elif out.get("hooks") is None and _js_truthy(self.data.get("hooks")):
            out.pop("allowed_tools", None)
        if len(unknown) > MAX_UNKNOWN_REPORTED:
            rest = unknown[MAX_UNKNOWN_REPORTED:]
            self.sink.warning(
                "unknown-field",
                self.path,
                f"{len(rest):,} more unknown frontmatter keys (`{rest[0][:60]}` ...): Claude Code ignores them",
                "remove them, or see the list of frontmatter fields",
                **self._at(rest[0]),
            )
        return out

    def _unknown(self, key: str) -> None:
        if key in HOOK_EVENTS:
            self.sink.warning(
                "unknown-field",
                self.path,
                f"`{key}` is a hook event, but at the top level Claude Code ignores it: the hook never runs",
                f"nest it under hooks:, as `hooks: {{{key}: [...]}}`",
                **self._at(key),
            )
            return
        guess = suggest_field(key)
        hint = f"did you mean `{guess}`?" if guess else "remove it, or see the list of frontmatter fields"
        self.sink.warning(
            "unknown-field",
            self.path,
            f"unknown frontmatter key `{key}`: Claude Code ignores it"
            + (f" (`{guess}` would {_EFFECTS[guess]})" if guess in _EFFECTS else ""),
            hint,
            **self._at(key),
        )

    def limits(self, values: dict[str, str | None], body_chars: int) -> None:
        for key, limit in LIMITS.items():
            value = values.get(key)
            if value is not None and len(value) > limit:
                self.sink.warning(
                    "limit-exceeded",
                    self.path,
                    f"{key} is {len(value):,} characters, over the {limit:,} limit; the skill "
                    "still loads with all of it, but the Agent Skills spec and claude.ai reject it",
                    f"shorten {key} to {limit:,} characters or fewer",
                    **self._at(key),
                )
        if body_chars > BODY_LIMIT:
            self.sink.warning(
                "limit-exceeded",
                self.path,
                f"the body is {body_chars:,} characters, over the {BODY_LIMIT:,} limit; the skill "
                "still loads and every run sends all of it",
                "move detail into references/ files the skill reads when it needs them",
                skill=self.skill,
            )

    def spec(self, dir_name: str) -> None:
        """The Agent Skills specification's rules, as the reference validator applies them."""
        data = self.data
        name, desc = data.get("name"), data.get("description")
        if (
            data.keys() <= SPEC_FIELDS
            and isinstance(name, str)
            and isinstance(desc, str)
            and desc.strip()
            and not spec_name_problems(name)
            and "compatibility" not in data
            and "metadata" not in data
            and not isinstance(data.get("allowed-tools"), list)
        ):
            return
        # Claude Code's own keys are fine in a Claude Code skill, so they are only noted here;
        # `validate --strict` promotes every spec-* diagnostic to an error. Keys nobody knows
        # already have an unknown-field warning.
        extra = [k for k in self.data if k not in SPEC_FIELDS and k in KNOWN_FIELDS]
        if extra:
            self.sink.info(
                "spec-field",
                self.path,
                f"the Agent Skills spec does not allow {', '.join(f'`{k}`' for k in extra)}; "
                f"Claude Code understands {'it' if len(extra) == 1 else 'them'}, other clients and claude.ai upload "
                f"may reject {'it' if len(extra) == 1 else 'them'}",
                "keep them if the skill is meant for Claude Code",
                **self._at(extra[0]),
            )
        name = self.data.get("name")
        if not isinstance(name, str) or not name.strip():
            self.sink.warning(
                "spec-name",
                self.path,
                "the Agent Skills spec requires a non-empty `name`",
                f"add name: {dir_name}",
                **self._at("name"),
            )
        else:
            problems = spec_name_problems(name)
            if problems:
                self.sink.warning(
                    "spec-name",
                    self.path,
                    f"name `{name}` breaks the Agent Skills spec: {'; '.join(problems)}",
                    "use 1-64 lower-case letters, digits and single hyphens",
                    **self._at("name"),
                )
        desc = self.data.get("description")
        if not isinstance(desc, str) or not desc.strip():
            self.sink.warning(
                "spec-description",
                self.path,
                "the Agent Skills spec requires a non-empty `description`",
                "add a description: what the skill does and when to use it",
                **self._at("description"),
            )
        if "compatibility" in self.data:
            comp = self.data["compatibility"]
            if not isinstance(comp, str) or not 1 <= len(comp) <= SPEC_COMPATIBILITY_MAX:
                empty = comp is None or comp == ""
                self.sink.warning(
                    "spec-compatibility",
                    self.path,
                    f"compatibility must be text of 1 to {SPEC_COMPATIBILITY_MAX} characters when present"
                    + ("; here it is empty" if empty else ""),
                    "remove the key, or say which products or packages the skill needs" if empty else "shorten it",
                    **self._at("compatibility"),
                )
        if "metadata" in self.data:
            meta = self.data["metadata"]
            if not isinstance(meta, dict):
                problem = f"is a YAML {'list' if isinstance(meta, list) else 'scalar'}, not a map"
            else:
                nested = [str(k) for k, v in meta.items() if isinstance(v, (dict, list)) or v is None]
                problem = f"nests a map or list (or null) under {', '.join(f'`{k}`' for k in nested[:5])}" if nested else ""
            if problem:
                self.sink.info(
                    "spec-metadata",
                    self.path,
                    f"metadata {problem}: the Agent Skills spec allows only a map of text values; "
                    "Claude Code does not mind, other clients and claude.ai upload may reject it",
                    'metadata:\n  author: me\n  version: "1.0"',
                    **self._at("metadata"),
                )
        if isinstance(self.data.get("allowed-tools"), list):
            self.sink.info(
                "spec-allowed-tools",
                self.path,
                "allowed-tools is a YAML list; the Agent Skills spec wants one space-separated string (Claude Code takes either)",
                "allowed-tools: Read Grep Bash(git:*)",
                **self._at("allowed-tools"),
            )

    def spec_missing(self) -> None:
        """A SKILL.md with no frontmatter Claude Code reads: the spec's required `---` block with
        name and description is missing."""
        self.sink.info(
            "spec-frontmatter",
            self.path,
            "the file does not start with a frontmatter; the Agent Skills spec requires one, on line 1, "
            "with name and description",
            "start the file with ---, name: and description: lines, and ---",
            line=1,
            skill=self.skill,
        )


def spec_name_problems(name: str) -> list[str]:
    if len(name) <= SPEC_NAME_MAX and _SPEC_NAME.fullmatch(name):
        return []
    name = unicodedata.normalize("NFKC", name.strip())
    problems = []
    if len(name) > SPEC_NAME_MAX:
        problems.append(f"longer than {SPEC_NAME_MAX} characters")
    if name != name.lower():
        problems.append("not lower-case")
    if name.startswith("-") or name.endswith("-"):
        problems.append("starts or ends with a hyphen")
    if "--" in name:
        problems.append("contains a double hyphen")
    if not all(c.isalnum() or c == "-" for c in name):
        problems.append("contains characters other than letters, digits and hyphens")
    return problems


EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
_EFFORT_ALIASES = {"med": "medium"}
_PARSE_INT = re.compile(r"[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*([-+]?\d+)")


def effort_level(value: Any) -> str | None:
    """Claude Code's reading of `effort:`: a level in any case (`med` for medium), an integer, or
    text that JavaScript's parseInt() reads as one (`3 please` is 3); None when it is ignored."""
    if value is None or value == "" or isinstance(value, (list, dict)):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        return js_number(value)
    text = js_string(value).lower()
    text = _EFFORT_ALIASES.get(text, text)
    if text in EFFORT_LEVELS:
        return text
    m = _PARSE_INT.match(text)
    return str(int(m.group(1))) if m else None


# Claude Code's hook events; PreToolUse and PermissionRequest hooks may guard permissions.
HOOK_EVENTS = frozenset(
    (
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "StopFailure",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "PreModelSwitch",
        "PostModelSwitch",
        "PermissionRequest",
        "PermissionDenied",
        "Setup",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Elicitation",
        "ElicitationResult",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "DirectoryAdded",
        "MessageDisplay",
    )
)
GUARD_EVENTS = ("PreToolUse", "PermissionRequest")
HOOK_TYPES = frozenset(("command", "prompt", "agent", "http", "mcp_tool"))
# Top-level keys Claude Code does not search for misplaced hooks.
_UNSCANNED = frozenset(("metadata", "mcpServers", "lspServers"))


def _js_truthy(value: Any) -> bool:
    """JavaScript's truthiness: an empty list or mapping is true, 0, "" and null are not."""
    if value is None or value is False or value == "":
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == value and value != 0  # NaN is false too
    return True


def _holds_guard(value: Any) -> bool:
    """A mapping with a PreToolUse or PermissionRequest key set to anything but null or []."""
    return isinstance(value, dict) and any(
        k in GUARD_EVENTS and v is not None and not (isinstance(v, list) and not v) for k, v in value.items()
    )


def _is_matcher(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if "matcher" not in value and any(k in HOOK_EVENTS for k in value):
        return False
    hooks = value.get("hooks")
    if isinstance(hooks, list):
        return bool(hooks)
    return isinstance(hooks, dict) and ("matcher" in value or isinstance(hooks.get("type"), str))


def _hides_guard(value: Any, depth: int = 3, matchers: bool = True, unscanned: frozenset[str] = frozenset(),
                 in_hooks_list: bool = False) -> bool:  # fmt: skip
    """Whether a PreToolUse/PermissionRequest hook (or a hook matcher) sits somewhere in `value`,
    three levels down at most, as Claude Code searches for one."""
    if _holds_guard(value) or (matchers and _is_matcher(value)):
        return True
    if depth == 0 or not isinstance(value, (dict, list)):
        return False
    if isinstance(value, list):
        return any(_hides_guard(v, depth - 1, matchers, unscanned, in_hooks_list) for v in value)
    if in_hooks_list and isinstance(value.get("type"), str):
        return False
    return any(
        k not in unscanned
        and _hides_guard(v, depth - 1, matchers and k not in HOOK_EVENTS, unscanned, k == "hooks" and isinstance(v, list))
        for k, v in value.items()
    )


def guard_outside_hooks(data: dict[str, Any]) -> str | None:
    """The first top-level key (other than `hooks`) through which Claude Code finds a hook it
    cannot load: the skill then loads without its hooks and its allowed-tools."""
    for key in GUARD_EVENTS:
        if key in data and _holds_guard({key: data[key]}):
            return key
    for key, value in data.items():
        # Only a mapping or a list can hold a hook: the common text values cost one check.
        if (
            isinstance(value, (dict, list))
            and key != "hooks"
            and key not in _UNSCANNED
            and _hides_guard(value, 3, key not in HOOK_EVENTS, _UNSCANNED)
        ):
            return key
    return None


def hooks_problems(hooks: Any) -> list[str]:
    """Why Claude Code would not load `hooks:` (it then drops the skill's allowed-tools too)."""
    return hooks_review(hooks)[0]


def hooks_review(hooks: Any) -> tuple[list[str], list[str]]:
    """(what makes Claude Code drop the hooks and allowed-tools, the entries it ignores)."""
    if _is_matcher(hooks) or (isinstance(hooks, list) and any(_is_matcher(h) for h in hooks)):
        return ["hooks: is a matcher, not a mapping of hook events to matcher lists"], []
    if not isinstance(hooks, dict):
        return [f"hooks: is {'a list' if isinstance(hooks, list) else 'not a mapping'}"], []
    problems: list[str] = []
    ignored: list[str] = []
    for event, matchers in hooks.items():
        if event not in HOOK_EVENTS:
            if _hides_guard(matchers, 3, not isinstance(matchers, list)):
                problems.append(f"hooks.{event} is not a hook event but holds PreToolUse/PermissionRequest hooks")
            else:
                ignored.append(f"hooks.{event} is not a hook event")
            continue
        if not isinstance(matchers, list):
            if (event in GUARD_EVENTS and matchers is not None) or _hides_guard(matchers, 3, False):
                problems.append(f"hooks.{event} must be a list of matchers")
            else:
                ignored.append(f"hooks.{event} must be a list of matchers")
            continue
        for index, matcher in enumerate(matchers):
            where = f"hooks.{event}[{index}]"
            problem = _matcher_problem(matcher, where)
            if problem is None:
                continue
            (problems if event in GUARD_EVENTS else ignored).append(problem)
    return problems, ignored


def _matcher_problem(matcher: Any, where: str) -> str | None:
    if not isinstance(matcher, dict):
        return f"{where} is not a matcher mapping"
    if not isinstance(matcher.get("matcher", ""), str):
        return f"{where}.matcher must be text"
    entries = matcher.get("hooks")
    if not isinstance(entries, list):
        return f"{where}.hooks must be a list of hooks"
    for number, entry in enumerate(entries):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind not in HOOK_TYPES or (kind == "command" and not isinstance(entry.get("command"), str)):
            return f"{where}.hooks[{number}] is not a hook Claude Code can load (a type: command needs a command:)"
    return None
