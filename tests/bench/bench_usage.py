"""`skilldeck usage` over a gigabyte of transcripts, measured in one run (`make bench`).

A history shaped like a heavy user's: 200 session files of about 5 MB, mostly large tool results
and answers, a skill used every few hundred records. Printed beside their floors from the same
run: the first run (no cache) against reading the same bytes with nothing done to them; the
second run (every file cached) against listing the files; each one's peak memory, in a child
process of its own. The history is made once and kept in tests/bench/.data/ (ignored by git).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "bench" / ".data" / "usage-1gb"
FILES = 200
FILE_BYTES = 5 * 1024 * 1024
SKILLS = [f"skill-{i:03d}" for i in range(120)]


def _line(rng: random.Random, session: str, n: int) -> str:
    stamp = f"2026-11-{1 + n % 27:02d}T10:{n % 60:02d}:00Z"
    base = {"sessionId": session, "cwd": f"/work/project-{n % 7}", "uuid": f"{session}-{n}", "timestamp": stamp}
    roll = rng.random()
    if roll < 0.004:
        call = {"type": "tool_use", "id": f"toolu_{session}_{n}", "name": "Skill", "input": {"skill": rng.choice(SKILLS)}}
        return json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [call]}} | base)
    if roll < 0.006:
        text = f"<command-message>x</command-message>\n<command-name>/{rng.choice(SKILLS)}</command-name>"
        return json.dumps({"type": "user", "message": {"role": "user", "content": text}} | base)
    # A tool result or an answer: the bulk of a real transcript.
    body = "".join(rng.choice("abcdefghij ") for _ in range(64)) * rng.randint(20, 400)
    result = {"type": "tool_result", "tool_use_id": f"toolu_x_{n}", "content": body}
    return json.dumps({"type": "user", "message": {"role": "user", "content": [result]}} | base)


def make_history() -> Path:
    projects = DATA / "projects"
    done = DATA / ".complete"
    if done.exists():
        return projects
    rng = random.Random(38)
    for index in range(FILES):
        folder = projects / f"-work-project-{index % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        session = f"s{index:04d}"
        with (folder / f"{session}.jsonl").open("w") as f:
            written, n = 0, 0
            while written < FILE_BYTES:
                line = _line(rng, session, n) + "\n"
                f.write(line)
                written, n = written + len(line), n + 1
    done.touch()
    return projects


CHILD = """
import json, resource, sys, time
from pathlib import Path
from engine import collect_usage
root, cache = Path(sys.argv[1]), Path(sys.argv[2])
started = time.perf_counter()
report = collect_usage([root], [], cache_path=cache)
took = time.perf_counter() - started
used = sum(s.used for s in report.skills)
print(json.dumps({"took": took, "read": report.read_bytes, "files": report.files, "uses": used,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

FLOOR = """
import json, os, resource, sys, time
from pathlib import Path
root = Path(sys.argv[1])
started = time.perf_counter()
total = 0
for path in sorted(root.rglob("*.jsonl")):
    fd = os.open(path, os.O_RDONLY)
    while piece := os.read(fd, 1024 * 1024):
        total += len(piece)
    os.close(fd)
print(json.dumps({"took": time.perf_counter() - started, "read": total,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

LIST = """
import json, sys, time
from pathlib import Path
started = time.perf_counter()
files = [p.stat().st_size for p in Path(sys.argv[1]).rglob("*.jsonl")]
print(json.dumps({"took": time.perf_counter() - started, "files": len(files)}))
"""


def child(code: str, *args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=1800)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def main() -> None:
    started = time.perf_counter()
    projects = make_history()
    size = sum(p.stat().st_size for p in projects.rglob("*.jsonl"))
    print(f"usage: {FILES} transcripts, {size / 2**30:.2f} GB (made or found in {time.perf_counter() - started:.0f} s)")
    cache = DATA / "cache.json"
    cache.unlink(missing_ok=True)
    floor = child(FLOOR, str(projects))
    first = child(CHILD, str(projects), str(cache))
    listing = child(LIST, str(projects))
    second = child(CHILD, str(projects), str(cache))
    print(f"  first run   {first['took']:6.2f} s  {first['rss_mb']:5.0f} MB peak  ({first['uses']:.0f} uses found)")
    print(f"  floor       {floor['took']:6.2f} s  {floor['rss_mb']:5.0f} MB peak  (reading the same bytes, nothing else)")
    print(f"  ratio       {first['took'] / floor['took']:6.2f}x")
    print(f"  second run  {second['took']:6.2f} s  {second['rss_mb']:5.0f} MB peak  ({second['read']:.0f} bytes read)")
    print(f"  floor       {listing['took']:6.2f} s  (listing the files and their sizes)")
    assert second["read"] == 0 and second["uses"] == first["uses"], "the second run reads nothing and finds the same"


if __name__ == "__main__":
    main()
