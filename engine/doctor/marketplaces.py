"""Marketplaces: known but their folder gone, a manifest Claude Code cannot read, entries whose
source does not resolve, reserved names, old clones, the marketplaces and plugins a project asks
for (`extraKnownMarketplaces`) that this user lacks, and the managed allow and block lists."""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from ..catalog.sources.plugins import MARKETPLACE
from .findings import Findings
from .state import Marketplace, PluginState

# Names Claude Code 2.1.328 keeps for Anthropic's own marketplaces (read from the binary's
# reserved-name set; a marketplace of another source may not take them).
RESERVED = frozenset(
    {
        "claude-code-marketplace",
        "claude-code-plugins",
        "claude-plugins-official",
        "anthropic-marketplace",
        "anthropic-plugins",
        "agent-skills",
        "anthropic-agent-skills",
        "life-sciences",
        "knowledge-work-plugins",
        "claude-for-legal",
        "claude-for-financial-services",
        "financial-services-plugins",
        "first-party-plugins",
        "claude-tag-plugins",
    }
)
# A clone older than this is reported (an info: the fix is one command).
OLD_DAYS = 30


def check_marketplaces(state: PluginState, out: Findings) -> None:
    for market in state.marketplaces.values():
        _one(state, market, out)
    _asked(state, out)
    _managed(state, out)


def _update(name: str) -> str:
    return f"claude plugin marketplace update {name}"


def _one(state: PluginState, market: Marketplace, out: Findings) -> None:
    name = market.name
    if market.folder is None:
        out.add(
            "error",
            "marketplace-invalid",
            f"marketplace `{name}` has no source folder in known_marketplaces.json",
            f"claude plugin marketplace remove {name}, then add it again",
            marketplace=name,
        )
        return
    if not os.path.isdir(market.folder):
        out.add(
            "error",
            "marketplace-missing",
            f"marketplace `{name}` is known but its folder {market.folder} is gone: its plugins cannot be installed or updated",
            _update(name) if not market.directory else f"claude plugin marketplace remove {name}",
            marketplace=name,
            path=market.folder,
        )
        return
    if market.manifest is None:
        if not os.path.lexists(market.folder / MARKETPLACE):
            out.add(
                "error",
                "marketplace-unreadable",
                f"marketplace `{name}` has no {MARKETPLACE} in {market.folder}",
                _update(name),
                marketplace=name,
                path=market.folder,
            )
        return
    source = market.record.get("source")
    repo = source.get("repo") if isinstance(source, dict) else None
    if name in RESERVED and not (isinstance(repo, str) and repo.lower().startswith("anthropics/")):
        out.add(
            "warning",
            "marketplace-reserved",
            f"marketplace `{name}` takes a name Claude Code reserves for Anthropic's own marketplaces, from another source",
            f"claude plugin marketplace remove {name}",
            marketplace=name,
            path=market.folder,
        )
    _entries(market, out)
    _age(market, out)


def _entries(market: Marketplace, out: Findings) -> None:
    plugins = market.manifest.get("plugins") if market.manifest else None
    assert market.folder is not None
    if not isinstance(plugins, list):
        out.add(
            "error",
            "marketplace-unreadable",
            f"{market.folder / MARKETPLACE} has no `plugins` list",
            _update(market.name),
            marketplace=market.name,
            path=market.folder / MARKETPLACE,
        )
        return
    for item in plugins:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        key = f"{item['name']}@{market.name}"
        source = item.get("source")
        if isinstance(source, str):
            path = Path(os.path.normpath(market.folder / source))
            if not path.is_relative_to(market.folder) or not os.path.isdir(path):
                out.add(
                    "warning",
                    "marketplace-source",
                    f"the entry for `{key}` names the source {source}, which is not a folder in {market.folder}",
                    f"fix its `source` in {market.folder / MARKETPLACE}, then {_update(market.name)}",
                    plugin=key,
                    path=market.folder / MARKETPLACE,
                )
        elif not isinstance(source, dict):
            out.add(
                "warning",
                "marketplace-source",
                f"the entry for `{key}` has no usable `source`",
                f"fix it in {market.folder / MARKETPLACE}",
                plugin=key,
                path=market.folder / MARKETPLACE,
            )


def _age(market: Marketplace, out: Findings) -> None:
    when = market.record.get("lastUpdated")
    if not isinstance(when, str):
        return
    try:
        stamp = datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return
    days = (time.time() - stamp) / 86400
    if days > OLD_DAYS:
        out.add(
            "info",
            "marketplace-old",
            f"marketplace `{market.name}` was last updated {days:.0f} days ago ({when[:10]})",
            _update(market.name),
            marketplace=market.name,
        )


def _add_command(name: str, spec: Any) -> str:
    source = spec.get("source") if isinstance(spec, dict) else None
    if isinstance(source, dict):
        for field in ("repo", "url", "path"):
            if isinstance(source.get(field), str):
                return f"claude plugin marketplace add {source[field]}"
    return f"claude plugin marketplace add <the source of {name}>"


def _asked(state: PluginState, out: Findings) -> None:
    for f, value in state.setting("extraKnownMarketplaces"):
        if not isinstance(value, dict):
            continue
        for name, spec in value.items():
            if name not in state.marketplaces:
                out.add(
                    "warning",
                    "marketplace-asked",
                    f"{f.path} asks for the marketplace `{name}`, which this user has not added",
                    _add_command(name, spec),
                    marketplace=str(name),
                    path=f.path,
                )


def _names_market(spec: Any, name: str, market: Marketplace) -> bool:
    """Whether a managed list entry means this marketplace: its name, or a source spec that
    matches the marketplace's own source (`repo`, `url` or `path`)."""
    if isinstance(spec, str):
        return spec == name
    if not isinstance(spec, dict):
        return False
    if spec.get("name") == name:
        return True
    source = market.record.get("source")
    ours = source if isinstance(source, dict) else {}
    return any(isinstance(spec.get(k), str) and spec.get(k) == ours.get(k) for k in ("repo", "url", "path"))


def _managed(state: PluginState, out: Findings) -> None:
    for f, value in state.setting("strictKnownMarketplaces", ("managed",)):
        if not isinstance(value, list):
            continue
        for name, market in state.marketplaces.items():
            if not any(_names_market(v, name, market) for v in value):
                out.add(
                    "warning",
                    "marketplace-not-allowed",
                    f"managed settings {f.path} allow only the marketplaces of strictKnownMarketplaces; `{name}` is not one",
                    f"claude plugin marketplace remove {name}",
                    marketplace=name,
                    path=f.path,
                )
    for f, value in state.setting("blockedMarketplaces", ("managed",)):
        if not isinstance(value, list):
            continue
        for name, market in state.marketplaces.items():
            if any(_names_market(v, name, market) for v in value):
                out.add(
                    "error",
                    "marketplace-blocked",
                    f"managed settings {f.path} block the marketplace `{name}`: Claude Code loads none of its plugins",
                    f"claude plugin marketplace remove {name}",
                    marketplace=name,
                    path=f.path,
                )
