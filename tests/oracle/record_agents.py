"""Record what Codex CLI, Gemini CLI, OpenCode and Copilot CLI send about skills: `make oracle`.

An agents case (tests/oracle/cases/agents/*.json) is a workspace as in workspace.py (`files`,
`dirs`, `symlinks`, `many`, `binary`, `cwd`, `git`) that every agent runs on, plus:

    "config": {"codex": "[[skills.config]]\\npath = \\"{project}/...\\"\\nenabled = false",  # TOML, appended
               "gemini": {"skills": {"disabled": ["x"]}},         # merged into ~/.gemini/settings.json
               "opencode": {"permission": {"skill": {"x": "deny"}}},  # merged into opencode.json
               "copilot": {"disabledSkills": ["x"]}},             # merged into ~/.copilot/settings.json
    "trusted": false,         # Gemini CLI without GEMINI_CLI_TRUST_WORKSPACE, Copilot CLI without --trust-folder
    "repeated": [{"dir": "{project}/.agents/skills", "count": 250, "prefix": "u", "text": "🚀", "times": 100}],
                              # generated skills whose description is `text` repeated (non-ASCII budgets)
    "model": {"codex": "gpt-6.1-terra"},  # the model an agent runs with (Codex: `-m`)
    "agents": ["codex"]       # recorded for these agents only (a case about one agent's model)

Each agent (tests/oracle/AGENTS pins them) runs once per case, in print mode, in a private network
(loopback only), with a private HOME and XDG folders, against a server that answers every request
400 (each sends its first model request before an answer matters). A recording
(recordings/agents/<agent>/<case>.json) keeps only what skilldeck must predict:

- `block`: the skills block as sent (Codex: `<skills_instructions>` to its end tag; the others:
  the `<available_skills>` element), the agent's own entries cut out, null when none was sent;
- `entries`: the case's entries in the block's order: name, description, location;
- `own`: where the agent's own skills stood (`position` among all entries), their name, location
  and length in characters (`chars`, the cut chunk), never their text;
- `skipped`: the lines the agent printed or logged about skills (stderr and its log files),
  once each, sorted;
- `exit`, and `error` (the agent's last stderr line) when no request carried a block.

Paths are written `{project}`, `{home}`, `{outside}`, `{root}` and `{package}` (the agent's
install). The raw requests, stderr and logs of the last run stay in .oracle/runs/agents/ (ignored).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.oracle.agents import (
    AGENTS_ROOT,
    Pin,
    build_case,
    configure,
    entries,
    find_block,
    pins,
    recorded_for,
    split_block,
    workspace_folder,
    xdg,
)
from tests.oracle.record import ORACLE, in_private_network
from tests.oracle.workspace import HERE, Places, load_cases, start_folder

RECORDINGS = HERE / "recordings" / "agents"
RUN_TIMEOUT = 180
# A log line about skills (what was loaded, skipped, refused, or why).
ABOUT_SKILLS = re.compile(r"skill", re.IGNORECASE)
LOG_LIMIT = 4_000_000
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# Stamps, ids and durations that change from run to run.
VOLATILE = re.compile(
    r"^\S*\d{4}-\d\d-\d\dT[\d:.]+Z?\s*|\b\d{4}-\d\d-\d\dT[\d:.]+Z?\b|\+\d+ms\b|\bduration=\d+\b|"
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b(?:ses|msg|prt)_[0-9A-Za-z]+\b|\brun=[0-9a-f]+ "
)


class Refuser:
    """A loopback server that keeps every request body and answers 400 to all of them."""

    def __init__(self) -> None:
        self.bodies: list[Any] = []
        self.paths: list[str] = []
        lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _refuse(self) -> None:
                length = min(int(self.headers.get("content-length") or 0), 64_000_000)
                raw = self.rfile.read(length) if length else b""
                if self.headers.get("content-encoding") == "gzip":
                    raw = gzip.decompress(raw)
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with lock:
                    server.bodies.append(body)
                    server.paths.append(f"{self.command} {self.path}")
                error = {"error": {"code": 400, "message": "recorder", "status": "INVALID_ARGUMENT",
                                   "type": "invalid_request_error"}}  # fmt: skip
                payload = json.dumps(error).encode()
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = _refuse

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    def __enter__(self) -> Refuser:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def placeholders(text: str, places: Places, pin: Pin) -> str:
    """Run-specific folders as placeholders; the agent's install as `{package}` (also as reached
    through the .oracle symlink)."""
    for folder in {os.path.realpath(pin.package_dir), str(pin.package_dir)}:
        text = text.replace(folder, "{package}")
    for folder in {os.path.realpath(AGENTS_ROOT), str(AGENTS_ROOT)}:
        text = text.replace(folder, "{agents}")
    for name, folder in (("project", places.project), ("home", places.home), ("outside", places.outside)):
        text = text.replace(str(folder), "{" + name + "}")
    return text.replace(str(places.root), "{root}")


def log_lines(places: Places, stderr: str) -> list[str]:
    """stderr and every log file the agent wrote under the private home (bounded)."""
    lines = stderr.splitlines()
    for path in sorted(places.home.rglob("*.log")) + sorted((places.home / ".copilot" / "logs").glob("*")):
        if path.is_file() and not path.is_symlink() and path.stat().st_size < LOG_LIMIT:
            lines += path.read_text(errors="replace").splitlines()
    return lines


def is_own(agent: str, location: str) -> bool:
    """The agent's own skills: Codex's system skills (written into its home on first run), Gemini
    CLI's in its package, OpenCode's `<built-in>` (sent escaped), Copilot CLI's `builtin` scope."""
    if agent == "codex":
        return location.startswith("{home}/.codex/skills/.system/")
    if agent == "gemini":
        return location.startswith("{package}/")
    return location in ("&lt;built-in&gt;", "<built-in>", "builtin")


def run(pin: Pin, case: dict[str, Any], keep: Path) -> dict[str, Any]:
    """Run one agent on the case's workspace; the block (placeholders in), logs about skills, exit."""
    with workspace_folder() as tmp:
        places = build_case(case, tmp)
        with Refuser() as server:
            argv, env = configure(pin.agent, case, places, server.port)
            path = ":".join(p for p in os.environ.get("PATH", "/usr/bin:/bin").split(":") if ".oracle" not in p)
            env = {"PATH": path, "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1", **xdg(places), **env}
            try:
                proc = subprocess.run(
                    [str(pin.binary), *argv], cwd=start_folder(case, places), env=env, capture_output=True,
                    text=True, errors="replace", timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL,
                )  # fmt: skip
                code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
            except subprocess.TimeoutExpired as timeout:
                code, stdout, stderr = None, str(timeout.stdout or ""), str(timeout.stderr or "")
            bodies, paths = list(server.bodies), list(server.paths)
        (keep / "requests.json").write_text(json.dumps({"paths": paths, "bodies": bodies}, indent=1))
        (keep / "stdout.txt").write_text(stdout)
        (keep / "stderr.txt").write_text(stderr)
        lines = [ANSI.sub("", line) for line in log_lines(places, stderr)]
        (keep / "logs.txt").write_text("\n".join(lines))
        block = find_block(pin.agent, bodies)
        return {
            "block": placeholders(block, places, pin) if block is not None else None,
            "logs": [placeholders(line, places, pin) for line in lines],
            "exit": code,
            "requests": len(bodies),
        }


def record(pin: Pin, name: str, case: dict[str, Any]) -> dict[str, Any]:
    keep = ORACLE / "runs" / "agents" / pin.agent / name
    keep.mkdir(parents=True, exist_ok=True)
    seen = run(pin, case, keep)
    block, own, kept = seen["block"], [], []
    if block is not None:
        head, chunks, tail = split_block(pin.agent, block)
        for position, (chunk, item) in enumerate(zip(chunks, entries(pin.agent, block), strict=True)):
            if is_own(pin.agent, item["location"]):
                own.append({"name": item["name"], "position": position, "location": item["location"],
                            "chars": len(chunk)})  # fmt: skip
            else:
                kept.append((chunk, item))
        block = head + "".join(chunk for chunk, _ in kept) + tail
    skipped = sorted({VOLATILE.sub("", line).strip() for line in seen["logs"] if ABOUT_SKILLS.search(line)} - {""})
    out: dict[str, Any] = {
        "agent": pin.agent,
        "version": pin.version,
        "case": name,
        "about": case.get("about", ""),
        "block": block,
        "entries": [item for _, item in kept],
        "own": own,
        "skipped": skipped,
        "exit": seen["exit"],
    }
    if block is None:
        out["error"] = next((line for line in reversed(seen["logs"]) if line.strip()), "")[:500]
        out["requests"] = seen["requests"]
    return out


def installed(pin: Pin) -> bool:
    if not pin.binary.exists():
        return False
    # A throwaway HOME: some agents write their state (Gemini CLI's projects.json, Copilot CLI's
    # unpacked package) into it even for --version.
    with tempfile.TemporaryDirectory(prefix="oracle-agents-version-") as home:
        env = {"PATH": os.environ.get("PATH", ""), "HOME": home}
        out = subprocess.run([str(pin.binary), "--version"], capture_output=True, text=True, timeout=60, env=env)
    return pin.version in out.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    parser.add_argument("--agent", action="append", help="only this agent (repeatable; default: all)")
    args = parser.parse_args()
    chosen_pins = {a: p for a, p in pins().items() if not args.agent or a in args.agent}
    missing = [f"{p.agent} {p.version}" for p in chosen_pins.values() if not installed(p)]
    if missing:
        print(f"oracle: not installed in .oracle/agents: {', '.join(missing)}; run `make agents-oracle`", file=sys.stderr)
        return 2
    in_private_network("tests.oracle.record_agents")
    cases = load_cases("agents")
    unknown = [n for n in args.cases if n not in cases]
    if unknown:
        print(f"oracle: no such agents case: {', '.join(unknown)}", file=sys.stderr)
        return 2
    for name in args.cases or cases:
        for pin in chosen_pins.values():
            if pin.agent not in recorded_for(cases[name]):
                continue
            recording = record(pin, name, cases[name])
            folder = RECORDINGS / pin.agent
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}.json").write_text(json.dumps(recording, indent=2, ensure_ascii=False) + "\n")
            state = f"{len(recording['entries'])} entries" if recording["block"] is not None else "no block"
            print(f"agents {pin.agent} {name}: {state}, {len(recording['skipped'])} skip lines", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
