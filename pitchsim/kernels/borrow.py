"""Borrowed views of arrays inside a kernel: no reference counting in the hot loops.

Numba counts references to every array with atomic increments and decrements: at
the entry and every exit of a compiled function that takes arrays, and around every
inlined helper that does (its parameters are new variables).  LLVM's pruning pass
removes the pairs only in simple control flow; in the family play loop, where a
policy call sits on one branch, they stayed: 8 atomics per card played (the
heuristic's 20 more per decision), most of the family kernels' gap to the base
game's (``scripts/bench_families.py --versus-base``).

``borrowed(a)`` is ``a`` with no owner (its meminfo null): numba's increments and
decrements of it are then a null test, which LLVM removes outright where it sees the
null.  Safe only while the owner lives: a kernel's own arguments (the caller holds
them for the call) and scratch kept alive by ``keep_alive`` after its last use.  A
borrowed view must never be returned or stored beyond that.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, arr):
    """``arr`` as a view owned by nobody (see the module)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return arr(arr), codegen


@intrinsic
def keep_alive(typingctx, owner):
    """A use of ``owner`` that does nothing: numba frees an array after its last use,
    so scratch whose borrowed views are used in a loop is kept alive past it."""

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(owner), codegen
