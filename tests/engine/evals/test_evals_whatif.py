"""What-if on the listing, no model: who gains or loses a description, who would lose one next."""

from __future__ import annotations

import pytest

from engine import DisableSkill, RaiseBudget, ShortenDescription, Workspace, compare_listings, next_to_lose, what_if
from tests.conftest import Tree, skill_text


@pytest.fixture
def ws(tree: Tree) -> Workspace:
    # Each line `- aa: ` + 40 characters is 46; its name alone 4. Under 110 characters the
    # descriptions come back in listing order while they fit: aa and bb do, cc does not.
    for name in ("aa", "bb", "cc"):
        tree.skill(name, skill_text(name=name, description="x" * 40))
    return Workspace(tree.locations(environ={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "110"}))


def test_the_starting_point(ws: Workspace) -> None:
    listing = ws.listing(ws.load())
    assert [(e.name, e.trimmed) for e in listing.entries] == [("aa", False), ("bb", False), ("cc", True)]
    assert next_to_lose(listing) == ("bb", "aa")


def test_disabling_a_skill_gives_its_room_to_the_next(ws: Workspace) -> None:
    change = what_if(ws, ws.load(), [DisableSkill("aa")])
    assert (change.gained, change.lost, change.removed, change.added) == (("cc",), (), ("aa",), ())
    assert change.headroom == 110 - 93 and change.next_to_lose == ("cc", "bb")


def test_shortening_a_description(ws: Workspace) -> None:
    change = what_if(ws, ws.load(), [ShortenDescription("aa", 10)])
    assert (change.gained, change.lost) == (("cc",), ())
    assert change.after.entry("aa").line == "- aa: " + "x" * 10  # type: ignore[union-attr]


def test_raising_and_lowering_the_budget(ws: Workspace) -> None:
    catalog = ws.load()
    raised = what_if(ws, catalog, [RaiseBudget(140)])
    assert (raised.gained, raised.lost, raised.headroom, raised.next_to_lose) == (("cc",), (), 0, ("cc", "bb", "aa"))
    lowered = what_if(ws, catalog, [RaiseBudget(60)])
    assert (lowered.gained, lowered.lost) == ((), ("bb",))


def test_a_change_to_a_skill_the_catalog_lacks(ws: Workspace) -> None:
    with pytest.raises(KeyError):
        what_if(ws, ws.load(), [DisableSkill("nope")])


def test_compare_listings_is_pure(ws: Workspace) -> None:
    catalog = ws.load()
    before = ws.listing(catalog)
    assert compare_listings(before, before).to_dict()["gained"] == []
