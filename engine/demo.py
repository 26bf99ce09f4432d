"""A self-contained demo workspace: every tier, a clash, every kind of invocation, broken skills.

Written into a folder the caller owns (usually a temporary one), so `skilldeck --demo` needs
no network, no API key and nothing from the user's own setup. The CLI passes on only the
run-related environment (an API key, a base URL), so a demo run can still reach a model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path

from .catalog.locations import Locations
from .evals.demofile import DEMO_EVALS


def _skill(folder: Path, text: str, name: str = "SKILL.md") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text.lstrip("\n"), encoding="utf-8")


def make_demo(root: Path, environ: Mapping[str, str] | None = None) -> Locations:
    """`environ`: what the demo may read from the environment (none of it by default)."""
    root = Path(root)
    project = root / "acme-app"
    user = root / "home" / ".claude"
    managed = root / "etc" / "claude-code"
    shared = root / "shared-skills"
    plugin = root / "plugins" / "demo-tools"
    (project / ".git").mkdir(parents=True, exist_ok=True)

    _skill(
        managed / ".claude" / "skills" / "security-review",
        """
---
name: security-review
description: Company security review checklist for any change touching auth, secrets or PII. Use before merging such changes.
allowed-tools: Read Grep Glob
---
Review the diff against the company checklist in references/checklist.md.
""",
    )
    _skill(
        user / "skills" / "security-review",
        """
---
name: security-review
description: My personal, shorter security checklist.
---
Look for secrets and injection bugs in the diff.
""",
    )
    _skill(
        user / "skills" / "daily-notes",
        """
---
name: daily-notes
description: Append a dated entry to my notes file. Use when I say "note this" or "log this".
argument-hint: "[text to note]"
---
Append "$(date +%F): $ARGUMENTS" to ~/notes.md.
""",
    )
    skills = project / ".claude" / "skills"
    _skill(
        skills / "deploy",
        """
---
name: deploy
description: Deploy the app to staging or production.
argument-hint: "<staging|production>"
arguments: target
disable-model-invocation: true
allowed-tools: Bash(make deploy *)
---
Deploy to $target:

1. Run `make deploy ENV=$target`.
2. Report the URL it prints.
""",
    )
    _skill(
        skills / "api-conventions",
        """
---
name: api-conventions
description: The conventions every HTTP handler in acme-app follows. Use when writing or reviewing an API endpoint.
user-invocable: false
---
- Handlers validate input with pydantic models in `api/schemas.py`.
- Errors are returned as RFC 9457 problem documents.
""",
    )
    _skill(
        skills / "research",
        """
---
name: research
description: Research a question across the codebase and summarise the answer with file references.
when_to_use: When the user asks how something works, or where something is done.
context: fork
agent: Explore
argument-hint: "<question>"
---
Answer this question about the codebase: $ARGUMENTS

Cite every claim with path:line.
""",
    )
    _skill(
        skills / "release-notes",
        """
---
name: release-notes
description: Draft release notes from the commits since the last tag.
allowed-tools: Bash(git log *), Bash(git describe *), Bash(date *)
---
Release notes as of !`date +%Y-%m-%d`:

1. Find the last tag with `git describe --tags --abbrev=0`.
2. Summarise the commits since then, grouped into Features, Fixes and Other.
""",
    )
    # Three broken skills, each broken differently.
    _skill(
        skills / "broken-yaml",
        """
---
name: broken-yaml
description: "An unterminated quote
allowed-tools: [Read
---
This skill's frontmatter cannot be parsed, so Claude Code loads it without metadata.
""",
    )
    _skill(
        skills / "Lowercase",
        """
---
name: lowercase
description: Named skill.md, so Claude Code on Linux never loads it.
---
Never seen.
""",
        name="skill.md",
    )
    (skills / "notes.md").write_text("# Notes\n\nA loose file: skills need their own folder.\n", encoding="utf-8")
    _skill(
        skills / "colon-trouble",
        """
---
name: colon-trouble
description: Use when: the description has an unquoted colon
---
Loads only thanks to Claude Code's repair retry.
""",
    )

    _skill(
        shared / ".claude" / "skills" / "shared-lint",
        """
---
name: shared-lint
description: Lint rules shared by every repository of the team. Use when fixing lint errors.
---
Run `ruff check --fix` and explain the remaining errors.
""",
    )
    (plugin / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": "demo-tools", "version": "1.0.0", "description": "Demo plugin"}, indent=2) + "\n"
    )
    _skill(
        plugin / "skills" / "format-check",
        """
---
name: format-check
description: Check formatting of the files changed in the working tree.
---
Run the formatter in check mode on `git diff --name-only`.
""",
    )
    _skill(
        plugin / "commands",
        """
---
description: Write a changelog entry for the current branch.
---
Write a changelog entry for the changes on this branch.
""",
        name="changelog.md",
    )
    _skill(
        project / ".claude" / "commands" / "git",
        """
---
description: Commit the staged changes with a conventional message.
argument-hint: "[scope]"
allowed-tools: Bash(git commit *)
---
Write a conventional commit message for the staged changes (scope: $ARGUMENTS) and commit.
""",
        name="commit.md",
    )
    (project / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "model": "sonnet",
                "permissions": {
                    "allow": ["Skill(release-notes)", "Bash(git log *)", "Bash(git describe *)"],
                    "deny": ["Bash(git push *)"],
                    "ask": ["Skill(research)"],
                },
            },
            indent=2,
        )
        + "\n"
    )
    _other_agents(root / "home", project)
    _history(user, project)
    # Which skill the model should call for a few requests: `skilldeck --demo evals`.
    (project / ".claude" / "skill-evals.yaml").write_text(DEMO_EVALS, encoding="utf-8")
    # skilldeck wrote this project itself: it is trusted, as if the user had accepted
    # Claude Code's trust dialog for it (engine/permissions/trust.py).
    (user.parent / ".claude.json").write_text(json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}}) + "\n")
    # The demo's home is its own for every agent too (engine/hosts reads HOME and these): never the user's.
    own = {"HOME": str(root / "home"), "XDG_CONFIG_HOME": str(root / "home" / ".config"), "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    theirs = {k: v for k, v in (environ or {}).items() if k not in ("CODEX_HOME", "COPILOT_HOME", "GEMINI_CLI_HOME")}
    return Locations(
        project=project,
        user_dir=user,
        managed_dir=managed,
        add_dirs=(shared,),
        plugin_dirs=(plugin,),
        environ={**theirs, **own},
    )


def _other_agents(home: Path, project: Path) -> None:
    """Skills other agents read and Claude Code does not (`A` in the app, `skilldeck agents`): one
    in the project's shared `.agents/skills`, one in Codex's user folder, and one whose name has a
    `/` (Codex CLI and OpenCode list it as written, Gemini CLI as `db-migrate`, Copilot CLI refuses it)."""
    _skill(
        project / ".agents" / "skills" / "changelog",
        """
---
name: changelog
description: Write the CHANGELOG entry for the changes since the last tag. Use before a release.
---
Read `git log $(git describe --tags --abbrev=0)..HEAD` and add a dated section to CHANGELOG.md.
""",
    )
    _skill(
        home / ".codex" / "skills" / "review-pr",
        """
---
name: review-pr
description: Review a pull request's diff for bugs, missing tests and unclear names.
---
Read the diff, then list findings by file, most serious first.
""",
    )
    _skill(
        project / ".agents" / "skills" / "db-migrate",
        """
---
name: db/migrate
description: Write and check a database migration for the change at hand.
---
Write the migration, then run it against a throwaway database.
""",
    )


def _history(user: Path, project: Path) -> None:
    """A session file as Claude Code writes it, so that the demo shows usage (`skilldeck usage`,
    the details' "used" row): /deploy typed twice, the model's release-notes run and a research
    call that was refused. Dated from now, so "last used 2 days ago" stays true."""
    now = time.time()

    def record(kind: str, content: object, days: float, uuid: str) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - days * 86_400))
        body = {"type": kind, "message": {"role": kind, "content": content}, "uuid": uuid, "timestamp": stamp}
        return json.dumps({**body, "sessionId": "demo-session", "cwd": str(project)}, separators=(",", ":"))

    def call(name: str, days: float, uuid: str) -> str:
        return record(
            "assistant", [{"type": "tool_use", "id": f"t-{uuid}", "name": "Skill", "input": {"skill": name}}], days, uuid
        )

    def result(uuid: str, text: str, error: bool, days: float) -> str:
        block = {"type": "tool_result", "tool_use_id": f"t-{uuid}", "content": text, "is_error": error}
        return record("user", [block], days, uuid + "-result")

    lines = [
        record("user", "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>", 9, "u1"),
        record("user", "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>", 2, "u2"),
        call("release-notes", 1, "a1"),
        result("a1", "Launching skill: release-notes", False, 1),
        call("research", 1, "a2"),
        result("a2", "<tool_use_error>Skill execution blocked by permission rules</tool_use_error>", True, 1),
    ]
    folder = user / "projects" / str(project).replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "demo-session.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
