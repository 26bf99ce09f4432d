"""The floor of `skilldeck list --json`: the least a program that lists skills must do.

List each skills folder, read every `<folder>/<skill>/SKILL.md`, parse its frontmatter with
PyYAML's C loader, and print name, description and path as JSON (compact, one write). No
diagnostics, no precedence, no budget: what is left when everything that makes skilldeck
useful is taken away. bench_scale.py runs it as a whole process beside `skilldeck list --json`.

    python tests/bench/floor_list.py --project P            # P/.claude/skills
    python tests/bench/floor_list.py --plugin-dir MARKET    # MARKET/<plugin>/skills
    python tests/bench/floor_list.py --installed CONFIG     # the enabled installPaths' skills
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def skills_roots(args: argparse.Namespace) -> list[str]:
    roots = [os.path.join(p, ".claude", "skills") for p in args.project]
    for market in args.plugin_dir:
        with os.scandir(market) as it:
            roots += sorted(os.path.join(e.path, "skills") for e in it if e.is_dir())
    for config in args.installed:
        # The plugins installed (installed_plugins.json) and enabled (settings.json): their skills.
        with open(os.path.join(config, "settings.json"), encoding="utf-8") as fh:
            enabled = json.load(fh).get("enabledPlugins", {})
        with open(os.path.join(config, "plugins", "installed_plugins.json"), encoding="utf-8") as fh:
            installed = json.load(fh)["plugins"]
        roots += [os.path.join(installed[key][0]["installPath"], "skills") for key in sorted(installed) if enabled.get(key)]
    return roots


def read(root: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    try:
        with os.scandir(root) as it:
            names = sorted(e.name for e in it if e.is_dir())
    except OSError:
        return out
    for name in names:
        path = os.path.join(root, name, "SKILL.md")
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        meta: object = {}
        if text.startswith("---"):
            end = text.find("\n---", 3)
            try:
                meta = yaml.load(text[4:end], Loader=LOADER)
            except yaml.YAMLError:
                meta = {}
        fields = meta if isinstance(meta, dict) else {}
        out.append({"name": fields.get("name", name), "description": fields.get("description", ""), "path": path})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--project", action="append", default=[])
    parser.add_argument("--plugin-dir", action="append", default=[])
    parser.add_argument("--installed", action="append", default=[], help="a config folder (~/.claude)")
    args = parser.parse_args()
    skills = [s for root in skills_roots(args) for s in read(root)]
    sys.stdout.write(json.dumps({"skills": skills}, ensure_ascii=False, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
