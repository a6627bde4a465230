"""Search play: sample worlds consistent with the view, value every legal card in each.

One search, two evaluators (OpenSpiel's idea: the evaluator is an argument):

- ``ROLLOUT``: after the card, every seat plays on with ``heuristic`` (``playout``);
- ``DOUBLE_DUMMY``: after the card, the hand is solved with every hand open (the
  double-dummy solver, ``solver.card_values``): Perfect Information Monte Carlo.

Every candidate card is valued on the *same* worlds (common random numbers: the
differences between cards are then not swamped by the luck of the worlds drawn), and
the worlds come from the decision's own stream (its deal key and counter), so a
decision is the same on any thread.

The choice values what the side needs: the pitcher's side ranks cards by the number
of worlds in which it reaches the bid, then by the points it takes; the defenders by
the number in which the bid is set, then by the fewest points for the pitcher's side.
With no bid given (``bid`` 0, as bid-odds and study runs play: every level is asked at
once) reaching it is certain, so the pitcher's side plays for the most points and the
defenders for the fewest.  Ties (all cards alike in every world drawn) go to the card
``heuristic`` would play.  (The presets' ``rollout`` plays for the score difference
instead, ``kernels.families.rollout``; measured in whole games it is at least as strong,
and stronger at auction-pitch with 3, 4 and 5 players: ``scripts/compare_objectives.py``,
docs/search.md.  pimc keeps this choice under every preset: the solver values the
pitcher's side's points only.)

Ablations (``scripts/compare_policies.py --ablate``, to measure what each part is
worth): bits above the worlds count in ``search_card``'s ``worlds`` argument switch one
part off.  ``FRESH_WORLDS``: every candidate card is valued on worlds of its own (no
common random numbers); ``GREEDY_POINTS``: cards are ranked by points alone, not by
the chance of the bid.  The policy names never set them (``pitchsim.games.policies`` allows
at most 4,096 worlds), so shipped play only pays one mask for them.
"""

import numpy as np
from numba import njit

from ...game.rules import R_PARTNERSHIP
from ..bits import bit, lowest_card, popcount
from ..policies.heuristic import heuristic_card
from ..rng import draw
from .playout import play_out
from .solver import T_BUDGET, T_NODES, card_targets, new_table
from .worlds import sample_worlds, view_constraint

ROLLOUT = 0
DOUBLE_DUMMY = 1
# Attempts per world wanted before giving up (only a constraint that hardly admits any
# world comes near: the true deal always fits the view).
ATTEMPTS_PER_WORLD = 200
# The solver's transposition table for one decision (reused across its worlds): 2**12
# entries (~400 kB) cost little to make, and solve mid-hand positions as fast as
# bigger ones.  In the first two tricks (more than 4 cards a hand) whole deals are
# solved, every lead or reply exactly, and a small table thrashes: one 7-player world at
# the opening lead took 25 CPU-s with 2**12 entries, 3.0 with 2**16 (~7 MB, a few ms to
# make), 1.1 with 2**20 (issue 19's note).
DD_TABLE_BITS = 12
DD_EARLY_TABLE_BITS = 16
# Only at 5-7 players: at 2-4 the small table solves early decisions in about a
# millisecond, less than making the big one would cost.
EARLY_TABLE_PLAYERS = 5
# A pimc decision in play (play, tournament, study runs) stops solving worlds after this
# many solver nodes and decides on the worlds solved (none: ``heuristic``'s card).
# Counted in nodes, not seconds, so a game is the same on any machine and thread count.
# Few decisions come near it but at 6-7 players in the first tricks, where one world
# can take minutes (issue 19): about 2-3 s of search at 7 players on the reference
# machine (scripts/bench_solve.py: ~8-10 M nodes a second).
PLAY_NODES = 20_000_000
# The ablation bits (see the module), above any worlds count a policy name can give.
WORLDS_MASK = (1 << 16) - 1
FRESH_WORLDS = 1 << 16
GREEDY_POINTS = 1 << 17
# pimc's options (issue 33), bits above the worlds count as the ablations', off unless
# asked for (``scripts/bench_pimc.py --kernel``, ``compare_policies.py --ablate``):
# ``TARGET_QUERY``: with a bid, each card's target query in each world ("does the
# pitcher's side make the bid after it?", ``solver.card_targets``) instead of its exact
# value; the choice then ranks cards by the worlds made alone, ties to the prior (points
# beyond the bid are not known).  ``WORLD_NODES`` (6 bits from ``WORLD_NODES_SHIFT``,
# k > 0): a world the solver does not finish within 2**k nodes is dropped, not counted,
# and the next world is solved.
TARGET_QUERY = 1 << 18
# ``ROLLOUT_TIES`` (with ``TARGET_QUERY``): cards that tie on the worlds made are ranked
# as ``rollout`` ranks them on the same worlds (made, then points, each world played out
# by ``heuristic``), before the prior: target queries alone leave every card tied in
# most decisions at 7 players (``scripts/diagnose_search.py --target``), so the choice
# fell to ``heuristic``'s card.
ROLLOUT_TIES = 1 << 19
WORLD_NODES_SHIFT = 20
WORLD_NODES = 63 << WORLD_NODES_SHIFT


@njit(cache=True)
def rollout_outcomes(
    worlds,
    kept,
    played_by,
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
    rules,
    cards,
    out,
):
    """``out[j, w]``: the pitcher's side's points when ``cards[j]`` is played in world w
    and the hand is played out by ``heuristic``."""
    seat = leader + trick_len
    if seat >= n:
        seat -= n
    hands = np.empty(n, dtype=np.int64)
    won_now = np.empty(n, dtype=np.int64)
    dealt = np.empty(n, dtype=np.int64)
    now = np.empty(n, dtype=np.int64)
    award = np.empty(4, dtype=np.int64)
    for w in range(kept):
        for s in range(n):
            dealt[s] = worlds[w, s] | played_by[s]
        for j in range(cards.size):
            c = cards[j]
            for s in range(n):
                hands[s] = worlds[w, s]
                won_now[s] = won[s]
            for i in range(trick_len):
                now[i] = trick[i]
            hands[seat] &= ~bit(c)
            now[trick_len] = c
            t = trump if trump >= 0 else c // 13  # the opening lead fixes trump
            out[j, w] = play_out(
                hands,
                won_now,
                dealt,
                n,
                pitcher,
                bid,
                t,
                trick_no,
                leader,
                now,
                trick_len + 1,
                played,
                rules,
                award,
            )


@njit(cache=True)
def dd_outcomes(
    worlds,
    kept,
    played_by,
    n,
    pitcher,
    trump,
    trick,
    trick_len,
    leader,
    won,
    rules,
    cards,
    out,
    nodes,
    target,
    opts,
):
    """``out[j, w]``: the double-dummy value (the pitcher's side's points, every hand open
    and played perfectly) after ``cards[j]`` in world w.  Returns (worlds done, solver
    nodes searched): with a budget of ``nodes`` (0: none) the worlds stop at the first
    one the budget does not finish, which is left out (``out`` holds worlds done only).
    ``target`` > 0: each value is the target query's (``solver.card_targets``: target or
    target - 1).  ``opts``: ``WORLD_NODES`` (see the module); a world dropped for its own
    budget leaves no column: ``out[:, :done]`` are the worlds solved, in order."""
    bits = DD_TABLE_BITS
    if kept > 0 and n >= EARLY_TABLE_PLAYERS:
        left = 0
        for s in range(n):
            left += popcount(worlds[0, s])
        if left > 4 * n:
            bits = DD_EARLY_TABLE_BITS
    table = new_table(bits)
    dealt = np.empty(n, dtype=np.int64)
    hands = np.empty(n, dtype=np.int64)
    values = np.empty(52, dtype=np.int64)
    k = (opts & WORLD_NODES) >> WORLD_NODES_SHIFT
    per_world = np.int64(1) << k if k > 0 else np.int64(0)
    done = 0
    for w in range(kept):
        budget = np.int64(0)
        if nodes > 0:
            left = nodes - table[0, T_NODES]
            if left <= 0:
                return done, table[0, T_NODES]
            budget = left
        own = per_world > 0 and (budget == 0 or per_world < budget)
        if own:
            budget = per_world
        table[0, T_BUDGET] = budget
        for s in range(n):
            hands[s] = worlds[w, s]
            dealt[s] = worlds[w, s] | played_by[s]
        v = card_targets(
            hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, rules, table,
            values, target,
        )  # fmt: skip
        if v < 0:
            if own:
                continue  # over its own budget: dropped, the next world is solved
            return done, table[0, T_NODES]  # out of budget: this world is not done
        for j in range(cards.size):
            out[j, done] = values[cards[j]]
        done += 1
    return done, table[0, T_NODES]


@njit(cache=True)
def choose_by_outcomes(cards, out, kept, our_side, bid, prior):
    """The card the side wants most (see the module) from ``out[:, :kept]`` (the
    pitcher's side's points, 0 or more, under any preset: pimc's choice there too);
    ``prior`` wins ties."""
    return choose_by_outcomes_then(cards, out, out, np.int64(0), kept, our_side, bid, prior)


@njit(cache=True, inline="always")
def _score(out, j, kept, bid, big):
    """Card j's rank from ``out[j, :kept]``: the worlds reaching the bid, then points."""
    made = 0
    total = 0
    for w in range(kept):
        p = out[j, w]
        total += p
        made += p >= bid
    return made * big + total


@njit(cache=True, inline="always")
def _big(out, rows, kept):
    """More than any card's total in ``out[:rows, :kept]``: reaching the bid ranks first."""
    top = 0
    for j in range(rows):
        for w in range(kept):
            top = max(top, out[j, w])
    return kept * top + 1


@njit(cache=True)
def choose_by_outcomes_then(cards, out, then, then_kept, kept, our_side, bid, prior):
    """``choose_by_outcomes`` on ``out``; cards it ties ranked again on ``then[:,
    :then_kept]`` (0 worlds: not at all), then ``prior``."""
    big = _big(out, cards.size, kept)
    then_big = _big(then, cards.size, then_kept)
    step = (then_kept + 1) * then_big  # more than any card's rank on ``then``
    best = prior
    best_score = -(1 << 62)
    for j in range(cards.size):
        score = _score(out, j, kept, bid, big) * step + _score(then, j, then_kept, bid, then_big)
        if not our_side:
            score = -score
        if score > best_score or (score == best_score and cards[j] == prior):
            best_score = score
            best = cards[j]
    return best


@njit(cache=True, inline="always")
def ascending_cards(mask):
    """The cards of ``mask`` in ascending order (the order of ``out``'s rows)."""
    cards = np.empty(popcount(mask), dtype=np.int64)
    for j in range(cards.size):
        cards[j] = lowest_card(mask)
        mask &= mask - 1
    return cards


@njit(cache=True, inline="always")
def value_cards(
    evaluator,
    worlds,
    kept,
    played_by,
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
    rules,
    cards,
    out,
    nodes=0,
    opts=0,
):
    """``out[j, w]``: ``cards[j]`` valued in world w by ``evaluator`` (a rollout, or the
    double-dummy solver); returns (worlds done, solver nodes), as ``dd_outcomes`` (a
    rollout: all, 0).  ``opts``: pimc's options (``TARGET_QUERY`` with the bid as
    target, ``WORLD_NODES``; see the module)."""
    if evaluator == ROLLOUT:
        rollout_outcomes(
            worlds,
            kept,
            played_by,
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
            rules,
            cards,
            out,
        )
        return kept, 0
    else:
        return dd_outcomes(
            worlds,
            kept,
            played_by,
            n,
            pitcher,
            trump,
            trick,
            trick_len,
            leader,
            won,
            rules,
            cards,
            out,
            np.int64(nodes),
            np.int64(bid if (opts & TARGET_QUERY) != 0 and bid > 0 else 0),
            np.int64(opts),
        )


@njit(cache=True)
def card_outcomes(
    evaluator,
    worlds_wanted,
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
    out,
    fresh=False,
    nodes=0,
    opts=0,
):
    """Sample worlds for the view and value each legal card in each (``out[j, w]``,
    cards in ascending order); returns (cards, worlds kept, attempts).  ``fresh``
    (an ablation): card j gets worlds of its own, from the stream ``draw(key, j)``.
    ``nodes`` (0: none): the double-dummy solver's budget, as ``dd_outcomes``: the
    worlds kept are then those solved within it.  ``opts``: pimc's options (see the
    module)."""
    # A key typed int64 (a plain Python int) would make ``stream`` below unify uint64
    # with int64, which numba types as float64, rounding the key: other worlds.
    key = np.uint64(key)
    counts = np.empty(n, dtype=np.int64)
    allowed = np.empty(n, dtype=np.int64)
    played_by = np.empty(n, dtype=np.int64)
    unseen = view_constraint(
        n,
        seat,
        hand,
        trick_no,
        trick_len,
        leader,
        played,
        trick,
        who,
        voids,
        counts,
        allowed,
        played_by,
    )
    worlds = np.empty((worlds_wanted, n), dtype=np.int64)
    cards = ascending_cards(legal)
    rounds = cards.size if fresh else 1
    fewest = worlds_wanted
    attempts = 0
    for r in range(rounds):
        stream = draw(key, r) if fresh else key
        kept, tried = sample_worlds(
            stream,
            n,
            seat,
            hand,
            unseen,
            counts,
            allowed,
            worlds,
            ATTEMPTS_PER_WORLD * worlds_wanted,
        )
        attempts += tried
        lo, hi = (r, r + 1) if fresh else (0, cards.size)
        these = cards[lo:hi]
        rows = out[lo:hi]
        done, _ = value_cards(
            evaluator,
            worlds,
            kept,
            played_by,
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
            rules,
            these,
            rows,
            nodes,
            opts,
        )
        fewest = min(fewest, done)
    return cards, fewest, attempts


@njit(cache=True)
def decision_stream(key, counter):
    """The stream a search decision samples its worlds from (``search_card``'s)."""
    return draw(key, counter)


@njit(cache=True)
def search_card(
    evaluator,
    worlds,
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
    """A search policy's card: the decision's worlds, every legal card valued in each.
    ``worlds``: the number wanted, with any ablation bits (see the module) above it."""
    prior = heuristic_card(
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
    worlds_wanted = worlds & WORLDS_MASK
    if legal & (legal - 1) == 0 or worlds_wanted <= 0:
        return prior
    out = np.empty((popcount(legal), worlds_wanted), dtype=np.int64)
    cards, kept, _ = card_outcomes(
        evaluator,
        worlds_wanted,
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
        draw(key, counter),
        out,
        (worlds & FRESH_WORLDS) != 0,
        np.int64(PLAY_NODES),
        np.int64(worlds & ~WORLDS_MASK),
    )
    if kept == 0:
        return prior  # (the solver's budget spent before one world was solved)
    if rules[R_PARTNERSHIP] != 0:
        our_side = (seat ^ pitcher) & 1 == 0
    else:
        our_side = seat == pitcher
    aim = 0 if worlds & GREEDY_POINTS else bid
    then = np.empty((cards.size, 0), dtype=np.int64)
    ties = ROLLOUT_TIES | TARGET_QUERY
    # (a world dropped for its own budget would shift the solved worlds' columns)
    if (
        evaluator == DOUBLE_DUMMY
        and worlds & ties == ties
        and worlds & WORLD_NODES == 0
        and bid > 0
    ):
        # The same worlds (the same stream; the solved ones are the first ``kept``)
        # played out by ``heuristic`` after each card.
        then = np.empty((cards.size, worlds_wanted), dtype=np.int64)
        card_outcomes(
            ROLLOUT, worlds_wanted, legal, hand, seat, n, pitcher, bid, trump, trick_no,
            trick, trick_len, leader, played, won, who, voids, rules, draw(key, counter),
            then, (worlds & FRESH_WORLDS) != 0,
        )  # fmt: skip
    return choose_by_outcomes_then(
        cards, out, then, min(kept, then.shape[1]), kept, our_side, aim, prior
    )
