"""What Gemini CLI 0.61.0 reads from its settings before it looks for skills: whether skills are
on (`skills.enabled`), which names are off (`skills.disabled`, any letter case), whether the folder
is trusted, and whether it starts at all (a settings file it cannot parse stops it).

As its bundle does (settings.ts, trustedFolders.ts): system defaults, user, workspace (only when
trusted, and not when the start folder is the home) and system settings are merged in that order,
`skills.disabled` as a union; comments are allowed, `$VAR` and `${VAR}` are expanded. Every file is
read bounded: a FIFO or a huge file is reported, never read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base import jsondoc
from ..base.safeio import read_regular
from .model import Place

# Far larger than any real settings.json; a larger one is not read.
MAX_SETTINGS_BYTES = 1_000_000
# strip-json-comments: a string is kept whole, `//` runs to the line's end, `/*` to its `*/` (or
# to the end of the text when it has none). A string without its closing quote runs to the end:
# tried again from each later quote, it would cost a pass over the rest per quote.
_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"?|//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)')
_WORD = re.compile(r"[A-Za-z0-9_]+")  # JavaScript's \w (no `u` flag)
UNTRUSTED = (
    "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the "
    "`GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode. "
    "For more details, see https://geminicli.com/docs/cli/trusted-folders/#headless-and-automated-environments"
)


@dataclass
class Config:
    home: Path  # GEMINI_CLI_HOME, else HOME
    cwd: Path  # the start folder as Node's process.cwd() gives it: symlinks resolved
    trusted: bool
    trust_why: str  # where the trust decision came from, in a few words
    enabled: bool = True
    enabled_in: str = ""  # the file that switched skills off
    disabled: dict[str, str] = field(default_factory=dict)  # lower-cased name -> the file that names it
    errors: list[str] = field(default_factory=list)  # what stops Gemini CLI from starting, as it prints it
    unread: list[str] = field(default_factory=list)  # files skilldeck would not read, and why


def home_of(place: Place) -> Path:
    return Path(place.environ.get("GEMINI_CLI_HOME") or place.home)


def cwd_of(place: Place) -> Path:
    """The start folder as Node's process.cwd() gives it (getcwd: symlinks resolved): project
    folders and skill locations are under this path, not the one the shell shows."""
    return Path(os.path.realpath(place.start))


def _strip_comments(text: str) -> str:
    return _COMMENT.sub(lambda m: m.group() if m.group().startswith('"') else " ", text)


def _expand(text: str, environ: Mapping[str, str]) -> str:
    """resolveEnvVarsInString: `$NAME`, `${NAME}` and `${NAME:-default}` replaced by the variable
    (or the default), left as written when neither is there. Scanned by hand: the regex it uses
    (`\\$(?:(\\w+)|{([^}]+?)(?::-([^}]*))?})`) would scan to the end again from every `${` that
    is never closed."""
    out: list[str] = []
    at = 0
    closes = True  # whether a `}` may still come: once none does, no later `${` can match
    while (dollar := text.find("$", at)) >= 0:
        out.append(text[at:dollar])
        word = _WORD.match(text, dollar + 1)
        close = text.find("}", dollar + 2) if closes and text.startswith("{", dollar + 1) else -1
        closes = closes and not (text.startswith("{", dollar + 1) and close < 0)
        if word:
            name, default, end = word.group(), None, word.end()
        elif close > dollar + 2:
            inner = text[dollar + 2 : close]
            split = inner.find(":-", 1)
            name, default = (inner, None) if split < 0 else (inner[:split], inner[split + 2 :])
            end = close + 1
        else:
            out.append("$")
            at = dollar + 1
            continue
        out.append(environ[name] if name in environ else default if default is not None else text[dollar:end])
        at = end
    out.append(text[at:])
    return "".join(out)


def _load(path: Path, config: Config) -> Any:
    """The settings object in `path` ({} when it does not exist). A file Gemini CLI cannot parse is
    recorded as the error that stops it."""
    if not os.path.lexists(path):
        return jsondoc.JsonObject()
    try:
        data, _ = read_regular(path, cap=MAX_SETTINGS_BYTES)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        config.unread.append(f"{path}: {reason}")
        config.errors.append(f"Error in {path}: {reason}")
        return jsondoc.JsonObject()
    try:
        value = jsondoc.loads(_strip_comments(data.decode("utf-8", "replace")))
    except jsondoc.JsonDocError as exc:
        where = f" (line {exc.line}, column {exc.column})" if exc.line else ""
        config.errors.append(f"Error in {path}: {exc.message}{where}")
        return jsondoc.JsonObject()
    if not isinstance(value, jsondoc.JsonObject):
        config.errors.append(f"Error in {path}: Settings file is not a valid JSON object.")
        return jsondoc.JsonObject()
    return value


def _skills(settings: Any) -> Any:
    skills = settings.get("skills") if isinstance(settings, jsondoc.JsonObject) else None
    return skills if isinstance(skills, jsondoc.JsonObject) else jsondoc.JsonObject()


def _falsy(value: Any) -> bool:
    """JavaScript's falsiness for a JSON value (null counts as unset: `?? true`)."""
    if value is False or value == "":
        return True
    if isinstance(value, jsondoc.Number):
        try:
            return float(value.text) == 0
        except ValueError:
            return False
    return False


def _trust(place: Place, layers: list[tuple[Path, Any]], config: Config) -> tuple[bool, str]:
    env = place.environ
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        return False, "GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE=false"
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
        return True, "GEMINI_CLI_TRUST_WORKSPACE=true"
    folder_trust: Any = True
    for _, settings in layers:
        security = settings.get("security") if isinstance(settings, jsondoc.JsonObject) else None
        trust = security.get("folderTrust") if isinstance(security, jsondoc.JsonObject) else None
        if isinstance(trust, jsondoc.JsonObject) and trust.count("enabled"):
            folder_trust = trust.get("enabled")
    if folder_trust is not None and _falsy(folder_trust):
        return True, "security.folderTrust.enabled is false"
    found = _trusted_folders(place, config)
    if found is not None:
        return found
    # An IDE's trust is not read (docs/agents.md: open).
    return False, "no GEMINI_CLI_TRUST_WORKSPACE=true, and no rule of trustedFolders.json covers this folder"


TRUST_LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")
MAX_TRUST_RULES = 10_000


def _trusted_folders(place: Place, config: Config) -> tuple[bool, str] | None:
    """What `~/.gemini/trustedFolders.json` (where trusting a folder in interactive mode writes it)
    says of the start folder, as its bundle decides (trustedFolders.ts): the rule with the longest
    path whose folder (its parent, for TRUST_PARENT) holds the start folder wins; None when no rule
    does. A file it cannot read stops Gemini CLI, as a broken settings file does."""
    path = Path(place.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or home_of(place) / ".gemini" / "trustedFolders.json")
    rules = _load(path, config) if os.path.lexists(path) else jsondoc.JsonObject()
    here = os.path.realpath(place.start)
    best: tuple[int, str, str] | None = None
    # The last value of a repeated path counts, as JSON.parse keeps it; a hostile file's rules are
    # bounded (each costs a realpath).
    pairs = dict(rules.pairs) if isinstance(rules, jsondoc.JsonObject) else {}
    for rule, level in list(pairs.items())[:MAX_TRUST_RULES]:
        if not isinstance(level, str) or level not in TRUST_LEVELS:
            config.errors.append(f'Error in {path}: Invalid trust level "{level}" for path "{rule}".')
            continue
        absolute = os.path.abspath(os.path.join(here, rule))
        folder = os.path.realpath(os.path.dirname(absolute) if level == "TRUST_PARENT" else absolute)
        if (here == folder or here.startswith(folder.rstrip("/") + "/")) and (best is None or len(absolute) > best[0]):
            best = (len(absolute), rule, str(level))
    if best is None:
        return None
    _, rule, level = best
    return level != "DO_NOT_TRUST", f"{path}: {rule} is {level}"


def read_config(place: Place) -> Config:
    home = home_of(place)
    cwd = cwd_of(place)
    system = Path(place.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or "/etc/gemini-cli/settings.json")
    defaults = Path(place.environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") or system.parent / "system-defaults.json")
    config = Config(home, cwd, trusted=False, trust_why="")
    user_file = home / ".gemini" / "settings.json"
    base = [(defaults, _load(defaults, config)), (user_file, _load(user_file, config))]
    last = [(system, _load(system, config))]
    config.trusted, config.trust_why = _trust(place, [*base, *last], config)
    workspace: list[tuple[Path, Any]] = []
    if cwd != Path(os.path.realpath(home)):
        workspace_file = cwd / ".gemini" / "settings.json"
        loaded = _load(workspace_file, config)
        if config.trusted:
            workspace.append((workspace_file, loaded))
    for path, settings in [*base, *workspace, *last]:
        skills = _skills(settings)
        if skills.count("enabled"):
            # `skills?.enabled ?? true`: a later layer's null switches them back on.
            config.enabled, config.enabled_in = not _falsy(skills.get("enabled")), str(path)
        names = skills.get("disabled")
        for name in names if isinstance(names, list) else [] if names is None else [names]:
            if isinstance(name, str):
                config.disabled.setdefault(_expand(name, place.environ).lower(), str(path))
    return config
