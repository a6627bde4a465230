"""One writer per run folder: a lock file held while a process writes the run.

The lock is ``flock`` on ``DIR/.lock``, which records the holder's process id and host.
The kernel drops an ``flock`` when its process dies however it dies (SIGKILL, a
crash), so a lock left behind by a dead process is simply taken over, with a note; a
live holder makes a second ``simulate`` or ``--resume`` stop with one line.  Readers
(``table``, ``chart``) take no lock: every file of a run is replaced atomically, so a
reader sees a consistent manifest and only complete parts.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

from ..util.atomic import WriteError
from ..util.errors import InputError

LOCK = ".lock"


class RunLocked(InputError):
    """Another live process is writing the run."""


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError):
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
        if len(text) >= 2:
            return f"process {text[0]} on {text[1]}"
    return "another process"


@contextlib.contextmanager
def run_lock(folder: Path, note: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold ``folder``'s lock for the enclosed writes (:class:`RunLocked` if a live
    process holds it).  ``note(message)`` hears about a stale lock taken over."""
    path = folder / LOCK
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise WriteError(f"cannot lock {folder} ({path}): {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            raise RunLocked(
                f"{folder} is being written by {holder}: wait for it to finish (or stop it), "
                "then try again"
            ) from None
        # The holder before us may have removed the file between our open and our flock:
        # then we hold a lock on a file nobody else will look at.  Try again.
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        stale = _holder(fd) if os.fstat(fd).st_size else None
        if stale and note is not None:
            note(f"took over the lock on {folder} left by {stale}, which is no longer running")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {socket.gethostname()}\n".encode(), 0)
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # before the unlock, so a waiting opener sees a new file
        os.close(fd)
