"""A preset's shape: the rules the plain play loop would otherwise read card by card,
as one small number the kernels are compiled for.

- ``SIMPLE``: the base game's trumps (``policies.plain_trumps``: one printed suit in
  rank order, the jack the only capture point, Game by count);
- ``ONLY``: follow=only (4.9: a trick is played by the seats holding a trump).

``rules_shape(fr)`` is the shape of a preset's ``tables.family_array``.  A kernel that
takes a shape gets it as a compile-time literal (``call_shaped``): numba compiles it
for that shape alone, the play loop's branches on the shape pruned before they are
typed (``plain.play_shaped``), so a command compiles the loop of the shape it runs and
no other.  ``SHAPE_ANY`` (-1): the shape read from the rules at run time, one loop
for every preset (the kernels that play many presets in one compile: the search's,
the advisor's).
"""

from __future__ import annotations

from numba import typeof, types

from .tables import F_FIVE, F_FOLLOW, F_GAME_TEN, F_JICK, F_JOKERS, F_THREE, FOLLOW_ONLY

SHAPE_ANY = -1
SIMPLE = 1
ONLY = 2


def rules_shape(fr) -> int:
    """The shape of the rules array ``fr`` (``tables.family_array``)."""
    simple = not (fr[F_JICK] or fr[F_JOKERS] or fr[F_THREE] or fr[F_FIVE] or fr[F_GAME_TEN])
    return (SIMPLE if simple else 0) | (ONLY if fr[F_FOLLOW] == FOLLOW_ONLY else 0)


def shape_flags(shape: int) -> tuple[bool, bool]:
    """``(only, simple)`` of a shape (>= 0)."""
    return bool(shape & ONLY), bool(shape & SIMPLE)


def call_shaped(kernel, shape: int, *args):
    """``kernel(shape, *args)`` with ``shape`` typed as a literal: the compile (or cache
    load) of that shape's version, then a call of it.  (A ``numba.literally`` in the
    kernel would do the same from a plain call, but at the cost of a failed compile,
    its untyped passes and inlining, on every call from Python.)"""
    sig = (types.literal(shape), *(typeof(a) for a in args))
    return kernel.compile(sig)(shape, *args)
