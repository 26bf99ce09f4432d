"""The plugin doctor: every way a plugin goes missing, stale or dangerous, each with the command that fixes it.
It may import the engine's settings, safe readers, plugin sources, catalog and listing; never the workspace or tui."""

# `diagnose` reads only the files Claude Code reads (installed_plugins.json, known_marketplaces.json,
# marketplaces/, cache/, every settings file's enabledPlugins, the plugin and marketplace manifests),
# bounded, and never writes. Rooms: `findings` (what a finding holds), `state` (those files, read
# once), `copies` (which plugin copies load here), `enablement` (enabled, installed, scope), `cache`
# (folders, records, stale copies), `marketplaces`, `manifests` (fields, collisions), `runs` (cost,
# hooks and servers, edits since).

from __future__ import annotations

from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..listing.build import Listing
from .cache import check_cache
from .enablement import check_enablement
from .findings import SEVERITIES, Finding, Findings
from .manifests import check_manifests
from .marketplaces import check_marketplaces
from .runs import check_runs
from .state import read_state


def diagnose(
    locations: Locations, catalog: Catalog | None = None, listing: Listing | None = None, since: float | None = None
) -> list[Finding]:
    """Every finding for this project's plugins, errors first. `catalog` and `listing` (a load's)
    add what plugins cost and which skills clash; `since` (a time) the files edited after it."""
    state = read_state(locations)
    out = Findings()
    out.items.extend(state.findings)
    check_enablement(state, out)
    check_cache(state, out)
    check_marketplaces(state, out)
    check_manifests(state, catalog, out)
    check_runs(state, catalog, listing, since, out)
    return sorted(out.items, key=lambda f: (SEVERITIES.index(f.severity), f.plugin or "", f.marketplace or "", f.code))


__all__ = ["Finding", "diagnose"]
