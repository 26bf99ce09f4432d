"""Which `claude` to run, its version, whether it has the flags a safe run needs, and the
environment it is given (the user's keys and tokens never reach it). Even `claude --version` and
`claude --help` run sealed off (seal.py, inside.py): a private network namespace, a throwaway
home, and the user's home, config and temporary folders behind overlays."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .seal import PROBE_TIMEOUT_S, CompareError, can_contain, refusal, run_sealed

# Flags a contained run cannot do without (claude --help must list each).
NEEDED_FLAGS = ("--print", "--output-format", "--debug-file", "--no-session-persistence", "--strict-mcp-config", "--settings")
# The oldest version whose listing skilldeck knows how to read (the header and the system message).
MIN_VERSION = (2, 1, 0)
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
XDG = ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")
SECRET = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|CREDENTIAL|AUTH", re.IGNORECASE)
# Turned on for every run: nothing optional is fetched or reported.
QUIET = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "TERM": "dumb",
}


@dataclass(frozen=True)
class ClaudeCode:
    path: Path
    version: str

    def key(self) -> str:
        """What a cached recording is kept under: the binary and its version."""
        return f"{self.version}@{self.path}"


def probe_overlays(environ: Mapping[str, str]) -> list[str]:
    """The folders a probe could write to by name, without the Locations a recording has: the
    home, the config and state folders and the temporary folder (it starts in a throwaway home,
    so the current folder is not among them). Never `/`: an overlay hides the mounts below it
    (/proc, /dev), and nothing could run."""
    home = environ.get("HOME") or str(Path.home())
    named = [environ.get(k) for k in ("CLAUDE_CONFIG_DIR", *XDG)]
    folders = (os.path.abspath(f) for f in (home, *(n for n in named if n), tempfile.gettempdir()))
    return list(dict.fromkeys(f for f in folders if f != os.path.abspath(os.sep)))


def _probe(path: Path, flags: list[str], environ: Mapping[str, str], allow_network: bool, timeout: float) -> dict[str, str]:
    """What `claude FLAG` printed, for each flag, run one after another in one sealed process
    (a private network namespace when the kernel allows it, else refused unless `allow_network`),
    all within `timeout`, the check for namespaces included."""
    deadline = time.monotonic() + timeout
    why_not = can_contain(timeout)
    if why_not is not None and not allow_network:
        raise refusal(why_not)
    left = deadline - time.monotonic()
    plan = {"kind": "probe", "claude": os.path.abspath(path), "flags": flags, "environ": dict(environ), "bytes": PROBE_BYTES,
            "timeout": max(0.5, left - 1), "overlays": probe_overlays(environ)}  # fmt: skip
    try:
        answer = run_sealed(plan, why_not is None, max(0.5, left))
    except CompareError as exc:
        raise CompareError(f"{path} {' and '.join(flags)}: {exc}") from None
    if "error" in answer:
        raise CompareError(f"{path}: {answer['error']}")
    said = answer.get("probes")
    if not isinstance(said, dict) or any(not isinstance(said.get(f), str) for f in flags):
        raise CompareError(f"{path} {' and '.join(flags)} failed: {said!r:.200}")
    return {f: str(said[f]) for f in flags}


def parse_version(text: str) -> tuple[int, ...] | None:
    found = re.match(r"\s*(\d+)\.(\d+)\.(\d+)", text)
    return tuple(int(g) for g in found.groups()) if found else None


def find_claude(
    explicit: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    allow_network: bool = False,
    timeout: float = PROBE_TIMEOUT_S,
) -> ClaudeCode:
    """The `claude` named (`--claude PATH`) or found on PATH, once it says its version and lists
    every flag a contained run needs; CompareError says what is wrong. Its `--version` and
    `--help` run sealed off like the recording, within `timeout` together (the probes' share of
    the comparison's 60 s)."""
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
    said = _probe(path, ["--version", "--help"], env, allow_network, timeout)
    version_text = said["--version"].strip()
    version = parse_version(version_text)
    if version is None:
        raise CompareError(f"{path} --version printed no version ({version_text[:80]!r}): is it Claude Code?")
    shown = ".".join(map(str, version))
    if version < MIN_VERSION:
        raise CompareError(f"Claude Code {shown} is too old: compare needs {'.'.join(map(str, MIN_VERSION))} or later")
    missing = [f for f in NEEDED_FLAGS if f not in said["--help"]]
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
