"""The routing requests: what the runner would send for a user's first message, one per case,
variant and run.

Each request is built by the engine's own runner (`Runner.request()`: skilldeck's system prompt,
the tools it offers, the Skill tool last, the session's effort) with the request as the only user
message, single turn, `max_tokens` small; the listing is sent where the runner and Claude Code
2.1.328 send it, a system message after the user message, with the text `Workspace.listing`
renders (the settings' budget share and model, skillOverrides, usage scores). Two variants:
`listed` (the listing as it is) and `dropped` (the case's skill shown by name only, as Claude
Code shows it when the listing is over budget and its description is dropped).

The cache key (`RoutingRequest.key`) is a hash of (the request's fixed part: model, system
prompt, the tools, max_tokens, effort; the listing's hash; the request text; the run's
number). The model reads the whole listing, so any change to any line can change any answer:
nothing narrower than the whole listing text is a sound key, and this does not pretend otherwise.
What it does give: an edit that leaves the text sent unchanged (a skill's body, a description
past the 1,536-character cap, a skill whose description is dropped anyway) re-asks nothing; after
editing skill X's description, every `dropped` request about X is unchanged (X's line is its name
there) and is answered from the cache; two variants that send the same text (the skill's line was
already dropped) are one request; and the variant is not in the key for that reason.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Container, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..catalog.assembly import Catalog
from ..listing.build import HEADER, Listing
from ..llm import Request, resolve_model, with_listing
from ..permissions.decide import Permissions
from ..permissions.settings import read_settings
from ..runner.conversation import Message, Transcript, api_messages
from ..runner.loop import Runner
from ..workspace import Workspace
from .cost import TYPICAL_OUTPUT, CostEstimate, estimate_tokens
from .format import EvalCase

ROUTING_MAX_TOKENS = 256
LISTED = "listed"
DROPPED = "dropped"
VARIANTS = (LISTED, DROPPED)
# Bumped when what a key stands for changes, so an old cache is not read as new answers.
KEY_VERSION = "routing-2"  # 2: the listing moved from the Skill tool's description to a system message


@dataclass(frozen=True, slots=True)
class RoutingRequest:
    case: EvalCase
    variant: str
    run: int
    request: Request
    key: str
    listing_hash: str
    # The request body's characters, for the token estimate.
    chars: int

    def to_dict(self, full: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "case": self.case.id,
            "request": self.case.request,
            "variant": self.variant,
            "run": self.run,
            "key": self.key,
            "listing_hash": self.listing_hash,
        }
        if full:
            out["sent"] = self.request.to_dict()
        return out


@dataclass(frozen=True)
class EvalPlan:
    model: str
    cases: tuple[EvalCase, ...]
    requests: tuple[RoutingRequest, ...]
    listing: Listing
    runs: int
    max_tokens: int
    # What the user should know about the requests (the Skill tool denied, a variant not possible).
    notes: tuple[str, ...] = ()

    def unique(self) -> list[RoutingRequest]:
        """The requests to send: the first of each key (identical requests are asked once)."""
        seen: dict[str, RoutingRequest] = {}
        for item in self.requests:
            seen.setdefault(item.key, item)
        return list(seen.values())

    def estimate(self, cached: Container[str] = ()) -> CostEstimate:
        """The cost of sending what `cached` (keys) does not already answer; an estimate."""
        todo = [r for r in self.unique() if r.key not in cached]
        return CostEstimate(
            self.model,
            len(todo),
            len(self.unique()) - len(todo),
            sum(estimate_tokens(r.chars) for r in todo),
            len(todo) * min(TYPICAL_OUTPUT, self.max_tokens),
            len(todo) * self.max_tokens,
        )

    def to_dict(self, full: bool = True) -> dict[str, Any]:
        return {
            "model": self.model,
            "runs": self.runs,
            "max_tokens": self.max_tokens,
            "notes": list(self.notes),
            "cases": [c.to_dict() for c in self.cases],
            "requests": [r.to_dict(full) for r in self.requests],
        }


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


class _NoAsk:
    """The runner's ask/emit: a plan sends nothing and runs no tool, so neither is ever called."""

    async def ask(self, *_: object) -> str:
        return "deny"

    def emit(self, *_: object) -> None:
        pass


def routing_model(workspace: Workspace, model: str | None = None) -> tuple[str, str | None]:
    """(model id to send, the name the listing's budget is sized by): --model, else $ANTHROPIC_MODEL,
    else the settings' `model`, else Claude Code's default, as `Workspace.listing` reads it."""
    chosen = model or workspace.locations.environ.get("ANTHROPIC_MODEL") or read_settings(workspace.locations).model
    return resolve_model(chosen, workspace.locations.environ), chosen


def template(workspace: Workspace, catalog: Catalog, model: str, max_tokens: int) -> tuple[Request, bool]:
    """The runner's first request with no message: (request, whether it offers the Skill tool; a
    rule may deny it, and then no listing is sent)."""
    transcript = Transcript(workspace.locations.project / ".skilldeck-evals-unused", "evals")
    no = _NoAsk()
    runner = Runner(
        locations=workspace.locations,
        catalog=catalog,
        backend=workspace.backend("offline"),
        permissions=Permissions.load(workspace.locations),
        transcript=transcript,
        ask=no.ask,
        emit=no.emit,
        model=model,
    )
    request = replace(runner.request(), max_tokens=max_tokens)
    return request, runner.offers_skill()


def dropped_texts(listing: Listing, floor: Listing) -> dict[str, str]:
    """For each listed skill whose description shows, the listing with that one line cut to its
    name (`floor`: the same listing at budget 0, where every line that can drop has)."""
    lines = [e.line for e in listing.entries]
    if "\n".join([HEADER, "", *lines]) != listing.text:
        return {}
    out: dict[str, str] = {}
    for index, entry in enumerate(listing.entries):
        short = floor.entry(entry.name)
        if short is None or short.line == entry.line:
            continue
        cut = [*lines[:index], short.line, *lines[index + 1 :]]
        out[entry.name] = "\n".join([HEADER, "", *cut])
    return out


def plan_evals(
    workspace: Workspace,
    catalog: Catalog,
    cases: Sequence[EvalCase],
    *,
    model: str | None = None,
    runs: int = 1,
    variants: Sequence[str] = VARIANTS,
    max_tokens: int = ROUTING_MAX_TOKENS,
) -> EvalPlan:
    """Every request a run sends (none is sent here): for each run, each case's `listed` request,
    and its `dropped` one when the case names a skill whose description shows in the listing."""
    model_id, listing_model = routing_model(workspace, model)
    listing = workspace.listing(catalog, model=listing_model)
    base, offers_skill = template(workspace, catalog, model_id, max_tokens)
    notes: list[str] = []
    drops: dict[str, str] = {}
    if not offers_skill:
        notes.append("A permission rule denies the Skill tool: the model cannot call any skill in these requests.")
    elif DROPPED in variants:
        drops = dropped_texts(listing, workspace.listing(catalog, budget=0, model=listing_model))
    # The fixed part has no message: the runner's own listing message is left out (ours replaces it).
    fixed_text = json.dumps({**base.to_dict(), "messages": []}, sort_keys=True, ensure_ascii=False)
    fixed_hash = _digest(KEY_VERSION, fixed_text)

    out: list[RoutingRequest] = []
    for run in range(1, max(1, runs) + 1):
        for case in cases:
            texts = [(LISTED, listing.text)] if LISTED in variants else []
            if case.target is not None and case.target in drops:
                texts.append((DROPPED, drops[case.target]))
            for variant, text in texts:
                # Without the Skill tool nothing is listed (the runner sends no listing then either).
                sent = text if offers_skill else ""
                messages = with_listing(api_messages([Message.user(case.request)]), sent)
                request = Request(base.model, base.system, messages, base.tools, max_tokens, base.effort)
                listing_hash = _digest(sent)
                key = _digest(fixed_hash, listing_hash, case.request, str(run))
                chars = len(fixed_text) + len(sent) + len(case.request) + 64
                out.append(RoutingRequest(case, variant, run, request, key, listing_hash, chars))
    return EvalPlan(model_id, tuple(cases), tuple(out), listing, max(1, runs), max_tokens, tuple(notes))
