"""Writing files so that a reader never sees half of one.

Every file pitchsim writes (run parts, manifests, charts, CSV/JSON outputs, reports)
goes through :func:`write_file` or :func:`atomic_path`: the bytes go to a temporary
name in the same folder, are flushed and fsynced, and the file is renamed over its
final name; then the folder itself is fsynced so that the rename survives a crash.  A
full disk, a missing permission or a crash leaves the old file (or no file) in place,
never a truncated one, and the error names the file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import InputError


class WriteError(InputError):
    """A file that could not be written (disk full, no permission, ...); the message
    names it and, where there is one, says how to finish."""


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def fsync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` durable (not possible everywhere: then skipped)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems cannot fsync a folder; the rename is still atomic
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _error(path: Path, e: OSError, hint: str) -> WriteError:
    reason = e.strerror or str(e)
    return WriteError(f"cannot write {path}: {reason}" + (f"; {hint}" if hint else ""))


@contextlib.contextmanager
def atomic_path(path: str | Path, hint: str = "") -> Iterator[Path]:
    """A temporary path to write ``path``'s new content to, by any means (a library's
    ``savefig``, ``to_csv``, ...).  On success it is fsynced and renamed into place; on
    any error it is removed and the old ``path`` is left as it was.  An ``OSError`` is
    a :class:`WriteError` naming ``path`` (``hint`` says how to finish)."""
    path = Path(path)
    tmp = _temp_name(path)
    try:
        yield tmp
        _fsync_file(tmp)
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, OSError):
            raise _error(path, e, hint) from None
        raise
    fsync_folder(path.parent)


def check_writable(path: str | Path, option: str) -> None:
    """Refuse, before any work, a ``path`` that :func:`write_file` could not replace: a
    folder, a device or FIFO, a folder that does not exist, or one where no file can be
    made (no permission, a read-only disk: tried with a temporary, then removed)."""
    path = Path(path)
    if path.is_dir():
        raise WriteError(f"{option} {path} is a folder: name a file")
    if path.exists() and not path.is_file():
        raise WriteError(f"{option} {path} is not a regular file")
    folder = path.parent
    if not folder.is_dir():
        raise WriteError(f"{option} {path}: {folder} is not an existing folder")
    probe = _temp_name(path)
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as e:
        raise WriteError(f"{option} {path}: cannot write there: {e.strerror or e}") from None


def write_file(
    path: str | Path,
    data: bytes | bytearray | memoryview | str,
    hint: str = "",
    writer: Callable[[Path, bytes | memoryview], None] | None = None,
) -> Path:
    """Replace ``path`` by ``data`` atomically (text is written as UTF-8).  ``writer``
    (temporary path, bytes) writes the bytes when the plain way will not do (e.g.
    :func:`pitchsim.util.direct_io.write_new_file`)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    with atomic_path(path, hint) as tmp:
        if writer is not None:
            writer(tmp, data)
        else:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
    return Path(path)


def remove_stale_temporaries(folder: Path) -> None:
    """Delete temporaries left in ``folder`` by a writer that died (their names start
    with a dot and end in ``.tmp``)."""
    for tmp in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()
