"""`compare_with_claude`: record the user's own Claude Code offline and set its listing (and a typed skill's
blocks) against skilldeck's prediction for the same locations."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..listing.build import Foreign
from ..listing.claude_own import save_own
from ..runner.expand import DISABLED, ExpansionError, preview_note
from ..runner.invoke import InvocationError, Prompt
from ..workspace import Workspace
from . import theirs
from .claude import ClaudeCode
from .notes import safety_notes
from .record import TIMEOUT_S, Progress, Run, record
from .rows import AGREE, DIFFERS, IDENTICAL, ONLY_CLAUDE, ONLY_SKILLDECK, Row, block_rows, difference, listing_rows
from .seal import CompareError


@dataclass(frozen=True)
class Comparison:
    claude: ClaudeCode
    contained: bool
    model: str | None
    listing: list[Row]
    own: list[str]
    skipped: list[str]
    notes: list[str]
    seconds: float
    # With a skill named: what the typed `/name args` sent, block against block, or the error
    # each printed instead (Claude Code's result text, skilldeck's InvocationError).
    invoked: str | None = None
    invocation: list[Row] = field(default_factory=list)
    # The folders whose writes were thrown away (overlays), when contained.
    overlaid: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return all(r.status in AGREE for r in (*self.listing, *self.invocation))

    def to_dict(self) -> dict[str, Any]:
        return {
            "claude_code": {"path": str(self.claude.path), "version": self.claude.version},
            "identical": self.identical,
            "contained": self.contained,
            "overlaid": self.overlaid,
            "model": self.model,
            "listing": [r.to_dict() for r in self.listing],
            "claude_own": self.own,
            "skipped": self.skipped,
            "invoked": self.invoked,
            "invocation": [r.to_dict() for r in self.invocation],
            "notes": self.notes,
            "seconds": round(self.seconds, 2),
        }


def typed(name: str, args: str) -> str:
    return f"/{name.removeprefix('/')} {args}".rstrip()


def compare_with_claude(
    claude: ClaudeCode,
    locations: Locations,
    name: str | None = None,
    args: str = "",
    *,
    allow_network: bool = False,
    progress: Progress | None = None,
    timeout: float = TIMEOUT_S,
    stop: threading.Event | None = None,
) -> Comparison:
    """Run `claude` (found with `find_claude`) on these locations, contained, and compare. Meant
    for a worker: it blocks for a few seconds (at most `timeout`), tells `progress` what it does
    (a line when it starts Claude Code, then "comparing ..." once the recording is done and
    before skilldeck loads the catalog), and raises CompareError when it cannot run (missing,
    too old, a login, no sandbox, the timeout, or `stop` set: Claude Code is then killed and its
    scratch folder removed at once)."""
    started = time.monotonic()
    say = progress or (lambda text: None)
    prompts = [("listing", "hi")] + ([("invoke", typed(name, args))] if name else [])
    recorded = record(claude, locations, prompts, allow_network=allow_network, progress=say, timeout=timeout, stop=stop)
    run = recorded.runs["listing"]
    for each in recorded.runs.values():
        if "other" in each.keys:
            raise CompareError("a request carried a key that is not skilldeck's dummy key (it reached only the local recorder)")
        if theirs.asks_for_login(each):
            raise CompareError("Claude Code asks for a login instead of using the dummy key: run `claude` once to finish set-up")
    if not run.requests:
        raise CompareError(f"Claude Code sent no request (exit {run.exit}): {run.stderr.strip()[-400:] or 'no message'}")
    say("comparing with skilldeck's prediction")
    # Claude Code's side has none of skilldeck's own bundled skills.
    workspace = Workspace(replace(locations, bundled=False))
    catalog = workspace.load()
    baseline = recorded.runs["baseline"]
    own_lines = {theirs.entry_name(line): line for line in (theirs.listing_lines(baseline) or [])[2:]}
    for skill in catalog.skills:
        own_lines.pop(skill, None)
    # Those Claude Code keeps whole at a budget of 1: its bundled prompt skills, not init or
    # security-review (they drop to their name like the user's skills).
    fixed = {theirs.entry_name(line) for line in (theirs.listing_lines(recorded.runs["own_fixed"]) or [])[2:]
             if theirs.entry_text(line)}  # fmt: skip
    listing, own, foreign = _listing_rows(workspace, catalog, run, own_lines, fixed)
    # Kept for this project, so that every listing counts them from now on (engine/listing/claude_own.py).
    save_own(locations.environ, locations.project, claude.version, foreign, claude.path)
    invocation: list[Row] = []
    if name:
        invocation = _invocation_rows(workspace, catalog, recorded.runs["invoke"], theirs.main_head(baseline), name, args)
    notes = safety_notes(locations)
    if any(DISABLED in (r.claude or "") for r in invocation):
        notes.append("the skill's ! commands did not run (disableSkillShellExecution): both sides show them as disabled")
    if not recorded.contained:
        notes.insert(0, "NOT CONTAINED (--allow-network): the run had the host network and could write to your files")
    skipped = theirs.skipped(run)
    return Comparison(claude, recorded.contained, theirs.model(run), listing, own, skipped, notes,
                      time.monotonic() - started, typed(name, args) if name else None, invocation, recorded.overlaid)  # fmt: skip


def _listing_rows(
    workspace: Workspace, catalog: Catalog, run: Run, own_lines: dict[str, str], fixed: set[str]
) -> tuple[list[Row], list[str], list[Foreign]]:
    lines = theirs.listing_lines(run)
    entries = [(theirs.entry_name(line), line) for line in (lines or [])[2:]]
    own_names = set(own_lines)
    # Claude Code's own entries go into skilldeck's listing where they stood, with their whole
    # text (the empty home's, when this run dropped it to the name), so that the budget is
    # shared as Claude Code shared it.
    foreign = [Foreign(n, theirs.entry_text(line) or theirs.entry_text(own_lines[n]), i, fixed=n in fixed)
               for i, (n, line) in enumerate(entries) if n in own_names]  # fmt: skip
    listing = workspace.listing(catalog, foreign=foreign, recorded_own=False)
    ours = [(theirs.entry_name(e.line), e.line) for e in listing.entries if e.override != "foreign"]
    header_theirs = lines[0] if lines else None
    header_ours = listing.text.split("\n")[0] if listing.text else None
    rows: list[Row] = []
    if header_theirs != header_ours:
        if header_theirs is None or header_ours is None:
            status = "only-skilldeck" if header_theirs is None else "only-claude"
            rows.append(Row(status, "(header)", header_theirs, header_ours))
        else:
            rows.append(Row(DIFFERS, "(header)", header_theirs, header_ours, difference(header_theirs, header_ours)))
    elif header_theirs is not None:
        rows.append(Row(IDENTICAL, "(header)", header_theirs, header_ours))
    rows += listing_rows(entries, ours, own_names)
    return rows, [n for n, _ in entries if n in own_names], foreign


def _our_blocks(prompt: Prompt) -> list[str]:
    """What skilldeck sends for the typed skill, with each `!` command shown as Claude Code shows
    it in a comparison run (where skill commands are disabled by policy: none may run)."""
    out = []
    for message in prompt.to_dict()["sent"]:
        content = message.get("content")
        blocks = [content] if isinstance(content, str) else [b.get("text", "") for b in content if isinstance(b, dict)]
        for text in blocks:
            for shell in prompt.shell:
                text = text.replace(preview_note(shell.pattern, shell.decision, shell.reason), DISABLED)
            out.append(text)
    return out


def _invocation_rows(workspace: Workspace, catalog: Catalog, run: Run, head: str, name: str, args: str) -> list[Row]:
    session = str(run.init.get("session_id") or "")
    try:
        prompt = workspace.expand(catalog, name, args)
    except (InvocationError, ExpansionError) as exc:
        ours_error = str(exc)
        sent = theirs.invocation(run, [], head)
        if sent is not None:
            return [Row(ONLY_CLAUDE, "invocation", "\n\n".join(sent[1]), None, f"skilldeck refuses: {ours_error}")]
        said = str(run.result.get("result") or "")
        status = IDENTICAL if said == ours_error else DIFFERS
        return [Row(status, "refusal", said, ours_error, "" if status == IDENTICAL else difference(said, ours_error))]
    ours = _our_blocks(prompt)
    sent = theirs.invocation(run, ours, head)
    if sent is None:
        said = str(run.result.get("result") or "")
        return [Row(ONLY_SKILLDECK, "invocation", said or None, "\n\n".join(ours), "Claude Code sent nothing for it")]
    context, blocks = sent
    if session:
        # Each run has its own session id; skilldeck's stands where Claude Code's did.
        blocks = [b.replace(session, prompt.session_id) for b in blocks]
    rows = block_rows(blocks, ours)
    if context != prompt.context:
        said = f"Claude Code ran it {context}, skilldeck {prompt.context}"
        rows.insert(0, Row(DIFFERS, "context", context, prompt.context, said))
    return rows


class ComparisonCache:
    """Comparisons kept per Claude Code (binary and version), folder and invocation, for an app
    that should not run `claude` at every start; the caller clears it when the catalog changes."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str, str], Comparison] = {}
        self._lock = threading.Lock()

    @staticmethod
    def key(claude: ClaudeCode, locations: Locations, name: str | None = None, args: str = "") -> tuple[str, str, str]:
        return claude.key(), str(locations.project), typed(name, args) if name else ""

    def get(self, key: tuple[str, str, str]) -> Comparison | None:
        with self._lock:
            return self._kept.get(key)

    def put(self, key: tuple[str, str, str], comparison: Comparison) -> None:
        with self._lock:
            self._kept[key] = comparison

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
