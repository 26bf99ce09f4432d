"""Record what the pinned Claude Code decides for every permission case: `make oracle`.

For each case: build its workspace in a temporary folder, start the script server, run Claude
Code in print mode (default permission mode, private HOME, no network but loopback), let it
meet each scripted tool call in turn, and classify each call as allow / ask / deny from the
tool_result it sent back and from whether the call's side effect happened. The raw requests,
stream and debug log of each run stay in .oracle/runs/<case>/ (ignored by git) to look at;
the recording keeps only the classification.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.oracle.classify import classify, hook_settings
from tests.oracle.server import ScriptServer, is_main, is_subagent, result_text
from tests.oracle.workspace import RECORDINGS, Places, build, load_cases, start_folder

REPO = Path(__file__).resolve().parents[2]
ORACLE = REPO / ".oracle"
CLAUDE = ORACLE / "node_modules" / ".bin" / "claude"
VERSION = (Path(__file__).parent / "VERSION").read_text().strip()
RUN_TIMEOUT = 300


def in_private_network(module: str = "tests.oracle.record") -> None:
    """Re-run this process in a network namespace with only loopback, so nothing leaves the machine."""
    if os.environ.get("ORACLE_NETNS") == "1" or shutil.which("unshare") is None:
        return
    probe = subprocess.run(["unshare", "-n", "-r", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        print("oracle: unshare is not available, running with the host network", file=sys.stderr)
        return
    env = {**os.environ, "ORACLE_NETNS": "1"}
    script = 'ip link set lo up 2>/dev/null; exec "$@"'
    argv = ["unshare", "-n", "-r", "sh", "-c", script, "sh", sys.executable, "-m", module, *sys.argv[1:]]
    os.execvpe("unshare", argv, env)


def add_hook(places: Places, log: Path) -> None:
    """Add the permission-request hook to the private user settings (see classify.py)."""
    path = places.home / ".claude" / "settings.json"
    text = path.read_text() if path.exists() else "{}"
    # A case may start the file with a byte order mark (settings_user_bom): it is kept.
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = json.loads(text.removeprefix(bom))
    body.setdefault("hooks", {}).update(hook_settings(str(log)))
    path.write_text(bom + json.dumps(body, indent=2) + "\n")


def stream_events(stream: str) -> Iterator[dict[str, Any]]:
    """The events of a stream-json output, one JSON object per line (other lines skipped)."""
    for line in stream.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            yield event


def stream_event(stream: str, kind: str, subtype: str | None = None) -> dict[str, Any]:
    """The first event of `kind` (and `subtype`) in a stream-json output; {} when there is none."""
    return next((e for e in stream_events(stream) if e.get("type") == kind and subtype in (None, e.get("subtype"))), {})


def denied_ids(stream: str) -> set[str]:
    """The tool_use ids the stream-json result lists as refused (asked or denied)."""
    ids: set[str] = set()
    for event in stream_events(stream):
        if event.get("type") == "result":
            ids |= {d.get("tool_use_id") for d in event.get("permission_denials") or [] if isinstance(d, dict)}
    return ids


def claude_env(places: Places, port: int) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(places.home),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
        "ANTHROPIC_API_KEY": "dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }


def run_case(name: str, case: dict[str, Any], keep: Path) -> dict[str, Any]:
    calls = case["calls"]
    with tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        places = build(case, Path(os.path.realpath(tmp)))
        asked_log = places.root / "permission-requests.jsonl"
        add_hook(places, asked_log)
        effects: dict[int, bool] = {}
        asked: dict[int, bool] = {}
        seen = [0]

        def between(index: int, block: dict[str, Any]) -> None:
            # Runs before the next call is sent: see (and clear) what this call left behind, and
            # whether a permission request was made for it.
            marker_name = calls[index].get("marker", "x")
            marker = Path(places.fill(marker_name)) if "{" in marker_name else places.project / marker_name
            effects[index] = marker.exists() or marker.is_symlink()
            if marker.is_file() or marker.is_symlink():
                marker.unlink()
            lines = asked_log.read_text().count("\n") if asked_log.exists() else 0
            asked[index] = lines > seen[0]
            seen[0] = lines

        with ScriptServer([places.fill(c) for c in calls], between) as server:
            debug = keep / "debug.log"
            argv = [str(CLAUDE), "-p", "Run the next tool call.", "--output-format", "stream-json", "--verbose",
                    "--debug-file", str(debug), "--no-session-persistence"]  # fmt: skip
            if case.get("tools"):
                # 2.1.328 offers no Glob or Grep by default; naming them brings them back.
                argv += ["--tools", ",".join(case["tools"])]
            proc = subprocess.run(
                argv, cwd=start_folder(case, places), env=claude_env(places, server.port), capture_output=True, text=True,
                timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
            (keep / "stream.jsonl").write_text(proc.stdout)
            (keep / "stderr.txt").write_text(proc.stderr)
            (keep / "requests.json").write_text(json.dumps(server.requests, indent=1))
            shutil.copy(places.home / ".claude.json", keep / "claude.json.after")
            results = dict(server.results)
            requests = list(server.requests)
        refused = denied_ids(proc.stdout)
        mains = [r for r in requests if is_main(r)]
        offered = {t.get("name") for t in mains[0].get("tools") or []} if mains else set()
        out = []
        for index, call in enumerate(calls):
            block = results.get(index)
            entry: dict[str, Any] = {"tool": call["tool"], "input": call["input"]}
            if block is None:
                entry.update(decision="unknown", reason="no tool_result came back")
            else:
                effect = effects.get(index, False) if call["tool"] == "Bash" or "marker" in call else None
                entry.update(
                    classify(
                        call["tool"],
                        call["tool"] in offered,
                        block.get("tool_use_id") in refused,
                        asked.get(index, False),
                        bool(block.get("is_error")),
                        effect,
                    )
                )
                if "watch" in call and entry["decision"] == "allow":
                    # Whether what the call was allowed to show includes a text it should not reach.
                    entry["shown"] = places.fill(call["watch"]) in result_text(block)
            out.append(entry)
    return {"claude_code_version": VERSION, "case": name, "about": case.get("about", ""), "calls": out}


def run_claude(
    case: dict[str, Any],
    places: Places,
    prompt: str,
    calls: list[dict[str, Any]],
    keep: Path,
    subagent: Callable[[dict[str, Any]], bool] = is_subagent,
    session: str | None = None,
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """Run Claude Code once in print mode on a built workspace, against a server playing `calls`
    (listing and invocation cases; `subagent` tells which requests get the subagent's answer):
    its bundled skills off unless the case keeps them, the case's environment and flags, a fresh
    debug file (it appends). No session is saved, unless `session` is given: "" saves a new one,
    an id resumes that one (`--resume`). The raw stream, stderr, requests and debug log stay in
    `keep` to look at."""
    debug = keep / "debug.log"
    debug.unlink(missing_ok=True)
    with ScriptServer(calls, lambda index, block: None, subagent) as server:
        env = claude_env(places, server.port)
        if not case.get("cc_bundled"):
            env["CLAUDE_CODE_DISABLE_BUNDLED_SKILLS"] = "1"
        env.update(places.fill(case.get("env", {})))
        persistence = ["--no-session-persistence"] if session is None else ["--resume", session] if session else []
        argv = [str(CLAUDE), "-p", prompt, "--output-format", "stream-json", "--verbose",
                "--debug-file", str(debug), *persistence, *places.fill(case.get("args", []))]  # fmt: skip
        proc = subprocess.run(
            argv, cwd=start_folder(case, places), env=env, capture_output=True, text=True,
            timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        requests = list(server.requests)
    (keep / "stream.jsonl").write_text(proc.stdout)
    (keep / "stderr.txt").write_text(proc.stderr)
    (keep / "requests.json").write_text(json.dumps(requests, indent=1))
    return proc, requests


def chosen_cases(kind: str, module: str, doc: str | None) -> dict[str, dict[str, Any]] | None:
    """The cases of `kind` the command line names (all by default), once the pinned Claude Code is
    installed and this process runs in a private network (`module` is re-run there); None, after
    saying why, when it cannot record."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    args = parser.parse_args()
    if not CLAUDE.exists():
        print(f"oracle: {CLAUDE} is missing; run `make oracle`", file=sys.stderr)
        return None
    installed = subprocess.run([str(CLAUDE), "--version"], capture_output=True, text=True, timeout=60).stdout.split(" ")[0]
    if installed != VERSION:
        print(f"oracle: .oracle holds Claude Code {installed or '?'}, tests/oracle/VERSION pins {VERSION}", file=sys.stderr)
        return None
    in_private_network(module)
    cases = load_cases(kind)
    unknown = [n for n in args.cases if n not in cases]
    if unknown:
        print(f"oracle: no such {kind} case: {', '.join(unknown)}", file=sys.stderr)
        return None
    return {name: cases[name] for name in args.cases or cases}


def main() -> int:
    chosen = chosen_cases("permissions", "tests.oracle.record", __doc__)
    if chosen is None:
        return 2
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    for name, case in chosen.items():
        keep = ORACLE / "runs" / name
        keep.mkdir(parents=True, exist_ok=True)
        recording = run_case(name, case, keep)
        (RECORDINGS / f"{name}.json").write_text(json.dumps(recording, indent=2) + "\n")
        summary = ", ".join(c["decision"] for c in recording["calls"])
        print(f"{name}: {summary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
