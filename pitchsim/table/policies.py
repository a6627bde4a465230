"""Play policies by name: what each does, and a Python handle on its kernel.

The ids live in :mod:`pitchsim.kernels.policies`, the kernels in
:mod:`pitchsim.kernels` (the presets' ``choose_card`` and ``search_card``);
this module is the table the CLI and the library look names up in, and the bridge that
lets the plain-Python reference engine ask the preset kernels for a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..game.reference import View
from ..kernels.policies import (
    KIND_MASK,
    PIMC,
    PLAIN_DTYPE,
    PLAY_POLICY_IDS,
    ROLLOUT,
    ROLLOUT_DTYPE,
    SEARCH_DTYPE,
    WORLDS_SHIFT,
)
from ..kernels.policies.cards import choose_card
from ..kernels.presets import rules_array, rules_table
from ..kernels.rng import DECISION_COUNTER, deal_key
from ..kernels.search.rollout import READ_SHIFT, WORLDS_MASK, search_card
from ..util.errors import InputError, quoted


class PolicyError(InputError):
    """An unknown policy name."""


@dataclass(frozen=True)
class PlayPolicy:
    name: str
    id: int
    description: str
    worlds: int = 0  # search policies: worlds sampled per decision (``rollout:W``)


# Search policies: worlds per decision when the name does not say (``rollout:32``), and
# the most a name may ask for.
DEFAULT_WORLDS = {"rollout": 32, "pimc": 16, "epimc": 16}
MAX_WORLDS = 4096

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
    "rollout": PlayPolicy(
        "rollout",
        PLAY_POLICY_IDS["rollout"],
        "search: each legal card played out by heuristic in W sampled worlds (rollout:W, "
        f"default {DEFAULT_WORLDS['rollout']}); the side's chance of its bid first, then points",
        DEFAULT_WORLDS["rollout"],
    ),
    "pimc": PlayPolicy(
        "pimc",
        PLAY_POLICY_IDS["pimc"],
        "search: each legal card solved double-dummy in W sampled worlds (pimc:W, default "
        f"{DEFAULT_WORLDS['pimc']}); the side's chance of its bid first, then points",
        DEFAULT_WORLDS["pimc"],
    ),
    "epimc": PlayPolicy(
        "epimc",
        PLAY_POLICY_IDS["epimc"],
        "search: pimc with the seat's next card one for all the worlds it cannot tell apart "
        f"then, solved double-dummy below it (EPIMC; epimc:W, default {DEFAULT_WORLDS['epimc']})",
        DEFAULT_WORLDS["epimc"],
    ),
}
assert set(PLAY_POLICIES) == set(PLAY_POLICY_IDS)


def by_name(table: dict, name: str, what: str, error: type[Exception]):
    """``table``'s entry for ``name`` (any case, spaces around ignored), or ``error``
    naming the known ones."""
    try:
        return table[name.strip().lower()]
    except KeyError:
        raise error(f"unknown {what} {quoted(name)} (known: {', '.join(table)})") from None


def play_policy(name: str) -> PlayPolicy:
    """The policy ``name``; a search policy may say its worlds, ``rollout:64``, and that
    its worlds read the play, ``rollout:read`` or ``rollout:64:read`` (each other seat
    taken to play the heuristic's card: ``kernels.search.play_fit``)."""
    base, *parts = name.strip().lower().split(":")
    policy = by_name(PLAY_POLICIES, base, "policy", PolicyError)
    if not parts:
        return _with_worlds(policy, policy.worlds)
    if not policy.worlds:
        raise PolicyError(f"policy {policy.name!r} samples no worlds: write it without ':'")
    reads = parts[-1] == READS
    if reads:
        parts.pop()
    if len(parts) > 1 or parts == [""]:
        raise PolicyError(
            f"cannot read {quoted(name)}: write e.g. {base}:32, {base}:{READS} or {base}:32:{READS}"
        )
    if not parts:
        return _with_worlds(policy, policy.worlds, reads)
    try:
        w = int(parts[0])
    except ValueError:
        raise PolicyError(
            f"cannot read the worlds in {quoted(name)}: write e.g. {base}:32 or {base}:32:{READS}"
        ) from None
    if not 1 <= w <= MAX_WORLDS:
        raise PolicyError(f"worlds in {quoted(name)} must be 1-{MAX_WORLDS}, not {w}")
    return _with_worlds(policy, w, reads)


READS = "read"  # a search policy's worlds read the play (``rollout:read``)


def with_worlds(name: str, worlds: int) -> str:
    """The search policy ``name`` sampling ``worlds`` worlds, reading the play if it did."""
    p = play_policy(name)
    word = p.id >> WORLDS_SHIFT
    base = next(q for q in PLAY_POLICIES.values() if q.id == p.id & KIND_MASK)
    return _with_worlds(base, worlds, bool(word >> READ_SHIFT & 1)).name


def _with_worlds(policy: PlayPolicy, worlds: int, reads: bool = False) -> PlayPolicy:
    if not policy.worlds:
        return policy
    name = policy.name if worlds == DEFAULT_WORLDS[policy.name] else f"{policy.name}:{worlds}"
    if reads:
        name += f":{READS}"
    word = worlds | int(reads) << READ_SHIFT
    return PlayPolicy(name, policy.id | word << WORLDS_SHIFT, policy.description, worlds)


def policy_name(policy_id: int) -> str:
    """The name of a policy id (``play_policy(name).id``), worlds included."""
    base = next(p for p in PLAY_POLICIES.values() if p.id == policy_id & KIND_MASK)
    word = policy_id >> WORLDS_SHIFT
    return _with_worlds(base, word & WORLDS_MASK, bool(word >> READ_SHIFT & 1)).name


def seat_policies(spec: str | Sequence[str], players: int) -> np.ndarray:
    """Policy ids per seat from ``"heuristic"`` (every seat) or ``"heuristic,random,..."``."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(
            f"give one policy for every seat or one per seat ({players}), not {len(names)}"
        )
    return play_array([play_policy(n).id for n in names])


def play_array(ids: Sequence[int]) -> np.ndarray:
    """Play-policy ids as the kernels take them: int32 when any is a search policy, so
    that only those play loops compile the search in (``kernels.policies``), else int64."""
    ids = np.asarray(ids, dtype=np.int64)
    searching = bool(np.any(ids & KIND_MASK >= ROLLOUT))
    return ids.astype(SEARCH_DTYPE if searching else PLAIN_DTYPE)


def searches(policies: np.ndarray) -> bool:
    """Whether a play-policy array from ``play_array`` names a search policy."""
    return policies.dtype in (SEARCH_DTYPE, ROLLOUT_DTYPE)


def seen_arrays(seen, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The play seen (``(cards, seats)`` per trick, in order) as the kernels take it
    (``kernels.search.play_fit``): each trick's cards, their seats, and how many."""
    cards = np.zeros((max(len(seen), 1), n), dtype=np.int64)
    seats = np.zeros((max(len(seen), 1), n), dtype=np.int64)
    sizes = np.zeros(max(len(seen), 1), dtype=np.int64)
    for t, (c, s) in enumerate(seen):
        sizes[t] = len(c)
        cards[t, : len(c)] = c
        seats[t, : len(s)] = s
    return cards, seats, sizes


def kernel_chooser(
    policies: np.ndarray, seed: int, deal: int, tables: tuple | None = None
) -> Callable[[View], int]:
    """A ``choose(view)`` for the reference engine that asks the seat's policy of the
    preset kernels (``pitchsim.kernels``: ``policies.choose_card``, a search policy's
    ``rollout.search_card``) under the view's rules.

    It draws from the same random stream position as the preset kernels' play loop
    (``play``) does for that decision (seed, deal, trick and the seat's place
    from the leader), so both engines see identical choices.  A search reads the seat's
    knowledge from the view: the hand sizes from the cards each seat played, nothing
    put down or drawn (the reference hands carry no stock, nor what a draw showed).
    ``tables``: the preset's ``(rules_array, rules_table)`` when not the view's rules'
    own (e.g. ``presets.rest_of_game``'s).
    """
    key = np.uint64(deal_key(seed, deal))
    won = np.zeros(8, dtype=np.int64)
    trick = np.zeros(8, dtype=np.int64)
    tseats = np.zeros(8, dtype=np.int64)
    pby = np.zeros(8, dtype=np.int64)
    counts = np.zeros(9, dtype=np.int64)
    nothing = np.zeros(8, dtype=np.int64)  # no discard seen drawn back (no draw here)
    built: dict = {}  # the view's rules -> their arrays, built once a game, not a card

    def choose(view: View) -> int:
        if tables is None:
            if view.rules not in built:
                rules = view.rules
                built[view.rules] = rules_array(rules), rules_table(rules)
            fr, tab = built[view.rules]
        else:
            fr, tab = tables
        n, count = view.players, len(view.trick)
        won[:n] = view.won
        pby[:n] = view.played_by
        trick[:count] = view.trick
        for i, c in enumerate(view.trick):  # the seat that played it (follow=only: not
            tseats[i] = next(s for s in range(n) if view.played_by[s] >> c & 1)  # every one)
        counter = DECISION_COUNTER + view.trick_no * n + (view.seat - view.leader) % n
        policy = int(policies[view.seat])
        kind = policy & KIND_MASK
        args = (view.legal, view.hand, view.seat, n, view.pitcher, view.bid, view.trump)
        args = tuple(np.int64(a) for a in args) + (view.trick_no, trick, tseats, count)
        if kind >= ROLLOUT and view.legal & (view.legal - 1):
            held = view.hand.bit_count() + view.played_by[view.seat].bit_count()
            counts[:n] = [held - p.bit_count() for p in view.played_by]
            counts[n] = 0
            card = search_card(
                kind, None if kind < PIMC else True, *args, np.int64(view.played), won[:n],
                pby[:n], np.int64(view.voids), counts[: n + 1], np.int64(0), nothing[:n], fr,
                tab, key, counter, policy >> WORLDS_SHIFT, view.called,
                -1 if view.partner is None else view.partner, *seen_arrays(view.seen, n),
            )  # fmt: skip
        else:
            card = choose_card(
                kind, *args, np.int64(view.played), won, fr, tab, key, counter
            )  # fmt: skip
        return int(card)

    return choose
