"""Turn parsed frontmatter into skill fields, as Claude Code reads them, and say what is off.

Claude Code ignores unknown keys and coerces odd values without a word; here each such case
becomes a diagnostic with the key's line, so a typo like `allowed_tools` is visible.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..diagnostics import Sink
from ..frontmatter import JS_TRIM, Parsed, cc_text, js_number, js_string
from .hooks import GUARD_EVENTS, HOOK_EVENTS, _js_truthy, guard_outside_hooks, hooks_review
from .names import _EFFECTS, KNOWN_FIELDS, suggest_field
from .spec import SpecChecks
from .values import _JS_WHITESPACE, EFFORT_LEVELS, _scalar_text, as_bool, cc_paths, effort_level, split_tools

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

# Past this many unknown keys in one file, the rest are counted in one diagnostic: a file of
# thousands of keys must not cost thousands of fuzzy matches and bury every other finding.
MAX_UNKNOWN_REPORTED = 20


class FieldReader(SpecChecks):
    """Reads one file's frontmatter into the keyword arguments of `Skill`."""

    def __init__(self, parsed: Parsed, path: Path, sink: Sink, skill: str) -> None:
        self.data = parsed.data
        self.parsed = parsed
        self.path = path
        self.sink = sink
        self.skill = skill

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
