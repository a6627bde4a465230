"""One way to refuse an option given twice with different values (docs/limits.md).

Every command whose option can be stated in two places -- a flag and ``--rules``
(``--target 15`` with ``--rules target=11``), two flags (``--model odds+rollout`` with
``--play heuristic``), a position's rules and ``--rules`` -- settles it here: the same
value twice is fine; two different values are one line naming both sides.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InputError, quoted


def settle(sides: Iterable[tuple[str, object]]):
    """The one value of an option given in several places: ``sides`` are (how it was
    given, value), value None where it was not.  None if given nowhere."""
    given = [(how, value) for how, value in sides if value is not None]
    for how, value in given[1:]:
        if value != given[0][1]:
            raise InputError(f"{given[0][0]} and {how} disagree: give one")
    return given[0][1] if given else None


def shown(value: object) -> str:
    """A value as a side's label shows it: ``true``, ``11``, ``'odds+rollout'``."""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value) if isinstance(value, int) else quoted(value)
