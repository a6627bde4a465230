"""The family search play policies, under every preset (auction-pitch as a preset
included): ``rollout`` (each legal card played out by the family ``heuristic``) and
``pimc`` (each legal card solved double-dummy), in worlds sampled from the seat's
knowledge (``worlds``).  One search card (``search_card``): the worlds, then the
valuer its kind names.

``rollout``:

For a decision of seat ``me``: W worlds (the stream ``draw(key, counter)``, so the
decision is the same on any thread); in each, every legal card is played and the hand
finished by ``heuristic`` at every seat (``play_on``), on the *same* worlds for every
card (paired: the luck of the worlds drawn cancels in the comparison).  The hand is
scored (``score.score_hand``: every point of the family, Low to its holder where the
family says so) and settled (``settle.settle_hand``: made, the pitcher's side scores
its points; set, minus the bid; every other side its own points).

The objective: the seat's side's score change minus the mean change of the other
sides, summed over the worlds.  Under partnership that is the difference between the
two teams (zero-sum: the pitcher's side plays to make the bid and take points, the
defenders to set it and take their own); playing alone, each seat plays for its own
score against the table's.  The game's target is not looked at.  Ties (every card
alike in every world) go to the card ``heuristic`` would play.  Measured against the
base game's objective (worlds made/set, then points) in the same seat, whole games,
duplicate: it wins 52.2% (51.4-52.9) at auction-pitch with 4 players and no preset
measured loses (``scripts/compare_objectives.py``, docs/search.md).

``pimc`` (Perfect Information Monte Carlo, the base game's pimc under every preset): on the same worlds, the one double-dummy solver
(``solver.preset_world_values``, the preset's tables ``fr``, ``tab``) values every legal
card with all hands open: the pitcher's side's points (0.9) after it, every seat playing
perfectly.  The choice is the base game's, by the same function
(``monte_carlo.choose_by_outcomes``), and ``search.hint``'s (``table.clock.
side_choice``): the pitcher's side the card reaching the bid in the most worlds, then
the most points; a defender the fewest of both; ties to ``heuristic``'s card.  The
solver's work is bounded as the base game's pimc bounds it: ``PLAY_NODES`` solver nodes a
decision (counted, not timed: the same game on any machine), the worlds left at the
first one the budget does not finish, ``heuristic``'s card when none is solved; its
transposition table as the base game's (``DD_TABLE_BITS``; ``DD_EARLY_TABLE_BITS`` for
whole deals at 5-7 players).  Its weakness is the base game's: in each world it plays as
if it saw every card (strategy fusion).

``epimc`` (``kernels.search.epimc``): pimc's worlds, budget and choice, each card valued
with the seat's next card made once for the worlds it cannot tell apart then (EPIMC at
depth 2), the solver below it.

Dispatch: ``play.play_hand`` calls ``seat_search_card`` for a policy id whose kind
is ``ROLLOUT``, ``PIMC`` or ``EPIMC`` (``kind | worlds << WORLDS_SHIFT``,
``kernels.policies``).
The search (the solver with it) is compiled in only when the policy array is int32
(``SEARCH_DTYPE``; uint32: rollout alone), so the plain family kernels stay small to
compile.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..bits import popcount
from ..partner import (
    duty_seat,
    hand_side,
    known_partner,
    partner_of,
    trick1_others,
)
from ..policies import EPIMC, KIND_MASK, PIMC, ROLLOUT, WORLDS_SHIFT
from ..policies.cards import heuristic_card
from ..presets import F_FOLLOW, T_TRUMPS
from ..rng import draw
from ..score import N_AWARDS, score_hand, side_of
from ..settle import hands_winners, settle_hand, winners
from ..trick import FOLLOW_ONLY, close_trick, legal_cards
from .epimc import COARSE_SHIFT, epimc_outcomes
from .monte_carlo import (
    DD_EARLY_TABLE_BITS,
    DD_TABLE_BITS,
    EARLY_TABLE_PLAYERS,
    PLAY_NODES,
    ascending_cards,
    choose_by_outcomes,
)
from .play_fit import read_worlds
from .solver import new_table, preset_world_values
from .worlds import (
    ATTEMPTS_PER_WORLD,
    partner_constraint,
    sample_worlds,
    world_constraint,
)

__all__ = [
    "KIND_MASK",
    "PIMC",
    "PLAY_NODES",
    "GAME_MINE",
    "GAME_OTHER",
    "ROLLOUT",
    "WORLDS_SHIFT",
    "pimc_outcomes",
    "play_on",
    "rollout_game",
    "rollout_outcomes",
    "rollout_points",
    "search_card",
]


@njit(cache=True)
def play_on(
    hands, won, n, pitcher, trump, t, leader, pos, trick, tseats, count, played, fr, tab,
    duty, called,
):  # fmt: skip
    """Finish a hand with ``heuristic`` at every seat, from position ``pos`` (0 .. n,
    counted from ``leader``) of trick ``t``, ``trick[:count]`` played by
    ``tseats[:count]``; ``trump`` is fixed.  ``hands``, ``won``, ``trick`` and ``tseats``
    are played on (pass copies).  Returns the number of tricks: the loop of
    ``play.play_hand``, resumable inside a trick.  ``duty``: the seat that must play
    ``called`` to the first trick (12.1.3, ``partner.duty_seat``; -1: none)."""
    only = fr[F_FOLLOW] == FOLLOW_ONLY
    tm = tab[trump, T_TRUMPS]
    while True:
        for i in range(pos, n):
            seat = leader + i
            if seat >= n:
                seat -= n
            hand = hands[seat]
            if only and hand & tm == 0:
                continue  # 4.9: out of the hand
            legal = legal_cards(hand, trick, count, trump, t == 0 and count == 0, fr, tab)
            if t == 0 and seat == duty:
                legal = np.int64(1) << called
            card = heuristic_card(
                legal, hand, seat, n, pitcher, trump, t, trick, tseats, count, played, fr, tab
            )
            hands[seat] = hand & ~(np.int64(1) << card)
            trick[count] = card
            tseats[count] = seat
            count += 1
        taken, leader = close_trick(trick, tseats, count, trump, hands, won, n, only, tm, tab)
        played |= taken
        t += 1
        if leader < 0 or hands[leader] == 0:
            return t
        pos = 0
        count = 0


@njit(cache=True)
def search_card(
    kind,
    solver,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    tseats,
    count,
    played,
    won,
    pby,
    voids,
    counts,
    known_out,
    drawn_back,
    fr,
    tab,
    key,
    counter,
    worlds_wanted,
    called,
    partner,
    seen,
    seen_seats,
    seen_sizes,
):
    """The card of search policy ``kind`` (``ROLLOUT``, ``PIMC``, ``EPIMC``; the module) in
    ``worlds_wanted`` worlds.  ``solver`` None compiles ``rollout`` alone (no solver: a
    pimc ``kind`` raises), any boolean both.  ``pby``, ``voids``, ``counts`` (the hand
    sizes now, then the cards put down face down this seat has not seen), ``known_out``
    and ``drawn_back`` are the seat's knowledge (``worlds``): the worlds are drawn from it
    alone.  ``called``: the card a pitcher called (12.1; -1: none) and ``partner`` its
    true holder (``partner_of``), read only as the seat knows him
    (``partner.known_partner``): the worlds fit what the call tells the seat
    (``worlds.partner_constraint``) and each is valued with its own sides.  With the
    ``READ_SHIFT`` bit of ``worlds_wanted`` the worlds also read the play seen (``seen``,
    ``seen_seats``, ``seen_sizes``: trick t's cards, their seats and how many;
    ``play_fit.read_worlds``)."""
    prior = heuristic_card(
        legal, hand, seat, n, pitcher, trump, trick_no, trick, tseats, count, played, fr, tab
    )
    objective = (worlds_wanted >> OBJECTIVE_SHIFT) & 3
    read = (worlds_wanted >> READ_SHIFT) & 1
    coarse = (worlds_wanted >> COARSE_SHIFT) & 1 != 0
    worlds_wanted &= WORLDS_MASK
    if legal & (legal - 1) == 0 or worlds_wanted <= 0:
        return prior
    allowed = np.empty(n + 1, dtype=np.int64)
    unseen, must = world_constraint(
        n, seat, hand, known_out, drawn_back, pby, voids, counts, trump, fr, tab, allowed
    )
    known = known_partner(seat, hand, pby, n, pitcher, called, partner, fr)
    must = partner_constraint(
        n, pitcher, called, known, trick1_others(n, trick_no, trick, tseats, count, called),
        fr, unseen, allowed, must,
    )  # fmt: skip
    worlds = np.empty((worlds_wanted, n + 1), dtype=np.int64)
    if read:
        kept = read_worlds(
            draw(key, counter), n, seat, hand, unseen, counts, allowed, must, worlds, pby,
            seen, seen_seats, seen_sizes, trump, pitcher, called, fr, tab,
        )  # fmt: skip
    else:
        kept, _ = sample_worlds(
            draw(key, counter), n, seat, hand, unseen, counts, allowed, must, worlds,
            ATTEMPTS_PER_WORLD * worlds_wanted,
        )  # fmt: skip
    if kept == 0:
        return prior
    cards = ascending_cards(legal)
    if kind == PIMC or kind == EPIMC:
        if solver is None:  # pruned at compile time: these kernels have no solver
            raise ValueError("a pimc play policy in a rollout-only family play-policy array")
        out = np.empty((cards.size, kept), dtype=np.int64)
        # (a seat knows whether it is the partner: the same side in every world)
        our_side = hand_side(seat, pitcher, known, fr) == hand_side(pitcher, pitcher, known, fr)
        if kind == EPIMC:
            done, _ = epimc_outcomes(
                worlds[:kept], cards, seat, n, pitcher, bid, our_side, trump, trick_no, trick,
                tseats, count, played, won, pby, fr, tab, out, np.int64(PLAY_NODES), called,
                coarse,
            )  # fmt: skip
        else:
            done, _ = pimc_outcomes(
                worlds[:kept], cards, seat, n, pitcher, trump, trick, tseats, count, won, pby,
                fr, tab, out, np.int64(PLAY_NODES), called,
            )  # fmt: skip
        if done == 0:
            return prior  # the budget spent before one world was solved
        return choose_by_outcomes(cards, out, done, our_side, bid, prior)
    values = rollout_values(
        worlds, kept, legal, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
        played, won, pby, fr, tab, objective, called,
    )  # fmt: skip
    best = prior
    best_v = np.int64(-(1 << 62))
    for j in range(cards.size):
        if values[j] > best_v or (values[j] == best_v and cards[j] == prior):
            best_v = values[j]
            best = cards[j]
    return best


@njit(cache=True)
def pimc_outcomes(
    worlds, cards, seat, n, pitcher, trump, trick, tseats, count, won, pby, fr, tab, out,
    nodes, called,
):  # fmt: skip
    """``out[j, w]``: the double-dummy value (the pitcher's side's points, 0.9) after
    ``cards[j]`` in ``worlds[w]`` (its seats' cards now; ``[w, n]``, the pile, out of
    play), by the one solver under the preset ``fr``, ``tab``, on a transposition table
    sized as the base game's pimc sizes it; under a called partner (``called``) each
    world's sides are its own (``solver.preset_world_values``).  Returns (worlds done,
    nodes searched): a budget of ``nodes`` (0: none) stops at the first world it does
    not finish, left out."""
    leader = tseats[0] if count > 0 else seat
    bits = DD_TABLE_BITS
    if worlds.shape[0] > 0 and n >= EARLY_TABLE_PLAYERS:
        left = 0
        for s in range(n):
            left += popcount(worlds[0, s])
        if left > 4 * n:  # the first tricks: whole deals, which a small table thrashes
            bits = DD_EARLY_TABLE_BITS
    table = new_table(bits)
    return preset_world_values(
        worlds, pby, n, pitcher, trump, leader, trick, count, won, fr, tab, table, cards, out,
        nodes, called,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _play_card_out(
    worlds, w, c, seat, n, pitcher, trump, trick_no, trick, tseats, count, leader, pos,
    played, won, fr, tab, hands, won2, trick2, tseats2, duty, called,
):  # fmt: skip
    """Card ``c`` played in world w and the hand finished by ``heuristic`` (``duty`` owing
    ``called`` to trick 1, 12.1.3): ``hands``, ``won2`` (the cards won), ``trick2`` and
    ``tseats2`` are filled; returns the trump."""
    for s in range(n):
        hands[s] = worlds[w, s]
        won2[s] = won[s]
    for k in range(count):
        trick2[k] = trick[k]
        tseats2[k] = tseats[k]
    hands[seat] &= ~(np.int64(1) << c)
    trick2[count] = c
    tseats2[count] = seat
    t = trump if trump >= 0 else c // 13  # 6.3.5: the first card fixes trump
    play_on(hands, won2, n, pitcher, t, trick_no, leader, pos + 1, trick2, tseats2,
            count + 1, played, fr, tab, duty, called)  # fmt: skip
    return t


# Measurement only (scripts/compare_objectives.py): bits of a rollout's worlds count
# from OBJECTIVE_SHIFT pick the objective.  SCORE_DIFFERENCE (0, shipped): the module's;
# MAKE_THEN_POINTS: the base game's (worlds the bid is made/set, then the pitcher's
# side's points); MAKE_THEN_SCORE: made/set first, then the score difference.
SCORE_DIFFERENCE = 0
MAKE_THEN_POINTS = 1
MAKE_THEN_SCORE = 2
OBJECTIVE_SHIFT = 16
WORLDS_MASK = (1 << OBJECTIVE_SHIFT) - 1
# A search seat that reads the play (``rollout:W:read``, ``play_fit``): this bit of the
# worlds count.
READ_SHIFT = 18
MADE_WEIGHT = np.int64(1) << 32  # more than any secondary total over 4,096 worlds


@njit(cache=True)
def rollout_values(
    worlds, kept, legal, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
    played, won, pby, fr, tab, objective, called,
):  # fmt: skip
    """Per legal card (ascending), the objective summed over ``worlds[:kept]``: the
    seat's side's score change less the mean change of the seats on other sides, times
    ``others`` (the seats on other sides than the seat's by ``side_of``: an integer
    scale the same in every world).  Under a called partner (``called``) the sides are
    each world's: the pitcher and the call's holder there against the rest (12.1.5,
    12.1.6); the partner owes it to trick 1 in the play-out (12.1.3).  The members of a
    side change alike (12.1.7), so the mean is exact."""
    cards = ascending_cards(legal)
    values = np.zeros(cards.size, dtype=np.int64)
    leader = tseats[0] if count > 0 else seat
    pos = seat - leader
    if pos < 0:
        pos += n
    others = 0
    for s in range(n):
        if side_of(s, fr) != side_of(seat, fr):
            others += 1
    hands = np.empty(n, dtype=np.int64)
    won2 = np.empty(n, dtype=np.int64)
    held = np.empty(n, dtype=np.int64)
    trick2 = np.empty(n, dtype=np.int64)
    tseats2 = np.empty(n, dtype=np.int64)
    award = np.empty(N_AWARDS, dtype=np.int64)
    points = np.empty(n, dtype=np.int64)
    change = np.empty(n, dtype=np.int64)
    for w in range(kept):
        for s in range(n):
            held[s] = worlds[w, s] | pby[s]
        partner = partner_of(held, n, pitcher, called)  # this world's (12.1.5)
        duty = duty_seat(held, n, pitcher, called, fr)
        mine = hand_side(seat, pitcher, partner, fr)
        ours = mine == hand_side(pitcher, pitcher, partner, fr)
        for j in range(cards.size):
            t = _play_card_out(
                worlds, w, cards[j], seat, n, pitcher, trump, trick_no, trick, tseats, count,
                leader, pos, played, won, fr, tab, hands, won2, trick2, tseats2, duty, called,
            )  # fmt: skip
            score_hand(held, won2, n, t, fr, tab, award, points, pitcher, partner)
            made = settle_hand(points, n, pitcher, bid, fr, change, partner)
            rest = 0
            apart = 0
            for s in range(n):
                if hand_side(s, pitcher, partner, fr) != mine:
                    rest += change[s]
                    apart += 1
            v = others * change[seat] - others * rest // apart
            if objective != SCORE_DIFFERENCE:
                if objective == MAKE_THEN_POINTS:
                    v = points[pitcher] if ours else -points[pitcher]
                if made == ours:
                    v += MADE_WEIGHT
            values[j] += v
    return values


@njit(cache=True)
def rollout_outcomes(
    worlds, legal, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
    played, won, pby, fr, tab, out, called,
):  # fmt: skip
    """``rollout_values`` world by world: ``out[j, w]`` the objective (scaled as there)
    of legal card j (ascending) in ``worlds[w]`` (``hint`` tests and reports each world)."""
    for w in range(worlds.shape[0]):
        v = rollout_values(
            worlds[w : w + 1], np.int64(1), legal, seat, n, pitcher, bid, trump, trick_no, trick,
            tseats, count, played, won, pby, fr, tab, np.int64(SCORE_DIFFERENCE), called,
        )  # fmt: skip
        for j in range(v.size):
            out[j, w] = v[j]


def seat_search_card(
    policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
    played, won, pby, voids, counts, known_out, drawn_back, fr, tab, key, counter, called,
    partner, seen, seen_seats, seen_sizes,
):  # fmt: skip
    """A family search policy's card (compiled code only: ``play.play_hand`` calls it)."""
    raise NotImplementedError("seat_search_card runs inside numba kernels only")


@overload(seat_search_card)
def _seat_search_card(
    policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
    played, won, pby, voids, counts, known_out, drawn_back, fr, tab, key, counter, called,
    partner, seen, seen_seats, seen_sizes,
):  # fmt: skip
    # The array's integer type picks what is compiled in: int64 no search, uint32
    # (``ROLLOUT_DTYPE``) rollout alone, int32 (``SEARCH_DTYPE``) rollout and pimc with
    # the solver (``table.boards.seat_ids``).  Pimc's ``solver`` is a plain bool, not
    # the literal True, as the seats' calls from Python (``table.decide``) pass it:
    # one compiled pimc search for both.
    if not (isinstance(policy, types.Integer) and policy.bitwidth == 32):

        def refuse(
            policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, tseats,
            count, played, won, pby, voids, counts, known_out, drawn_back, fr, tab, key,
            counter, called, partner, seen, seen_seats, seen_sizes,
        ):  # fmt: skip
            if policy >= 0:
                raise ValueError(
                    "a search play policy in a plain (int64) family play-policy array: "
                    "make it with pitchsim.table.boards.seat_ids"
                )
            return np.int64(-1)

        return refuse

    if not policy.signed:

        def rollout_only(
            policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, tseats,
            count, played, won, pby, voids, counts, known_out, drawn_back, fr, tab, key,
            counter, called, partner, seen, seen_seats, seen_sizes,
        ):  # fmt: skip
            return search_card(
                np.int64(policy) & KIND_MASK, None, legal, hand, seat, n, pitcher, bid,
                trump, trick_no, trick, tseats, count, played, won, pby, voids, counts,
                known_out, drawn_back, fr, tab, key, counter, np.int64(policy) >> WORLDS_SHIFT,
                called, partner, seen, seen_seats, seen_sizes,
            )  # fmt: skip

        return rollout_only

    def search(
        policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
        played, won, pby, voids, counts, known_out, drawn_back, fr, tab, key, counter, called,
        partner, seen, seen_seats, seen_sizes,
    ):  # fmt: skip
        return search_card(
            np.int64(policy) & KIND_MASK, np.bool_(True), legal, hand, seat, n, pitcher, bid, trump,
            trick_no, trick, tseats, count, played, won, pby, voids, counts, known_out,
            drawn_back, fr, tab, key, counter, np.int64(policy) >> WORLDS_SHIFT, called,
            partner, seen, seen_seats, seen_sizes,
        )  # fmt: skip

    return search


# ``rollout_game``'s outcome bits: the seat's side wins the game on this hand; another
# side does (both: a win shared by sides tied at the top, 3.11).
GAME_MINE = 1
GAME_OTHER = 2


@njit(cache=True, inline="always")
def _rollout_scored(
    worlds, cards, seat, n, pitcher, bid, shoot, trump, trick_no, trick, tseats, count,
    played, won, pby, scores, fr, tab, out, game, called,
):  # fmt: skip
    """``rollout_points`` (``game`` False) and ``rollout_game`` (True): each card of
    ``cards`` played in each world, the hand finished by ``heuristic`` and scored; then
    ``out[j, w]`` the pitcher's side's points, or the game's outcome (see there)."""
    leader = tseats[0] if count > 0 else seat
    pos = seat - leader
    if pos < 0:
        pos += n
    hands = np.empty(n, dtype=np.int64)
    won2 = np.empty(n, dtype=np.int64)
    held = np.empty(n, dtype=np.int64)
    trick2 = np.empty(n, dtype=np.int64)
    tseats2 = np.empty(n, dtype=np.int64)
    award = np.empty(N_AWARDS, dtype=np.int64)
    points = np.empty(n, dtype=np.int64)
    change = np.empty(n, dtype=np.int64)
    after = np.empty(n, dtype=np.int64)
    mine = np.int64(1) << side_of(seat, fr)
    for w in range(worlds.shape[0]):
        for s in range(n):
            held[s] = worlds[w, s] | pby[s]
        partner = partner_of(held, n, pitcher, called)  # this world's (12.1.5)
        duty = duty_seat(held, n, pitcher, called, fr)
        for j in range(cards.size):
            t = _play_card_out(
                worlds, w, cards[j], seat, n, pitcher, trump, trick_no, trick, tseats, count,
                leader, pos, played, won, fr, tab, hands, won2, trick2, tseats2, duty, called,
            )  # fmt: skip
            score_hand(held, won2, n, t, fr, tab, award, points, pitcher, partner)
            if not game:
                out[j, w] = points[pitcher]
                continue
            made = settle_hand(points, n, pitcher, bid, fr, change, partner)
            for s in range(n):
                after[s] = scores[s] + change[s]
            sides = winners(after, n, pitcher, made, shoot, fr, partner)
            # 12.4: this hand counts; ``fr[F_HANDS]`` is the hands left (1: the last)
            sides = hands_winners(sides, np.int64(1), after, n, fr)
            code = 0
            if sides & mine:
                code |= GAME_MINE
            if sides & ~mine:
                code |= GAME_OTHER
            out[j, w] = code


@njit(cache=True)
def rollout_points(
    worlds, cards, seat, n, pitcher, trump, trick_no, trick, tseats, count, played, won, pby,
    fr, tab, out, called,
):  # fmt: skip
    """``out[j, w]``: the pitcher's side's points (0.9's, as scored: ``score_hand``) after
    ``cards[j]`` in ``worlds[w]``, the hand finished by ``heuristic`` at every seat: pimc's
    measure played out (``search.hint``: its answer when pimc solves no world in
    the time)."""
    _rollout_scored(
        worlds, cards, seat, n, pitcher, np.int64(0), False, trump, trick_no, trick, tseats, count,
        played, won, pby, won, fr, tab, out, False, called,  # (scores: unread without game)
    )  # fmt: skip


@njit(cache=True)
def rollout_game(
    worlds, cards, seat, n, pitcher, bid, shoot, trump, trick_no, trick, tseats, count,
    played, won, pby, scores, fr, tab, out, called,
):  # fmt: skip
    """``out[j, w]``: who wins the game on this hand after ``cards[j]`` in ``worlds[w]``,
    the hand finished by ``heuristic`` at every seat, scored (``score_hand``), settled
    (``settle_hand``, 0.9: ``bid`` the pitcher's, the maximum for a ``shoot``) on
    ``scores`` (per seat, before the hand; partners equal) and its winners found as the
    game kernels find them (``settle.winners``: the win rule, 2.11, 3.11, a made shoot,
    set-pitcher-wins): ``GAME_MINE`` set when the seat's side is among them,
    ``GAME_OTHER`` when another side is; 0, the game goes on (the coach's P(game) when
    more than the pitcher's side can go out: ``coach.judge``)."""
    _rollout_scored(
        worlds, cards, seat, n, pitcher, bid, shoot, trump, trick_no, trick, tseats, count,
        played, won, pby, scores, fr, tab, out, True, called,
    )  # fmt: skip
