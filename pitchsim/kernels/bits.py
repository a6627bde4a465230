"""Bit-mask helpers for the kernels: popcount and bit scans as single LLVM instructions.

A hand is an int64 with bit ``card`` set per card held (card = suit * 13 + rank).
"""

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# pdep picks the k-th set bit in one instruction; numba compiles (and caches) for the
# host CPU, so it is used only where the host has it.
_HAS_PDEP = llvm.get_host_cpu_features().get("bmi2", False) and llvm.get_host_cpu_name() not in (
    "znver1",
    "znver2",  # microcoded pdep: slower than the fallback
)

N_RANKS = 13
SUIT_BITS = np.int64((1 << N_RANKS) - 1)
JACK = 9


@intrinsic
def popcount(typingctx, x):
    """Number of set bits."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@njit(cache=True, inline="always")
def lowest_card(mask):
    """Lowest card number in a non-empty mask."""
    return _cttz(mask)


@njit(cache=True, inline="always")
def highest_card(mask):
    """Highest card number in a non-empty mask."""
    return 63 - _ctlz(mask)


def _bmi2(instruction):
    """An intrinsic for one BMI2 instruction (``pdep``, ``pext``) on two int64s."""

    def op(typingctx, src, mask):
        sig = types.int64(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i64, [i64, i64]), f"llvm.x86.bmi.{instruction}.64"
            )
            return builder.call(fn, args)

        return sig, codegen

    op.__name__ = op.__qualname__ = f"_{instruction}"
    return intrinsic(op)


_pdep = _bmi2("pdep")  # scatter the low bits of src to the set bits of mask
_pext = _bmi2("pext")  # gather the bits of src at the set bits of mask


@njit(cache=True, inline="always")
def gather_loop(src, mask):
    """``gather`` without BMI2: one set bit of ``mask`` at a time."""
    out = np.int64(0)
    k = 0
    while mask:
        low = mask & -mask
        if src & low:
            out |= np.int64(1) << k
        k += 1
        mask &= mask - 1
    return out


if _HAS_PDEP:

    @njit(cache=True, inline="always")
    def gather(src, mask):
        """The bits of ``src`` at the set bits of ``mask``, packed to the low end in order."""
        return _pext(src, mask)

else:
    gather = gather_loop


@njit(cache=True, inline="always")
def scatter_loop(src, mask):
    """``scatter`` without BMI2: one set bit of ``mask`` at a time."""
    out = np.int64(0)
    k = 0
    while mask:
        low = mask & -mask
        if src >> k & 1:
            out |= low
        k += 1
        mask &= mask - 1
    return out


if _HAS_PDEP:

    @njit(cache=True, inline="always")
    def scatter(src, mask):
        """``gather``'s inverse: the low bits of ``src``, in order, at the set bits of
        ``mask``."""
        return _pdep(src, mask)

else:
    scatter = scatter_loop


if _HAS_PDEP:

    @njit(cache=True, inline="always")
    def nth_card(mask, k):
        """The k-th lowest card (k = 0 .. popcount - 1) of a mask."""
        return _cttz(_pdep(np.int64(1) << k, mask))

    @njit(cache=True, inline="always")
    def nth_bit(mask, k):
        """The k-th lowest set bit (k = 0 .. popcount - 1) of a mask, as a one-bit mask."""
        return _pdep(np.int64(1) << k, mask)

else:

    @njit(cache=True, inline="always")
    def nth_bit(mask, k):
        """The k-th lowest set bit (k = 0 .. popcount - 1) of a mask, as a one-bit mask."""
        for _ in range(k):
            mask &= mask - 1
        return mask & -mask

    @njit(cache=True, inline="always")
    def nth_card(mask, k):
        """The k-th lowest card (k = 0 .. popcount - 1) of a mask."""
        for _ in range(k):
            mask &= mask - 1
        return _cttz(mask)


@njit(cache=True, inline="always")
def suit_mask(suit):
    return SUIT_BITS << (suit * N_RANKS)


@njit(cache=True, inline="always")
def bit(card):
    return np.int64(1) << card


# Rank masks across all four suits, for counting game points by popcount.
_TENS = np.int64(sum(1 << (s * 13 + 8) for s in range(4)))
_JACKS = np.int64(sum(1 << (s * 13 + 9) for s in range(4)))
_QUEENS = np.int64(sum(1 << (s * 13 + 10) for s in range(4)))
_KINGS = np.int64(sum(1 << (s * 13 + 11) for s in range(4)))
_ACES = np.int64(sum(1 << (s * 13 + 12) for s in range(4)))
HONOURS = _TENS | _JACKS | _QUEENS | _KINGS | _ACES


@njit(cache=True, inline="always")
def game_count(mask):
    """Game points in a mask: ten 10, ace 4, king 3, queen 2, jack 1."""
    return (
        10 * popcount(mask & _TENS)
        + popcount(mask & _JACKS)
        + 2 * popcount(mask & _QUEENS)
        + 3 * popcount(mask & _KINGS)
        + 4 * popcount(mask & _ACES)
    )


JOKER_BITS = np.int64((1 << 52) | (1 << 53))


@njit(cache=True, inline="always")
def game_tally(mask, half):
    """The Game count of ``mask`` as the rules compare it: ``game_count``, or under
    joker-game=half (VARIANTS.md 12.10) on the doubled scale, twice it plus one for each
    joker (a joker's half)."""
    if half:
        return 2 * game_count(mask) + popcount(mask & JOKER_BITS)
    return game_count(mask)


@njit(cache=True, inline="always")
def card_game_points(card):
    return game_count(np.int64(1) << card)
