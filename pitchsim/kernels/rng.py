"""Counter-based randomness: every draw is a hash of (seed, deal index, counter).

No generator state is carried from deal to deal, so a deal's cards and every random
choice made in it are the same whichever thread, chunk or worker plays it.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

# Counter ranges inside one deal's stream: dealing, then card choices, then bids.
DEAL_COUNTER = 0
DECISION_COUNTER = 1 << 16
AUCTION_COUNTER = 1 << 20


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective, well-avalanched 64-bit hash."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def deal_key(seed, deal):
    """The key of deal number ``deal`` under ``seed`` (both non-negative int64)."""
    return mix64(mix64(np.uint64(seed) ^ _GOLDEN) + np.uint64(deal) * _GOLDEN)


@njit(cache=True, inline="always")
def draw(key, counter):
    """A uniform 64-bit value for position ``counter`` of the stream ``key``."""
    return mix64(np.uint64(key) + np.uint64(counter) * _GOLDEN)


@njit(cache=True, inline="always")
def below(key, counter, k):
    """A uniform int in [0, k) (k < 2**32; bias below k / 2**32).

    ``key`` is already a full-strength hash of (seed, deal), so one multiply and a
    fold of the high half mix in the counter well enough for this (and halve the cost).
    """
    z = (np.uint64(key) ^ (np.uint64(counter) * _GOLDEN)) * _M1
    z ^= z >> _S32
    z *= _M2
    return np.int64(((z >> _S32) * np.uint64(k)) >> _S32)


@intrinsic
def _mul_wide(typingctx, a, b):
    """The 128-bit product of two uint64s as (high, low) halves: one ``mul`` on x86-64."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        i64 = ir.IntType(64)
        p = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        hi = builder.trunc(builder.lshr(p, ir.Constant(i128, 64)), i64)
        lo = builder.trunc(p, i64)
        return context.make_tuple(builder, signature.return_type, (hi, lo))

    return sig, codegen


@njit(cache=True, inline="always")
def split_below(r, k):
    """A uniform int in [0, k) from the uniform 64-bit ``r``, and the rest of ``r``.

    The product ``r * k`` (128 bits) gives the draw in its high half; the low half is
    the unused part of ``r``'s randomness and feeds the next draw (each draw uses up
    about log2(k) bits, so six draws below 52 leave well over 32 bits: bias < 2**-32).
    """
    hi, lo = _mul_wide(r, np.uint64(k))
    return np.int64(hi), lo
