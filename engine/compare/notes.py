"""What the flags that keep a comparison safe change about what Claude Code loads, for the user's
own set-up: said beside the result, so that a difference they cause is not taken for skilldeck's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..base.safeio import read_regular
from ..catalog.locations import DEFAULT_MANAGED_DIR, Locations
from ..permissions.trust import claude_config_file

CAP = 4 * 1024 * 1024


def _json(path: Path) -> dict[str, Any]:
    try:
        data, _ = read_regular(path, CAP)
        body = json.loads(data)
    except (OSError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}


def settings_files(locations: Locations) -> list[Path]:
    project = locations.project / ".claude"
    return [locations.user / "settings.json", project / "settings.json", project / "settings.local.json",
            locations.managed / "managed-settings.json"]  # fmt: skip


def safety_notes(locations: Locations) -> list[str]:
    """A sentence for each thing in the user's set-up that the safe flags turn off."""
    settings = [_json(p) for p in settings_files(locations)]
    notes = []
    if any(s.get("hooks") for s in settings) or any(s.get("enabledPlugins") for s in settings):
        notes.append(
            "no hook ran (settings disableAllHooks): context a SessionStart or UserPromptSubmit hook would add "
            "is missing from Claude Code's side; plugin hooks are off too"
        )
    config = _json(claude_config_file(locations))
    projects = config.get("projects")
    project_config = projects.get(str(locations.project)) if isinstance(projects, dict) else None
    servers = bool(config.get("mcpServers")) or bool(isinstance(project_config, dict) and project_config.get("mcpServers"))
    if servers or (locations.project / ".mcp.json").exists() or any(s.get("mcpServers") for s in settings):
        notes.append("no MCP server started (--strict-mcp-config): skills and prompts an MCP server adds are not compared")
    if locations.managed != Path(DEFAULT_MANAGED_DIR) and locations.managed.is_dir():
        notes.append(
            f"skilldeck read the managed tier from {locations.managed}; Claude Code reads {DEFAULT_MANAGED_DIR} only, "
            "so a managed skill can differ for that reason alone"
        )
    providers = [
        n for n in ("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY") if locations.environ.get(n)
    ]
    if providers:
        notes.append(
            f"{', '.join(providers)} left out: the run spoke the Anthropic API to the recorder, so its model (and the "
            "budget the model sizes) may not be the one your provider would use"
        )
    if any(s.get("apiKeyHelper") for s in settings):
        notes.append("your apiKeyHelper is configured: Claude Code may have run it (the key it gives goes nowhere but 127.0.0.1)")
    return notes
