"""A family hand played by the plain policies (random, heuristic): ``play_plain``.

The same hand as ``play.play_hand`` (which hands over to it when no seat searches),
trick for trick and card for card, in the style of the base game's former loop:

- the led suit's mask and the trumps a player able to follow may add are found once
  a trick, when the lead is played, so a legal follow is two mask operations;
- the trick goes to the highest of its trumps in trump order (``kernels.trump_order``:
  one bit scan for every preset, jick and jokers included), else to the highest card
  of the led suit (a non-trump effective suit is one printed suit, keyed by rank):
  masks, not a card-by-card comparison whose branches mispredict;
- who played the winning card is read off three bit planes of the seat numbers of
  the hands as play starts (worked out once a hand);
- the policy is called directly, on borrowed views of the arrays (``borrow``): no
  reference counting per card.

``play.play_hand``'s docstring gives the arguments and the logs, the same here.
"""

import numpy as np
from numba import njit

from .bits import SUIT_BITS, highest_card, lowest_card
from .borrow import borrowed
from .partner import duty_seat
from .policies.cards import (
    RANDOM,
    heuristic_card,
    heuristic_preset,
    heuristic_trump_masks,
    opening_lead_plain,
    plain_trumps,
    random_card,
)
from .policies.heuristic import decide
from .presets import (
    F_DISCARD,
    F_FOLLOW,
    F_LEAD_TRUMP,
    F_PARTNER,
    JOKERS,
    PARTNER_CALLED,
    T_TRUMPS,
)
from .rng import DECISION_COUNTER
from .trick import FOLLOW_ONLY, FOLLOW_TRUMP, next_with_trump
from .trump_order import CARD_AT, trump_order


@njit(cache=True, inline="always")
def _winning_bit(taken, tm, led_mask, trump, simple):
    """The card that wins a trick of the cards ``taken`` (``trick.trick_winner``), as a
    bit: the highest trump in trump order, else the highest card of the led suit (a
    non-trump effective suit is keyed by rank).  Both are worked out and one selected:
    whether a trick holds a trump is data-dependent and mispredicts."""
    top = taken & tm
    if simple:  # one printed suit of trumps, in rank order
        return np.int64(1) << highest_card(top if top != 0 else taken & led_mask | 1)
    by_trump = np.int64(1) << CARD_AT[trump, highest_card(trump_order(top, trump) | 1)]
    by_suit = np.int64(1) << highest_card(taken & led_mask | 1)
    return by_trump if top != 0 else by_suit


@njit(cache=True)
def play_plain(
    held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands, won, trick,
    tseats, log, legal_log,
):  # fmt: skip
    """``play.play_hand`` for seats that do not search; returns ``(trump, tricks)``.
    A table of random players gets a loop without the heuristic in it (its code
    compiled in the loop slows every card, taken or not): ``random_play``.  A table
    with a heuristic seat gets one loop that reads the rules' shape per card: it costs
    that loop little, and each copy of it compiles for seconds.  Under the base game's
    trumps and points (``policies.plain_trumps``: auction-pitch, setback) the loop calls
    ``decide`` without the preset's masks, its compile with them as constants, and
    leads by the base game's suit count (``policies.opening_lead_plain``): together
    a tenth of a heuristic hand's time."""
    for s in range(n):
        if policies[s] != RANDOM:
            return _play_plain(
                held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands,
                won, trick, tseats, log, legal_log, True, fr[F_FOLLOW] == FOLLOW_ONLY,
                plain_trumps(fr), False,
            )  # fmt: skip
    return random_play(
        held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands, won,
        trick, tseats, log, legal_log,
    )  # fmt: skip


@njit(cache=True, inline="always")
def plain_base(
    held, n, pitcher, trump, first_lead, policies, fr, tab, key, hands, won, trick,
    tseats, log, legal_log,
):  # fmt: skip
    """``play_plain`` under the base game's shape (``policies.base_shape``), compiled in
    as constants: one random loop and one heuristic loop, neither reading the shape
    per card, inlined into its caller (``play.play_hand`` told ``base``).  (No called
    partner: trump is fixed by the first lead, 6.3.7.)"""
    if all_random(policies, n):
        return _play_plain(
            held, n, pitcher, trump, first_lead, np.int64(-1), policies, fr, tab, key, hands, won,
            trick, tseats, log, legal_log, False, False, True, True,
        )  # fmt: skip
    return _play_plain(
        held, n, pitcher, trump, first_lead, np.int64(-1), policies, fr, tab, key, hands, won, trick,
        tseats, log, legal_log, True, False, True, True,
    )  # fmt: skip


@njit(cache=True, inline="always")
def all_random(policies, n):
    """Do all seats of ``policies`` play ``random``?"""
    for s in range(n):
        if policies[s] != RANDOM:
            return False
    return True


@njit(cache=True, inline="always")
def random_play(
    held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands, won, trick,
    tseats, log, legal_log,
):  # fmt: skip
    """``play_plain`` for a table of random players: one loop for follow=only, one for
    every other preset.  follow=only is read per card, so it is a constant of each
    loop (as a value it cost smear, a jick preset, a fifth of its random hands); the
    trumps' shape (``policies.plain_trumps``) is read once a trick, so it stays a
    value: the base game runs as fast either way.  Inlined into its callers: a call's
    dozens of arguments cost a random hand a fifth of its time.  (Each loop holds no
    heuristic, so the two compile quickly.)"""
    if fr[F_FOLLOW] == FOLLOW_ONLY:
        return _play_plain(
            held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands, won,
            trick, tseats, log, legal_log, False, True, False, False,
        )  # fmt: skip
    return _play_plain(
        held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands, won,
        trick, tseats, log, legal_log, False, False, plain_trumps(fr), False,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _play_plain(
    held,
    n,
    pitcher,
    trump,
    first_lead,
    called,
    policies,
    fr,
    tab,
    key,
    hands,
    won,
    trick,
    tseats,
    log,
    legal_log,
    heuristic,
    only,
    simple,
    base,
):
    """``play_plain``; ``heuristic`` (a constant): may a seat play ``heuristic``;
    ``only``: follow=only; ``simple``: the base game's trumps (``random_play``);
    ``base`` (a constant): the base game's whole shape (``play_plain``), so the opening
    lead is ``opening_lead_plain``'s without a test.  ``called``: the card the pitcher
    called (12.1; -1: none), which its holder owes the first trick under called."""
    held, policies, fr, tab = borrowed(held), borrowed(policies), borrowed(fr), borrowed(tab)
    hands, won, trick, tseats = borrowed(hands), borrowed(won), borrowed(trick), borrowed(tseats)
    log, legal_log = borrowed(log), borrowed(legal_log)
    # Who holds each card, as three bit planes of the seat number: the seat that played
    # the winning card is read off them (every card played comes from ``held``).
    by0 = by1 = by2 = np.int64(0)
    for s in range(n):
        h = held[s]
        hands[s] = h
        won[s] = 0
        by0 |= h & -(s & 1)
        by1 |= h & -((s >> 1) & 1)
        by2 |= h & -((s >> 2) & 1)
    follow = fr[F_FOLLOW]
    may_trump = follow == FOLLOW_TRUMP
    lead_trump = fr[F_LEAD_TRUMP] != 0
    logging = log.size > 0
    logging_legal = legal_log.size > 0
    played = np.int64(0)
    tm = tab[trump, T_TRUMPS]  # (trump -1: a row never used but under follow=only, as before)
    # What the heuristic reads of the preset and of trump, worked out once a hand (and
    # again when the first card fixes trump), not once a card.
    if heuristic:
        partnership, low_dealt, count_game, pack, plain = heuristic_preset(n, fr)
        _, pts, three, five = heuristic_trump_masks(max(trump, 0), fr, tab)
    no_discard = fr[F_DISCARD] == 0  # (``opening_lead_plain``'s suit count: no discard)
    leader = next_with_trump(hands, n, pitcher, tm) if only else pitcher
    # 12.1.3: the partner plays the called card to the first trick.  His hand for that
    # trick is the called card alone, so each legal set of his is that card, and the
    # rest comes back once the trick is over (every hand is then ``held`` less what was
    # played): no test per card, and nothing the trick loop carries.
    duty = duty_seat(held, n, pitcher, called, fr)
    if duty >= 0:
        hands[duty] = np.int64(1) << called
    t = 0
    while leader >= 0 and hands[leader] != 0:
        count = 0
        taken = np.int64(0)
        led_mask = np.int64(0)
        trump_ok = np.int64(0)
        seat = leader
        for i in range(n):
            hand = hands[seat]
            if only and hand & tm == 0:
                if logging:
                    log[t * (n + 2) + 1 + i] = -1  # 4.9: out of the hand
            else:
                if only:
                    legal = hand & tm
                elif count > 0:
                    have = hand & led_mask
                    legal = hand if have == 0 else have | (hand & trump_ok)
                elif t > 0:
                    legal = hand
                elif trump < 0:
                    legal = hand & ~JOKERS  # 6.3.5: a joker cannot fix trump
                elif lead_trump and hand & tm != 0:
                    legal = hand & tm
                else:
                    legal = hand
                if logging_legal:
                    legal_log[t * n + i] = legal
                counter = DECISION_COUNTER + t * n + i
                if t == 0 and count == 0 and first_lead >= 0:
                    card = first_lead
                # (``if heuristic`` on the constant alone: numba then prunes the branch
                # before compiling it, so the random loops hold no heuristic)
                elif heuristic:
                    if policies[seat] == RANDOM:
                        card = random_card(legal, key, counter)
                    elif trump < 0:  # the opening lead names trump: ``heuristic_card``
                        if base or (simple & no_discard):
                            card = opening_lead_plain(
                                legal, hand, seat, n, pitcher, played, partnership, low_dealt
                            )
                        else:
                            card = heuristic_card(
                                legal, hand, seat, n, pitcher, trump, t, trick, tseats,
                                count, played, fr, tab,
                            )  # fmt: skip
                    elif legal & (legal - 1) == 0:
                        card = lowest_card(legal)
                    else:
                        # ``heuristic_card``'s decision, fed from the loop's state (the
                        # trick's cards, its led suit, its winner off the bit planes)
                        # instead of the trick arrays: the same card, 20% faster.
                        best = np.int64(-1)
                        if count > 0:
                            wb = _winning_bit(taken, tm, led_mask, trump, simple)
                            best = ((by0 & wb) != 0) + 2 * ((by1 & wb) != 0) + 4 * ((by2 & wb) != 0)
                        i64 = np.int64
                        if simple:  # the base game's trumps and points, as constants
                            # ``pitcher`` as the caller typed it: bid-odds' pitcher is a
                            # constant (seat 0: ``plain_base``), and ``decide`` is compiled
                            # for it, as the base kernels' ``play_hand`` has it (the same
                            # signature); ``play_plain``'s is an int64.
                            card = decide(
                                i64(legal), i64(hand), i64(seat), i64(n), pitcher,
                                i64(trump), i64(t), i64(count), i64(leader), played, taken,
                                led_mask, i64(best), partnership, low_dealt,
                            )  # fmt: skip
                        else:
                            card = decide(
                                i64(legal), i64(hand), i64(seat), i64(n), i64(pitcher),
                                i64(trump), i64(t), i64(count), i64(leader), played, taken,
                                led_mask, i64(best), partnership, low_dealt, tm, pts, three,
                                five, count_game, pack, plain,
                            )  # fmt: skip
                else:
                    card = random_card(legal, key, counter)
                b = np.int64(1) << card
                if count == 0:
                    if trump < 0:
                        trump = card // 13  # 6.3.5: the first card's printed suit is trump
                        tm = tab[trump, T_TRUMPS]
                        if heuristic:
                            _, pts, three, five = heuristic_trump_masks(trump, fr, tab)
                    # The led card's effective suit: trump, else its printed suit less
                    # any trump of it (the jick) (0.4); no table on the trick's path.
                    side = (SUIT_BITS << (13 * ((card * 5042) >> 16))) & ~tm
                    led_mask = tm if b & tm else side
                    trump_ok = tm if may_trump else np.int64(0)
                hands[seat] = hand & ~b
                taken |= b
                count += 1
                if logging:
                    log[t * (n + 2) + 1 + i] = card
            seat += 1
            if seat == n:
                seat = 0  # (no % in the loop: a division per card)
        wb = _winning_bit(taken, tm, led_mask, trump, simple)
        winner = ((by0 & wb) != 0) + 2 * ((by1 & wb) != 0) + 4 * ((by2 & wb) != 0)
        won[winner] |= taken
        played |= taken
        if logging:
            log[t * (n + 2)] = leader
            log[t * (n + 2) + n + 1] = winner
        t += 1
        if t == 1 and fr[F_PARTNER] == PARTNER_CALLED:  # the partner's other cards back
            for s in range(n):
                hands[s] = held[s] & ~played
        leader = next_with_trump(hands, n, winner, tm) if only else winner
    return trump, t
