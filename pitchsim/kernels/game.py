"""Whole games of every preset, the base game's too, in kernels: deal, auction, trump,
discard and draw, play, settle, until a side wins; the reference engine's ``play_game``
(VARIANTS.md 0.1, 0.9, 2.6, 2.11, 3.4, 3.11, 4.5, 6.1 win) in numba.

Game g of a seed starts with seat ``g % n`` dealing, and its deal d draws everything
(the cards, random calls, trump named at random, random cards) from the stream (seed,
g * MAX_DEALS + d): a game is the same on any thread count, and a tournament replaying
a board with the strategies rotated gets the same cards.

A deal (``play_deal``): the auction from the dealer's left (``bidding.legal_calls``,
``bidding.seat_call``, counter ``AUCTION_COUNTER + position``); all pass: nobody
scores, or the dealer's side -2 under all-pass=dealer-set (3.4), the same dealer deals
again under redeal (4.5), else the deal passes left (0.1, 2.6); otherwise trump is
named by the pitcher's bidding policy under trump=named (then the discard and draw,
4.8) or fixed by the first lead (a pitcher whose bidder planned a trump with its call,
the advisor, names it, or under first-lead leads in it, as ``kernels.advice`` played
the call out), the hand is played by the play policies
(``play.play_hand``), scored (``score``), settled (0.9) and the winners found
(``settle.winners``: a bit mask of sides; several bits: a shared win, 3.11).

**API** (positional)::

    whole_game(seed, game, n, bidders, players, fr, tab, odds, defender,
                     scores, stats, log) -> (winners, deals)

``bidders``/``players``: per-seat bidding (``bidding.BID_*``) and play
(``policies.RANDOM``/``HEURISTIC``, or ``rollout``'s in an int32 array) ids; ``odds`` (``bidding.N_ODDS_ROWS`` rows
x ``MAX_CALL``: P(at least k) by bucket, the share of hands worth k, a bid's make rate) and
``defender`` for the odds bidder (zeros otherwise); ``stats[seat, bid - 1, 0/1]``
hands pitched and made (a shoot at the maximum bid); ``log`` rows of
``log_layout(n)`` (size 0: none).  ``winners`` 0: nobody won in MAX_DEALS deals.

Under the base game's shape (``policies.base_shape``: auction-pitch's trumps, points and
first-lead trump, whatever its settling and win options) ``games_kernel`` picks, for
seats that neither search nor bid by the advisor, the tournaments' kernel with that
shape compiled in (``play_deal_base``: the plain play
loop, ``score.score_plain``), as a study run's kernel does (``sample.columns_kernel``): the
same games, game for game (tests/test_families_games.py), without the tests of what the
shape lacks.  One logged game (``whole_game`` from Python: ``play --game``, a
tournament's records) is played by the general kernel under every rules: it takes
milliseconds either way, and the shape compiled in again for it cost about a megabyte
of machine code per seat mix.
"""

import numpy as np
from numba import literally, njit, prange

from .bidding.calls import NAME_COUNTER, PASS, legal_calls, name_suit, seat_call
from .contract import MAX_DEALS
from .deal import deal_cards_fixed, takes_stock
from .partner import after_naming, partner_of
from .play import MAX_TRICKS, play_hand, play_hand_base
from .policies.cards import (
    any_rules,
    base_shape,
    opening_lead_base,
    opening_lead_in,
    refuse_unless_base_shape,
)
from .presets import (
    ALL_PASS_DEALER_FREE,
    ALL_PASS_DEALER_SET,
    ALL_PASS_REDEAL,
    F_ALL_PASS,
    F_HANDS,
    F_MAX_BID,
    F_TRUMP_NAMED,
)
from .rng import AUCTION_COUNTER, deal_key
from .score import N_AWARDS, plain_points, score_hand, score_plain, side_of
from .settle import count_hand, settle_hand, winners
from .simulate import hand_scratch

BLOCK = 16  # games per parallel block
MAX_CALL = 21  # calls 0 .. the largest maximum bid, 20 (VARIANTS.md 6.2: every award on)
DEALER_SET_PENALTY = 2

# One row of a game log.
G_DEALER, G_PITCHER, G_BID, G_SHOOT, G_TRUMP, G_MADE = 0, 1, 2, 3, 4, 5
G_TRICKS, G_SIZE, G_JUNK, G_WINNERS = 6, 7, 8, 9
G_FIXED = 10
FIXED_SEAT = 0  # who is dealt ``play_deal_fixed``'s fixed hand


def log_layout(n: int) -> dict[str, int]:
    """Offsets of a game-log row's fields for an n-player table, and its width."""
    at = {}
    pos = G_FIXED
    for name, size in (
        ("calls", n),
        ("call_legal", n),
        ("dealt", n),
        ("held", n),
        ("points", n),
        ("change", n),
        ("scores", n),
        ("award", N_AWARDS),
        ("deck", 54),
        ("junk", 54),
        ("tricks", MAX_TRICKS * (n + 2)),
        ("legal", MAX_TRICKS * n),
    ):
        at[name] = pos
        pos += size
    at["width"] = pos
    return at


@njit(cache=True, inline="always")
def play_deal(
    key,
    n,
    dealer,
    scores,
    bidders,
    players,
    fr,
    tab,
    odds,
    defender,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    award,
    points,
    change,
    calls,
    call_legal,
    log,
    legal_log,
    junk_log,
):
    """``play_deal_fixed`` with nothing fixed: the deal, the auction and trump as the
    seats' policies make them."""
    return play_deal_fixed(
        key,
        n,
        dealer,
        scores,
        bidders,
        players,
        fr,
        tab,
        odds,
        defender,
        np.int64(0),
        np.int64(-1),
        np.int64(0),
        deck,
        dealt,
        held,
        hands,
        won,
        trick,
        tseats,
        award,
        points,
        change,
        calls,
        call_legal,
        log,
        legal_log,
        junk_log,
    )


@njit(cache=True, inline="always")  # inlined: see play_deal_fixed
def bidding_round(
    key, n, dealer, scores, bidders, fr, tab, odds, defender, fixed_bid, first, high,
    high_seat, plan, dealt, points, change, calls, call_legal,
):  # fmt: skip
    """The auction of a deal (0.2: one round from the dealer's left) from position
    ``first`` on, the calls before it made (``calls[:first]``; ``high`` the highest,
    PASS: none, by ``high_seat`` (-1), who plans trump ``plan`` (-1: none)): a whole
    auction is ``first`` 0, PASS, -1, -1.  ``fixed_bid`` as ``play_deal_fixed``'s
    (0: none).  Clears ``points`` and ``change``.  Returns (pitcher (-1: all passed),
    bid, shoot, the pitcher's planned trump (-1: none)); under all-pass=dealer-free an
    auction all passed makes the dealer the pitcher at 0 (12.12)."""
    # int64 from the start: a constant passed here would first type the calls below
    # with a literal, which compiles each callee twice (``kernels``' compile notes)
    high, high_seat, plan = np.int64(high), np.int64(high_seat), np.int64(plan)
    for s in range(n):
        if s >= first:
            calls[s] = -1
            call_legal[s] = 0
        change[s] = 0
        points[s] = 0
    top = fr[F_MAX_BID]
    for i in range(first, n):
        seat = (dealer + 1 + i) % n
        legal = legal_calls(high, seat == dealer, scores[seat] >= 0, fr)
        if legal == 0:
            break
        planned = np.int64(-1)
        if fixed_bid > 0:
            call = fixed_bid if i == 0 else PASS
        else:
            call, planned = seat_call(
                bidders[seat], dealt[seat], seat, n, dealer, calls, i, high, high_seat, legal,
                scores, fr, tab, odds, defender, key, AUCTION_COUNTER + i,
            )  # fmt: skip
        calls[i] = call
        call_legal[i] = legal
        if call != PASS:  # a legal call is never below the highest (a steal equals it)
            high = call
            high_seat = seat
            plan = planned
    shoot = high == top + 1
    bid = top if shoot else high
    if high_seat < 0 and fr[F_ALL_PASS] == ALL_PASS_DEALER_FREE:
        high_seat = dealer  # 12.12: the dealer pitches at 0, names trump, always makes it
    return high_seat, bid, shoot, plan


@njit(cache=True, inline="always")
def passed_out(n, dealer, scores, change, fr):
    """A deal everybody passed: nobody scores, or the dealer's side -2 under
    all-pass=dealer-set (3.4); ``change`` as ``bidding_round`` cleared it.  Returns the
    winners (``settle.winners``)."""
    if fr[F_ALL_PASS] == ALL_PASS_DEALER_SET:
        mine = side_of(dealer, fr)
        for s in range(n):
            if side_of(s, fr) == mine:
                change[s] = -DEALER_SET_PENALTY
    for s in range(n):
        scores[s] += change[s]
    no = np.bool_(False)
    return winners(scores, n, np.int64(-1), no, no, fr, np.int64(-1))


@njit(cache=True, inline="always")
def settle_deal(points, n, pitcher, bid, shoot, partner, fr, change, scores):
    """A played hand's ``points`` settled (0.9) into ``change`` and ``scores``.  Returns
    (made, winners (``settle.winners``))."""
    made = settle_hand(points, n, pitcher, bid, fr, change, partner)
    for s in range(n):
        scores[s] += change[s]
    return made, winners(scores, n, pitcher, made, shoot, fr, partner)


@njit(cache=True, inline="always")
def play_called_hand(
    key, n, dealer, pitcher, bid, shoot, plan, scores, bidders, players, fr, tab, size,
    deck, dealt, held, hands, won, trick, tseats, award, points, change, log, legal_log,
    junk_log,
):  # fmt: skip
    """The rest of a deal ``bidding_round`` gave a pitcher: trump named by the
    pitcher's bidding policy under trump=named (then the discard and draw, 4.8) or fixed
    by the first lead, the play, the score and the settling; ``held`` is the hands
    dealt, ``plan`` (-1: none) the pitcher's planned trump: named, or under first-lead
    led in (its play policy's card of that suit, -1: none held).  ``scores`` are
    updated.  Returns (trump, made, tricks, cards drawn from the discards, winners)."""
    trump = np.int64(-1)
    drawn = np.int64(0)
    kitty = np.int64(0)
    called = np.int64(-1)
    first_lead = np.int64(-1)
    if fr[F_TRUMP_NAMED] != 0:
        trump = plan
        if trump < 0:
            trump = name_suit(
                bidders[pitcher], dealt[pitcher], n, fr, tab, key, AUCTION_COUNTER + NAME_COUNTER
            )
        drawn, kitty, called = after_naming(
            held, n, deck, size, pitcher, dealer, trump, fr, tab, key, junk_log
        )
    elif plan >= 0:
        first_lead = opening_lead_in(
            players[pitcher], dealt[pitcher], plan, n, pitcher, fr, tab, key, won, trick, tseats
        )
    trump, tricks = play_hand(
        held,
        dealt,
        kitty,
        n,
        pitcher,
        dealer,
        bid,
        trump,
        first_lead,
        called,
        players,
        fr,
        tab,
        key,
        hands,
        won,
        trick,
        tseats,
        log,
        legal_log,
    )
    partner = partner_of(held, n, pitcher, called)  # 12.1.5
    score_hand(held, won, n, trump, fr, tab, award, points, pitcher, partner)
    made, won_by = settle_deal(points, n, pitcher, bid, shoot, partner, fr, change, scores)
    return trump, made, tricks, drawn, won_by


# Inlined, as ``seat_call`` is: the advisor's own games (``kernels.advice``) deal by
# this code too, and numba takes a call to a function still being compiled (the game's,
# for int32 bidders) for recursion, leaving the int64 copy's symbol unresolved.
@njit(cache=True, inline="always")
def play_deal_fixed(
    key,
    n,
    dealer,
    scores,
    bidders,
    players,
    fr,
    tab,
    odds,
    defender,
    fixed_hand,
    fixed_trump,
    fixed_bid,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    award,
    points,
    change,
    calls,
    call_legal,
    log,
    legal_log,
    junk_log,
):
    """Deal, bid, play and settle one hand; ``scores`` are updated.  Returns (pitcher
    (-1: all passed), bid, shoot, trump, made, tricks, pack size, cards drawn from the
    discards, winners).  What ``pitchsim play --hand/--trump/--bid`` fixes: seat 0 is
    dealt ``fixed_hand`` (0: a dealt hand); ``fixed_bid`` (0: none) is the first
    caller's call, every later seat passing; ``fixed_trump`` (-1: none) is the suit the
    pitcher names under trump=named, or his first lead's suit, when he holds one, under
    trump=first-lead (his plan, as ``simulate.study_hand_fixed``)."""
    size = deal_cards_fixed(key, n, dealer, np.int64(FIXED_SEAT), fixed_hand, fr, deck, dealt)
    for s in range(n):
        held[s] = dealt[s]
    for i in range(N_AWARDS):
        award[i] = -2
    pitcher, bid, shoot, plan = bidding_round(
        key, n, dealer, scores, bidders, fr, tab, odds, defender, fixed_bid, np.int64(0), np.int64(PASS), np.int64(-1),
        np.int64(-1), dealt, points, change, calls, call_legal,
    )  # fmt: skip
    if pitcher < 0:
        return -1, 0, False, -1, False, 0, size, 0, passed_out(n, dealer, scores, change, fr)
    if fixed_trump >= 0:
        plan = fixed_trump
    trump, made, tricks, drawn, won_by = play_called_hand(
        key, n, dealer, pitcher, bid, shoot, plan, scores, bidders, players, fr, tab, size,
        deck, dealt, held, hands, won, trick, tseats, award, points, change, log, legal_log,
        junk_log,
    )  # fmt: skip
    return pitcher, bid, shoot, trump, made, tricks, size, drawn, won_by


@njit(cache=True, inline="always")
def play_deal_base(
    key, n, dealer, scores, bidders, players, fr, tab, odds, defender, deck, dealt, held,
    hands, won, trick, tseats, award, points, change, calls, call_legal, log, legal_log,
):  # fmt: skip
    """``play_deal`` under the base game's shape (``policies.base_shape``), compiled
    in as constants, as the hand kernels' ``simulate.study_hand_base``: trump fixed by
    the first lead (the pitcher's planned suit by ``policies.opening_lead_base``), no
    discard, no called partner, the base game's four points (``score.score_plain``).
    The same deal, auction, play and settlement as ``play_deal`` card for card."""
    size = deal_cards_fixed(key, n, dealer, np.int64(FIXED_SEAT), np.int64(0), fr, deck, dealt)
    for s in range(n):
        held[s] = dealt[s]
    pitcher, bid, shoot, plan = bidding_round(
        key, n, dealer, scores, bidders, fr, tab, odds, defender, np.int64(0), np.int64(0), np.int64(PASS), np.int64(-1),
        np.int64(-1), dealt, points, change, calls, call_legal,
    )  # fmt: skip
    if pitcher < 0:
        for i in range(N_AWARDS):
            award[i] = -2
        return (
            -1,
            0,
            False,
            -1,
            False,
            0,
            size,
            np.int64(0),
            passed_out(n, dealer, scores, change, fr),
        )
    first_lead = np.int64(-1)
    if plan >= 0:
        first_lead = opening_lead_base(players[pitcher], held[pitcher], plan, n, pitcher, fr, key)
    trump, tricks = play_hand_base(
        held, dealt, np.int64(0), n, pitcher, dealer, bid, np.int64(-1), first_lead, players, fr, tab,
        key, hands, won, trick, tseats, log, legal_log,
    )  # fmt: skip
    score_plain(held, won, n, trump, fr, award)
    plain_points(award, n, fr, points)
    made, won_by = settle_deal(points, n, pitcher, bid, shoot, np.int64(-1), fr, change, scores)
    return pitcher, bid, shoot, trump, made, tricks, size, np.int64(0), won_by


@njit(cache=True)
def _write_row(
    row,
    n,
    dealer,
    pitcher,
    bid,
    shoot,
    trump,
    made,
    tricks,
    size,
    drawn,
    won_by,
    calls,
    call_legal,
    dealt,
    held,
    points,
    change,
    scores,
    award,
    deck,
    junk,
):
    """The fixed fields and the per-seat arrays of a log row (``log_layout``);
    the tricks and legal cards were written by ``play.play_hand`` itself."""
    row[G_DEALER] = dealer
    row[G_PITCHER] = pitcher
    row[G_BID] = bid
    row[G_SHOOT] = shoot
    row[G_TRUMP] = trump
    row[G_MADE] = made if pitcher >= 0 else -1
    row[G_TRICKS] = tricks
    row[G_SIZE] = size
    row[G_JUNK] = drawn
    row[G_WINNERS] = won_by
    at = G_FIXED
    for i in range(n):
        row[at + i] = calls[i]
        row[at + n + i] = call_legal[i]
        row[at + 2 * n + i] = dealt[i]
        row[at + 3 * n + i] = held[i]
        row[at + 4 * n + i] = points[i]
        row[at + 5 * n + i] = change[i]
        row[at + 6 * n + i] = scores[i]
    at += 7 * n
    for i in range(N_AWARDS):
        row[at + i] = award[i]
    at += N_AWARDS
    for i in range(54):
        row[at + i] = deck[i] if i < size else -1
        row[at + 54 + i] = junk[i] if i < drawn else -1


@njit(cache=True)
def play_deal_logged(
    key, n, dealer, scores, bidders, players, fr, tab, odds, defender, row, hand, trump, bid
):
    """One deal played and logged to ``row`` (``log_layout(n)["width"]``) from
    the given ``scores`` (updated): what ``pitchsim play`` shows of a single hand;
    ``hand``, ``trump`` and ``bid`` as ``play_deal_fixed``'s fixed hand, trump and bid
    (0, -1, 0: none)."""
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
    change = np.empty(n, dtype=np.int64)
    calls = np.empty(n, dtype=np.int64)
    call_legal = np.empty(n, dtype=np.int64)
    t_at = G_FIXED + 7 * n + N_AWARDS + 108
    l_at = t_at + MAX_TRICKS * (n + 2)
    row[:] = -1
    row[t_at:l_at] = -9
    row[l_at:] = 0
    deck[:] = -1  # (the log shows -1 for a stock no step drew)
    pitcher, bid, shoot, trump, made, tricks, size, drawn, won_by = play_deal_fixed(
        key,
        n,
        dealer,
        scores,
        bidders,
        players,
        fr,
        tab,
        odds,
        defender,
        hand,
        trump,
        bid,
        deck,
        dealt,
        held,
        hands,
        won,
        trick,
        tseats,
        award,
        points,
        change,
        calls,
        call_legal,
        row[t_at:l_at],
        row[l_at:],
        junk,
    )
    _write_row(
        row,
        n,
        dealer,
        pitcher,
        bid,
        shoot,
        trump,
        made,
        tricks,
        size,
        drawn,
        won_by,
        calls,
        call_legal,
        dealt,
        held,
        points,
        change,
        scores,
        award,
        deck,
        junk,
    )


@njit(cache=True)
def whole_game(
    seed, game, n, bidders, players, fr, tab, odds, defender, scores, stats, log, base
):  # fmt: skip
    """Play game ``game`` of ``seed``; return (winners as a side mask, deals dealt).
    ``base`` True: the rules are the base game's shape, each deal played by
    ``play_deal_base`` (the same game, faster); None: any rules (``play_deal``).
    From Python, ``policies.cards.any_rules(whole_game)`` (base None)."""
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
    change = np.empty(n, dtype=np.int64)
    calls = np.empty(n, dtype=np.int64)
    call_legal = np.empty(n, dtype=np.int64)
    width = G_FIXED + 7 * n + N_AWARDS + 108 + MAX_TRICKS * (2 * n + 2)
    rows = log.size // width
    t_at = G_FIXED + 7 * n + N_AWARDS + 108
    l_at = t_at + MAX_TRICKS * (n + 2)
    scores[:n] = 0
    stats[:] = 0
    dealer = game % n
    counted = 0  # hands counted toward hands=N (12.4)
    # 12.4: the seats weigh a game of the hands left (the advisor's P(win)): one copy of
    # the rules a game, its hands counted down deal by deal
    rest = fr.copy() if fr[F_HANDS] != 0 else fr
    for d in range(MAX_DEALS):
        key = deal_key(seed, game * MAX_DEALS + d)
        logging = d < rows
        row = log[d * width : (d + 1) * width] if logging else log[0:0]
        if logging:
            row[:] = -1
            row[t_at:l_at] = -9
            row[l_at:] = 0
            deck[:] = -1  # (the log shows -1 for a stock no step drew)
        tlog = row[t_at:l_at] if logging else row[0:0]
        llog = row[l_at:] if logging else row[0:0]
        if fr[F_HANDS] != 0:
            rest[F_HANDS] = fr[F_HANDS] - counted
        # (an empty deck: the hands alone are dealt, when no step draws and no log reads it)
        pack = deck if logging or takes_stock(fr) else deck[:0]
        if base is None:
            pitcher, bid, shoot, trump, made, tricks, size, drawn, won_by = play_deal(
                key, n, dealer, scores, bidders, players, rest, tab, odds, defender, pack,
                dealt, held, hands, won, trick, tseats, award, points, change, calls,
                call_legal, tlog, llog, junk,
            )  # fmt: skip
        else:
            pitcher, bid, shoot, trump, made, tricks, size, drawn, won_by = play_deal_base(
                key, n, dealer, scores, bidders, players, rest, tab, odds, defender, pack,
                dealt, held, hands, won, trick, tseats, award, points, change, calls,
                call_legal, tlog, llog,
            )  # fmt: skip
        counted, won_by = count_hand(pitcher, won_by, counted, scores, n, fr)
        if logging:
            _write_row(
                row,
                n,
                dealer,
                pitcher,
                bid,
                shoot,
                trump,
                made,
                tricks,
                size,
                drawn,
                won_by,
                calls,
                call_legal,
                dealt,
                held,
                points,
                change,
                scores,
                award,
                deck,
                junk,
            )
        if pitcher >= 0 and bid > 0:  # (a dealer-free pitch at 0 is no bid, 12.12)
            stats[pitcher, bid - 1, 0] += 1
            if made:
                stats[pitcher, bid - 1, 1] += 1
        if won_by != 0:
            return won_by, d + 1
        if pitcher >= 0 or fr[F_ALL_PASS] != ALL_PASS_REDEAL:
            dealer = (dealer + 1) % n
    return np.int64(0), MAX_DEALS


@njit(cache=True, parallel=True)
def whole_games(
    seed, start, count, n, bidders, players, fr, tab, odds, defender, out_winners, out_scores,
    out_deals, out_stats, base,
):  # fmt: skip
    """Games ``start .. start+count-1`` of ``seed`` in parallel blocks: per game the
    winners (side mask), final scores, deals dealt and ``stats`` (see
    ``whole_game``).  Identical on any thread count.  ``base`` as
    ``whole_game``'s; from Python, ``games_kernel(fr, bidders, players)`` picks."""
    if base is not None:
        literally(base)
        refuse_unless_base_shape(fr)
    no_log = np.empty(0, dtype=np.int64)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        scores = np.empty(n, dtype=np.int64)
        stats = np.empty((n, MAX_CALL, 2), dtype=np.int64)
        for g in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            won_by, deals = whole_game(
                seed, start + g, n, bidders, players, fr, tab, odds, defender, scores, stats,
                no_log, base,
            )  # fmt: skip
            out_winners[g] = won_by
            out_deals[g] = deals
            for s in range(n):
                out_scores[g, s] = scores[s]
                for k in range(MAX_CALL):
                    out_stats[g, s, k, 0] = stats[s, k, 0]
                    out_stats[g, s, k, 1] = stats[s, k, 1]


@njit(cache=True, nogil=True)
def play_base_games(
    seed, start, count, n, bidders, players, fr, tab, odds, defender, out_winners, out_scores,
    out_deals, out_stats,
):  # fmt: skip
    """``whole_games`` with ``base=True``, for callers in Python (a Python call
    with a literal types its arguments again each time)."""
    whole_games(
        seed, start, count, n, bidders, players, fr, tab, odds, defender, out_winners,
        out_scores, out_deals, out_stats, True,
    )  # fmt: skip


def games_kernel(fr, bidders, players):
    """The kernel of ``whole_games``' arguments (without ``base``) for the rules ``fr``
    and these seats' ids: ``play_base_games`` under the base game's shape
    (``policies.base_shape``) when no seat bids by the advisor or plays by search (both
    arrays int64), else ``whole_games``.  A search or the advisor takes nearly all of
    such a game's time (a rollout tournament, alternated: 1,087 against 1,067 games a
    CPU second, base against general), while the shape compiled in again for them cost
    a megabyte of machine code per seat mix."""
    plain = bidders.dtype == np.int64 and players.dtype == np.int64
    return play_base_games if plain and base_shape(fr) else any_rules(whole_games)
