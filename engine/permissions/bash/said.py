"""What Claude Code 2.1.328 says when it will not run a Bash line on its own, where skilldeck can
say the same: a skill's refused `!` command prints it (recorded: typed_shell_denied,
typed_shell_readonly_outside), and the model was trained on these words.

skilldeck's own reason (Decision.reason) stays the explanation a user reads in `check` and the
app; this is the text Claude Code would show for the same decision, or "" where skilldeck does
not know it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

# What each path command does to the files it names, as Claude Code words a blocked one.
DOES = {
    "cd": "change directories to", "ls": "list files in", "find": "search files in", "mkdir": "create directories in",
    "touch": "create or modify files in", "rm": "remove files from", "rmdir": "remove directories from",
    "mv": "move files to/from", "cp": "copy files to/from", "cat": "concatenate files from",
    "head": "read the beginning of files from", "tail": "read the end of files from", "sort": "sort contents of files from",
    "uniq": "filter duplicate lines from files in", "wc": "count lines/words/bytes in files from",
    "cut": "extract columns from files in", "paste": "merge files from", "column": "format files from",
    "tr": "transform text from files in", "file": "examine file types in", "stat": "read file stats from",
    "diff": "compare files from", "awk": "process text from files in", "gawk": "process text from files in",
    "mawk": "process text from files in", "nawk": "process text from files in", "strings": "extract strings from files in",
    "hexdump": "display hex dump of files from", "od": "display octal dump of files from",
    "base64": "encode/decode files from", "nl": "number lines in files from", "tac": "read files (reversed) from",
    "man": "read manual page files from", "rev": "read files (reversed lines) from", "fold": "wrap lines of files from",
    "expand": "convert tabs in files from", "unexpand": "convert spaces in files from", "fmt": "reformat files from",
    "comm": "compare files from", "cmp": "compare files from", "pr": "paginate files from",
    "numfmt": "reformat numbers in files from", "tsort": "sort files from", "grep": "search for patterns in files from",
    "egrep": "search for patterns in files from", "fgrep": "search for patterns in files from",
    "rg": "search for patterns in files from", "sed": "edit files in", "git": "access files with git from",
    "jq": "process JSON from files in", "sha256sum": "compute SHA-256 checksums for files in",
    "sha1sum": "compute SHA-1 checksums for files in", "md5sum": "compute MD5 checksums for files in",
    "tee": "write to files in",
}  # fmt: skip


def _dirs(dirs: Sequence[Path]) -> str:
    return ", ".join(f"'{d}'" for d in dirs)


def blocked_outside(command: str, path: Path, dirs: Sequence[Path]) -> str:
    """A path command reaching outside the working folders."""
    does = DOES.get(command)
    if does is None:
        return ""
    return (
        f"{command} in '{path}' was blocked. For security, Claude Code may only {does} the allowed working "
        f"directories for this session: {_dirs(dirs)}."
    )


def change_needs_approval(command: str, path: Path, inside: bool, dirs: Sequence[Path]) -> str:
    """A command that creates, changes or removes the files it names, with no rule for it."""
    if inside:
        return (
            f"{command} in '{path}' needs approval. The path is inside the working directories for this session "
            f"({_dirs(dirs)}), and Claude Code asks before a shell command creates, changes or removes files there."
        )
    return (
        f"{command} in '{path}' needs approval. The path is outside the working directories for this session "
        f"({_dirs(dirs)}). Allowing runs the command as written."
    )
