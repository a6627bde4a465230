"""Family hands end to end: one hand (``study_hand``), logged hands for the
cross-check (``play_logged``), many hands of one known hand in parallel
(``simulate_fixed``) and P(make k) for the pitcher's side (``make_odds``, a library
call).  A study run's hands, and the report's, are ``sample.record_columns``'.

**API** (positional, like the base game's kernels)::

    study_hand(key, n, dealer, pitcher, bid, policies, fr, tab,
                deck, dealt, held, hands, won, trick, tseats, award, points,
                log, legal_log, junk_log) -> (trump, tricks, size, junk_drawn,
                                              called, partner)

- ``key``: ``kernels.rng.deal_key(seed, deal)``; ``fr = tables.rules_array(rules)``,
  ``tab = tables.rules_table(rules)``; ``policies[seat]``: ``policies.RANDOM``,
  ``HEURISTIC`` or ``rollout``'s (int32 arrays) (the pitcher's also names trump under
  trump=named, a rollout seat as heuristic);
- scratch: ``deck`` (54), ``dealt``, ``held``, ``hands``, ``won``, ``trick``,
  ``tseats``, ``points`` (n each), ``award`` (``score.N_AWARDS``); ``log``,
  ``legal_log``, ``junk_log`` as for ``play.play_hand`` and ``draw.discard_and_draw``
  (size 0: not logged);
- out: ``dealt`` (as dealt), ``held`` (when play starts, 0.6), ``award`` and ``points``
  (``score``); returns trump, the number of tricks, the pack size (``deck[n * each :
  size]`` was the stock), how many cards were drawn from the discards, and under a
  called partner (12.1) the card called and its holder when play starts (-1: none).

The pitcher's side is then made for a bid ``k`` when ``points[pitcher] >= k``.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from ..game.rules import Rules
from .borrow import borrowed, keep_alive
from .deal import deal_cards_fixed, takes_stock
from .partner import after_naming, partner_of
from .play import play_hand, play_hand_base
from .policies.cards import (
    PLAIN_POLICY_IDS,
    name_trump,
    opening_lead_base,
    opening_lead_in,
)
from .presets import F_PARTNER, F_PARTNERSHIP, F_TRUMP_NAMED, rules_array, rules_table
from .rng import AUCTION_COUNTER, deal_key
from .score import (
    AWARD_NAMES,
    N_AWARDS,
    PLAIN_AWARDS,
    award_names,
    flags_points,
    score_hand,
    score_plain,
    side_flags_of,
    side_of,
)

BLOCK = 4096
PITCHER = 0


@njit(cache=True, inline="always")
def hand_scratch(n):
    """Scratch for dealing, playing and scoring a family hand of n players, reused hand
    after hand: (deck, dealt, held, hands, won, trick, tseats, award, points, junk)."""
    return (
        np.empty(54, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(N_AWARDS, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.empty(54, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def borrowed_scratch(n):
    """``hand_scratch(n)`` for a deal loop, as ``(owned, views)``: ``views`` the same ten
    arrays borrowed (``borrow``: no reference counting in the loop, nor at the calls
    that take them), ``owned`` the scratch itself, to pass to ``keep_alive`` after the
    loop.  (Inlined into its caller, which holds the owner: the views are no kernel's
    return value.)"""
    owned = hand_scratch(n)
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = owned
    views = (
        borrowed(deck), borrowed(dealt), borrowed(held), borrowed(hands), borrowed(won),
        borrowed(trick), borrowed(tseats), borrowed(award), borrowed(points), borrowed(junk),
    )  # fmt: skip
    return owned, views


@njit(cache=True, inline="always")
def study_hand(
    key,
    n,
    dealer,
    pitcher,
    bid,
    policies,
    fr,
    tab,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    award,
    points,
    log,
    legal_log,
    junk_log,
):
    return study_hand_fixed(
        key,
        n,
        dealer,
        pitcher,
        bid,
        np.int64(0),
        np.int64(-1),
        policies,
        fr,
        tab,
        deck,
        dealt,
        held,
        hands,
        won,
        trick,
        tseats,
        award,
        points,
        log,
        legal_log,
        junk_log,
    )


@njit(cache=True, inline="always")
def study_hand_fixed(
    key, n, dealer, pitcher, bid, fixed_hand, fixed_trump, policies, fr, tab, deck, dealt, held,
    hands, won, trick, tseats, award, points, log, legal_log, junk_log,
):  # fmt: skip
    """``study_play_fixed``, then the hand scored (``score.score_hand``)."""
    trump, tricks, size, drawn, called, partner = study_play_fixed(
        key, n, dealer, pitcher, bid, fixed_hand, fixed_trump, policies, fr, tab, deck, dealt,
        held, hands, won, trick, tseats, log, legal_log, junk_log,
    )  # fmt: skip
    score_hand(held, won, n, trump, fr, tab, award, points, pitcher, partner)
    return trump, tricks, size, drawn, called, partner


@njit(cache=True, inline="always")
def study_play_fixed(
    key,
    n,
    dealer,
    pitcher,
    bid,
    fixed_hand,
    fixed_trump,
    policies,
    fr,
    tab,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    log,
    legal_log,
    junk_log,
):
    """``study_hand`` played, not scored (``won``: each seat's tricks), with the
    pitcher dealt ``fixed_hand`` (0: a random hand) and,
    under trump=named, ``fixed_trump`` named (-1: the pitcher's policy names it).
    Under trump=first-lead a fixed trump is not a rule but the pitcher's plan: his
    first lead is then his play policy's card of that printed suit when he holds one
    (``policies.opening_lead_in``, as ``fixed_hand``'s and the base game's
    ``opening_lead_cards``)."""
    size = deal_cards_fixed(key, n, dealer, pitcher, fixed_hand, fr, deck, dealt)
    for s in range(n):
        held[s] = dealt[s]
    trump = np.int64(-1)
    drawn = np.int64(0)
    kitty = np.int64(0)
    called = np.int64(-1)
    first_lead = np.int64(-1)
    if fr[F_TRUMP_NAMED] != 0:
        trump = fixed_trump
        if trump < 0:
            trump = name_trump(
                policies[pitcher], dealt[pitcher], n, fr, tab, key, np.int64(AUCTION_COUNTER)
            )
        drawn, kitty, called = after_naming(
            held, n, deck, size, pitcher, dealer, trump, fr, tab, key, junk_log
        )
    elif fixed_trump >= 0:
        first_lead = opening_lead_in(
            policies[pitcher], held[pitcher], fixed_trump, n, pitcher, fr, tab, key, won, trick,
            tseats,
        )  # fmt: skip
    trump, tricks = play_hand(
        held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr, tab,
        key, hands, won, trick, tseats, log, legal_log,
    )  # fmt: skip
    return trump, tricks, size, drawn, called, partner_of(held, n, pitcher, called)


@njit(cache=True, inline="always")
def study_hand_base(
    key, n, dealer, pitcher, fixed_hand, fixed_trump, policies, fr, tab, deck, dealt, held,
    hands, won, trick, tseats, award, log, legal_log,
):  # fmt: skip
    """``study_hand_fixed`` under the base game's shape (``policies.base_shape``),
    compiled in as constants: trump fixed by the first lead (a ``fixed_trump`` by the
    pitcher's planned lead, ``policies.opening_lead_base``), no discard, no called
    partner (6.3.7), the base game's points (``score.score_plain``, ``award`` alone:
    each point is worth 1).  Returns trump.  (A function of its own, as
    ``play.play_hand_base``: ``sample.columns_kernel`` picks it.)"""
    deal_cards_fixed(key, n, dealer, pitcher, fixed_hand, fr, deck, dealt)
    for s in range(n):
        held[s] = dealt[s]
    first_lead = np.int64(-1)
    if fixed_trump >= 0:
        first_lead = opening_lead_base(
            policies[pitcher], held[pitcher], fixed_trump, n, pitcher, fr, key
        )
    trump, _ = play_hand_base(
        held, dealt, np.int64(0), n, pitcher, dealer, np.int64(0), np.int64(-1), first_lead, policies, fr, tab,
        key, hands, won, trick, tseats, log, legal_log,
    )  # fmt: skip
    score_plain(held, won, n, trump, fr, award)
    return trump


@njit(cache=True)
def play_logged(
    seed,
    start,
    count,
    n,
    dealer,
    pitcher,
    fixed_hand,
    fixed_trump,
    policies,
    fr,
    tab,
    out_dealt,
    out_deck,
    out_held,
    out_trump,
    out_log,
    out_legal,
    out_junk,
    out_award,
    out_points,
):
    """Deals ``start .. start+count-1``, every step recorded (row ``d`` of each out
    array; ``out_trump[d]`` = trump, tricks, pack size, cards drawn from discards, and
    when it has six columns the card called and the partner, 12.1, -1: none);
    ``fixed_hand``, ``fixed_trump`` as for ``study_hand_fixed``."""
    # The bid goes down as an int64: numba compiles a called kernel once per literal
    # argument, and with every argument of the hand's play an int64 its ``play_hand`` and
    # ``play_plain`` are the signatures a whole game compiles (``game.play_deal_fixed``,
    # ``pitchsim play --game``, ``tournament``), loaded from the cache, not compiled
    # again for this kernel alone (about 21 CPU s).
    deck = np.empty(54, dtype=np.int64)
    hands = np.empty(n, dtype=np.int64)
    won = np.empty(n, dtype=np.int64)
    trick = np.empty(n, dtype=np.int64)
    tseats = np.empty(n, dtype=np.int64)
    for d in range(count):
        out_log[d, :] = -9
        out_legal[d, :] = 0
        trump, tricks, size, drawn, called, partner = study_hand_fixed(
            deal_key(seed, start + d),
            n,
            dealer,
            pitcher,
            np.int64(0),  # (an int64, not a literal 0: see above)
            fixed_hand,
            fixed_trump,
            policies,
            fr,
            tab,
            deck,
            out_dealt[d],
            out_held[d],
            hands,
            won,
            trick,
            tseats,
            out_award[d],
            out_points[d],
            out_log[d],
            out_legal[d],
            out_junk[d],
        )
        out_deck[d, :] = deck
        out_trump[d, 0] = trump
        out_trump[d, 1] = tricks
        out_trump[d, 2] = size
        out_trump[d, 3] = drawn
        if out_trump.shape[1] > 5:  # 12.1: the card called and its holder (-1: none)
            out_trump[d, 4] = called
            out_trump[d, 5] = partner


@njit(cache=True, parallel=True, nogil=True)
def simulate_fixed(
    seed,
    start,
    count,
    n,
    fixed_hand,
    fixed_trump,
    policies,
    fr,
    tab,
    out_points,
    out_flags,
    out_trump,
):
    """Play deals ``start .. start+count-1`` with seat 0 as pitcher (dealer seat n-1),
    holding ``fixed_hand`` (0: a random hand) and ``fixed_trump`` as trump (-1: his
    policy's choice), as ``study_hand_fixed``: the hand-level odds of one known hand
    (``make_odds``).  Per deal: ``out_points`` the points the pitcher's side won;
    ``out_flags`` bit i set when award i (``score.AWARD_NAMES``) went to the pitcher's
    side; ``out_trump``.  (A study run's deals are ``sample.record_columns``': the
    same deals with no hand fixed.)"""
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        _play_block(
            seed, start, count, np.int64(b), n, fixed_hand, fixed_trump, policies, fr, tab, out_points,
            out_flags, out_trump,
        )  # fmt: skip


@njit(cache=True, inline="always")
def side_flags(award, mine, partners, partner):
    """Bit i set when award i went to side ``mine`` (``score.side_of``) or to the
    pitcher's called ``partner`` (12.1.6; -1: none), as selects: who won each point is
    data-dependent and its branches mispredict."""
    flags = np.int64(0)
    for i in range(N_AWARDS):
        a = award[i]
        side = a & 1 if partners else a
        flags |= np.int64((a >= 0) & (side == mine)) << i
    if partner >= 0:  # (a loop apart: no cost to a hand without one)
        for i in range(N_AWARDS):
            flags |= np.int64(award[i] == partner) << i
    return flags


@njit(cache=True, inline="always")
def plain_flags(award, mine, partners):
    """``side_flags`` of ``score.score_plain``'s awards (no partner called): the base
    game's four points alone."""
    flags = np.int64(0)
    for i in PLAIN_AWARDS:
        a = award[i]
        side = a & 1 if partners else a
        flags |= np.int64((a >= 0) & (side == mine)) << i
    return flags


@njit(cache=True, nogil=True)
def _play_block(
    seed, start, count, b, n, fixed_hand, fixed_trump, policies, fr, tab, out_points,
    out_flags, out_trump,
):  # fmt: skip
    # A function of its own, not inlined into the parallel kernels: numba's parallel
    # passes over a body holding the hand's play cost tens of CPU seconds of compile.
    # Borrowed views (``borrow``): no reference counting in the loop, nor at the calls
    # that take them; the scratch is kept alive past it.
    policies, fr, tab = borrowed(policies), borrowed(fr), borrowed(tab)
    owned, views = borrowed_scratch(n)
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = views
    no_log = borrowed(junk[:0])
    mine = side_of(np.int64(PITCHER), fr)
    partners = fr[F_PARTNERSHIP] != 0
    called_partner = fr[F_PARTNER] != 0
    # The deck's order matters only to a draw from the stock: without one the deal
    # writes the hands alone (``deal_cards_fixed``).
    deck = deck if takes_stock(fr) else deck[:0]  # (a kitty is the stock's last cards)
    for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
        key = deal_key(seed, start + d)
        trump, _, _, _, _, partner = study_play_fixed(
            key, n, n - 1, np.int64(PITCHER), np.int64(0), fixed_hand, fixed_trump, policies, fr, tab, deck,
            dealt, held, hands, won, trick, tseats, no_log, no_log, junk,
        )  # fmt: skip
        if called_partner:
            score_hand(held, won, n, trump, fr, tab, award, points, np.int64(PITCHER), partner)
            out_points[d] = points[PITCHER]
            out_flags[d] = side_flags(award, mine, partners, partner)
        else:  # the side's points are its awards' values: no seat's points needed
            flags = side_flags_of(held, won, n, trump, fr, tab, mine)
            out_points[d] = flags_points(flags)
            out_flags[d] = flags
        out_trump[d] = trump
    keep_alive(owned)


def policy_row(policy: str, players: int) -> np.ndarray:
    """Every seat playing ``policy`` (``random`` or ``heuristic``)."""
    if policy not in PLAIN_POLICY_IDS:
        from ..util.errors import InputError

        known = ", ".join(PLAIN_POLICY_IDS)
        raise InputError(f"unknown family play policy {policy!r} (known: {known})")
    return np.full(players, PLAIN_POLICY_IDS[policy], dtype=np.int64)


def make_odds(
    rules: Rules,
    players: int,
    deals: int,
    policy: str = "heuristic",
    seed: int = 1,
    hand: int = 0,
    trump: int = -1,
) -> dict:
    """Hand-level Monte Carlo of a family: seat 0 pitches (names trump by its policy
    under trump=named) and every seat plays ``policy``; ``hand`` (a mask of the cards
    dealt, 0: random) and ``trump`` (a suit, -1: the policy's) fix the pitcher's.
    Returns ``p_make[k-1]`` = P(the pitcher's side wins at least k points) for k = 1 ..
    the maximum bid, the mean points, P(each award of these rules to the pitcher's
    side), and the deals and seconds (wall and process CPU) of the kernel call."""
    r = rules
    r.check_players(players)
    if hand:
        from ..util.errors import InputError

        pack = sum(1 << c for c in r.pack(players))
        if hand & ~pack or hand.bit_count() != r.cards_each(players):
            raise InputError(
                f"the pitcher's hand must be {r.cards_each(players)} cards of the "
                f"{r.pack_size(players)}-card pack"
            )
    fr, tab = rules_array(r), rules_table(r)
    pts = np.empty(deals, np.int64)
    flags = np.empty(deals, np.int64)
    trumps = np.empty(deals, np.int64)
    args = (players, np.int64(hand), trump, policy_row(policy, players), fr, tab)
    simulate_fixed(seed, 0, 0, *args, pts, flags, trumps)  # compiles, if need be
    w0, c0 = time.perf_counter(), time.process_time()
    simulate_fixed(seed, 0, deals, *args, pts, flags, trumps)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {
        "rules": r,
        "players": players,
        "policy": policy,
        "deals": deals,
        "max_bid": r.max_bid,
        "p_make": [float((pts >= k).mean()) for k in range(1, r.max_bid + 1)],
        "mean_points": float(pts.mean()),
        "awards": {
            name: float(((flags >> i) & 1).mean())
            for i, name in enumerate(AWARD_NAMES)
            if name in award_names(r)
        },
        "trump_named": [float((trumps == t).mean()) for t in range(4)],
        "wall_s": wall,
        "cpu_s": cpu,
    }
