"""Every preset's rules and its per-trump tables as int64 arrays for the kernels (the
family kernels and the one double-dummy solver, ``search/solver.py``).

``rules_array(rules)`` packs every generic option (VARIANTS.md 6.1) at the ``F_*``
indices.  ``rules_table(rules)`` is one ``(4, TAB_WIDTH)`` array, a row per trump
suit, with the columns at the ``T_*`` offsets:

- ``T_TRUMPS``: the trump mask (the suit, the jick, the jokers of this pack);
- ``T_SUITS + s``: the cards whose effective suit is ``s`` (0.4);
- ``T_RANKED``: the trumps that can be High or Low (no jokers, 0.7);
- ``T_POINTS``: the cards worth something to their captor (jack, jick, jokers, the 10
  under game=ten, the 3, the 5);
- ``T_EFF + c``, ``T_KEY + c``, ``T_VALUE + c``: card ``c``'s effective suit, order
  key and capture value (``pitchsim.game.trumps``);
- ``T_BURN + c``: the order in which rule X (4.8) burns excess trumps, lowest first:
  trumps carrying no point by rank, then by point value, then rank.
- ``T_WORTH + c``: what card ``c`` carries to its captor in tenths of a point, as the
  ``heuristic`` weighs it: its capture value, 1 more for the 2 of trump (the lowest
  rank of a short pack, 12.3) when Low goes to its captor (surely Low when in play), a tenth of its Game count under game=count.
- ``T_WORTHY``: the cards whose ``T_WORTH`` is above 0, as a mask.

The masks, suits and keys come from ``pitchsim.game.trumps`` (tested against the
reference engine); the burn order is written here by arithmetic, apart from the
reference's ``excess_trumps``, so the cross-check compares two derivations.
"""

from __future__ import annotations

import functools

import numpy as np

from ..game.cards import ACE, JACK, KING, N_CARDS, N_CARDS_WITH_JOKERS, N_RANKS, QUEEN, TEN
from ..game.rules import Rules, RulesError
from ..game.trumps import capture_values, jick_card, trump_tables

F_PARTNERSHIP = 0
F_JOKERS = 1
F_JICK = 2
F_GAME_TEN = 3  # 1: the 10 of trump is worth 1 (game=ten); 0: the Game point by count
F_THREE = 4
F_FIVE = 5  # FIVE_NONE, FIVE_TRUE, FIVE_PEDRO (12.6): 5 points per 5 worth 5
F_DEAL = 6  # 6 or 9 (10 with 5 players and two jokers: ``cards_each``)
F_DISCARD = 7  # DISCARD_NONE, DISCARD_NON_TRUMP (4.8), DISCARD_CHOICE, DISCARD_DRAW (12.8)
F_ROB = 8  # ROB_NONE, ROB_PITCHER (rob=true), ROB_DEALER (12.7)
F_TRUMP_NAMED = 9  # 1: named after the auction; 0: the pitcher's first card fixes it
F_LEAD_TRUMP = 10
F_MIN_BID = 11
F_MAX_BID = 12
F_LOW_DEALT = 13  # 1: Low to its holder
F_FOLLOW = 14  # FOLLOW_TRUMP, FOLLOW_SUIT, FOLLOW_ONLY
F_TARGET = 15
F_WIN = 16  # WIN_PITCHER, WIN_PITCHER_FIRST, WIN_HIGHEST
F_ALL_PASS = 17  # ALL_PASS_FORCED, _REDEAL, _NEXT_DEALER, _DEALER_SET, _DEALER_FREE
F_DEALER_STEAL = 18  # 0 false, 1 true, 2 max
F_SHOOT = 19
F_SET_PITCHER_WINS = 20
F_JOKER_GAME = 21  # 1: joker-game=half, Game on the doubled scale (12.10)
F_OUT = 22  # the cards of the 52 a short pack leaves out (deck, 12.3; 0: deck=2-A)
F_HANDS = 23  # N under hands=N (12.4); 0: hands=off, the game ends at its target
F_SET_TO_OTHERS = 24  # 1: set=to-others, a set side scores 0, the others the bid more (12.11)
F_DISCARDS_SHOWN = 25  # 1: discards=shown, every discard face up (12.9; no move or score)
F_KITTY = 26  # N under kitty=N: the last N undealt cards, the pitcher's after trump (12.2)
F_PARTNER = 27  # PARTNER_NONE, PARTNER_CALLED, PARTNER_ANNOUNCED (12.1)
N_RULE_OPTIONS = 28

FOLLOW_TRUMP, FOLLOW_SUIT, FOLLOW_ONLY = 0, 1, 2
WIN_PITCHER, WIN_PITCHER_FIRST, WIN_HIGHEST = 0, 1, 2
ALL_PASS_FORCED, ALL_PASS_REDEAL, ALL_PASS_NEXT_DEALER, ALL_PASS_DEALER_SET = 0, 1, 2, 3
ALL_PASS_DEALER_FREE = 4  # 12.12: the dealer pitches at 0 when all pass
FIVE_NONE, FIVE_TRUE, FIVE_PEDRO = 0, 1, 2
ROB_NONE, ROB_PITCHER, ROB_DEALER = 0, 1, 2
STEAL_NO, STEAL_YES, STEAL_MAX = 0, 1, 2
PARTNER_NONE, PARTNER_CALLED, PARTNER_ANNOUNCED = 0, 1, 2
DISCARD_NONE, DISCARD_NON_TRUMP, DISCARD_CHOICE, DISCARD_DRAW = 0, 1, 2, 3

T_TRUMPS = 0
T_SUITS = 1
T_RANKED = 5
T_POINTS = 6
T_EFF = 8
T_KEY = T_EFF + N_CARDS_WITH_JOKERS
T_VALUE = T_KEY + N_CARDS_WITH_JOKERS
T_BURN = T_VALUE + N_CARDS_WITH_JOKERS
T_WORTH = T_BURN + N_CARDS_WITH_JOKERS
T_WORTHY = T_WORTH + N_CARDS_WITH_JOKERS
# Per card, the trumps ranked above it (below it) in the trump order: what the bidders'
# count asks of every card, a mask away instead of a loop over the trumps.
T_ABOVE = T_WORTHY + 1
T_BELOW = T_ABOVE + N_CARDS_WITH_JOKERS
TAB_WIDTH = T_BELOW + N_CARDS_WITH_JOKERS

JOKERS = np.int64((1 << 52) | (1 << 53))
DEUCE, THREE, FIVE = 0, 1, 3  # ranks

_FOLLOW = {"trump": FOLLOW_TRUMP, "suit": FOLLOW_SUIT, "only": FOLLOW_ONLY}
_WIN = {"pitcher": WIN_PITCHER, "pitcher-first": WIN_PITCHER_FIRST, "highest": WIN_HIGHEST}
_ALL_PASS = {
    "forced": ALL_PASS_FORCED,
    "redeal": ALL_PASS_REDEAL,
    "next-dealer": ALL_PASS_NEXT_DEALER,
    "dealer-set": ALL_PASS_DEALER_SET,
    "dealer-free": ALL_PASS_DEALER_FREE,
}
_FIVE = {False: FIVE_NONE, True: FIVE_TRUE, "pedro": FIVE_PEDRO}
_ROB = {False: ROB_NONE, True: ROB_PITCHER, "dealer": ROB_DEALER}
_DISCARD = {
    "none": DISCARD_NONE,
    "non-trump": DISCARD_NON_TRUMP,
    "choice": DISCARD_CHOICE,
    "draw": DISCARD_DRAW,
}
_PARTNER = {"none": PARTNER_NONE, "called": PARTNER_CALLED, "announced": PARTNER_ANNOUNCED}


def rules_array(rules: Rules, refuse_partner: str = "") -> np.ndarray:
    """Every option of ``rules`` (any family, the base game as auction-pitch), a called
    partner (12.1) included: the kernels' play, their search and every command carry
    it.  A caller that does not carry it yet says so in ``refuse_partner`` (what it is
    and what to use instead), and under a called partner is refused in that line."""
    r = rules
    if r.partner != "none" and refuse_partner:  # 12.1
        raise RulesError(f"partner={r.partner} (VARIANTS.md 12.1): {refuse_partner}")
    a = np.zeros(N_RULE_OPTIONS, dtype=np.int64)
    a[F_PARTNERSHIP] = r.partnership
    a[F_JOKERS] = r.jokers
    a[F_JICK] = r.jick
    a[F_GAME_TEN] = r.game == "ten"
    a[F_THREE] = r.three
    a[F_FIVE] = _FIVE[r.five]
    a[F_DEAL] = r.deal
    a[F_DISCARD] = _DISCARD[r.discard]
    a[F_ROB] = _ROB[r.rob]
    a[F_TRUMP_NAMED] = r.trump == "named"
    a[F_LEAD_TRUMP] = r.lead_trump
    a[F_MIN_BID] = r.min_bid
    a[F_MAX_BID] = r.max_bid
    a[F_LOW_DEALT] = r.low == "dealt"
    a[F_FOLLOW] = _FOLLOW[r.follow]
    a[F_TARGET] = r.target
    a[F_WIN] = _WIN[r.win]
    a[F_ALL_PASS] = _ALL_PASS[r.all_pass]
    a[F_DEALER_STEAL] = STEAL_MAX if r.dealer_steal == "max" else int(bool(r.dealer_steal))
    a[F_SHOOT] = r.shoot
    a[F_SET_PITCHER_WINS] = r.set_pitcher_wins
    a[F_JOKER_GAME] = r.joker_game == "half"
    a[F_OUT] = ((1 << 52) - 1) & ~sum(1 << c for c in r.pack(4) if c < 52)
    a[F_HANDS] = r.hands_limit
    a[F_SET_TO_OTHERS] = r.set == "to-others"
    a[F_DISCARDS_SHOWN] = r.discards == "shown"
    a[F_KITTY] = r.kitty
    a[F_PARTNER] = _PARTNER[r.partner]
    return a


def rest_of_game(fr: np.ndarray, played: int) -> np.ndarray:
    """``fr`` for the rest of a hands=N game once ``played`` hands have counted (12.4):
    a game of the hands it has left, so a kernel playing on counts from the hand to
    come, the first of them.  ``fr`` itself when hands=off."""
    if not fr[F_HANDS]:
        return fr
    fr = fr.copy()
    fr[F_HANDS] -= played
    return fr


def rules_table(rules: Rules) -> np.ndarray:
    """The ``(4, TAB_WIDTH)`` int64 table of ``rules`` (see the module docstring): a
    fresh copy of the preset's table, built once a process (a table seat asks for it at
    every decision: building it took 3 ms, most of a random seat's decision)."""
    return _tables(rules).copy()


@functools.lru_cache(maxsize=64)
def _tables(r) -> np.ndarray:
    t = trump_tables(r.jokers, r.jick, r.five == "pedro")
    values = capture_values(r.jokers, r.jick, r.game == "ten", r.three, r.five)
    tab = np.zeros((4, TAB_WIDTH), dtype=np.int64)
    n = N_CARDS_WITH_JOKERS
    for trump in range(4):
        tab[trump, T_TRUMPS] = t.trump_mask[trump]
        tab[trump, T_SUITS : T_SUITS + 4] = t.suit_masks[trump]
        tab[trump, T_RANKED] = t.trump_mask[trump] & ~JOKERS
        points = 0
        for c in range(n):
            if values[trump, c]:
                points |= 1 << c
        tab[trump, T_POINTS] = points
        tab[trump, T_EFF : T_EFF + n] = t.eff_suit[trump]
        tab[trump, T_KEY : T_KEY + n] = t.key[trump]
        tab[trump, T_VALUE : T_VALUE + n] = values[trump]
        tab[trump, T_BURN : T_BURN + n] = [
            _burn(c, trump, r, int(t.key[trump, c])) for c in range(n)
        ]
        tab[trump, T_WORTH : T_WORTH + n] = [
            _worth(c, trump, r, int(values[trump, c])) for c in range(n)
        ]
        tab[trump, T_WORTHY] = sum(1 << c for c in range(n) if tab[trump, T_WORTH + c] > 0)
        trumps = [d for d in range(n) if t.trump_mask[trump] >> d & 1]
        for c in range(n):
            k = t.key[trump, c]
            tab[trump, T_ABOVE + c] = sum(1 << d for d in trumps if t.key[trump, d] > k)
            tab[trump, T_BELOW + c] = sum(1 << d for d in trumps if t.key[trump, d] < k)
    return tab


GAME_COUNT = {TEN: 10, ACE: 4, KING: 3, QUEEN: 2, JACK: 1}


def _worth(c: int, trump: int, r, value: int) -> int:
    """The heuristic's worth of card ``c`` in tenths of a point (``T_WORTH``)."""
    w = 10 * value
    if r.game != "ten" and c < N_CARDS:
        w += GAME_COUNT.get(c % N_RANKS, 0)
    if r.low != "dealt" and c == trump * N_RANKS + r.ranks[0]:  # the pack's lowest (12.3)
        w += 10
    return w


def _burn(c: int, trump: int, r, key: int) -> int:
    """Rule X's order for card ``c`` (meaningful for trumps): a card carrying no point
    below every card that carries one; those by point value (the 3 three, the 5 five,
    any other 1), then by rank (the order key)."""
    rank = c % N_RANKS
    jick = r.jick and c == jick_card(trump)
    carries = (
        c >= N_CARDS
        or jick
        or rank in (ACE, JACK, DEUCE)
        or (rank == TEN and r.game == "ten")
        or (rank == THREE and r.three)
        or (rank == FIVE and r.five)
    )
    if not carries:
        return key
    worth = 1
    if c < N_CARDS and not jick and rank == THREE and r.three:
        worth = 3
    elif c < N_CARDS and not jick and rank == FIVE and r.five:
        worth = 5
    return 64 + 32 * worth + key
