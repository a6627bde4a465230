"""Policy dispatch: a seat's card or call handed to its policy kernel, by policy id.

The one module that imports every play policy (``kernels.policies``: random,
heuristic, and the search policies rollout and pimc with their search) and every
bidding policy (``kernels.bidding``) but one.  The play loop (``kernels.play``) and
the auction (``kernels.auction``) call ``choose_card`` and ``choose_bid`` from here,
so no policy module imports a play loop: the imports run one way.

The exception is the ``advisor`` bidding policy, whose engine (``kernels.advice``)
runs auctions and plays hands itself, so it sits above the auction.  Its branch is
declared here (``advisor_call``) and supplied by ``kernels.advisor``, which
registers its implementation when imported (``kernels.shown_hand`` imports it, as does
``pitchsim.games.bidding``, the only maker of arrays that name it).  The branch is
compiled only for int32 bidding-policy ids, so the advisor's own auctions (int64)
never reach it, and numba never meets a recursive kernel.

Search play is compiled in only for int32 play-policy ids in the same way (see
``kernels.policies``); both tricks keep the plain kernels small to compile.
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
        return advisor_call(
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
        )
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


def advisor_call(
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
    """The advisor's call (compiled code only: ``choose_bid`` calls it).  For int32 ids
    ``kernels.advisor`` supplies it; here, the refusal for int64 ids."""
    raise NotImplementedError("advisor_call runs inside numba kernels only")


@overload(advisor_call)
def _advisor_refused(
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
    if isinstance(policy, types.Integer) and policy.bitwidth == 32:
        return None  # kernels.advisor's overload

    def refuse(
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
        if policy >= 0:
            raise ValueError(
                "the advisor in a plain (int64) bidding-policy array: "
                "make it with pitchsim.games.bidding.bidding_array"
            )
        return np.int64(0), np.int64(-1)

    return refuse
