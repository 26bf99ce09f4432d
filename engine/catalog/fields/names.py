"""The frontmatter keys Claude Code knows, and the one a mistyped or misnamed key most likely meant."""

from __future__ import annotations

from functools import lru_cache

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


# Kept per key: a large catalog repeats the same few unknown keys (`tags`, `author`, `category`)
# thousands of times, and difflib's ratio against every known field is the cost of each guess.
@lru_cache(maxsize=4096)
def suggest_field(key: str) -> str | None:
    norm = key.replace("_", "-").lower()
    if norm in _NORMALISED:
        return _NORMALISED[norm]
    if norm in _ALIASES:
        return _ALIASES[norm]
    import difflib  # here: only a file with an unknown key needs it

    close = difflib.get_close_matches(norm, list(_NORMALISED), n=1, cutoff=0.75)
    return _NORMALISED[close[0]] if close else None
