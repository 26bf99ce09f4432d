"""Plugin manifests with consequences (a field that rejects the plugin, `hooks` naming the default
file, components inside `.claude-plugin/`, `skills` adding and `commands` replacing, `"strict":
false` entries) and collisions (one plugin name in two marketplaces; plugin skills that shadow or
are shadowed)."""

from __future__ import annotations

import os
import shlex
from typing import Any

from ..catalog.assembly import Catalog
from ..catalog.diagnostics import Sink
from ..catalog.jsonfile import read_json
from ..catalog.model import Severity, SourceKind
from ..catalog.sources.plugins import COMPONENT_FIELDS, MANIFEST, validate_manifest
from .copies import Copy, plugin_copies
from .findings import Findings
from .state import PluginState

_DEFAULT_HOOKS = os.path.join("hooks", "hooks.json")


def check_manifests(state: PluginState, catalog: Catalog | None, out: Findings) -> None:
    copies = plugin_copies(state, catalog)
    for copy in copies:
        _manifest(copy, out)
    _collisions(state, catalog, copies, out)


def _validate(copy: Copy) -> str:
    return f"claude plugin validate {shlex.quote(str(copy.root))}"


def _manifest(copy: Copy, out: Findings) -> None:
    key, root = copy.key, copy.root
    path = root / MANIFEST
    sink = Sink()
    data = read_json(path, sink, "plugin-manifest", "plugin manifest")
    for d in sink.items:
        out.add(
            "error",
            "manifest-unreadable",
            f"`{key}`: {path}: {d.message}",
            f"replace {path} with a plugin.json of a few kilobytes; {_validate(copy)} checks it",
            plugin=key,
            path=path,
        )
    manifest: dict[str, Any] = data if isinstance(data, dict) else {}
    if data is not None and not isinstance(data, dict):
        out.add(
            "error",
            "manifest-rejected",
            f"{path} is not a JSON object: Claude Code loads none of `{key}`",
            f'write {{"name": "{key.partition("@")[0]}"}} in {path}',
            plugin=key,
            path=path,
        )
    if manifest:
        checked = Sink()
        validate_manifest(manifest, path, checked)
        for d in checked.items:
            if d.severity is Severity.INFO:
                continue
            code = "manifest-rejected" if d.severity is Severity.ERROR else "manifest-field"
            out.add(
                d.severity.value,
                code,
                f"`{key}`: {d.message}",
                f"fix the field in {path}, then {_validate(copy)} passes"
                if code == "manifest-rejected"
                else f"edit {path}: {d.hint}",
                plugin=key,
                path=path,
            )
    _hooks(copy, manifest, out)
    for part in ("skills", "commands", "agents", "hooks", "output-styles"):
        inside = root / ".claude-plugin" / part
        if os.path.lexists(inside):
            out.add(
                "warning",
                "component-misplaced",
                f"`{key}` keeps {part}/ inside .claude-plugin/, where Claude Code never looks for it",
                f"mv {shlex.quote(str(inside))} {shlex.quote(str(root / part))}",
                plugin=key,
                path=inside,
            )
    if "skills" in manifest and os.path.isdir(root / "skills"):
        out.add(
            "info",
            "skills-added",
            f"`{key}`: the manifest's `skills` paths load after the skills/ folder, not instead",
            "",
            plugin=key,
            path=path,
        )
    if "commands" in manifest and os.path.isdir(root / "commands"):
        out.add(
            "warning",
            "commands-replaced",
            f"`{key}`: the manifest's `commands` replaces the commands/ folder, so Claude Code does not load {root / 'commands'}",
            f'add "./commands" to `commands` in {path}',
            plugin=key,
            path=root / "commands",
        )
    if copy.loose is not None:
        fields = [k for k in COMPONENT_FIELDS if k in copy.loose]
        if fields and os.path.lexists(path):
            out.add(
                "error",
                "strict-conflict",
                f'`{key}`\'s marketplace entry says "strict": false and names {", ".join(fields)}, and the plugin has a '
                "plugin.json: Claude Code reports a conflict and loads none of it",
                'set "strict": true in the marketplace entry, or remove the component paths from one of the two',
                plugin=key,
                path=path,
            )
        elif fields:
            out.add(
                "info",
                "strict-false",
                f'`{key}` has no plugin.json; its marketplace entry ("strict": false) supplies {", ".join(fields)}',
                "",
                plugin=key,
                path=root,
            )


def _hooks(copy: Copy, manifest: dict[str, Any], out: Findings) -> None:
    """Recorded with 2.1.328: `hooks` naming the default hooks/hooks.json loads it once (a note in
    the debug log); one file named twice is "Duplicate hooks file detected", a hook load failure
    that leaves the plugin's MCP servers unavailable."""
    value = manifest.get("hooks")
    named = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    seen: dict[str, str] = {}
    for rel in named:
        real = os.path.realpath(copy.root / rel)
        if real in seen:
            out.add(
                "warning",
                "hooks-duplicate",
                f"`{copy.key}`'s manifest names the hooks file {rel} twice (as {seen[real]} and {rel}): Claude Code reports "
                "a duplicate hooks file, a hook load failure that leaves the plugin's MCP servers unavailable",
                f'remove the second "{rel}" from `hooks` in {copy.root / MANIFEST}',
                plugin=copy.key,
                path=copy.root / MANIFEST,
            )
        seen.setdefault(real, rel)
        if os.path.normpath(rel) == _DEFAULT_HOOKS and os.path.isfile(copy.root / _DEFAULT_HOOKS):
            out.add(
                "info",
                "hooks-default-named",
                f"`{copy.key}`'s manifest names {rel}, which Claude Code loads by itself: 2.1.328 loads it once "
                "(older versions report a duplicate hooks file)",
                f'remove "{rel}" from `hooks` in {copy.root / MANIFEST}',
                plugin=copy.key,
                path=copy.root / MANIFEST,
            )


def _collisions(state: PluginState, catalog: Catalog | None, copies: list[Copy], out: Findings) -> None:
    by_name: dict[str, list[str]] = {}
    for key in state.all_keys():
        name, at, _ = key.partition("@")
        if at:
            by_name.setdefault(name, []).append(key)
    for name, keys in by_name.items():
        if len(keys) > 1:
            for key in keys:
                others = ", ".join(k for k in keys if k != key)
                out.add(
                    "warning",
                    "plugin-name-clash",
                    f"plugin name `{name}` is in more than one marketplace ({key}, {others}): their skills share the "
                    f"`{name}:` prefix and one hides the other",
                    f"claude plugin disable {key} --scope user (keep one)",
                    plugin=key,
                )
    if catalog is None:
        return
    owners = {c.root: c.key for c in copies}
    for lost in catalog.shadowed:
        winner, loser = lost.shadowed_by, lost.skill
        for skill, verb, other in ((loser, "is hidden by", winner), (winner, "hides", loser)):
            if skill.source.kind is not SourceKind.PLUGIN:
                continue
            key = owners.get(skill.source.root, f"{skill.source.plugin}")
            out.add(
                "warning" if skill is loser else "info",
                "skill-shadowed",
                f"`{key}`'s skill /{skill.name} {verb} {other.source.label}'s {other.path}",
                f"give one of them another name: {skill.path} or {other.path}",
                plugin=key,
                path=skill.path,
            )
