"""Helpers (no tests): a small workspace for the routing lab's tests, and a router that answers by request text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import Workspace
from engine.llm import listing_in_messages
from tests.conftest import Tree, skill_text, write
from tests.llm_server import MessagesServer, Reply

EVALS = """\
requests:
  - request: ship it
    expect: deploy
  - request: push to prod
    expect: deploy
  - request: fix the lint
    expect: lint
  - request: what is 2+2
    expect: none
  - request: a poem
    avoid: deploy
"""

# What the scripted model calls for each request: a skill's name, or None for a plain answer.
ROUTES: dict[str, str | None] = {"ship it": "deploy", "push to prod": "lint", "fix the lint": "lint", "what is 2+2": None,
                                 "a poem": "deploy"}  # fmt: skip
# With deploy's description dropped, "ship it" gets no skill.
DROPPED_ROUTES = {"ship it": None}


def make_tree(tree: Tree, evals: str = EVALS) -> None:
    tree.skill("deploy", skill_text(name="deploy", description="Deploy the app to staging or production."))
    tree.skill("lint", skill_text(name="lint", description="Fix lint errors."))
    tree.skill("notes", skill_text(name="notes", description="Keep notes."))
    write(tree.project / ".claude" / "skill-evals.yaml", evals)


def workspace(tree: Tree, server: MessagesServer, **env: str) -> Workspace:
    environ = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "k", "XDG_STATE_HOME": str(tree.root / "state"), **env}
    return Workspace(tree.locations(environ=environ))


def request_text(body: dict[str, Any]) -> str:
    return str(body["messages"][0]["content"][0]["text"])


def listing_of(body: dict[str, Any]) -> str:
    """The listing a routing request sends: its system message, where Claude Code sends it."""
    found = listing_in_messages(body["messages"])
    assert found is not None and found[0] == 1, "the listing is the system message after the user's request"
    return found[1]


def dropped(body: dict[str, Any], name: str) -> bool:
    """Whether `name`'s line in the request's listing is its name alone."""
    return f"\n- {name}\n" in listing_of(body) + "\n"


def skill_reply(name: str | None, text: str = "") -> Reply:
    if name is None:
        return Reply(text=text or "4, and no skill needed.")
    return Reply(text=text, tool_uses=[{"id": "s", "name": "Skill", "input": {"skill": name}}])


def router(overrides: dict[str, Reply] | None = None) -> Any:
    def choose(body: dict[str, Any]) -> Reply:
        text = request_text(body)
        if overrides and text in overrides:
            return overrides[text]
        target = "deploy" if text in DROPPED_ROUTES else None
        if target and dropped(body, target):
            return skill_reply(DROPPED_ROUTES[text])
        return skill_reply(ROUTES.get(text))

    return choose


def state(tree: Tree) -> Path:
    return tree.root / "state"
