"""The four other agents that read skill folders: how each is pinned, configured, run offline, and
where its skills block is in what it sends (see record_agents.py for the recordings).

Each agent is pinned in tests/oracle/AGENTS (the only place that names the versions), installed by
`make agents-oracle` into .oracle/agents/<agent>/ (never on PATH). Every run gets a private HOME and
XDG folders (`{home}`, `{home}/.config`, ...), so an agent's user tier is the case's own.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.oracle.workspace import HERE, Places, build

REPO = HERE.parents[1]
AGENTS_ROOT = REPO / ".oracle" / "agents"
PINS = HERE / "AGENTS"


@dataclass(frozen=True)
class Pin:
    agent: str
    package: str
    version: str

    @property
    def binary(self) -> Path:
        return AGENTS_ROOT / self.agent / "node_modules" / ".bin" / self.agent

    @property
    def package_dir(self) -> Path:
        return AGENTS_ROOT / self.agent / "node_modules" / self.package


def pins() -> dict[str, Pin]:
    """tests/oracle/AGENTS: one `agent package version` line each, in the order agents are recorded."""
    out: dict[str, Pin] = {}
    for line in PINS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            agent, package, version = line.split()
            out[agent] = Pin(agent, package, version)
    return out


def recorded_for(case: dict[str, Any]) -> tuple[str, ...]:
    """The agents a case is recorded (and replayed) for: its `agents` (a case about one agent's
    model or config), otherwise every pinned agent."""
    chosen = case.get("agents")
    return tuple(agent for agent in pins() if chosen is None or agent in chosen)


def xdg(places: Places) -> dict[str, str]:
    """The private home's XDG folders (OpenCode reads its config and skills from XDG_CONFIG_HOME)."""
    home = places.home
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }


@contextmanager
def workspace_folder() -> Iterator[Path]:
    """The empty folder a case's workspace is built in, by the recorder and by every test that
    replays a recording: the same parent and the same length of name each time, because Codex CLI
    pays for its roots table (absolute paths) out of its skills budget."""
    with tempfile.TemporaryDirectory(prefix="oracle-agents-") as tmp:
        yield Path(os.path.realpath(tmp))


def build_case(case: dict[str, Any], root: Path) -> Places:
    """An agents case's workspace under `root`: the shared workspace, then its `repeated` skills."""
    places = build(case, root)
    for spec in case.get("repeated", []):
        for number in range(spec["count"]):
            skill = f"{spec['prefix']}{number:03d}"
            path = Path(places.fill(spec["dir"])) / skill / "SKILL.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            text = spec["text"] * spec["times"]
            path.write_text(f"---\nname: {skill}\ndescription: {text}\n---\nBody of {skill}.\n", encoding="utf-8")
    return places


def merge_json(path: Path, body: dict[str, Any]) -> None:
    """Merge `body` over the JSON object in `path` (one level deep per key: a case's `skills` or
    `permission` joins the recorder's own settings instead of replacing them)."""
    old = json.loads(path.read_text()) if path.exists() else {}
    for key, value in body.items():
        if isinstance(value, dict) and isinstance(old.get(key), dict):
            old[key] = {**old[key], **value}
        else:
            old[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(old, indent=2, ensure_ascii=False) + "\n")


def configure(agent: str, case: dict[str, Any], places: Places, port: int) -> tuple[list[str], dict[str, str]]:
    """Write the agent's private config for a run against the recorder on `port`; its argv (after
    the binary) and the environment it needs. A case's `config.<agent>` joins that config: a TOML
    text appended to Codex's config.toml, a JSON object merged into the others' settings. A case's
    `model.codex` is the model Codex runs with (`-m`); without it, its default model."""
    extra = places.fill(case.get("config", {}).get(agent))
    home = places.home
    if agent == "codex":
        config = home / ".codex" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f"{config.read_text()}\n{extra}\n" if config.exists() and extra else (extra or ""))
        provider = f'{{name="rec",base_url="http://127.0.0.1:{port}/v1",wire_api="responses",env_key="OPENAI_API_KEY"}}'
        model = ["-m", case["model"]["codex"]] if "codex" in case.get("model", {}) else []
        argv = [
            "exec",
            "--skip-git-repo-check",
            "-c",
            "model_provider=rec",
            "-c",
            f"model_providers.rec={provider}",
            *model,
            "hi",
        ]
        return argv, {"OPENAI_API_KEY": "x"}
    if agent == "gemini":
        merge_json(home / ".gemini" / "settings.json", {"security": {"auth": {"selectedType": "gemini-api-key"}}})
        if extra:
            merge_json(home / ".gemini" / "settings.json", extra)
        env = {"GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}"}
        if case.get("trusted", True):
            env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
        return ["-p", "hi"], env
    if agent == "opencode":
        provider = {"anthropic": {"options": {"baseURL": f"http://127.0.0.1:{port}/v1", "apiKey": "x"}}}
        body = {"model": "anthropic/claude-sonnet-4-5", "autoupdate": False, "provider": provider}
        merge_json(home / ".config" / "opencode" / "opencode.json", body)
        if extra:
            merge_json(home / ".config" / "opencode" / "opencode.json", extra)
        return ["run", "--print-logs", "--log-level", "WARN", "hi"], {"ANTHROPIC_API_KEY": "x"}
    if agent == "copilot":
        if extra:
            merge_json(home / ".copilot" / "settings.json", extra)
        env = {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}",
               "COPILOT_PROVIDER_TYPE": "anthropic", "COPILOT_PROVIDER_API_KEY": "x",
               "COPILOT_MODEL": "claude-sonnet-4.5"}  # fmt: skip
        trust = ["--trust-folder"] if case.get("trusted", True) else []
        return ["-p", "hi", *trust, "-s"], env
    raise ValueError(f"unknown agent {agent}")


# Where each agent's block starts and ends. Copilot CLI's skill tool description names the tag in a
# sentence, and Codex's system text names `### Available skills`: only the element itself counts.
CODEX_BLOCK = re.compile(r"<skills_instructions>\n.*?\n</skills_instructions>", re.DOTALL)
XML_BLOCK = re.compile(r"<available_skills>\n.*?\n</available_skills>", re.DOTALL)


def texts(value: Any) -> list[str]:
    """Every string inside a decoded request body, in document order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in texts(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    return []


def find_block(agent: str, bodies: list[Any]) -> str | None:
    """The skills block of the first request that carries one (Gemini CLI's first request is a
    routing call without it)."""
    pattern = CODEX_BLOCK if agent == "codex" else XML_BLOCK
    for body in bodies:
        for text in texts(body):
            if match := pattern.search(text):
                return match.group(0)
    return None


CODEX_ROOT = re.compile(r"^- `(r\d+)` = `(.*)`$", re.MULTILINE)
# Over its budget Codex drops every description: `- name: (file: ...)`.
CODEX_ENTRY = re.compile(r"^- (.*?): (?:(.*) )?\(file: (r\d+)/(.*)\)\n?$", re.DOTALL)
CODEX_LIST = "\n### Available skills\n"
CODEX_USAGE = "\n### How to use skills\n"
SKILL_START = re.compile(r"^[ \t]*<skill>$", re.MULTILINE)


def split_block(agent: str, block: str) -> tuple[str, list[str], str]:
    """A block as its head, one chunk per entry and its tail (head + chunks + tail == block), so that
    an agent's own entries can be cut out and their places kept. Codex: each `- name: ...` line
    after `### Available skills`, with the lines a description's own breaks add; the others: each
    `<skill>` element with the whitespace after it."""
    if agent == "codex":
        at = block.find(CODEX_LIST)
        if at < 0:
            return block, [], ""
        head, body = block[: at + len(CODEX_LIST)], block[at + len(CODEX_LIST) :]
        # A model whose catalog entry asks for them gets usage instructions after the list, under a
        # heading of their own (model_gpt55): the tail.
        usage = body.find(CODEX_USAGE)
        end = usage + 1 if usage >= 0 else body.rfind("</skills_instructions>")
        chunks: list[str] = []
        for line in body[:end].splitlines(keepends=True):
            if line.startswith("- ") or not chunks:
                chunks.append(line)
            else:
                chunks[-1] += line
        return head, chunks, body[end:]
    starts = [m.start() for m in SKILL_START.finditer(block)]
    end = block.rfind("</available_skills>")
    if not starts:
        return block[:end], [], block[end:]
    # Copilot CLI over its limit adds a line of the other names after the last element: the tail.
    close = block.rfind("</skill>")
    if close > starts[-1]:
        end = block.index("\n", close) + 1
    bounds = [*starts, end]
    return block[: starts[0]], [block[a:b] for a, b in itertools.pairwise(bounds)], block[end:]


def entry(agent: str, chunk: str, roots: dict[str, str]) -> dict[str, str]:
    """One entry's name, description and location as sent (Codex's root alias expanded)."""
    if agent == "codex":
        match = CODEX_ENTRY.match(chunk)
        if match is None:
            return {"name": "", "description": "", "location": "", "unparsed": chunk}
        name, description, root, rest = match.groups()
        return {"name": name, "description": description or "", "location": f"{roots.get(root, root)}/{rest}"}
    # Gemini CLI and OpenCode do not escape: a description may hold tags of its own, so the name is
    # the first element and the location the last.
    name = between(chunk, "<name>", "</name>", last=False)
    location = between(chunk, "<location>", "</location>", last=True)
    middle = chunk[chunk.find("</name>") : chunk.rfind("<location>")]
    return {"name": name, "description": between(middle, "<description>", "</description>", last=True),
            "location": location}  # fmt: skip


def between(text: str, start: str, end: str, last: bool) -> str:
    """The text between the first `start` and the first `end` after it, or from the last `start`
    to the last `end`."""
    i = text.rfind(start) if last else text.find(start)
    if i < 0:
        return ""
    j = text.rfind(end) if last else text.find(end, i)
    return text[i + len(start) : j] if j >= i else text[i + len(start) :]


def entries(agent: str, block: str) -> list[dict[str, str]]:
    """Every entry of a block, in order."""
    head, chunks, _ = split_block(agent, block)
    roots = dict(CODEX_ROOT.findall(head))
    return [entry(agent, chunk, roots) for chunk in chunks]
