"""Running kernels: thread counts and the chunks long runs are cut into."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from .errors import InputError, quoted

CHUNK = 1 << 18  # deals per kernel call: progress and Ctrl-C land between chunks
PART_SIZE = 1 << 20  # deals per part of a run: ~15 MB on disk, ~43 MB of columns in memory


# numba is imported inside the functions that use it: pick_seed and PART_SIZE serve the
# CLI's option checks and help, which must not wait for numba to load.


def user_cache(name: str) -> Path:
    """pitchsim's folder ``name`` in the user's cache (``$XDG_CACHE_HOME``, else
    ``~/.cache``): the compiled kernels, the parts checked, the odds rows made."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pitchsim" / name


def max_threads() -> int:
    import numba

    return numba.config.NUMBA_NUM_THREADS


def check_threads(threads: int | None) -> None:
    if threads is not None and not 1 <= threads <= max_threads():
        raise InputError(f"threads must be 1-{max_threads()}, not {threads}")


@contextlib.contextmanager
def use_threads(threads: int | None):
    """Run the enclosed kernels on ``threads`` threads (None: all cores), each thread
    taking the kernels' blocks of deals one at a time.

    Numba otherwise splits a loop into equal shares up front; when other work (a run's
    Parquet writer, another program) takes a core from one thread, the others then sit
    idle at the end of every call.  Every parallel kernel loops over blocks of thousands
    of deals, so handing them out one by one costs nothing measurable."""
    import numba

    check_threads(threads)
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    old_chunk = numba.set_parallel_chunksize(1)  # thread-local, like the thread count
    try:
        yield
    finally:
        numba.set_parallel_chunksize(old_chunk)
        numba.set_num_threads(old)


def chunked(count: int, size: int = CHUNK):
    """(start, stop) pairs covering range(count)."""
    for start in range(0, count, size):
        yield start, min(count, start + size)


SEED_LIMIT = 1 << 62  # docs/limits.md: stream seeds seed * 8 + players stay inside int64


def check_seed(seed: object, limit: int = SEED_LIMIT) -> int:
    """``seed`` if it is a whole number 0 to ``limit`` - 1 (docs/limits.md), else an
    :class:`InputError`: the one check of every seed, typed or read from a file."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < limit:
        raise InputError(f"seed must be 0-{limit - 1} (docs/limits.md), not {quoted(seed)}")
    return seed


def pick_seed(seed: int | None, limit: int = SEED_LIMIT) -> int:
    """``seed``, checked, or a fresh random one when None (callers report it, so that
    any run can be repeated exactly)."""
    return check_seed(secrets.randbelow(2**31) if seed is None else seed, limit)
