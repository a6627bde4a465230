"""``odds`` and ``odds-game``: bid from make-probabilities to maximise expected score.

The table (built by ``scripts/make_bid_table.py``, shipped in ``pitchsim/data``) gives,
for a trump holding and a summary of the side cards, the chance that the pitcher's side
takes at least k points (k = 1..4) when everybody plays the ``heuristic`` play policy.
For each suit held and each legal call the policy weighs:

- a bid of k that stands: made with j >= k points scores j, set scores -k;
- a bid that a later caller overcalls, or a pass: a defender's average points;
- the chance of standing: every later opponent would overcall with probability
  ``Q`` (the share of hands that would bid that high), read from the table's constants;
- ``odds-game`` adds the game situation: a made (or, under set-pitcher-wins, a set)
  bid that reaches the target is worth ``target * (1 - 1/sides)`` extra points (a win
  in place of an even share of it), and letting an opponent's bid stand when making
  it would win him the game costs ``target / sides`` (our even share) times the chance
  a bid of that size is made (``M``).

It picks the call (and the trump suit) with the best expected value.
"""

import numpy as np
from numba import njit

from ...game.rules import R_DEALER_STEAL, R_PARTNERSHIP, R_SET_PITCHER_WINS, R_TARGET
from ..bits import popcount, suit_mask

MAX_BID = 4
_ACES = sum(1 << (s * 13 + 12) for s in range(4))
_TENS = sum(1 << (s * 13 + 8) for s in range(4))

# Constants stored with the table (``params``).
P_DEFENDER = 0  # a non-pitcher's expected points per hand
P_OVERCALL = 1  # P_OVERCALL + k, k = 0..5: share of hands that would bid at least k
P_MADE = 7  # P_MADE + k, k = 0..4: how often a typical bid of k is made
N_PARAMS = 12


@njit(cache=True, inline="always")
def holding(hand, suit):
    """(trump rank mask, side-card class) of ``hand`` with ``suit`` as trump."""
    trumps = (hand >> (suit * 13)) & 0x1FFF
    side = hand & ~suit_mask(suit)
    aces = min(popcount(side & _ACES), 2)
    tens = min(popcount(side & _TENS), 2)
    return trumps, aces * 3 + tens


@njit(cache=True, inline="always")
def points_distribution(p_at_least, out):
    """P(exactly j points), j = 0..4, from P(at least k), k = 1..4."""
    prev = 1.0
    for k in range(4):
        p = min(prev, max(0.0, np.float64(p_at_least[k])))
        out[k] = prev - p
        prev = p
    out[4] = prev


# ``contract_value``'s situation when no rival can go out while we pitch (win=pitcher).
NO_RIVAL = -np.inf


@njit(cache=True, inline="always")
def rival_odds(mine, out, first, rival, left, spread, target):
    """(P(our side wins), P(the nearest rival wins)) after a hand that leaves our side
    at ``mine`` (``out``: at the target, having made the bid or under set-pitcher-wins)
    and the rival at ``rival`` plus X of the ``left`` points we did not take, X ~
    Binomial(left, ``spread``) (1: one rival side takes them all).  We win going out
    ``first`` or above the rival; the rival wins at the target above us."""
    p_win = 0.0
    p_lose = 0.0
    ways = 1.0
    for x in range(left + 1):
        p = ways * spread**x * (1.0 - spread) ** (left - x)
        ways = ways * (left - x) / (x + 1)
        theirs = rival + x
        if out and (first or mine > theirs):
            p_win += p
        elif theirs >= target and theirs > mine:
            p_lose += p
    return p_win, p_lose


@njit(cache=True, inline="always")
def contract_value(
    dist, k, score, target, win_bonus, set_wins, keep, first, rival, rest, spread, loss
):
    """Expected change of the pitcher's side bidding k (``dist[j]``: P(its side takes
    exactly j points)), plus ``win_bonus`` times its chance to win the game and minus
    ``loss`` times a rival's.  Every preset's game situation as values (the base game:
    keep 0, no rival):

    - made (j >= k) scores j; set scores -k, less, when the pitcher's points still went
      to no rival, ``keep`` of them: (keep j - k) / (1 + keep);
    - the side wins when its new score reaches ``target`` having made the bid (or set,
      under ``set_wins``), and, unless it goes out ``first`` (win=pitcher and
      pitcher-first), is above the nearest rival's;
    - else that rival, at ``rival`` (``NO_RIVAL``: nobody goes out while we pitch,
      win=pitcher), wins when the points it takes of the ``rest - j`` we left (each
      with chance ``spread``, ``rival_odds``) bring it to the target above us."""
    v = 0.0
    for j in range(dist.size):
        won = j >= k
        mine = score + j if won else score - k
        out = (won or set_wins) and mine >= target
        gain = j if won else (keep * j - k) / (1.0 + keep)
        if rival == NO_RIVAL:
            gain += win_bonus if out else 0.0
        else:
            p_win, p_lose = rival_odds(mine, out, first, rival, rest - j, spread, target)
            gain += win_bonus * p_win - loss * p_lose
        v += dist[j] * gain
    return v


@njit(cache=True)
def odds_bid(
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
    weigh_game,
):
    partnership = rules[R_PARTNERSHIP] != 0
    target = np.float64(rules[R_TARGET])
    set_wins = rules[R_SET_PITCHER_WINS] != 0
    steal = rules[R_DEALER_STEAL] != 0
    defend = params[P_DEFENDER]
    score = np.float64(scores[seat])
    # The game situation in points: winning is worth a target's worth of points times
    # the win chance it adds (from an even share, 1 / sides); an opponent's win costs
    # that share.
    sides = 2 if partnership else n
    win_bonus = target * (1.0 - 1.0 / sides) if weigh_game else 0.0
    loss = target / sides if weigh_game else 0.0

    # Passing: someone else pitches (or the bid in front of us stands).
    pass_value = defend
    if high_seat >= 0:
        made = params[P_MADE + high]
        if partnership and high_seat % 2 == seat % 2:
            pass_value = made * (high + 0.5) - (1.0 - made) * high
            if score + high >= target:
                pass_value += win_bonus * made
        elif scores[high_seat] + high >= target:
            pass_value -= loss * made

    best_call = 0
    best_suit = -1
    best = pass_value if can_pass else -1e9
    dist = np.empty(5)
    for suit in range(4):
        if hand & suit_mask(suit) == 0:
            continue
        trumps, side = holding(hand, suit)
        points_distribution(odds[trumps, side], dist)
        for k in range(lowest, MAX_BID + 1):
            # Chance no later opponent overcalls.
            stand = 1.0
            if k < MAX_BID:
                for i in range(n_calls + 1, n):
                    later = (dealer + 1 + i) % n
                    if partnership and later % 2 == seat % 2:
                        continue
                    over = k if later == dealer and steal else k + 1
                    stand *= 1.0 - params[P_OVERCALL + over]
            v = stand * contract_value(
                dist, k, score, target, win_bonus, set_wins, 0.0, True, NO_RIVAL, 0, 0.0, loss
            )
            v += (1.0 - stand) * defend
            if v > best:
                best = v
                best_call = k
                best_suit = suit
    return best_call, best_suit
