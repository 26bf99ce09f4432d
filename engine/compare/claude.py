"""Which `claude` to run, its version, whether it has the flags a safe run needs, and the
environment it is given (the user's keys and tokens never reach it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# Flags a contained run cannot do without (claude --help must list each).
NEEDED_FLAGS = ("--print", "--output-format", "--debug-file", "--no-session-persistence", "--strict-mcp-config", "--settings")
# The oldest version whose listing skilldeck knows how to read (the header and the system message).
MIN_VERSION = (2, 1, 0)
PROBE_TIMEOUT_S = 20
# What --version and --help may print before it is cut (a runaway binary cannot fill memory).
PROBE_BYTES = 256 * 1024
DUMMY_KEY = "sk-ant-skilldeck-compare-dummy"
# Names kept from the user's environment: what decides where Claude Code looks and what it lists.
# Everything else (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN, cloud
# credentials, proxies) is left out: the run must never carry the user's credentials.
KEPT = frozenset(
    {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SHELL", "TMPDIR", "XDG_CONFIG_HOME",
     "CLAUDE_CONFIG_DIR", "SLASH_COMMAND_TOOL_CHAR_BUDGET", "ANTHROPIC_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL",
     "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL", "ANTHROPIC_SMALL_FAST_MODEL",
     "CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "CLAUDE_CODE_EFFORT_LEVEL"}
)  # fmt: skip
SECRET = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|CREDENTIAL|AUTH", re.IGNORECASE)
# Turned on for every run: nothing optional is fetched or reported.
QUIET = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "TERM": "dumb",
}


class CompareError(Exception):
    """The comparison cannot run (exit 2): no claude, too old, a login, no sandbox, a timeout."""


@dataclass(frozen=True)
class ClaudeCode:
    path: Path
    version: str

    def key(self) -> str:
        """What a cached recording is kept under: the binary and its version."""
        return f"{self.version}@{self.path}"


def _probe(path: Path, flag: str, environ: Mapping[str, str]) -> str:
    try:
        proc = subprocess.run(
            [str(path), flag], capture_output=True, timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL,
            env=child_environ(environ, "http://127.0.0.1:9"),
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CompareError(f"{path} {flag} failed: {exc}") from None
    return proc.stdout[:PROBE_BYTES].decode(errors="replace")


def parse_version(text: str) -> tuple[int, ...] | None:
    found = re.match(r"\s*(\d+)\.(\d+)\.(\d+)", text)
    return tuple(int(g) for g in found.groups()) if found else None


def find_claude(explicit: str | Path | None = None, environ: Mapping[str, str] | None = None) -> ClaudeCode:
    """The `claude` named (`--claude PATH`) or found on PATH, once it says its version and lists
    every flag a contained run needs; CompareError says what is wrong."""
    env = os.environ if environ is None else environ
    if explicit is not None:
        path = Path(explicit).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise CompareError(f"{path}: not an executable file")
    else:
        found = shutil.which("claude", path=env.get("PATH"))
        if found is None:
            raise CompareError("claude is not on PATH: install Claude Code, or name it with --claude PATH")
        path = Path(found)
    version_text = _probe(path, "--version", env).strip()
    version = parse_version(version_text)
    if version is None:
        raise CompareError(f"{path} --version printed no version ({version_text[:80]!r}): is it Claude Code?")
    shown = ".".join(map(str, version))
    if version < MIN_VERSION:
        raise CompareError(f"Claude Code {shown} is too old: compare needs {'.'.join(map(str, MIN_VERSION))} or later")
    help_text = _probe(path, "--help", env)
    missing = [f for f in NEEDED_FLAGS if f not in help_text]
    if missing:
        raise CompareError(f"Claude Code {shown} is too old: it has no {', '.join(missing)} (a contained run needs them)")
    return ClaudeCode(path.resolve(), shown)


def child_environ(environ: Mapping[str, str], base_url: str) -> dict[str, str]:
    """The environment `claude` runs with: the user's names that change what loads, none of their
    credentials, the recording server as the API and a dummy key."""
    env = {k: v for k, v in environ.items() if (k in KEPT or k.startswith("LC_")) and not SECRET.search(k)}
    env.setdefault("PATH", "/usr/bin:/bin")
    env.update(QUIET)
    env["ANTHROPIC_BASE_URL"] = base_url
    env["ANTHROPIC_API_KEY"] = DUMMY_KEY
    return env
