"""What a plugin costs and runs: its listing characters and the skills that lost their text to the
budget; every hook command, MCP server and LSP server it starts, with `${CLAUDE_PLUGIN_ROOT}`
resolved (split at a space in the path when unquoted); and its files edited after a time (a running
Claude Code keeps the copy it read at start)."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.diagnostics import Sink
from ..catalog.jsonfile import read_json
from ..catalog.sources.plugins import MANIFEST
from ..listing.build import Listing
from .cache import walk_files
from .copies import Copy, plugin_copies
from .findings import Findings
from .state import PluginState

ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}"
# The variable not inside quotes: a path with a space then splits the command in two.
_UNQUOTED = re.compile(r"(?<![\"'])\$\{CLAUDE_PLUGIN_ROOT\}")


def check_runs(state: PluginState, catalog: Catalog | None, listing: Listing | None, since: float | None, out: Findings) -> None:
    for copy in plugin_copies(state, catalog):
        if listing is not None:
            _cost(copy, listing, out)
        manifest = read_json(copy.root / MANIFEST, Sink(), "plugin-manifest", "plugin manifest")
        manifest = manifest if isinstance(manifest, dict) else {}
        _hooks(copy, manifest, out)
        for kind, default, field in (("MCP server", ".mcp.json", "mcpServers"), ("LSP server", ".lsp.json", "lspServers")):
            _servers(copy, manifest, kind, default, field, out)
        _edited(state, copy, since, out)


def _cost(copy: Copy, listing: Listing, out: Findings) -> None:
    name = copy.key.partition("@")[0]
    mine = [e for e in listing.entries if e.name.startswith(f"{name}:")]
    if not mine:
        return
    chars = sum(len(e.line) + 1 for e in mine)
    trimmed = [e.name for e in mine if e.trimmed]
    if trimmed:
        out.add(
            "warning",
            "budget-trimmed",
            f"`{copy.key}` takes {chars} characters of the skill listing; over the budget, {len(trimmed)} of its skills "
            f"lost their descriptions ({', '.join(trimmed[:8])}), so the model picks them by name alone",
            "export SLASH_COMMAND_TOOL_CHAR_BUDGET=<more characters>, or claude plugin disable " + copy.key,
            plugin=copy.key,
            path=copy.root,
        )
    else:
        out.add(
            "info",
            "listing-cost",
            f"`{copy.key}`: {len(mine)} listing entries, {chars} characters",
            "",
            plugin=copy.key,
            path=copy.root,
        )


def _resolve(command: str, root: Path, where: Path, copy: Copy, kind: str, out: Findings) -> str:
    resolved = command.replace(ROOT_VAR, str(root))
    if " " in str(root) and _UNQUOTED.search(command):
        out.add(
            "warning",
            "root-has-spaces",
            f"`{copy.key}`'s {kind} `{command}` puts ${{CLAUDE_PLUGIN_ROOT}} unquoted, and the plugin's path {root} has "
            f"a space: it runs as `{resolved}`, split at the space",
            f'quote it in {where}: "{ROOT_VAR}/..."',
            plugin=copy.key,
            path=where,
        )
    return resolved


def _json_parts(copy: Copy, value: Any, default: str) -> list[tuple[Path, Any]]:
    """The objects a manifest field names (paths read, objects as they are), else the default file."""
    parts: list[tuple[Path, Any]] = []
    items = value if isinstance(value, list) else [] if value is None else [value]
    for item in items or ["./" + default]:
        if isinstance(item, dict):
            parts.append((copy.root / MANIFEST, item))
            continue
        if not isinstance(item, str):
            continue
        path = Path(os.path.normpath(copy.root / item))
        if not path.is_relative_to(copy.root):
            continue
        sink = Sink()
        data = read_json(path, sink, "plugin-manifest", "plugin file")
        for d in sink.items:
            out_msg = f"{d.message}"
            parts.append((path, {"__error__": out_msg}))
        if data is not None:
            parts.append((path, data))
    return parts


def _hooks(copy: Copy, manifest: dict[str, Any], out: Findings) -> None:
    for path, data in _json_parts(copy, manifest.get("hooks"), os.path.join("hooks", "hooks.json")):
        if isinstance(data, dict) and "__error__" in data:
            out.add(
                "error",
                "file-unreadable",
                f"`{copy.key}`: {path}: {data['__error__']}",
                f"fix {path}",
                plugin=copy.key,
                path=path,
            )
            continue
        events = data.get("hooks", data) if isinstance(data, dict) else {}
        for event, groups in events.items() if isinstance(events, dict) else ():
            for group in groups if isinstance(groups, list) else ():
                for hook in group.get("hooks", []) if isinstance(group, dict) and isinstance(group.get("hooks"), list) else ():
                    command = hook.get("command") if isinstance(hook, dict) else None
                    if isinstance(command, str):
                        resolved = _resolve(command, copy.root, path, copy, "hook command", out)
                        out.add(
                            "info", "runs-hook", f"`{copy.key}` runs on {event}: {resolved[:300]}", "", plugin=copy.key, path=path
                        )


def _servers(copy: Copy, manifest: dict[str, Any], kind: str, default: str, field: str, out: Findings) -> None:
    for path, data in _json_parts(copy, manifest.get(field), default):
        if not isinstance(data, dict) or "__error__" in data:
            continue
        servers = data.get("mcpServers", data) if kind == "MCP server" else data
        for name, spec in servers.items() if isinstance(servers, dict) else ():
            if not isinstance(spec, dict) or not isinstance(spec.get("command"), str):
                if isinstance(spec, dict) and isinstance(spec.get("url"), str):
                    out.add(
                        "info",
                        "runs-server",
                        f"`{copy.key}` connects to the {kind} `{name}` at {spec['url'][:200]}",
                        "",
                        plugin=copy.key,
                        path=path,
                    )
                continue
            args = [a for a in spec.get("args", []) if isinstance(a, str)] if isinstance(spec.get("args"), list) else []
            line = " ".join([spec["command"], *args])
            resolved = _resolve(line, copy.root, path, copy, kind, out)
            out.add(
                "info",
                "runs-server",
                f"`{copy.key}` starts the {kind} `{name}`: {resolved[:300]}",
                "",
                plugin=copy.key,
                path=path,
            )


def _edited(state: PluginState, copy: Copy, since: float | None, out: Findings) -> None:
    after = since
    if after is None and copy.installed:
        record = next((r for r in state.installed.get(copy.key, []) if r.get("installPath")), None)
        stamp = record.get("lastUpdated") if record else None
        try:
            after = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() if isinstance(stamp, str) else None
        except ValueError:
            after = None
    if after is None:
        return
    newest: tuple[float, str] | None = None
    for path in walk_files(copy.root):
        try:
            mtime = os.lstat(path).st_mtime if path else 0.0
        except OSError:
            continue
        if mtime > after + 1 and (newest is None or mtime > newest[0]):
            newest = (mtime, path)
    if newest is not None:
        what = "since skilldeck started" if since is not None else "since it was installed or updated"
        # Edited since the app started: a session started before still runs the old copy (a
        # warning, shown in the app); since the install, a note.
        out.add(
            "warning" if since is not None else "info",
            "changed-on-disk",
            f"`{copy.key}` changed on disk {what} ({newest[1]}): a running Claude Code still has the copy it read at start",
            "restart Claude Code",
            plugin=copy.key,
            path=Path(newest[1]),
        )
