"""The upper limit of every count a user can ask for, in one place (docs/limits.md).

Each limit is one this machine can honour: memory that fits, a file that fits on a
disk, a time in hours rather than years, and integers that stay inside the 64 bits the
kernels count in.  A count past its limit is refused with one line before any work
starts, never wrapped, truncated or allowed to exhaust memory.
"""

from __future__ import annotations

import numbers

from .errors import InputError

MAX_SAMPLES = 10**8  # bid-odds deals per trump suit: 2 bytes each in memory, ~2 min a suit
MAX_DEALS = 10**9  # simulate deals per player count: ~15 GB of parts, ~20 min a count
MIN_PART_SIZE = 1000  # smaller parts only multiply files and manifest entries
MAX_PART_SIZE = 1 << 24  # ~700 MB of columns in memory while a part is played
MAX_PARTS = 20_000  # parts in one run: the manifest (rewritten after each part) stays small
MAX_GAMES = 10**7  # tournament boards: per-board results stay ~100 MB
MAX_ROUNDS = 10**9  # play --rounds: streamed one hand at a time, so only time limits it
MAX_BOARD = (1 << 53) - 1  # board b's deals are b * 1024 + d, an int64 deal index
MAX_TARGET = 100  # points to win: a game is abandoned after 1,024 deals anyway
MAX_MIN_COUNT = 10**12  # --min-count: more deals than any run can hold


def check_count(option: str, value: int | None, limit: int, low: int = 1) -> None:
    """``value`` (None: not given) must be a whole number from ``low`` to ``limit``."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{option} must be a whole number, not {value!r}")
    if value < low:
        raise InputError(
            f"{option} must be positive, not {value}"
            if low == 1
            else f"{option} must be at least {low:,}, not {value:,}"
        )
    if value > limit:
        raise InputError(f"{option} must be at most {limit:,} (docs/limits.md), not {value:,}")


# JSON read from users (positions and other documents; util/jsonio.py)
MAX_JSON_BYTES = 32 << 20  # a file or stdin over this is refused unread (~60,000 positions)
MAX_JSON_DEPTH = 32  # nesting of lists and objects: a position needs 4
MAX_JSON_DIGITS = 100  # digits of one integer: every count pitchsim reads fits in 20

# advise
MAX_SCORE = 10**6  # |a game score|: a game is abandoned after 1,024 deals, none worth 1,000 points
MAX_ADVISE_SAMPLES = 10**6  # kept deals: their outcomes are held in memory, ~250 bytes a deal
MAX_ADVISE_TIME = 86_400.0  # --time seconds: a day; the samples bound the work in any case


def check_seconds(option: str, value: float | None, limit: float) -> None:
    """``value`` (None: not given) must be a number of seconds above 0 and at most
    ``limit`` (NaN and infinity are refused)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{option} must be a number of seconds, not {value!r}")
    if not 0 < value <= limit:  # NaN fails both comparisons
        raise InputError(
            f"{option} must be above 0 and at most {limit:,.0f} seconds (docs/limits.md), "
            f"not {value}"
        )
