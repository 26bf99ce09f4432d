"""Adding and removing permission rules without ever damaging a settings file.

An edit resolves the file (a symlink is followed to its target, which is edited in place), locks
the target's folder, reads the file through `safeio` (regular files only, under a cap), parses it
with `jsondoc` (numbers keep their text, objects their key order), changes only
`permissions.<behavior>`, writes a temporary file beside the target, fsyncs it, checks the target
did not change since it was read, and renames the temporary file over it: a reader sees the old
file or the new one, never half of one. Everything else keeps its value, its text and its place.

Every refusal is a `SettingsEditError` whose message names the file and says what to do; the file
is then untouched and no temporary or lock file is left behind. An edit killed between its write
and its rename (kill -9) leaves its temporary file: the next edit of the folder removes it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..base.jsondoc import JsonDocError, JsonObject, dumps, loads
from ..base.safeio import NotRegularFile, TooLarge, read_regular
from ..catalog.locations import Locations
from .rules import parse_rule
from .settings import BEHAVIORS

EDITABLE_SCOPES = ("local", "project", "user")

# Settings files are a few kilobytes; a megabyte holds some 20,000 rules. The cap keeps a hostile
# file (or /dev/zero behind a link) from filling the memory of the app, and bounds an edit's work
# (the worst file under it, brackets only, takes about half a second to check and parse).
SETTINGS_CAP = 1024 * 1024
# An editor that truncates then writes leaves the file empty for a few milliseconds; an empty
# file is re-read over this window before it is refused (never taken as `{}`).
EMPTY_WINDOW_S = 0.5
# A file that changes between our read and our rename is read and edited again, this many times.
ATTEMPTS = 5
# How long an edit waits for another skilldeck edit of the same folder to finish.
LOCK_WAIT_S = 10.0

# A temporary file of ours older than this is one whose edit died (kill -9 between its write and
# its rename): no live edit keeps one for more than the time its fsync takes.
STALE_TEMP_S = 60.0
# How many entries of a settings folder are looked at for such files (a folder of settings holds a few).
TEMP_SCAN_CAP = 10_000

R = TypeVar("R")


class SettingsEditError(Exception):
    """The edit was refused; the file is unchanged. The message says why and what to do."""


def scope_path(locations: Locations, scope: str) -> Path:
    paths = {s: p for s, p in locations.settings_files() if s != "managed"}
    if scope not in paths:
        raise SettingsEditError(f"unknown scope {scope!r}; use one of {', '.join(EDITABLE_SCOPES)}")
    return paths[scope]


def scope_folder(locations: Locations, scope: str) -> Path | None:
    """The folder an edit in `scope` must stay inside: the project for its own files (which a
    cloned repository controls), none for the user's."""
    return locations.project if scope in ("local", "project") else None


def add_scoped_rule(locations: Locations, scope: str, rule: str, behavior: str) -> bool:
    """`add_rule` on the settings file of `scope`, kept inside the project for its own files."""
    return add_rule(scope_path(locations, scope), rule, behavior, scope_folder(locations, scope))


@dataclass
class _Snapshot:
    """The file as read: its bytes (None when it does not exist), identity and parsed content."""

    raw: bytes | None
    key: tuple[int, ...] | None
    mode: int
    owner: tuple[int, int] | None
    doc: JsonObject


def _key(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _new_file_mode() -> int:
    """0o666 less the umask, as an editor would create the file. The umask is read from /proc:
    setting it to read it back is not thread-safe, and the app edits from worker threads."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    return 0o644


def _target(path: Path, inside: Path | None = None) -> Path:
    """The file the edit writes: `path`, or the end of its symlink chain. A symlinked settings file
    (dotfiles kept in a repository) stays a symlink: replacing the link by a copy would silently
    fork the user's settings. A dangling link is refused rather than creating a file wherever a
    cloned repository's link points. With `inside` (a project's own settings), a file that really
    lies elsewhere is refused: a cloned repository's `.claude/settings.local.json -> ~/.config/x.json`
    must not turn "allow always" into an edit of another program's file."""
    if inside is not None:
        where = Path(os.path.realpath(path))
        if not where.is_relative_to(os.path.realpath(inside)):
            raise SettingsEditError(
                f"{path} leads to {where}, outside the project {inside} (a symlink in the repository); it was left "
                "untouched. skilldeck edits a project's settings only inside the project: remove the link, or edit by hand."
            )
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    if not stat.S_ISLNK(st.st_mode):
        return path
    target = Path(os.path.realpath(path))
    try:
        if stat.S_ISLNK(os.lstat(target).st_mode):
            raise SettingsEditError(f"{path} is a symlink loop; it was left untouched. Point it at a real file.")
    except FileNotFoundError:
        raise SettingsEditError(
            f"{path} is a symlink to {target}, which does not exist; it was left untouched. "
            "Create the target (it may hold {}) or remove the link, then try again."
        ) from None
    return target


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """Serialise skilldeck's edits of the files in `folder` with flock on the folder itself.

    Why the folder: the rename at the end of an edit puts a new inode at the file's name, so a
    lock on the file would be held on an inode that is no longer the file (a second editor
    waiting on it would go on with stale content), and a `.lock` file beside it is litter left in
    every user's folder. The folder's inode never changes, and locking it creates nothing. The
    wait is bounded; on file systems without flock on folders (NFS) the edit goes on unlocked and
    still relies on the unchanged-file check before the rename."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        deadline = time.monotonic() + LOCK_WAIT_S
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise SettingsEditError(
                        f"another program has been editing the settings in {folder} for {LOCK_WAIT_S:.0f} s; "
                        "nothing was written. Try again when it is done."
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
            except OSError as exc:
                if exc.errno not in (errno.ENOLCK, errno.EBADF, errno.EINVAL, errno.EOPNOTSUPP):
                    raise
                break
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _drop_legacy_lock(path: Path) -> None:
    """Earlier versions left an empty `<name>.lock` beside every settings file they edited. Remove
    it when it is ours: an empty regular file that no process holds locked."""
    lock = path.with_name(path.name + ".lock")
    with contextlib.suppress(OSError):
        st = os.lstat(lock)
        if not stat.S_ISREG(st.st_mode) or st.st_size:
            return
        fd = os.open(lock, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(lock)
        finally:
            os.close(fd)


def _drop_stale_temps(path: Path) -> None:
    """Remove the temporary files that edits of `path` killed mid-write left behind. Only ours:
    named exactly as `_commit` names them (`.<name>.` + mkstemp's 8 characters + `.tmp`), regular
    files (never a link or a folder), owned by this user, and older than STALE_TEMP_S. Called with
    the folder locked, so no other skilldeck edit of this folder is under way."""
    ours = re.compile(re.escape(f".{path.name}.") + r"[a-z0-9_]{8}\.tmp")
    now = time.time()
    with contextlib.suppress(OSError), os.scandir(path.parent) as entries:
        for count, entry in enumerate(entries):
            if count >= TEMP_SCAN_CAP:
                return
            if not ours.fullmatch(entry.name):
                continue
            with contextlib.suppress(OSError):
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and now - st.st_mtime > STALE_TEMP_S:
                    os.unlink(entry.path)


def _parse(path: Path, raw: bytes) -> JsonObject:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SettingsEditError(
            f"{path} is not UTF-8 (byte {exc.start}); it was left untouched. Save it as UTF-8, then try again."
        ) from None
    try:
        doc = loads(text)
    except JsonDocError as exc:
        where = f" (line {exc.line}, column {exc.column})" if exc.line else ""
        raise SettingsEditError(
            f"{path} is not valid JSON{where}: {exc.message}; it was left untouched. "
            "Claude Code cannot read it either: fix it by hand, then try again."
        ) from None
    if not isinstance(doc, JsonObject):
        raise SettingsEditError(f"{path} does not hold a JSON object; it was left untouched. Make it an object ({{...}}).")
    return doc


def _changed(path: Path, key: tuple[int, ...] | None) -> bool:
    try:
        return _key(os.lstat(path)) != key
    except FileNotFoundError:
        return key is not None


def _read(path: Path) -> _Snapshot:
    """Read and parse the file. An empty file, or one that does not parse and changed while it was
    read, is read again over a short window: another program may be between its truncate and its
    write. It is never taken as `{}` (that is how the other keys got wiped)."""
    deadline = time.monotonic() + EMPTY_WINDOW_S
    delay = 0.005
    while True:
        try:
            raw, st = read_regular(path, SETTINGS_CAP)
        except FileNotFoundError:
            return _Snapshot(None, None, _new_file_mode(), None, JsonObject())
        except NotRegularFile as exc:
            raise SettingsEditError(
                f"{path} is a {exc.kind}, not a settings file; nothing was written. Remove it or replace it with a file."
            ) from None
        except TooLarge:
            raise SettingsEditError(
                f"{path} is larger than {SETTINGS_CAP:,} bytes; it was left untouched. Edit it by hand."
            ) from None
        if st.st_nlink > 1:
            # A rename would give this name a new file and leave every other link with the old
            # settings (the copy this module used to make); writing in place is not atomic (a
            # crash or a reader starting at that moment sees half a file). Refusing loses nothing.
            raise SettingsEditError(
                f"{path} has {st.st_nlink} hard links; it was left untouched, because replacing it would cut it off "
                "from the other links and rewriting it in place is not atomic. Add the rule by hand, or make the "
                "other names symlinks to it (skilldeck edits a symlink's target in place)."
            )
        if raw.strip(b" \t\r\n"):
            try:
                return _Snapshot(raw, _key(st), stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid), _parse(path, raw))
            except SettingsEditError:
                if not (_changed(path, _key(st)) and time.monotonic() < deadline):
                    raise
        elif time.monotonic() >= deadline:
            raise SettingsEditError(
                f"{path} is empty; nothing was written. Another program may be writing it: skilldeck does not take an "
                "empty file as {} (that would drop whatever that program writes). If it should be empty, write {} "
                "into it or delete it, then try again."
            )
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _unchanged(path: Path, snap: _Snapshot) -> bool:
    """The file is exactly what was read: same inode, size and times, and the same bytes (times
    are coarse, a quick rewrite of the same size can keep them)."""
    if _changed(path, snap.key):
        return False
    if snap.raw is None:
        return True
    try:
        return read_regular(path, SETTINGS_CAP)[0] == snap.raw
    except OSError:
        return False


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _commit(path: Path, snap: _Snapshot, data: bytes) -> bool:
    """Put `data` at `path` atomically. False (nothing written) when the file changed since `snap`."""
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise SettingsEditError(
            f"cannot create a file in {path.parent} ({exc.strerror}); {path} was left untouched. "
            "skilldeck writes a new file beside it and renames it over: make the folder writable."
        ) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if snap.owner is not None:
                with contextlib.suppress(OSError):  # only root can give a file away; others keep their own
                    os.fchown(fh.fileno(), *snap.owner)
            os.fchmod(fh.fileno(), snap.mode)
            os.fsync(fh.fileno())
        if not _unchanged(path, snap):
            return False
        if snap.raw is None:
            # link() creates the name only if it is still free: a file another program created
            # meanwhile is never replaced. Where hard links are unsupported, rename after a check.
            try:
                os.link(temp, path)
            except FileExistsError:
                return False
            except OSError:
                if os.path.lexists(path):
                    return False
                os.replace(temp, path)
        else:
            os.replace(temp, path)
    except OSError as exc:
        raise SettingsEditError(f"cannot write {path} ({exc.strerror or exc}); it was left untouched.") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    _fsync_folder(path.parent)
    return True


def _edit(
    path: Path, change: Callable[[Path, JsonObject], tuple[R, bool]], create: bool, absent: R, inside: Path | None = None
) -> R:
    """Run `change` on the parsed file under the lock and write the result if it changed anything.
    `absent` is the answer when the file does not exist and `create` is False."""
    try:
        if not create and not os.path.lexists(path):
            return absent
        target = _target(path, inside)
        if create:
            target.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(target) and not os.access(target, os.W_OK, follow_symlinks=False):
            raise SettingsEditError(
                f"{target} is read-only for this user; it was left untouched. Make it writable (chmod u+w) to edit it."
            )
        with _folder_lock(target.parent):
            _drop_legacy_lock(path)
            _drop_stale_temps(target)
            for _ in range(ATTEMPTS):
                snap = _read(target)
                if snap.raw is None and not create:
                    return absent
                result, changed = change(target, snap.doc)
                if not changed or _commit(target, snap, (dumps(snap.doc) + "\n").encode("utf-8")):
                    return result
    except OSError as exc:
        # The last net: whatever the file system says (a folder where a file should be, no
        # permission to the folder, a full disk) becomes a refusal that names the file.
        where = exc.filename or path
        raise SettingsEditError(
            f"cannot edit {path}: {exc.strerror or exc} ({where}); nothing was written. "
            "Check that the file and its folder are a file and a folder you can read and write."
        ) from None
    raise SettingsEditError(
        f"{target} kept changing while skilldeck edited it ({ATTEMPTS} tries); nothing was written. "
        "Close the program that is rewriting it, then try again."
    )


def _checked(rule: str, behavior: str) -> str:
    if behavior not in BEHAVIORS:
        raise SettingsEditError(f"unknown behavior {behavior!r}; use allow, ask or deny")
    parsed = parse_rule(rule)
    if parsed is None:
        raise SettingsEditError(f"{rule!r} is not a rule: write Tool or Tool(specifier), e.g. Skill(deploy)")
    return parsed.text


def _one(path: Path, obj: JsonObject, key: str, where: str) -> object:
    """The value of `key`, refusing a key written twice: Claude Code reads the last one, and
    editing either would leave the user's intent ambiguous."""
    if obj.count(key) > 1:
        raise SettingsEditError(
            f"{path}: `{where}{key}` is written {obj.count(key)} times; it was left untouched. Merge them into one by hand."
        )
    return obj.get(key)


def add_rule(path: Path, rule: str, behavior: str, inside: Path | None = None) -> bool:
    """Add `rule` to `permissions.<behavior>` in `path`; False when it was there. `inside`: see `_target`."""
    return set_rule(path, rule, behavior, inside, replace=False)[0]


def set_rule(path: Path, rule: str, behavior: str, inside: Path | None = None, *, replace: bool = True) -> tuple[bool, list[str]]:
    """`add_rule`; with `replace` the rule leaves the file's other lists in one write (a deny beats an allow): (added, left)."""
    text = _checked(rule, behavior)

    def change(target: Path, doc: JsonObject) -> tuple[tuple[bool, list[str]], bool]:
        permissions = _one(target, doc, "permissions", "")
        if permissions is None:
            doc.set("permissions", permissions := JsonObject())
        if not isinstance(permissions, JsonObject):
            raise SettingsEditError(f"{target}: `permissions` is not an object; it was left untouched")
        rules = _one(target, permissions, behavior, "permissions.")
        if rules is None:
            permissions.set(behavior, rules := [])
        if not isinstance(rules, list):
            raise SettingsEditError(f"{target}: `permissions.{behavior}` is not a list; it was left untouched")
        removed = _take_out(target, permissions, text, [b for b in BEHAVIORS if b != behavior] if replace else [])
        added = text not in rules
        rules.extend([text] * added)
        return (added, removed), added or bool(removed)

    return _edit(path, change, create=True, absent=(False, list[str]()), inside=inside)


def _take_out(target: Path, permissions: object, text: str, lists: Iterable[str]) -> list[str]:
    """Take `text` out of each of `lists` in `permissions` (when it is an object); the lists it was in."""
    removed: list[str] = []
    if not isinstance(permissions, JsonObject):
        return removed
    for name in lists:
        rules = _one(target, permissions, name, "permissions.")
        if isinstance(rules, list) and text in rules:
            permissions.set(name, [r for r in rules if r != text])
            removed.append(name)
    return removed


def remove_rule(path: Path, rule: str, behavior: str | None = None, inside: Path | None = None) -> list[str]:
    """Remove `rule` from every list of `path` (or `behavior`'s); the lists it left. Nothing to remove: no write."""
    text = _checked(rule, behavior or "allow")

    def change(target: Path, doc: JsonObject) -> tuple[list[str], bool]:
        removed = _take_out(target, _one(target, doc, "permissions", ""), text, (behavior,) if behavior else BEHAVIORS)
        return removed, bool(removed)

    return _edit(path, change, create=False, absent=[], inside=inside)
