"""Policy dispatch: a seat's card or call handed to its policy kernel, by policy id.

The one module that imports every play policy (``kernels.policies``: random,
heuristic, and the search policies rollout and pimc with their search) and every
bidding policy of the base kernels (``kernels.bidding``).  The auction
(``kernels.auction``) calls ``choose_card`` and ``choose_bid`` from here, so no policy
module imports a play loop: the imports run one way.  No command reaches this module:
the preset kernels dispatch on their own (``families.policies.choose_card``,
``families.rollout.family_search_card``); tests and scripts reach it, through
``pitchsim.games.base_kernels`` among others.

The ``advisor`` bidding policy is not among them: it bids under the family kernels only
(``kernels.advisor``, plugged into ``families.bidding.seat_call``), and its id in a base
bidding-policy array raises (``games.base_kernels.seat_arrays`` refuses it before that).

Search play is compiled in only for int32 play-policy ids (see ``kernels.policies``),
which keeps the plain kernels small to compile.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from .bidding import ADVISOR, ODDS, ODDS_GAME
from .bidding import HEURISTIC as BID_HEURISTIC
from .bidding.heuristic import heuristic_bid
from .bidding.odds import odds_bid
from .bidding.random import random_bid
from .policies import HEURISTIC, KIND_MASK, ROLLOUT, WORLDS_SHIFT
from .policies.heuristic import heuristic_card
from .policies.random import random_card
from .search.pimc import pimc_card
from .search.rollout import rollout_card


@njit(cache=True, inline="always")
def choose_card(
    policy,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    trick_len,
    leader,
    played,
    won,
    who,
    voids,
    rules,
    key,
    counter,
):
    """Dispatch one seat's decision to its policy kernel."""
    if policy == HEURISTIC:
        return heuristic_card(
            legal,
            hand,
            seat,
            n,
            pitcher,
            bid,
            trump,
            trick_no,
            trick,
            trick_len,
            leader,
            played,
            won,
            who,
            voids,
            rules,
            key,
            counter,
        )
    if policy & KIND_MASK >= ROLLOUT:
        return search_card(
            policy,
            legal,
            hand,
            seat,
            n,
            pitcher,
            bid,
            trump,
            trick_no,
            trick,
            trick_len,
            leader,
            played,
            won,
            who,
            voids,
            rules,
            key,
            counter,
        )
    return random_card(
        legal,
        hand,
        seat,
        n,
        pitcher,
        bid,
        trump,
        trick_no,
        trick,
        trick_len,
        leader,
        played,
        won,
        who,
        voids,
        rules,
        key,
        counter,
    )


def search_card(
    policy,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    trick_len,
    leader,
    played,
    won,
    who,
    voids,
    rules,
    key,
    counter,
):
    """A search policy's card (compiled code only: ``choose_card`` calls it)."""
    raise NotImplementedError("search_card runs inside numba kernels only")


@overload(search_card)
def _search_card(
    policy,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    trick_len,
    leader,
    played,
    won,
    who,
    voids,
    rules,
    key,
    counter,
):
    if not (isinstance(policy, types.Integer) and policy.bitwidth == 32):

        def refuse(
            policy,
            legal,
            hand,
            seat,
            n,
            pitcher,
            bid,
            trump,
            trick_no,
            trick,
            trick_len,
            leader,
            played,
            won,
            who,
            voids,
            rules,
            key,
            counter,
        ):
            if policy >= 0:
                raise ValueError(
                    "a search play policy in a plain (int64) play-policy array: "
                    "make it with pitchsim.games.policies.play_array"
                )
            return np.int64(-1)

        return refuse

    def search(
        policy,
        legal,
        hand,
        seat,
        n,
        pitcher,
        bid,
        trump,
        trick_no,
        trick,
        trick_len,
        leader,
        played,
        won,
        who,
        voids,
        rules,
        key,
        counter,
    ):
        worlds = policy >> WORLDS_SHIFT
        if policy & KIND_MASK == ROLLOUT:
            return rollout_card(
                legal,
                hand,
                seat,
                n,
                pitcher,
                bid,
                trump,
                trick_no,
                trick,
                trick_len,
                leader,
                played,
                won,
                who,
                voids,
                rules,
                key,
                counter,
                worlds,
            )
        return pimc_card(
            legal,
            hand,
            seat,
            n,
            pitcher,
            bid,
            trump,
            trick_no,
            trick,
            trick_len,
            leader,
            played,
            won,
            who,
            voids,
            rules,
            key,
            counter,
            worlds,
        )

    return search


@njit(cache=True, inline="always")
def choose_bid(
    policy,
    hand,
    seat,
    n,
    dealer,
    calls,
    n_calls,
    high,
    high_seat,
    lowest,
    can_pass,
    scores,
    rules,
    odds,
    params,
    key,
    counter,
):
    """Dispatch one seat's call to its bidding policy kernel."""
    if policy == BID_HEURISTIC:
        return heuristic_bid(
            hand,
            seat,
            n,
            dealer,
            calls,
            n_calls,
            high,
            high_seat,
            lowest,
            can_pass,
            scores,
            rules,
            odds,
            params,
            key,
            counter,
        )
    if policy == ODDS or policy == ODDS_GAME:
        return odds_bid(
            hand,
            seat,
            n,
            dealer,
            calls,
            n_calls,
            high,
            high_seat,
            lowest,
            can_pass,
            scores,
            rules,
            odds,
            params,
            policy == ODDS_GAME,
        )
    if policy == ADVISOR:
        raise ValueError("the advisor bids under the family kernels only (pitchsim.games.families)")
    return random_bid(
        hand,
        seat,
        n,
        dealer,
        calls,
        n_calls,
        high,
        high_seat,
        lowest,
        can_pass,
        scores,
        rules,
        odds,
        params,
        key,
        counter,
    )
