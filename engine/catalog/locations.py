"""Where each tier lives. Nothing else in the engine guesses a path."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

BUNDLED_DIR = Path(__file__).resolve().parents[1] / "bundled"
DEFAULT_MANAGED_DIR = Path("/etc/claude-code")


def _abs(path: Path | str) -> Path:
    return Path(os.path.abspath(os.path.expanduser(str(path))))


@dataclass(frozen=True)
class Locations:
    """The places a Claude Code session started in `project` would read skills from.

    `user_dir` defaults to `$CLAUDE_CONFIG_DIR`, else `~/.claude`; `managed_dir` to
    `$SKILLDECK_MANAGED_DIR`, else `/etc/claude-code` (Claude Code's Linux policy folder).
    """

    project: Path
    user_dir: Path | None = None
    managed_dir: Path | None = None
    add_dirs: tuple[Path, ...] = ()
    plugin_dirs: tuple[Path, ...] = ()
    bundled: bool = True
    # A marketplace folder to preview (`--marketplace`): then its plugins are the only tiers.
    marketplace: Path | None = None
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ), repr=False, compare=False)

    def __post_init__(self) -> None:
        env = self.environ
        user = self.user_dir or env.get("CLAUDE_CONFIG_DIR") or "~/.claude"
        managed = self.managed_dir or env.get("SKILLDECK_MANAGED_DIR") or DEFAULT_MANAGED_DIR
        # Claude Code walks up from the real start folder: a folder reached through a symlink (even
        # with PWD set to the link) is resolved first, and the link's parents are never read
        # (recorded: load_symlink_start). realpath resolves `..` after the links, as the kernel does.
        object.__setattr__(self, "project", Path(os.path.realpath(os.path.expanduser(str(self.project)))))
        object.__setattr__(self, "user_dir", _abs(user))
        object.__setattr__(self, "managed_dir", _abs(managed))
        object.__setattr__(self, "add_dirs", tuple(_abs(p) for p in self.add_dirs))
        object.__setattr__(self, "plugin_dirs", tuple(_abs(p) for p in self.plugin_dirs))
        if self.marketplace is not None:
            object.__setattr__(self, "marketplace", _abs(self.marketplace))

    @property
    def user(self) -> Path:
        assert self.user_dir is not None
        return self.user_dir

    @property
    def managed(self) -> Path:
        assert self.managed_dir is not None
        return self.managed_dir

    def git_root(self) -> Path | None:
        for folder in (self.project, *self.project.parents):
            if (folder / ".git").exists():
                return folder
        return None

    def main_worktree(self) -> Path | None:
        """The main checkout when the start folder is in a linked git worktree (its `.git` is a
        file naming `<main>/.git/worktrees/<name>`), else None."""
        root = self.git_root()
        if root is None:
            return None
        try:
            with open(root / ".git", encoding="utf-8", errors="replace") as f:
                first = f.read(4096).splitlines()[0] if os.path.isfile(root / ".git") else ""
        except (OSError, IndexError, ValueError):
            return None
        if not first.startswith("gitdir:"):
            return None
        gitdir = Path(first[len("gitdir:") :].strip())
        gitdir = gitdir if gitdir.is_absolute() else root / gitdir
        try:
            common = (gitdir / "commondir").read_text(encoding="utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return None
        common_dir = Path(os.path.normpath(gitdir / common)) if common else gitdir
        main = common_dir.parent if common_dir.name == ".git" else None
        return main if main is not None and main != root else None

    def project_roots(self, kind: str) -> list[Path]:
        """The `.claude/<kind>` folders (skills, commands) of the project walk, nearest first.

        In a linked worktree that has no `.claude/<kind>` of its own at its root, Claude Code
        also reads the main checkout's, last.
        """
        out = [d / ".claude" / kind for d in self.project_dirs()]
        main = self.main_worktree()
        root = self.git_root()
        if main is not None and root is not None and not os.path.isdir(root / ".claude" / kind):
            extra = main / ".claude" / kind
            if extra not in out:
                out.append(extra)
        return out

    def home(self) -> Path:
        """The user's home folder ($HOME), where the walk up from the start folder stops."""
        return _abs(self.environ.get("HOME") or os.path.expanduser("~"))

    def project_dirs(self) -> list[Path]:
        """The start folder and each parent whose `.claude/` Claude Code reads, nearest first.

        As Claude Code 2.1.328 walks: up to the repository root inside a git repository, else
        up to the filesystem root; never $HOME itself nor anything above it on the way (the
        home folder's `.claude/` is the user tier).
        """
        root = self.git_root()
        home = self.home()
        out: list[Path] = []
        for folder in (self.project, *self.project.parents):
            if folder == home:
                break
            out.append(folder)
            if folder == root:
                break
        return out

    # Tier roots -------------------------------------------------------------------------
    def managed_skills(self) -> Path:
        return self.managed / ".claude" / "skills"

    def user_skills(self) -> Path:
        return self.user / "skills"

    def user_commands(self) -> Path:
        return self.user / "commands"

    def project_skills(self) -> list[Path]:
        return [d / ".claude" / "skills" for d in self.project_dirs()]

    def project_commands(self) -> list[Path]:
        return [d / ".claude" / "commands" for d in self.project_dirs()]

    def add_dir_skills(self) -> list[Path]:
        return [d / ".claude" / "skills" for d in self.add_dirs]

    def bundled_skills(self) -> Path | None:
        return BUNDLED_DIR if self.bundled else None

    # Settings and plugin records ----------------------------------------------------------
    def settings_files(self) -> list[tuple[str, Path]]:
        """Settings files, highest precedence first (BEHAVIOR.md §6)."""
        managed = [("managed", self.managed / "managed-settings.json")]
        drop_in = self.managed / "managed-settings.d"
        if drop_in.is_dir():
            managed += [("managed", p) for p in sorted(drop_in.glob("*.json"))]
        return [
            *managed,
            ("local", self.project / ".claude" / "settings.local.json"),
            ("project", self.project / ".claude" / "settings.json"),
            ("user", self.user / "settings.json"),
        ]

    def installed_plugins_file(self) -> Path:
        return self.user / "plugins" / "installed_plugins.json"
