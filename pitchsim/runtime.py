"""Running kernels: thread counts and the chunks long runs are cut into."""

from __future__ import annotations

import contextlib

import numba

from .errors import InputError

CHUNK = 1 << 18  # deals per kernel call: progress and Ctrl-C land between chunks


def max_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


@contextlib.contextmanager
def use_threads(threads: int | None):
    """Run the enclosed kernels on ``threads`` threads (None: all cores)."""
    if threads is None:
        yield
        return
    if not 1 <= threads <= max_threads():
        raise InputError(f"threads must be 1-{max_threads()}, not {threads}")
    old = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def chunked(count: int, size: int = CHUNK):
    """(start, stop) pairs covering range(count)."""
    for start in range(0, count, size):
        yield start, min(count, start + size)
