"""The sandbox a contained run happens in, set up from inside a fresh user, network and mount
namespace (`unshare -n -r -m`): loopback up and nothing else, a tmpfs for scratch, and every
folder Claude Code could write to (the home, its config folder, the project) behind an overlay
whose upper layer is in that tmpfs, so every write it makes is thrown away with the namespace.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
from pathlib import Path

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
SCRATCH_BYTES = 512 * 1024 * 1024


class SandboxError(Exception):
    pass


def loopback_up() -> None:
    """Bring `lo` up (a new network namespace has it down), without needing the `ip` command."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        # struct ifreq: the name, then a union (the flags first) padded to 40 bytes.
        flags = struct.unpack_from("16sH", fcntl.ioctl(sock, SIOCGIFFLAGS, struct.pack("16sH22x", b"lo", 0)))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))


def _mount(source: str, target: str, kind: str, options: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(source.encode(), target.encode(), kind.encode(), 0, options.encode()) != 0:
        error = ctypes.get_errno()
        raise SandboxError(f"mount {kind} on {target}: {os.strerror(error)}")


def covering(paths: list[Path]) -> list[Path]:
    """The folders to put behind overlays: each existing one once, a folder inside another on the
    same file system left to that one's overlay (an overlay does not show other mounts below it,
    so a folder on another file system keeps its own)."""
    out: list[Path] = []
    for path in sorted({p.resolve() for p in paths if p.is_dir()}, key=lambda p: len(p.parts)):
        outer = next((o for o in out if path.is_relative_to(o)), None)
        if outer is None or os.stat(outer).st_dev != os.stat(path).st_dev:
            out.append(path)
    return out


def contain(scratch: Path, folders: list[Path]) -> list[Path]:
    """Set the sandbox up (the caller is the namespace's root); the folders overlaid, in order."""
    loopback_up()
    # Sized: whatever the run writes (its output, its debug log, every overlaid write) is held in
    # memory, and a runaway run meets a full disk instead of filling the memory.
    _mount("tmpfs", str(scratch), "tmpfs", f"mode=0700,size={SCRATCH_BYTES}")
    chosen = covering(folders)
    for number in range(len(chosen)):
        (scratch / "layers" / str(number) / "upper").mkdir(parents=True)
        (scratch / "layers" / str(number) / "work").mkdir(parents=True)
    # Everything is reached through descriptors opened before the first overlay: a folder under an
    # overlaid one on its own file system once the outer overlay hides the mounts below it, and the
    # layers in the tmpfs itself, since once /tmp (say) is overlaid the scratch path leads into that
    # overlay, which cannot hold another's upper layer.
    layers = os.open(scratch / "layers", os.O_PATH | os.O_DIRECTORY)
    handles = [os.open(p, os.O_PATH | os.O_DIRECTORY) for p in chosen]
    try:
        for number, (path, handle) in enumerate(zip(chosen, handles, strict=True)):
            layer = f"/proc/self/fd/{layers}/{number}"
            options = f"lowerdir=/proc/self/fd/{handle},upperdir={layer}/upper,workdir={layer}/work"
            _mount("overlay", str(path), "overlay", options)
    finally:
        for handle in (layers, *handles):
            os.close(handle)
    return chosen
