"""Play policies by name: what each does, and a Python handle on its kernel.

The kernels live in :mod:`pitchsim.kernels.policies`; this module is the table the
CLI and the library look names up in, and the bridge that lets the plain-Python
reference engine ask a kernel for a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .kernels.policies import PLAY_POLICY_IDS, choose_card
from .kernels.rng import DECISION_COUNTER, deal_key
from .reference.play import View


class PolicyError(InputError):
    """An unknown policy name."""


@dataclass(frozen=True)
class PlayPolicy:
    name: str
    id: int
    description: str


PLAY_POLICIES = {
    "random": PlayPolicy(
        "random",
        PLAY_POLICY_IDS["random"],
        "a legal card uniformly at random (the opening lead: any card, or any card of a fixed trump)",
    ),
    "heuristic": PlayPolicy(
        "heuristic",
        PLAY_POLICY_IDS["heuristic"],
        "club-player play: pull trumps, capture jack/low, sluff points to partners, protect aces/tens",
    ),
}
assert set(PLAY_POLICIES) == set(PLAY_POLICY_IDS)


def by_name(table: dict, name: str, what: str, error: type[Exception]):
    """``table``'s entry for ``name`` (any case, spaces around ignored), or ``error``
    naming the known ones."""
    try:
        return table[name.strip().lower()]
    except KeyError:
        raise error(f"unknown {what} {name!r} (known: {', '.join(table)})") from None


def play_policy(name: str) -> PlayPolicy:
    return by_name(PLAY_POLICIES, name, "policy", PolicyError)


def seat_policies(spec: str | Sequence[str], players: int) -> np.ndarray:
    """Policy ids per seat from ``"heuristic"`` (every seat) or ``"heuristic,random,..."``."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(
            f"give one policy for every seat or one per seat ({players}), not {len(names)}"
        )
    return np.array([play_policy(n).id for n in names], dtype=np.int64)


def seat_planes(played_by: Sequence[int]) -> tuple[np.int64, np.int64, np.int64]:
    """The kernels' ``who`` (``kernels.policies.view``): the seat number of every card
    played, as three bit planes, from the cards each seat played."""
    planes = [0, 0, 0]
    for seat, cards in enumerate(played_by):
        for k in range(3):
            if seat >> k & 1:
                planes[k] |= cards
    return np.int64(planes[0]), np.int64(planes[1]), np.int64(planes[2])


def kernel_chooser(policies: np.ndarray, seed: int, deal: int) -> Callable[[View], int]:
    """A ``choose(view)`` for the reference engine that asks the seat's policy kernel.

    It draws from the same random stream position as the kernels do for that decision
    (seed, deal, trick and place in the trick), so both engines see identical choices.
    """
    key = np.uint64(deal_key(seed, deal))
    won = np.zeros(8, dtype=np.int64)
    trick = np.zeros(8, dtype=np.int64)

    def choose(view: View) -> int:
        rules = view.rules.to_array()
        won[: view.players] = view.won
        trick[: len(view.trick)] = view.trick
        counter = DECISION_COUNTER + view.trick_no * view.players + len(view.trick)
        return int(
            choose_card(
                policies[view.seat], view.legal, view.hand, view.seat, view.players,
                view.pitcher, view.bid, view.trump, view.trick_no, trick, len(view.trick),
                view.leader, view.played, won, seat_planes(view.played_by), view.voids, rules,
                key, counter,
            )
        )  # fmt: skip

    return choose
