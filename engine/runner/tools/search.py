"""Glob and Grep over the working directory, bounded and kept inside what the rules allow.

Both walk without following symlinked folders, stop after WALK_CAP entries, and show a found
file only when the run's permissions let the model read it (`ToolContext.may_show`): a symlink
in the project that points at ~/.ssh is found but never shown. Grep's regular expression runs
in a child process (grep_worker.py) that is killed after GREP_TIMEOUT_S, because Python's `re`
cannot be interrupted and a model chooses the expression. A file over GREP_FILE_CAP is not
searched, and the result names it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from ...base.globmatch import Pattern, TooComplex
from ...permissions.pathreach import glob_pattern, split_glob
from .base import RESULT_CAP, ToolContext, ToolResult, capped, resolve, schema

MAX_RESULTS = 100
WALK_CAP = 200_000
GREP_TIMEOUT_S = 30.0
GREP_FILE_CAP = 16 * 1024 * 1024
# How many skipped files a Grep result names before it counts the rest.
SKIPPED_NAMED = 5
_WORKER = Path(__file__).with_name("grep_worker.py")


def _walk(base: Path, regex: Pattern | None) -> tuple[list[Path], bool]:
    """Files under `base` whose path relative to it matches `regex` (all files when None), and
    whether the walk stopped at WALK_CAP. Symlinked folders are not entered; `.git` is skipped."""
    if base.is_file():
        return [base], False
    found: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(base, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        rel_folder = os.path.relpath(folder, base)
        for name in sorted(files):
            seen += 1
            if seen > WALK_CAP:
                return found, True
            rel = name if rel_folder == "." else f"{rel_folder}/{name}"
            if regex is None or regex.fullmatch(rel):
                found.append(Path(folder, name))
        seen += len(dirs)
    return found, False


def _size(path: Path) -> int:
    """The size the worker would find (it follows a link as it opens the file); 0 when unknown."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _newest_first(paths: list[Path]) -> list[Path]:
    def mtime(p: Path) -> float:
        try:
            return -p.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(paths, key=mtime)


class GlobTool:
    name = "Glob"
    description = "Finds files by glob pattern (e.g. **/*.py), newest first."
    input_schema = schema(
        ["pattern"],
        pattern={"type": "string", "description": "The glob pattern to match files against"},
        path={"type": "string", "description": "The directory to search in (default: the working directory)"},
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        root = resolve(ctx, str(tool_input.get("path") or "."))
        split = split_glob(root, str(tool_input["pattern"]), ctx.home)
        if split is None:
            return ToolResult("Patterns with `..` after a wildcard are not supported: name the folder in `path`.", True)
        base, rest = split
        try:
            matcher = glob_pattern(rest) if rest else None
        except TooComplex as exc:
            return ToolResult(f"The pattern is too complex to search with ({exc}): write a shorter one.", True)

        def find() -> tuple[list[Path], bool]:
            found, stopped = _walk(base, matcher)
            return _newest_first([p for p in found if ctx.may_show(p, base)]), stopped

        found, stopped = await asyncio.to_thread(find)
        if not found:
            return ToolResult("No files found" + (f" (the search stopped after {WALK_CAP:,} entries)" if stopped else ""))
        text = "\n".join(str(p) for p in found[:MAX_RESULTS])
        if len(found) > MAX_RESULTS or stopped:
            text += f"\n(Results are cut: {len(found):,} files found{', and the walk stopped early' if stopped else ''}.)"
        return ToolResult(capped(text))


class GrepTool:
    name = "Grep"
    description = "Searches file contents with a regular expression."
    input_schema = schema(
        ["pattern"],
        pattern={"type": "string", "description": "The regular expression to search for"},
        path={"type": "string", "description": "File or directory to search (default: the working directory)"},
        glob={"type": "string", "description": "Only files matching this glob, e.g. *.py"},
        output_mode={
            "type": "string",
            "enum": ["content", "files_with_matches", "count"],
            "description": "default files_with_matches",
        },
    )

    async def run(self, tool_input: dict[str, Any], ctx: ToolContext) -> ToolResult:
        pattern = str(tool_input["pattern"])
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            return ToolResult(f"Invalid regular expression: {exc}", True)
        mode = tool_input.get("output_mode") or "files_with_matches"
        if mode not in ("content", "files_with_matches", "count"):
            return ToolResult("output_mode must be content, files_with_matches or count", True)
        root = resolve(ctx, str(tool_input.get("path") or "."))
        split = split_glob(root, str(tool_input["glob"]), ctx.home) if tool_input.get("glob") else (root, "")
        if split is None:
            return ToolResult("Globs with `..` after a wildcard are not supported: name the folder in `path`.", True)
        base, rest = split
        try:
            matcher = glob_pattern(rest, anywhere=True) if rest else None
        except TooComplex as exc:
            return ToolResult(f"The glob is too complex to search with ({exc}): write a shorter one.", True)

        def files() -> tuple[list[str], list[str], bool]:
            found, stopped = _walk(base, matcher)
            paths: list[str] = []
            large: list[str] = []
            for p in found:
                if ctx.may_show(p, base):
                    (large if _size(p) > GREP_FILE_CAP else paths).append(str(p))
            return paths, large, stopped

        paths, large, stopped = await asyncio.to_thread(files)
        text, timed_out = await _search(pattern, paths, mode)
        notes = []
        if large:
            named = ", ".join(large[:SKIPPED_NAMED]) + (
                f" and {len(large) - SKIPPED_NAMED:,} more" if len(large) > SKIPPED_NAMED else ""
            )
            many = f"{len(large):,} files" if len(large) > 1 else "1 file"
            notes.append(f"{many} over {GREP_FILE_CAP // 2**20} MB not searched (the Grep tool's bound on one file): {named}")
        if stopped:
            notes.append(f"the walk stopped after {WALK_CAP:,} entries")
        if timed_out:
            notes.append(f"the search was stopped after {GREP_TIMEOUT_S:g} s (the expression may be too slow)")
        if not text:
            return ToolResult("No matches found" + (f" ({'; '.join(notes)})" if notes else ""))
        if notes:
            text += f"\n({'; '.join(notes)}; results may be incomplete)"
        return ToolResult(text)


async def _search(pattern: str, paths: list[str], mode: str) -> tuple[str, bool]:
    """Run grep_worker over `paths`; its output (capped as it arrives) and whether it timed out."""
    if not paths:
        return "", False
    job = json.dumps({"pattern": pattern, "files": paths, "mode": mode, "file_cap": GREP_FILE_CAP}).encode()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-S", str(_WORKER),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    chunks: list[bytes] = []
    size = 0
    timed_out = False

    async def collect() -> None:
        nonlocal size
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(job)
        with contextlib.suppress(ConnectionError):
            await proc.stdin.drain()
        proc.stdin.close()
        while size <= RESULT_CAP:
            chunk = await proc.stdout.read(65536)
            if not chunk:
                return
            chunks.append(chunk)
            size += len(chunk)

    try:
        await asyncio.wait_for(collect(), GREP_TIMEOUT_S)
    except TimeoutError:
        timed_out = True
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
    text = b"".join(chunks).decode("utf-8", "replace")
    if size > RESULT_CAP:
        text = text[: text.rfind("\n", 0, RESULT_CAP) + 1]
    return capped(text.rstrip("\n")) + (
        f"\n\n[... results cut at {RESULT_CAP:,} characters]" if size > RESULT_CAP else ""
    ), timed_out
