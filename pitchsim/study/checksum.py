"""A fast checksum of bytes, for checking a run's parts on their first read.

SHA-256 hashes ~1-2 GB/s on one core, slower than an aggregation reads parts, so
checking every part of a run copied in from elsewhere doubled the cost of its first
``table``.  This checksum runs at memory speed (~15-35 GB/s; ``scripts/
bench_pipeline.py checksum`` measures it), and a run's manifest records one per column
chunk of a part (parts.py) next to the part's SHA-256, so that a read checks just the
bytes it reads.  It guards against accidents (bit rot, a bad copy, a truncated or
swapped file), not against someone forging a part: that is what the SHA-256 is kept
for (``--full-check``, ``--resume``).

A ``key`` (parts.py: the part's players and deals) sets where the lanes start, so the
same bytes under another key have another checksum: a part's file in another part's
place does not pass.

The bytes are read as little-endian 64-bit words in stripes of ``LANES`` (64) words,
the last word and the last stripe padded with zero bytes.  Word ``j`` of every stripe
goes to lane ``j``, which keeps two 64-bit sums, starting from ``mix64(key + (j + 1) *
GOLDEN)`` and ``mix64(key ^ KEYS[j])``::

    raw[j]  = rotl(raw[j], 17) + w                  (mod 2**64)
    prod[j] = prod[j] + lo32(w ^ KEYS[j]) * hi32(w ^ KEYS[j])

and after every ``SCRAMBLE_STRIPES`` stripes ``prod[j] = xorshift47(prod[j]) * ODD``.
The 64 lanes run side by side in vector registers.  At the end the ``raw`` lanes, then
the ``prod`` lanes, are folded each into a 64-bit word, ``h = mix64(h + lane)``
starting from ``bytes + GOLDEN`` and ``bytes + 2 * GOLDEN``; the checksum is those two
words, 32 hex digits.

What it is sure to catch: any change confined to one 8-byte word (so any one flipped
bit or byte), and the same bytes under another key.  A one-word change alters ``w`` in
one stripe of one lane; every step of ``raw`` is a bijection of ``raw`` for fixed data
and of ``w`` for fixed ``raw``, so that lane's final ``raw`` differs, and the fold is a
bijection of each lane on its own, so the first word differs (another key: every
lane's ``raw`` starts, so ends, elsewhere).  Other damage (bursts, zeroed pages, many
flips) changes the product lanes too, which mix the data non-linearly; it goes unseen
only if both words collide, which no test has made happen (the tests plant thousands
of such damages); unlike SHA-256 there is no proof.

:func:`checksum_reference` is the same function in plain Python, the specification the
numba kernel is tested against.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LANES = 64  # words in a stripe (512 bytes): eight AVX-512 registers, sixteen AVX2 ones
SCRAMBLE_STRIPES = 16  # stripes between two scrambles of the product lanes (8 KB)
STRIPE_BYTES = 8 * LANES
ROTATE = 17  # odd: a difference in a raw lane visits every bit position
SCRAMBLE_SHIFT = 47
SCRAMBLE_ODD = 0x9E3779B185EBCA87
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64's finaliser


def _mix64_py(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit words that spreads every bit."""
    z = ((z ^ (z >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return z ^ (z >> 31)


def _lane_keys() -> list[int]:
    """One key per lane, both 32-bit halves odd and distinct (so that neither half of
    ``w ^ key`` is zero for the common all-zero word, and a product never vanishes for
    it), from a SplitMix64 stream.  Fixed for ever: recorded checksums depend on them."""
    keys, x = [], 0x7069746368737531  # "pitchsu1"
    while len(keys) < LANES:
        x = (x + GOLDEN) & MASK
        k = _mix64_py(x) | 0x0000000100000001
        if k >> 32 != k & 0xFFFFFFFF:
            keys.append(k)
    return keys


KEYS_LIST = _lane_keys()
KEYS = np.array(KEYS_LIST, dtype=np.uint64)

_ROT = np.uint64(ROTATE)
_ROT_BACK = np.uint64(64 - ROTATE)
_LOW = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_SHIFT = np.uint64(SCRAMBLE_SHIFT)
_ODD = np.uint64(SCRAMBLE_ODD)
_U30, _U27, _U31 = np.uint64(30), np.uint64(27), np.uint64(31)
_UM1, _UM2 = np.uint64(_M1), np.uint64(_M2)
_GOLDEN = np.uint64(GOLDEN)


@njit(cache=True, nogil=True)
def _stripes(words, first_stripe, keys, raw, prod):
    """Run the lanes over ``words`` (whole stripes), the first being stripe number
    ``first_stripe`` of the file (it sets where the scrambles fall)."""
    for s in range(words.size // LANES):
        base = s * LANES
        for j in range(LANES):  # no dependence between lanes: vectorised
            w = words[base + j]
            x = w ^ keys[j]
            a = raw[j]
            raw[j] = ((a << _ROT) | (a >> _ROT_BACK)) + w
            prod[j] += (x & _LOW) * (x >> _S32)
        if (first_stripe + s) % SCRAMBLE_STRIPES == SCRAMBLE_STRIPES - 1:
            for j in range(LANES):
                p = prod[j]
                prod[j] = (p ^ (p >> _SHIFT)) * _ODD


@njit(cache=True, nogil=True)
def _mix64(z):
    z = (z ^ (z >> _U30)) * _UM1
    z = (z ^ (z >> _U27)) * _UM2
    return z ^ (z >> _U31)


@njit(cache=True, nogil=True)
def _start(key, keys, raw, prod):
    for j in range(LANES):
        raw[j] = _mix64(key + np.uint64(j + 1) * _GOLDEN)
        prod[j] = _mix64(key ^ keys[j])


@njit(cache=True, nogil=True)
def _fold(lanes, start):
    h = start
    for j in range(LANES):
        h = _mix64(h + lanes[j])
    return h


def checksum(data, key: int = 0) -> str:
    """The checksum of ``data`` (bytes, bytearray, memoryview, mmap or a numpy array's
    bytes) under ``key`` (0 to 2**64-1), as 32 hex digits.  Releases the GIL while it
    runs.

    >>> checksum(b"pitch")
    '3bd23b068f70303877a995929e9829b8'
    """
    view = memoryview(data).cast("B")
    n = len(view)
    whole = n - n % STRIPE_BYTES
    raw = np.empty(LANES, dtype=np.uint64)
    prod = np.empty(LANES, dtype=np.uint64)
    _start(np.uint64(key), KEYS, raw, prod)
    if whole:
        # A uint64 view of the bytes as they lie (unaligned loads where need be): no copy.
        words = np.frombuffer(view, dtype=np.uint64, count=whole // 8)
        _stripes(words, 0, KEYS, raw, prod)
    if whole < n:
        tail = np.zeros(STRIPE_BYTES, dtype=np.uint8)
        tail[: n - whole] = np.frombuffer(view, dtype=np.uint8, offset=whole)
        _stripes(tail.view(np.uint64), whole // STRIPE_BYTES, KEYS, raw, prod)
    first = _fold(raw, np.uint64((n + GOLDEN) & MASK))
    second = _fold(prod, np.uint64((n + 2 * GOLDEN) & MASK))
    return f"{int(first):016x}{int(second):016x}"


def checksum_reference(data: bytes, key: int = 0) -> str:
    """:func:`checksum` in plain Python, step by step as the module docstring says."""
    data = bytes(data)
    n = len(data)
    padded = data + bytes(-n % STRIPE_BYTES)
    raw = [_mix64_py((key + (j + 1) * GOLDEN) & MASK) for j in range(LANES)]
    prod = [_mix64_py(key ^ KEYS_LIST[j]) for j in range(LANES)]
    for s in range(len(padded) // STRIPE_BYTES):
        stripe = padded[s * STRIPE_BYTES : (s + 1) * STRIPE_BYTES]
        for j in range(LANES):
            w = int.from_bytes(stripe[8 * j : 8 * j + 8], "little")
            x = w ^ KEYS_LIST[j]
            a = raw[j]
            raw[j] = (((a << ROTATE) | (a >> (64 - ROTATE))) + w) & MASK
            prod[j] = (prod[j] + (x & 0xFFFFFFFF) * (x >> 32)) & MASK
        if s % SCRAMBLE_STRIPES == SCRAMBLE_STRIPES - 1:
            prod = [((p ^ (p >> SCRAMBLE_SHIFT)) * SCRAMBLE_ODD) & MASK for p in prod]
    out = []
    for lanes, k in ((raw, 1), (prod, 2)):
        h = (n + k * GOLDEN) & MASK
        for lane in lanes:
            h = _mix64_py((h + lane) & MASK)
        out.append(h)
    return "".join(f"{h:016x}" for h in out)
