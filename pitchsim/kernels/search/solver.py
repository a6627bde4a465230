"""The double-dummy solver: the points the pitcher's side makes with every hand open,
under every preset (VARIANTS.md 0.5-0.8, 3.7, 4.9, 4.10; auction-pitch: 0-4).

Entry points (keep these signatures stable, search play is built on them)::

    table = new_table()        # transposition table: make once, reuse for every call
    v = position_values(hands, won, held, n, leader, trick, trick_len, trump, pitcher,
                        fr, tab, table, out, target, called)   # compiled: all below
    v = solve_preset(..., fr, tab, table, called)   # any preset: fr, tab =
    v = preset_card_values(..., fr, tab, table, out, called)   # rules_array, rules_table
    v = solve_position(hands, won, dealt, n, leader, trick, trick_len, trump, pitcher,
                       fr, table)
    v = card_values(hands, won, dealt, n, leader, trick, trick_len, trump, pitcher,
                    fr, table, out)   # out[52]: each legal card's value, -1 elsewhere
    v = card_targets(..., fr, table, out, target)   # a target query per card
    values = solve_deals(dealt2d, pitchers, fr)   # whole deals, parallel (prange)
    done, nodes = preset_world_values(worlds, pby, ...)  # pimc's worlds under a preset

``position_values``, ``preset_world_values`` and ``solve_deals`` are compiled (numba
``njit``, callable from other kernels); the others are Python calls of
``position_values``, so that the whole search is compiled once for a position's
questions, not once per question (see the note above ``position_values``).

The preset is data: its tables (``kernels/presets.py``: each card's effective suit and
order key per trump, the capture values) fill the solve's context, so one search plays
the jick and jokers (trumps in their order), the 10 (game=ten: no Game point), the 3
and the 5, low = dealt, partnerships, follow = suit and follow = only (only trumps are
played, the rest of the hands are out of play from the start, and a seat without a
trump is passed over, 4.9), lead-trump (the opening lead, 0.4) and trump fixed by the
first lead (6.3.5: never a joker).  ``solve_position`` and ``card_values`` take the base
game's options (``presets.rules_array`` of rules whose ``base_game`` holds) and play
auction-pitch's tables (``AUCTION_PITCH``): the same search node for node as before the
presets came in (scripts/solve_nodes.py).

- ``hands[s]``: the cards seat s still holds (int64 bit masks); ``won[s]``: the cards it
  captured in completed tricks; ``dealt[s]``: its hand as dealt (the cards in play, and
  Low's owner under low = dealt).  Arrays of at least n entries.
- ``trick[:trick_len]``: the trick in progress, from ``leader`` on; the player to move is
  ``(leader + trick_len) % n``.  ``trump`` is -1 only before the opening lead: then each
  lead is tried, its suit becoming trump (a whole-deal solve from the opening lead).
- ``fr`` of the base game's entry points: ``presets.rules_array(rules)`` of the base
  game's rules (auction-pitch's tables are theirs); follow = suit, low = dealt and
  partnership matter.
- The value counts points already captured.  The pitcher's side maximises it, every
  other seat minimises it; solo, Game goes to a single highest count (a tie: nobody);
  in partnership counts and points are pooled per team.  Every point is a trump's
  (High, Low, the jack, jick, jokers, the 10, 3 and 5), which the bounds rely on.
- ``card_values`` returns the position's value and writes, per legal card of the player
  to move, the value after that card (-1 for cards that are not legal).
- A node budget (search on a clock: numba cannot read a clock cheaply, nodes it can
  count): ``table[0, T_BUDGET] = nodes`` before a call makes the call stop once it has
  searched that many nodes and return -1 (``out`` then holds nothing to use), counting
  the stop in ``table[0, T_ABORTED]``; 0 (a new table's) is no budget.  A call that
  finishes within its budget gives exactly the value it gives without one.
  ``table[0, T_SAME] = 1`` before a call that solves the same position as the last call
  on this table (a retry with a bigger budget) keeps the last call's entries (bounds it
  proved), so the retry does not search again what the stopped call settled; each call
  clears it.  Any other call starts a fresh generation: entries of other positions are
  never read.

How (ideas from DDS's documentation, no code): the value is the largest k the pitcher's
side can force, found by zero-window searches "can it make k?"; each is an alpha-beta
search that stops at the first child that settles it.  Positions at trick boundaries go
in a transposition table storing bounds on the points still to come, keyed by the cards
each seat holds in relative ranks (:mod:`.ranks`: positions that differ only in which
plain cards were played share an entry), the leader and the game counts (a count that
can no longer matter -- below the pitcher's reach, or never the highest other -- is
cleared so more positions share an entry; under count dominance the others are kept as
distances from the pitcher's).  Before searching, quick bounds: points
already captured, points sure (a trump no opponent can beat: High always; the Jack or
Low when every trump above it is on the same side), points lost, Game decided.  From 5
players positions inside a trick are bounded too: a seat still to play with one legal
card counts as having played it, and a trick that no seat left on the other side can
take is its side's (at 4 players this costs more time than the nodes it saves); so a
forced seat's bounds are the next seat's, computed once for both (``F_KNOWN``).  Two
cards of one suit in one hand with no unplayed card between them and equal worth
(neither a game-count card nor the high, low or jack of trump) are one move.  Rank
relevance generalises that (issue 33; DDS's move generation, bridge-solver's "skip
irrelevant ranks"): every node reports the ranks its answer relied on -- a card that
won a trick over another of its suit, the winning card an in-trick bound compared, a
table entry's ranks (kept beside each bound, in relative ranks as the key) -- and once
a move is searched, the mover's other cards of its suit that no such rank parts from it
give the same answer and are skipped; the cards that score always matter.  Suit
relevance: every node also reports the suits led to a seat whose holding of that suit
its answer read (``SUIT_DEPS``, beside the ranks, in the table too), and a seat void in
the suit led skips a discard of another suit when both score nothing, neither is a trump
and the discard searched before read no holding of either suit (``_discard_twin``).  Partition
search (Ginsberg; DDS's winning-rank masks) reads those ranks in the table too: an
entry's bound covers every position that differs from the entry's only below the lowest
of its ranks in each suit, each seat holding as many plain cards of each suit and the
same cards that score (``_probe``; entries bucketed by what such positions share,
``PART_WAYS`` rows a bucket; ``table[0, T_NO_PARTITION] = 1`` looks up the exact
position only: the search before, node for node).  From 6 players an entry's bounds
also hold under Game counts at least as good (count dominance): its bucket is hashed
without the counts, and a second bucket hashed with them takes what the first cannot
hold, so a hand's entries under many counts do not evict each other (two-choice).  Moves
inside a trick: from 5 players, by whether the trick is safe for the mover's side after
the card (no seat of the other side still to play holds a legal card that beats it):
into a safe trick count and points first (and theirs taken with the cheapest safe
winner), into one the other side can still take nothing, a lost trick the cheapest card
(measured on whole random deals, 100 a size: 6 players 68.1M -> 51.1M nodes in all;
7 players p95 2.68M -> 0.74M nodes a deal, median 0.6 -> 0.2 ms; the few hardest deals
unchanged or up ~10%; at 4 players it costs more time than it saves).
``card_values`` solves each legal card and takes the best as the position's value.  A whole deal's value (``solve_position`` before the opening lead)
races the leads: for each k, every lead still able to make k searches up to a node
budget that grows round by round, and the first lead shown to make k settles it (one
lead may prove it in hundreds of nodes where another needs tens of millions).
"""

import numpy as np
from numba import njit, prange

from ...game.rules import Rules
from ..bits import (
    HONOURS,
    JACK,
    bit,
    card_game_points,
    game_tally,
    highest_card,
    lowest_card,
    popcount,
    suit_mask,
)
from ..presets import (
    F_FOLLOW,
    F_GAME_TEN,
    F_JOKER_GAME,
    F_LEAD_TRUMP,
    F_LOW_DEALT,
    F_PARTNER,
    F_PARTNERSHIP,
    FOLLOW_ONLY,
    FOLLOW_SUIT,
    JOKERS,
    PARTNER_CALLED,
    PARTNER_NONE,
    T_EFF,
    T_KEY,
    T_SUITS,
    T_TRUMPS,
    T_VALUE,
    rules_table,
)
from ..trump_order import ABOVE, highest_trump, lowest_trump
from .ranks import absolute_mask, relative_hands, relative_mask

# auction-pitch's tables (a compile-time constant): what solve_position and card_values,
# which take the base game's options, play by
AUCTION_PITCH = rules_table(Rules())
N_CARDS = 54  # with the jokers

TABLE_BITS = 16  # 65,536 entries, ~8 MB (16 int64s a row)
# From 5 players whole deals fill a small table (scripts/bench_solve.py, 100 deals, nodes
# and CPU: 6 players 68M / 7.2 s with 2**16 entries, 51M / 5.5 s with 2**20; 7 players
# 219M / 24 s and 132M / 16 s), so `pitchsim solve` and the benchmark take 2**20 (~134 MB).
BIG_TABLE_BITS = 20
BIG_TABLE_FROM = 5


def table_bits(players):
    """The table size (bits) for solving whole deals or positions at this table size."""
    return BIG_TABLE_BITS if players >= BIG_TABLE_FROM else TABLE_BITS


MAX_TABLE_BITS = 30  # 2**30 entries would be 100 GB: a larger request is a mistake
# hands 0..6, packed (leader, trump, counts), generation, lower, upper, cards left, and the
# ranks each bound's proof relied on (relative, as the hands: ``ranks.relative_mask``)
# and, for partition search, each seat's count of plain cards per suit (4 bits a suit,
# 16 a seat: seats 0-3 in _K_LA, 4-6 in _K_LB)
_COLS = 16
# Row 0 of a table: the generation counter, the index mask, nodes searched, searches given
# up, the node budget of the next call (0: none), the calls stopped by it, and T_SAME:
# 1 when the next call solves the same position as the last (a retry after a budget
# stop), so it keeps the last call's entries (cleared by that call).
# T_SKIPPED: moves skipped by rank relevance or suit relevance (a void seat's discards
# merged), summed over calls (bench_solve.py, tests); T_NO_RELEVANCE: 1 to search without
# skipping any (to compare: bench_solve.py --alternate, tests/test_solver_relevance.py),
# 2 with rank relevance alone (the search before the suit merge, node for node:
# bench_solve.py --alternate suits, tests/test_solver_suit_relevance.py).
T_GEN, T_MASK, T_NODES, T_GAVE_UP, T_BUDGET, T_ABORTED, T_SAME = 0, 1, 2, 3, 4, 5, 6
# T_NO_PARTITION: 1 to look entries up by the exact position only (to compare:
# bench_solve.py --alternate partition), -1 for partition search at every table size
# (tests; 0, a new table's: from PARTITION_FROM players).
# T_COVERED: cut-offs by the entry of another position (partition search), summed over
# calls (tests).
T_SKIPPED, T_NO_RELEVANCE, T_NO_PARTITION, T_COVERED = 7, 8, 9, 10
# T_YES_NODES, T_NO_NODES: nodes of the zero-window searches that answered yes (the
# pitcher's side makes the target) and no, summed over calls (bench_solve.py: where a
# deal's nodes go; the rest went to searches a lead race gave up).
T_YES_NODES, T_NO_NODES = 11, 12
# T_NO_DOMINANCE: 1 for partition search without count dominance (``_probe``: an entry's
# bound read only under its own Game counts; to compare, bench_solve.py --alternate
# dominance), -1 for dominance at every table size (tests; 0, a new table's: from
# DOMINANCE_FROM players, under partition search).  T_DOMINATED: cut-offs by an entry
# under other counts, summed over calls.
T_NO_DOMINANCE, T_DOMINATED = 13, 14
# T_NO_TWO_CHOICE: 1 for count dominance with one bucket an entry (hashed without its
# Game counts, where every count of one hand meets), as before; 0 (a new table's): a
# second bucket hashed with the counts too (``_search``; to compare, bench_solve.py
# --alternate twochoice).
T_NO_TWO_CHOICE = 15
_K_PACKED, _K_GEN, _K_LO, _K_HI, _K_LEFT, _K_RLO, _K_RHI = 7, 8, 9, 10, 11, 12, 13
_K_LA, _K_LB = 14, 15
# Partition search: an entry's bucket is chosen by what every position its bounds may
# cover shares (leader, counts, the cards that score, each seat's plain cards per suit),
# PART_WAYS rows a bucket.
PART_WAYS = 4
# From this many players (scripts/bench_solve.py --alternate partition, 200 deals: at 4
# players, on the small table, a bucket a whole class of positions shares thrashes: the
# worst deal 148K -> 590K nodes; from 5 players fewer nodes, 6-7 players 18-20% in all).
PARTITION_FROM = 5
# Count dominance (``_probe``) from this many players (bench_solve.py --alternate
# dominance, 200 deals: 6 players 87.3M -> 67.8M nodes in all, worst 27.7M -> 17.1M;
# 7 players p95 64.8 -> 54.0 ms; at 5 players 4.1M -> 5.2M nodes, one deal doubling:
# a hand's entries under several counts evict each other from a bucket.  With the second
# bucket (T_NO_TWO_CHOICE) it still costs there: 200 other deals, 26.3M -> 32.1M nodes).
DOMINANCE_FROM = 6
MAX_SEATS = 7
# From this many players positions inside a trick are bounded too (scripts/bench_solve.py:
# at 4 players the bound costs more than the nodes it saves, at 5-7 it saves more).
TRICK_BOUNDS_FROM = 5

# The solver's context: constants of one solve, in one small array.
C_N = 0
C_PITCHER = 1
C_TRUMP = 2
C_TMASK = 3  # the trump suit's cards
C_HIGH = 4  # bit of the highest trump in play
C_LOW = 5  # bit of the lowest trump in play (0 under low = dealt: Low is fixed then)
C_ONES = 6  # the other cards in play worth 1 to their captor: the jack, jick, jokers, the 10
# under game=ten
C_WORTH = 7  # cards that count for something: every point card, game-count cards
C_MUST_FOLLOW = 8
C_PARTNER = 9  # 0: each for himself; TEAMS: by seat parity (0.10); TWO_SIDES: C_PSEATS (12.1.6)
C_PSEATS = 10  # bit s set when seat s is on the pitcher's side
C_GEN = 11
C_NODES = 12
C_BASE = 13  # points fixed before any play: Low under low = dealt
C_IN_PLAY = 14
C_LOW_RANK = 15  # rank of the lowest trump in play (relative ranks start above it)
C_TRICK_BOUNDS = 16  # bound positions inside a trick too (pays from 5 players; measured)
C_LIMIT = 17  # a search gives up (returns -1) when C_NODES reaches this
C_GAVE_UP = 18  # searches given up at the limit
C_ABORT = 19  # the whole solve stops (returns -1) when C_NODES reaches this (a budget)
C_SECURE_ORDER = 20  # order moves in a trick by whether it is safe (pays from 5 players)
C_THREE = 21  # the 3 of trump when worth 3 (three=true)
C_FIVE = 22  # the 5 of trump when worth 5 (five=true)
C_GAME = 23  # 1: the Game point by count (0 under game=ten)
C_LOW_DEALT = 24
C_LEAD_TRUMP = 25  # the opening lead must be a trump when the leader holds one
C_ROOT_LEGAL = 26  # the root's cards may only be these (-1: any): the opening lead's rules
C_PLAIN_ORDER = 27  # 1: the trumps are one suit in rank order (no jick, no jokers)
C_ONLY = 28  # follow=only: only trumps are played, a seat without one is out (4.9)
C_SUITS = 29  # 4 entries: the cards of each effective suit
C_EFF = 33  # N_CARDS entries: each card's effective suit
C_SKEY = C_EFF + N_CARDS  # N_CARDS entries: each card's strength, bar following the lead
C_JOKER_HALF = C_SKEY + N_CARDS  # 1: joker-game=half, counts on the doubled scale (12.10)
C_SKIPPED = C_JOKER_HALF + 1  # moves skipped by rank relevance
C_RELEVANCE = C_SKIPPED + 1  # 1: skip moves by rank relevance (0: table[0, T_NO_RELEVANCE])
C_PARTITION = C_RELEVANCE + 1  # 1: partition search (0: table[0, T_NO_PARTITION])
C_WAYS = C_PARTITION + 1  # rows a bucket under partition search (fewer in a tiny table)
C_COVERED = C_WAYS + 1  # cut-offs by the entry of another position
C_YES_NODES = C_COVERED + 1  # nodes of searches that answered yes
C_NO_NODES = C_YES_NODES + 1  # ... and no
C_DOMINANCE = C_NO_NODES + 1  # 1: partition search reads entries under other counts
C_DOMINATED = C_DOMINANCE + 1  # cut-offs by an entry under other counts
C_TWO_CHOICE = C_DOMINATED + 1  # 1: under dominance, a second bucket hashed with the counts
# Under partner=called (12.1.3): the partner, who must play the called card to the first
# trick (-1: none), and the card as a bit.  Holding it means trick 1 is being played: he
# has played it by the end of trick 1.
C_DUTY = C_TWO_CHOICE + 1
C_CALLED = C_DUTY + 1
C_SUIT_MERGE = (
    C_CALLED + 1
)  # 1: a void seat's discards merged by suit relevance (``_discard_twin``)
C_MERGED = C_SUIT_MERGE + 1  # moves so skipped
_CTX = C_MERGED + 1
TEAMS = 1
TWO_SIDES = 2
_MAX_DEPTH = 80  # 7 seats x 10 cards, and a trick already begun
_MOVES = 10  # the most cards in a hand: ``buf[depth]`` holds the moves, then their scores
NO_LIMIT = 1 << 62
NO_CAP = 1 << 20  # ``_value``'s climb without a cap (more than any points total)
# Racing the opening leads (whole-deal value): each undecided lead gets this many nodes
# to settle "can it make k?", then RACE_GROWTH times as many, round after round.
# (Measured, scripts/bench_solve.py: growth 4, 8 or 16 alike.  Racing the moves of inner
# nodes too, and killer moves, cost more nodes than they saved.)
RACE_NODES = 2000
RACE_GROWTH = 4
# From this many players moves inside a trick are ordered by whether the trick is safe
# for the mover's side after the card (no seat of the other side still to play can beat
# it) or lost whatever it plays (measured, 3,000 deals: at 4 players 0.7% fewer nodes
# for 5-13% more CPU; at 5 players 8% fewer nodes, CPU alike; 6-7 players: the module's
# docstring).
SECURE_ORDER_FROM = 5


@njit(cache=True)
def new_table(bits=TABLE_BITS):
    """A transposition table of 2**bits entries; row 0 holds the generation counter, the
    index mask, the number of nodes searched so far and of searches given up.  At least 1
    bit: an entry is a bucket of two rows (``_index``), which a table of one row overruns."""
    if bits < 1 or bits > MAX_TABLE_BITS:
        raise ValueError("a transposition table needs 1 to 30 bits")
    t = np.zeros(((1 << bits) + 1, _COLS), dtype=np.int64)
    t[0, 1] = (1 << bits) - 1
    return t


@njit(cache=True, inline="always")
def _suit(card):
    return (card * 5042) >> 16  # card // 13 for 0..51


@njit(cache=True, inline="always")
def _strength(card, led, ctx):
    """Card order in a trick led in effective suit ``led``: trumps, then the suit led."""
    return ctx[C_SKEY + card] + 16 * (ctx[C_EFF + card] == led)


@njit(cache=True, inline="always")
def _eff(card, ctx):
    return ctx[C_EFF + card]


@njit(cache=True, inline="always")
def _rank(card):
    """A card's rank for ordering moves (the jokers between the 10 and the jack)."""
    return card % 13 if card < 52 else card - 44


@njit(cache=True, inline="always")
def _trumps_above(m, b, ctx):
    """The trumps of ``m`` (trumps only) above the trump ``b`` (a bit) in trump order."""
    if ctx[C_PLAIN_ORDER] != 0:
        return m & ~((b << 1) - 1)
    return m & ABOVE[ctx[C_TRUMP], highest_card(b)]


@njit(cache=True, inline="always")
def _top_trump(m, ctx):
    """The highest trump of ``m`` (trumps only, not empty) in trump order."""
    if ctx[C_PLAIN_ORDER] != 0:
        return highest_card(m)
    return highest_trump(m, ctx[C_TRUMP])


@njit(cache=True, inline="always")
def _slot(seat, ctx):
    """Where a seat's game count is kept: its own, its team's (0 or 1), or under a
    called partner its side's (0: the pitcher's, 1: the others', 12.1.6)."""
    if ctx[C_PARTNER] == 0:
        return seat
    if ctx[C_PARTNER] == TEAMS:
        return seat % 2
    return 0 if _on_pitcher_side(seat, ctx) else 1


@njit(cache=True, inline="always")
def _on_pitcher_side(seat, ctx):
    return (ctx[C_PSEATS] >> seat) & 1 != 0


@njit(cache=True, inline="always")
def _points(ctx):
    """Every card in play worth a point or more to its captor."""
    return ctx[C_HIGH] | ctx[C_LOW] | ctx[C_ONES] | ctx[C_THREE] | ctx[C_FIVE]


@njit(cache=True, inline="always")
def _roles(mask, ctx):
    """The points the cards in ``mask`` carry to their captor (one card may be High and
    Low, or High and the jack)."""
    return (
        ((mask & ctx[C_HIGH]) != 0)
        + ((mask & ctx[C_LOW]) != 0)
        + popcount(mask & ctx[C_ONES])
        + 3 * popcount(mask & ctx[C_THREE])
        + 5 * popcount(mask & ctx[C_FIVE])
    )


@njit(cache=True)
def _setup(ctx, dealt, n, pitcher, trump, fr, tab, called):
    """The solve's constants.  ``called``: the card the pitcher called (12.1; -1: none);
    its holder in ``dealt`` (the hands when play started) other than the pitcher is his
    partner, one side with him (12.1.5, 12.1.6), who under partner=called owes it to
    the first trick (12.1.3)."""
    ctx[:] = 0
    ctx[C_LIMIT] = NO_LIMIT
    ctx[C_ABORT] = NO_LIMIT
    ctx[C_N] = n
    ctx[C_PITCHER] = pitcher
    ctx[C_MUST_FOLLOW] = fr[F_FOLLOW] == FOLLOW_SUIT
    ctx[C_PARTNER] = TEAMS if fr[F_PARTNERSHIP] != 0 else 0
    ctx[C_LOW_DEALT] = fr[F_LOW_DEALT] != 0
    ctx[C_GAME] = fr[F_GAME_TEN] == 0
    ctx[C_JOKER_HALF] = fr[F_JOKER_GAME] != 0
    ctx[C_LEAD_TRUMP] = fr[F_LEAD_TRUMP] != 0
    ctx[C_ONLY] = fr[F_FOLLOW] == FOLLOW_ONLY
    ctx[C_ROOT_LEGAL] = -1
    ctx[C_TRICK_BOUNDS] = n >= TRICK_BOUNDS_FROM
    ctx[C_SECURE_ORDER] = n >= SECURE_ORDER_FROM
    pseats = 0
    for s in range(n):
        if (ctx[C_PARTNER] != 0 and s % 2 == pitcher % 2) or s == pitcher:
            pseats |= 1 << s
    ctx[C_DUTY] = -1
    if fr[F_PARTNER] != PARTNER_NONE and called >= 0:
        ctx[C_PARTNER] = TWO_SIDES  # (partnership=false under a called partner, 6.3.7)
        for s in range(n):
            if s != pitcher and dealt[s] >> called & 1:
                pseats |= 1 << s
                if fr[F_PARTNER] == PARTNER_CALLED:
                    ctx[C_DUTY] = s
                    ctx[C_CALLED] = bit(called)
    ctx[C_PSEATS] = pseats
    in_play = np.int64(0)
    for s in range(n):
        in_play |= dealt[s]
    ctx[C_IN_PLAY] = in_play
    if trump >= 0:
        _trump_context(ctx, trump, dealt, tab)


@njit(cache=True)
def _trump_context(ctx, trump, dealt, tab):
    """The trump-dependent constants, from the preset's tables; Low's point is fixed at
    the deal under low = dealt."""
    n = ctx[C_N]
    in_play = ctx[C_IN_PLAY]
    ctx[C_TRUMP] = trump
    tmask = tab[trump, T_TRUMPS]
    ctx[C_TMASK] = tmask
    ctx[C_PLAIN_ORDER] = tmask == suit_mask(trump)
    for u in range(4):
        ctx[C_SUITS + u] = tab[trump, T_SUITS + u]
    ones = np.int64(0)
    three = np.int64(0)
    five = np.int64(0)
    for c in range(N_CARDS):
        e = tab[trump, T_EFF + c]
        ctx[C_EFF + c] = e
        ctx[C_SKEY + c] = tab[trump, T_KEY + c] + 32 * (e == trump)
        if in_play >> c & 1:
            v = tab[trump, T_VALUE + c]
            if v == 1:
                ones |= bit(c)
            elif v == 3:
                three |= bit(c)
            elif v == 5:
                five |= bit(c)
    ctx[C_ONES] = ones
    ctx[C_THREE] = three
    ctx[C_FIVE] = five
    trumps = in_play & tmask & ~JOKERS  # High and Low are never a joker
    high = np.int64(0)
    low = np.int64(0)
    ctx[C_LOW_RANK] = 0
    if trumps != 0:
        high = bit(_top_trump(trumps, ctx))
        if ctx[C_PLAIN_ORDER] != 0:
            low = bit(lowest_card(trumps))
        else:
            low = bit(lowest_trump(trumps, trump))
        ctx[C_LOW_RANK] = lowest_card(low) % 13
    ctx[C_HIGH] = high
    ctx[C_BASE] = 0
    if ctx[C_LOW_DEALT] != 0:
        ctx[C_LOW] = 0
        for s in range(n):
            if dealt[s] & low and _on_pitcher_side(s, ctx):
                ctx[C_BASE] = 1
    else:
        ctx[C_LOW] = low
    jack = bit(trump * 13 + JACK)
    worth = high | low | jack | ones | three | five | HONOURS
    if three | five:
        # The 3 and 5 of trump lie among the plain trumps, where the table's key renames
        # plain cards to the ranks just above Low (ranks.py): it would rename one onto
        # them.  So under three or five no trump is renamed.
        worth |= tmask
    ctx[C_WORTH] = worth


@njit(cache=True, inline="always")
def _after(hands, seat, leader, i, ctx):
    """The seat to play after ``seat`` (the ``i``-th card of the trick led by
    ``leader``), -1 when the trick is complete.  Under follow=only the hands hold only
    the trumps (the rest are never played) and a seat holding none is out (4.9)."""
    n = ctx[C_N]
    if ctx[C_ONLY] == 0:
        if i == n - 1:
            return -1
        return seat + 1 if seat + 1 < n else 0
    s = seat
    while True:
        s += 1
        if s == n:
            s = 0
        if s == leader:
            return -1
        if hands[s] != 0:
            return s


@njit(cache=True, inline="always")
def _lead_from(hands, seat, ctx):
    """Who leads after ``seat`` takes a trick: itself, or under follow=only the first
    seat from it still holding a trump (4.9)."""
    if ctx[C_ONLY] == 0:
        return seat
    n = ctx[C_N]
    s = seat
    for _ in range(n):
        if hands[s] != 0:
            return s
        s = s + 1 if s + 1 < n else 0
    return seat


@njit(cache=True, inline="always")
def _one_card_each(hands, seat, ctx):
    """The last trick: the leader ``seat`` (and under follow=only every seat) holds one
    card at most."""
    if ctx[C_ONLY] == 0:
        return hands[seat] & (hands[seat] - 1) == 0
    for s in range(ctx[C_N]):
        if hands[s] & (hands[s] - 1) != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _game_won(counts, ctx):
    """1 when the pitcher's side takes the Game point by count (the highest, untied)."""
    if ctx[C_GAME] == 0:
        return 0
    p, o = _game_totals(counts, ctx)
    return 1 if p > o else 0


@njit(cache=True, inline="always")
def _count(mask, ctx):
    """The Game count of ``mask`` on the rules' scale (``game_tally``)."""
    return game_tally(mask, ctx[C_JOKER_HALF] != 0)


@njit(cache=True, inline="always")
def _game_totals(counts, ctx):
    """(pitcher side's count, the highest other count)."""
    p = ctx[C_PITCHER]
    if ctx[C_PARTNER] != 0:
        m = _slot(p, ctx)
        return counts[m], counts[1 - m]
    best = 0
    for s in range(ctx[C_N]):
        if s != p and counts[s] > best:
            best = counts[s]
    return counts[p], best


@njit(cache=True)
def _bounds(hands, counts, ctx, rest, pts):
    """(points sure, points still possible) for the pitcher's side at a trick boundary."""
    n = ctx[C_N]
    mine = np.int64(0)
    for s in range(n):
        if _on_pitcher_side(s, ctx):
            mine |= hands[s]
    theirs = rest & ~mine
    tmask = ctx[C_TMASK]
    lo = pts
    hi = pts
    pm = rest & _points(ctx)  # every point card is a trump
    while pm:
        b = pm & -pm
        pm &= pm - 1
        w = _roles(b, ctx)
        above = _trumps_above(rest & tmask, b, ctx)
        if b & mine:
            hi += w
            if above & theirs == 0:
                lo += w
        elif above & mine != 0:
            hi += w
    if ctx[C_GAME] == 0:
        return lo, hi
    left = _count(rest, ctx)
    p, o = _game_totals(counts, ctx)
    if p > o + left:
        lo += 1
        hi += 1
    elif p + left > o:
        hi += 1
    return lo, hi


@njit(cache=True)
def _beaters(win_card, led, ctx):
    """The cards that would beat ``win_card`` in a trick led in suit ``led``."""
    trump = ctx[C_TRUMP]
    above = ~((bit(win_card) << 1) - 1)
    if _eff(win_card, ctx) == trump:
        return _trumps_above(ctx[C_TMASK], bit(win_card), ctx)
    return ctx[C_TMASK] | (ctx[C_SUITS + led] & above)


@njit(cache=True)
def _trick_bounds(
    hands, counts, ctx, rest, pts, i, to_move, leader, led, win_card, win_seat, taken
):
    """(points sure, points still possible, the card that wins the trick so far) inside a
    trick: ``taken`` its cards so far, ``rest`` every card not in a completed trick (hands
    and ``taken``).

    A seat still to play with one legal card (a single trump when trump is led, say)
    counts as having played it.  If no seat still free to play on the other side can
    beat the winning card, the trick is that side's.  A trump in the trick can take a
    High, Low or Jack only if its holder is still free to play.  The bounds rely on no
    rank but the winning card's (the one returned, the seats forced counted) and those
    of the cards that score: every other card only by its suit and holder."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    tmask = ctx[C_TMASK]
    follow_mask = ctx[C_SUITS + led]
    trump_ok = tmask if (led != trump and ctx[C_MUST_FOLLOW] == 0) else 0
    mine = np.int64(0)
    side = ctx[C_PSEATS]
    while side:
        mine |= hands[lowest_card(side)]
        side &= side - 1
    free = np.int64(0)  # the cards of the seats still free to choose in this trick
    free_seats = 0
    seat = to_move
    while True:  # the seats still to play, ``to_move`` on (follow=only: those in)
        hand = hands[seat]
        follow = hand & follow_mask
        legal = hand if follow == 0 else follow | (hand & trump_ok)
        if legal == 0:
            pass  # out of the hand (follow=only)
        elif legal & (legal - 1) == 0:
            taken |= legal
            c = lowest_card(legal)
            if _strength(c, led, ctx) > _strength(win_card, led, ctx):
                win_card = c
                win_seat = seat
        else:
            free_seats |= 1 << seat
        seat += 1
        if seat == n:
            seat = 0
        if seat == leader:
            break
    ours = _on_pitcher_side(win_seat, ctx)
    beat = _beaters(win_card, led, ctx)
    decided = True
    m = free_seats
    while m:
        seat = lowest_card(m)
        m &= m - 1
        free |= hands[seat]
        if _on_pitcher_side(seat, ctx) != ours and hands[seat] & beat:
            decided = False
    theirs = rest & ~mine & ~taken
    mine &= ~taken
    mine_won = decided and ours  # the trick, and the cards in it so far, are ours
    their_won = decided and not ours
    lo = pts
    hi = pts
    pm = rest & _points(ctx)
    while pm:
        b = pm & -pm
        pm &= pm - 1
        w = _roles(b, ctx)
        if b & taken:
            if mine_won:
                lo += w
                hi += w
            elif not their_won:
                hi += w
            continue
        above = _trumps_above(rest & tmask, b, ctx)
        threat = taken if b & free else 0
        if b & mine:
            hi += w
            if above & theirs == 0 and (mine_won or above & threat == 0):
                lo += w
        elif above & (mine | threat) != 0:
            hi += w
    if ctx[C_GAME] == 0:
        return lo, hi, win_card
    p, o = _game_totals(counts, ctx)
    left = _count(rest, ctx)
    held = _count(rest & ~taken, ctx)
    if p > o + left or (mine_won and p + _count(taken, ctx) > o + held):
        lo += 1
        hi += 1
    elif p + (held if their_won else left) > o:
        hi += 1
    return lo, hi, win_card


@njit(cache=True)
def _key(hands, counts, ctx, rest, leader, rel):
    """A trick-boundary position's table key: ``rel[:n]`` the hands in relative ranks
    (the cards that score -- High, Low, Jack, count cards -- by name: whether each is
    still out), and returned, leader, trump and game counts packed into one int64;
    counts that cannot matter cleared.  (Trump: before the opening lead one table serves
    every lead's suit.)"""
    n = ctx[C_N]
    relative_hands(hands, n, rest, ctx[C_WORTH], ctx[C_TRUMP], ctx[C_LOW_RANK], rel)
    left = _count(rest, ctx)
    p, o = _game_totals(counts, ctx)
    # A count takes 7 bits (at most 80), 8 on joker-game=half's doubled scale (162):
    # seven seats fill bits 0-48 or 0-55, with leader, trump and two flags above them.
    half = ctx[C_JOKER_HALF] != 0
    width = 8 if half else 7
    if half:
        top = (leader << 60) | (ctx[C_TRUMP] << 56)
        none, sure = np.int64(1) << 58, np.int64(1) << 59
    else:
        top = (leader << 56) | (ctx[C_TRUMP] << 50)
        none, sure = np.int64(1) << 54, np.int64(1) << 55
    if ctx[C_GAME] == 0:
        return top | none  # no Game point: the counts never matter
    if p > o + left:
        return top | sure  # Game is the pitcher side's whatever happens
    if p + left <= o:
        return top | none  # Game is out of reach
    # Game compares counts only with each other: under count dominance, when the fields
    # hold it (2 * left + 1 fits), each count that matters is kept as its distance from
    # the pitcher side's (plus left + 1: 0 is a count cleared, the pitcher's own field
    # 0), so positions whose counts differ by a constant share an entry and dominance
    # compares the distances (bench_solve.py, 200 deals: 6 players 55.28M -> 54.63M
    # nodes, 7 players 68.69M -> 67.41M; without dominance it costs: 4 players +0.6%).
    # (The same hands hold the same count still out: one encoding a hand.)
    relative = ctx[C_DOMINANCE] != 0 and 2 * left + 1 < (1 << width)
    base = p - left - 1 if relative else 0
    packed = np.int64(0)
    if ctx[C_PARTNER] != 0:
        m = _slot(ctx[C_PITCHER], ctx)
        packed = (o - base) << (width * (1 - m))
        if not relative:
            packed |= p << (width * m)
    else:
        pitcher = ctx[C_PITCHER]
        for s in range(n):
            c = counts[s]
            if s == pitcher:
                c = 0 if relative else c
            elif c + left < p:
                c = 0  # can never reach the pitcher's count
            else:
                c -= base
                for a in range(n):
                    if a != pitcher and counts[s] + left < counts[a]:
                        c = 0  # can never reach seat a's count: never the highest other
                        break
            packed |= c << (width * s)
    return top | packed


@njit(cache=True, inline="always")
def _index(hands, n, packed, mask):
    h = np.uint64(packed) * np.uint64(0x9E3779B97F4A7C15)
    for s in range(n):
        h = (h ^ np.uint64(hands[s])) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(31)
    return 1 + np.int64(h & np.uint64(mask & ~1))  # a bucket of two rows: this and the next


# One frame of the search stack per card played (numba's cache cannot hold recursive
# functions, numba issue 6061, so the search keeps its own stack).
F_SEAT, F_LEADER, F_I, F_LED, F_WCARD, F_WSEAT, F_TAKEN, F_PTS, F_REST = 0, 1, 2, 3, 4, 5, 6, 7, 8
F_IDX, F_CNT, F_MAX, F_ROW, F_PACKED, F_SLOT, F_GAINED, F_HAND = 9, 10, 11, 12, 13, 14, 15, 16
# Rank relevance: F_RANKS the ranks the node's answer relied on (its cards in play whose
# rank, not only suit and holder, mattered: a card that won a trick by rank, a table
# entry's; the cards that score always matter and are left out); F_SEEN the union of
# its searched moves' (theirs in ``buf[d, _MOVES + k]``); F_TRICK_RANKS the ranks the
# trick completed by the move under search relied on; F_LEGAL the legal cards.
F_RANKS, F_SEEN, F_TRICK_RANKS, F_LEGAL = 17, 18, 19, 20
# A card forced (one legal card, the one ``_trick_bounds`` counts as played): F_FORCED.
# F_KNOWN: the in-trick bounds here are known not to settle the node: the seat before
# was forced, and the bounds there (which counted its card as played, so equal these)
# did not (the same search node for node, without computing them twice).
F_FORCED, F_KNOWN = 21, 22
# Suit relevance: a node's ranks also carry, in bits SUIT_DEPS on, the suits led to a
# seat whose answer relied on its holding of that suit (whether it could follow); kept
# beside the ranks in the table.  A card's bit is below 54, so these never meet one.
SUIT_DEPS = 56
_DEPS = np.int64(15) << SUIT_DEPS
_FRAME = 23
_ENTER, _NEXT, _FINISH, _LEAVE = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _won_by_rank(win_card, taken, ctx):
    """The ranks a completed trick's result relied on: its winning card's, when another
    card of its effective suit is in the trick (else it won by suit alone)."""
    b = bit(win_card)
    if taken & ctx[C_SUITS + _eff(win_card, ctx)] & ~b:
        return b
    return np.int64(0)


@njit(cache=True)
def _last_trick(hands, counts, ctx, leader, pts):
    """The final value when every seat holds one card: no choice is left; and the ranks
    it relied on (``_won_by_rank``)."""
    n = ctx[C_N]
    led = _eff(lowest_card(hands[leader]), ctx)
    taken = np.int64(0)
    best = -1
    winner = leader
    for j in range(n):
        seat = (leader + j) % n
        if hands[seat] == 0:
            continue  # out (follow=only)
        c = lowest_card(hands[seat])
        taken |= bit(c)
        st = _strength(c, led, ctx)
        if st > best:
            best = st
            winner = seat
    slot = _slot(winner, ctx)
    gained = _count(taken, ctx)
    counts[slot] += gained
    game = _game_won(counts, ctx)
    counts[slot] -= gained
    if _on_pitcher_side(winner, ctx):
        pts += _roles(taken, ctx)
    ranks = _won_by_rank(lowest_card(hands[winner]), taken, ctx)
    return pts + game, ranks | (np.int64(1) << (SUIT_DEPS + led))


@njit(cache=True, inline="always")
def _lengths(rel, n, worth):
    """Each seat's count of plain cards per suit, packed 4 bits a suit, 16 a seat: seats
    0-3 in the first value, 4-6 in the second."""
    la = np.int64(0)
    lb = np.int64(0)
    for s in range(n):
        p = rel[s] & ~worth
        v = np.int64(0)
        for u in range(4):
            v |= popcount(p & suit_mask(u)) << (4 * u)
        if s < 4:
            la |= v << (16 * s)
        else:
            lb |= v << (16 * (s - 4))
    return la, lb


@njit(cache=True, inline="always")
def _part_index(rel, n, packed, la, lb, worth, mask, ways):
    """Partition search's bucket (``ways`` rows from the one returned): a hash of what
    every position an entry may cover shares with it: the key's packed word, the cards
    that score and each seat's plain cards per suit."""
    h = np.uint64(packed) * np.uint64(0x9E3779B97F4A7C15)
    h = (h ^ np.uint64(la)) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ np.uint64(lb)) * np.uint64(0x94D049BB133111EB)
    for s in range(n):
        h = (h ^ np.uint64(rel[s] & worth)) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(31)
    return 1 + np.int64(h & np.uint64(mask & ~(ways - 1)))


@njit(cache=True, inline="always")
def _upward(ranks):
    """Per suit, every rank from the lowest of ``ranks`` in it up (relative ranks)."""
    out = np.int64(0)
    for u in range(4):
        m = ranks & suit_mask(u)
        if m:
            out |= suit_mask(u) & ~((m & -m) - 1)
    return out


@njit(cache=True, inline="always")
def _covers(table, row, rel, n, matter):
    """Do the entry's hands and ``rel`` agree on the cards ``matter``?"""
    for s in range(n):
        if (table[row, s] ^ rel[s]) & matter:
            return False
    return True


@njit(cache=True, inline="always")
def _count_bits(ctx):
    """The Game counts' bits in a key's packed word (``_key``)."""
    width = 8 if ctx[C_JOKER_HALF] != 0 else 7
    return (np.int64(1) << (width * MAX_SEATS)) - 1


@njit(cache=True)
def _at_least_as_good(a, b, ctx):
    """Are the packed Game counts ``a`` at least as good for the pitcher's side as
    ``b``: its count no lower, every other count no higher?  (A count the key cleared
    is 0 there: one that can never matter, as good for the pitcher's side as any.  Kept
    as distances from the pitcher's, ``_key``, the pitcher's fields are 0 and the
    others' compare the distances.)"""
    width = 8 if ctx[C_JOKER_HALF] != 0 else 7
    slots = 2 if ctx[C_PARTNER] != 0 else ctx[C_N]
    mine = _slot(ctx[C_PITCHER], ctx)
    field = (np.int64(1) << width) - 1
    for s in range(slots):
        x = (a >> (width * s)) & field
        y = (b >> (width * s)) & field
        if (x < y) if s == mine else (x > y):
            return False
    return True


@njit(cache=True)
def _probe(table, rel, n, gen, packed, la, lb, worth, base, ways, pts, target, cmask, ctx):
    """Partition search (Ginsberg; DDS's winning-rank masks): a bound of an entry holds
    for every position that differs from the entry's only below the lowest rank its
    proof relied on in each suit (those ranks kept beside it, relative), each seat
    holding as many plain cards of each suit, the cards that score the same.  Below
    that rank no card won a trick over another of its suit, nor did a bound compare
    it (else its rank would be among them), so the proof carries over card for card,
    each seat's low cards of a suit in order for the entry's.

    Count dominance (``cmask`` the counts' bits, 0 for none; Furtak & Buro's payoff
    similarity): the value only grows with the pitcher side's Game count and shrinks
    with any other, so an entry's lower bound holds under counts at least as good for
    the pitcher's side, its upper bound under counts at most as good; such entries
    share a bucket (``_part_index`` hashes the key without the counts then).

    (1 or 0 the answer, -1 none; the entry's relative ranks behind it; the row holding
    this exact position, -1 when none does.)"""
    exact = -1
    for row in range(base, base + ways):
        if table[row, _K_GEN] != gen or table[row, _K_LA] != la or table[row, _K_LB] != lb:
            continue
        other = table[row, _K_PACKED]
        if other != packed:
            if (other ^ packed) & ~cmask:
                continue  # (cmask 0: every other key)
            if table[row, _K_LO] + pts >= target and _at_least_as_good(packed, other, ctx):
                r = table[row, _K_RLO]
                if _covers(table, row, rel, n, worth | _upward(r)):
                    return 1, r, row
            elif table[row, _K_HI] + pts < target and _at_least_as_good(other, packed, ctx):
                r = table[row, _K_RHI]
                if _covers(table, row, rel, n, worth | _upward(r)):
                    return 0, r, row
            continue
        if table[row, _K_LO] + pts >= target:
            r = table[row, _K_RLO]
            if _covers(table, row, rel, n, worth | _upward(r)):
                return 1, r, row
        elif table[row, _K_HI] + pts < target:
            r = table[row, _K_RHI]
            if _covers(table, row, rel, n, worth | _upward(r)):
                return 0, r, row
        if exact < 0 and _covers(table, row, rel, n, np.int64(-1)):
            exact = row
    return -1, 0, exact


@njit(cache=True)
def _exact_probe(table, rel, n, gen, packed, pts, target, left, lo, hi):
    """The table looked up by the exact position (a bucket of two rows, ``_index``),
    returned as ``_probe``'s; a position not found takes a row, with its quick bounds
    ``lo`` and ``hi``, the entry of the bigger subtree kept in the bucket's first row."""
    row = _index(rel, n, packed, table[0, 1])
    if _same_entry(table, row + 1, gen, packed, rel, n):
        row += 1
    if _same_entry(table, row, gen, packed, rel, n):
        if table[row, _K_LO] + pts >= target:
            return 1, table[row, _K_RLO], row
        if table[row, _K_HI] + pts < target:
            return 0, table[row, _K_RHI], row
        return -1, 0, row
    if table[row, _K_GEN] == gen and table[row, _K_LEFT] > left:
        row += 1
    _claim(table, row, gen, packed, rel, n, lo - pts, hi - pts)
    table[row, _K_LEFT] = left
    return -1, 0, row


@njit(cache=True)
def _victim(table, base, ways, gen):
    """The row of a bucket a new entry takes: a stale one, else the smallest subtree's."""
    best = base
    for row in range(base, base + ways):
        if table[row, _K_GEN] != gen:
            return row
        if table[row, _K_LEFT] < table[best, _K_LEFT]:
            best = row
    return best


@njit(cache=True, inline="always")
def _same_entry(table, row, gen, packed, hands, n):
    if table[row, _K_GEN] != gen or table[row, _K_PACKED] != packed:
        return False
    for s in range(n):
        if table[row, s] != hands[s]:
            return False
    return True


@njit(cache=True, inline="always")
def _claim(table, row, gen, packed, hands, n, lo, hi):
    """A new entry holding quick bounds (``_bounds``: they rely on no plain card's rank)."""
    table[row, _K_GEN] = gen
    table[row, _K_PACKED] = packed
    for s in range(n):
        table[row, s] = hands[s]
    table[row, _K_LO] = lo
    table[row, _K_HI] = hi
    table[row, _K_RLO] = 0
    table[row, _K_RHI] = 0


@njit(cache=True)
def _search(
    hands,
    counts,
    ctx,
    table,
    buf,
    fr,
    rest,
    seat,
    leader,
    i,
    led,
    win_card,
    win_seat,
    taken,
    pts,
    target,
):
    """Can the pitcher's side finish with at least ``target`` points?  1 yes, 0 no, -1
    given up at the node limit ``ctx[C_LIMIT]`` (the table keeps only settled bounds).

    Alpha-beta with a zero window: a node of the pitcher's side is True as soon as one
    move is, any other node False as soon as one move is.  ``hands`` and ``counts`` are
    changed while searching and restored on return.
    """
    n = ctx[C_N]
    gen = ctx[C_GEN]
    trump = ctx[C_TRUMP]
    tmask = ctx[C_TMASK]
    must_follow = ctx[C_MUST_FOLLOW] != 0
    rel = np.empty(MAX_SEATS, dtype=np.int64)  # the hands in relative ranks (the table's key)
    d = np.int64(0)  # (typed int64 at once: a literal 0 compiles its callees twice)
    fr[0, F_SEAT] = seat
    fr[0, F_LEADER] = leader
    fr[0, F_I] = i
    fr[0, F_LED] = led
    fr[0, F_WCARD] = win_card
    fr[0, F_WSEAT] = win_seat
    fr[0, F_TAKEN] = taken
    fr[0, F_PTS] = pts
    fr[0, F_REST] = rest
    fr[0, F_KNOWN] = 0
    phase = _ENTER
    r = False
    while True:
        if phase == _ENTER:
            ctx[C_NODES] += 1
            if ctx[C_NODES] >= ctx[C_LIMIT]:
                for k in range(d - 1, -1, -1):  # undo the cards played on the way down
                    hands[fr[k, F_SEAT]] = fr[k, F_HAND]
                    if fr[k, F_GAINED] != 0:
                        counts[fr[k, F_SLOT]] -= fr[k, F_GAINED]
                ctx[C_GAVE_UP] += 1
                return -1
            seat = fr[d, F_SEAT]
            i = fr[d, F_I]
            rest = fr[d, F_REST]
            pts = fr[d, F_PTS]
            fr[d, F_ROW] = -1
            fr[d, F_RANKS] = 0
            status = -1
            if i > 0 and (
                ctx[C_TRICK_BOUNDS] == 0 or _after(hands, seat, fr[d, F_LEADER], i, ctx) < 0
            ):
                pass  # the last card of a trick: its children are bounded at the boundary
            elif i > 0 and fr[d, F_KNOWN] != 0:
                pass  # the forced seat before computed these bounds: they did not settle
            elif i > 0:
                taken = fr[d, F_TAKEN]
                lo, hi, wc = _trick_bounds(
                    hands,
                    counts,
                    ctx,
                    rest | taken,
                    pts,
                    i,
                    seat,
                    fr[d, F_LEADER],
                    fr[d, F_LED],
                    fr[d, F_WCARD],
                    fr[d, F_WSEAT],
                    taken,
                )
                if lo >= target:
                    status = 1
                elif hi < target:
                    status = 0
                fr[d, F_RANKS] = bit(wc)
            else:
                if rest == 0:
                    status = 1 if pts + _game_won(counts, ctx) >= target else 0
                elif _one_card_each(hands, seat, ctx):
                    v, ranks = _last_trick(hands, counts, ctx, seat, pts)
                    status = 1 if v >= target else 0
                    fr[d, F_RANKS] = ranks
                else:
                    lo, hi = _bounds(hands, counts, ctx, rest, pts)
                    if lo >= target:
                        status = 1
                    elif hi < target:
                        status = 0
                    else:
                        packed = _key(hands, counts, ctx, rest, fr[d, F_LEADER], rel)
                        worth = ctx[C_WORTH]
                        if ctx[C_PARTITION] != 0:
                            la, lb = _lengths(rel, n, worth)
                            ways = ctx[C_WAYS]
                            cmask = _count_bits(ctx)
                            hkey = packed & ~cmask if ctx[C_DOMINANCE] != 0 else packed
                            base = _part_index(rel, n, hkey, la, lb, worth, table[0, 1], ways)
                            status, rr, row = _probe(
                                table, rel, n, gen, packed, la, lb, worth, base, ways, pts, target,
                                cmask if ctx[C_DOMINANCE] != 0 else 0, ctx,
                            )  # fmt: skip
                            base2 = base
                            if status < 0 and ctx[C_TWO_CHOICE] != 0:
                                # a second bucket, hashed with the counts: a hand's entries
                                # under many counts overflow there, not evicting each other
                                base2 = _part_index(
                                    rel, n, packed, la, lb, worth, table[0, 1], ways
                                )
                                if base2 != base:
                                    s2, r2, row2 = _probe(
                                        table, rel, n, gen, packed, la, lb, worth, base2, ways, pts,
                                        target, cmask, ctx,
                                    )  # fmt: skip
                                    if s2 >= 0 or row < 0:
                                        status, rr, row = s2, r2, row2
                            if status >= 0 and table[row, _K_PACKED] != packed:
                                ctx[C_DOMINATED] += 1
                            elif status >= 0 and not _covers(table, row, rel, n, np.int64(-1)):
                                ctx[C_COVERED] += 1
                            if status < 0 and row < 0:
                                row = _victim(table, base, ways, gen)
                                if base2 != base and table[row, _K_GEN] == gen:
                                    alt = _victim(table, base2, ways, gen)
                                    if (
                                        table[alt, _K_GEN] != gen
                                        or table[alt, _K_LEFT] < table[row, _K_LEFT]
                                    ):
                                        row = alt
                                _claim(table, row, gen, packed, rel, n, lo - pts, hi - pts)
                                table[row, _K_LEFT] = popcount(rest)
                                table[row, _K_LA] = la
                                table[row, _K_LB] = lb
                        else:
                            status, rr, row = _exact_probe(
                                table, rel, n, gen, packed, pts, target, popcount(rest), lo, hi
                            )
                        if status >= 0:
                            fr[d, F_RANKS] = absolute_mask(
                                rr, rest, worth, trump, ctx[C_LOW_RANK]
                            ) | (rr & _DEPS)
                        fr[d, F_ROW] = row
                        fr[d, F_PACKED] = packed
            if status >= 0:
                r = status == 1
                phase = _LEAVE
                continue
            hand = hands[seat]
            led = fr[d, F_LED]
            if i == 0:
                legal = hand if d > 0 else hand & ctx[C_ROOT_LEGAL]
            else:
                follow = hand & ctx[C_SUITS + led]
                trump_ok = tmask if (led != trump and not must_follow) else 0
                legal = hand if follow == 0 else follow | (hand & trump_ok)
            follows = legal
            if seat == ctx[C_DUTY] and hand & ctx[C_CALLED]:
                legal = ctx[C_CALLED]  # 12.1.3
            one = legal != 0 and legal & (legal - 1) == 0
            fr[d, F_FORCED] = one and legal == follows
            taken = fr[d, F_TAKEN]
            if one:
                buf[d, 0] = lowest_card(legal)  # one move: nothing to order
                fr[d, F_CNT] = 1
            elif i > 0 and ctx[C_SECURE_ORDER] != 0:
                fr[d, F_CNT] = _safe_moves(
                    hands,
                    legal,
                    rest | taken,
                    ctx,
                    seat,
                    fr[d, F_LEADER],
                    i,
                    led,
                    fr[d, F_WCARD],
                    fr[d, F_WSEAT],
                    taken,
                    buf,
                    d,
                )
            else:
                fr[d, F_CNT] = _moves(
                    legal,
                    rest | taken,
                    ctx,
                    seat,
                    i,
                    led,
                    fr[d, F_WCARD],
                    fr[d, F_WSEAT],
                    taken,
                    buf,
                    d,
                )
            fr[d, F_IDX] = 0
            fr[d, F_MAX] = _on_pitcher_side(seat, ctx)
            fr[d, F_HAND] = hand
            fr[d, F_LEGAL] = legal
            fr[d, F_SEEN] = 0
            phase = _NEXT
        elif phase == _NEXT:
            idx = fr[d, F_IDX]
            cnt = fr[d, F_CNT]
            while idx < cnt and ctx[C_RELEVANCE] != 0:
                if _irrelevant(buf, d, idx, fr[d, F_REST], ctx[C_WORTH]):
                    buf[d, _MOVES + idx] = -1  # as a move searched before, given its ranks
                    ctx[C_SKIPPED] += 1
                elif (
                    idx > 0
                    and d > 0
                    and fr[d, F_I] > 0
                    and ctx[C_SUIT_MERGE] != 0
                    and fr[d, F_HAND] & ctx[C_SUITS + fr[d, F_LED]] == 0  # void: discards
                ):
                    ry = _discard_twin(buf, d, idx, fr[d, F_LED], ctx)
                    if ry < 0:
                        break
                    buf[d, _MOVES + idx] = ry  # the twin's answer, the two cards swapped
                    fr[d, F_SEEN] |= ry
                    ctx[C_MERGED] += 1
                else:
                    break
                idx += 1
            if idx == cnt:
                r = fr[d, F_MAX] == 0  # no move reached the cut-off
                fr[d, F_RANKS] = _close_runs(
                    fr[d, F_SEEN], fr[d, F_LEGAL], fr[d, F_REST], ctx[C_WORTH]
                )
                phase = _FINISH
                continue
            fr[d, F_IDX] = idx + 1
            c = buf[d, idx]
            b = bit(c)
            seat = fr[d, F_SEAT]
            i = fr[d, F_I]
            hands[seat] = fr[d, F_HAND] & ~b
            led = fr[d, F_LED]
            wcard = fr[d, F_WCARD]
            wseat = fr[d, F_WSEAT]
            if i == 0:
                led = _eff(c, ctx)
                wcard = c
                wseat = seat
            elif _strength(c, led, ctx) > _strength(wcard, led, ctx):
                wcard = c
                wseat = seat
            taken = fr[d, F_TAKEN] | b
            pts = fr[d, F_PTS]
            rest = fr[d, F_REST]
            e = d + 1
            nxt = _after(hands, seat, fr[d, F_LEADER], i, ctx)
            fr[d, F_TRICK_RANKS] = 0
            if nxt < 0:
                fr[d, F_TRICK_RANKS] = _won_by_rank(wcard, taken, ctx)
                gained = _count(taken, ctx)
                slot = _slot(wseat, ctx)
                counts[slot] += gained
                fr[d, F_SLOT] = slot
                fr[d, F_GAINED] = gained
                if _on_pitcher_side(wseat, ctx):
                    pts += _roles(taken, ctx)
                nrest = rest & ~taken
                ld = _lead_from(hands, wseat, ctx)
                fr[e, F_SEAT] = ld
                fr[e, F_LEADER] = ld
                fr[e, F_I] = 0
                fr[e, F_LED] = -1
                fr[e, F_WCARD] = -1
                fr[e, F_WSEAT] = -1
                fr[e, F_TAKEN] = 0
                fr[e, F_PTS] = pts
                fr[e, F_REST] = nrest
            else:
                fr[d, F_GAINED] = 0
                # (bounds inside tricks are computed at d: i > 0 and not its last seat)
                fr[e, F_KNOWN] = i > 0 and ctx[C_TRICK_BOUNDS] != 0 and fr[d, F_FORCED] != 0
                fr[e, F_SEAT] = nxt
                fr[e, F_LEADER] = fr[d, F_LEADER]
                fr[e, F_I] = i + 1
                fr[e, F_LED] = led
                fr[e, F_WCARD] = wcard
                fr[e, F_WSEAT] = wseat
                fr[e, F_TAKEN] = taken
                fr[e, F_PTS] = pts
                fr[e, F_REST] = rest
            d = e
            phase = _ENTER
        elif phase == _FINISH:
            row = fr[d, F_ROW]
            if row >= 0:
                pts = fr[d, F_PTS]
                packed = fr[d, F_PACKED]
                rest = fr[d, F_REST]
                _key(hands, counts, ctx, rest, fr[d, F_LEADER], rel)  # (packed: the frame's)
                if not _same_entry(table, row, gen, packed, rel, n):
                    # Overwritten deeper down: claim it again.
                    lo, hi = _bounds(hands, counts, ctx, rest, pts)
                    _claim(table, row, gen, packed, rel, n, lo - pts, hi - pts)
                    table[row, _K_LEFT] = popcount(fr[d, F_REST])
                    table[row, _K_LA], table[row, _K_LB] = _lengths(rel, n, ctx[C_WORTH])
                if r:
                    if target - pts > table[row, _K_LO]:
                        table[row, _K_LO] = target - pts
                        table[row, _K_RLO] = relative_mask(
                            fr[d, F_RANKS], rest, ctx[C_WORTH], trump, ctx[C_LOW_RANK]
                        ) | (fr[d, F_RANKS] & _DEPS)
                elif target - pts - 1 < table[row, _K_HI]:
                    table[row, _K_HI] = target - pts - 1
                    table[row, _K_RHI] = relative_mask(
                        fr[d, F_RANKS], rest, ctx[C_WORTH], trump, ctx[C_LOW_RANK]
                    ) | (fr[d, F_RANKS] & _DEPS)
            phase = _LEAVE
        else:  # _LEAVE: hand r, and the ranks it relied on, to the frame below
            if d == 0:
                return 1 if r else 0
            ranks = fr[d, F_RANKS] | fr[d - 1, F_TRICK_RANKS]
            if fr[d, F_I] > 0:  # its moves (or bounds) read the seats' holdings of the suit led
                ranks |= np.int64(1) << (SUIT_DEPS + fr[d, F_LED])
            d -= 1
            hands[fr[d, F_SEAT]] = fr[d, F_HAND]
            if fr[d, F_GAINED] != 0:
                counts[fr[d, F_SLOT]] -= fr[d, F_GAINED]
            if r == (fr[d, F_MAX] != 0):
                fr[d, F_RANKS] = ranks  # the cut-off: this move's answer alone
                phase = _FINISH
            else:
                buf[d, _MOVES + fr[d, F_IDX] - 1] = ranks
                fr[d, F_SEEN] |= ranks
                phase = _NEXT


@njit(cache=True)
def _irrelevant(buf, d, idx, live, worth):
    """Rank relevance: may the move ``buf[d, idx]`` be skipped, its answer that of a
    move of the same suit searched before it (``buf[d, k]``, k < idx, whose subtree
    relied on the ranks ``buf[d, _MOVES + k]``; -1 for a move skipped)?

    Yes when neither card scores or is among those ranks and no card in play between
    them is (the ranks that did not matter part them): the two positions after the
    cards differ by the two cards' names, and every comparison the answer relied on
    gives the same result with them swapped.  Cards that score (``worth``) always
    matter."""
    c = buf[d, idx]
    b = bit(c)
    if b & worth:
        return False
    u = _suit(c)
    for k in range(idx):
        ranks = buf[d, _MOVES + k]
        if ranks < 0:
            continue
        ck = buf[d, k]
        bk = bit(ck)
        if _suit(ck) != u:
            continue
        matter = (ranks | worth) & live
        if (b | bk) & matter:
            continue
        lo = min(c, ck)
        hi = max(c, ck)
        if matter & (bit(hi) - 1) & ~((bit(lo) << 1) - 1) == 0:
            return True
    return False


@njit(cache=True)
def _discard_twin(buf, d, idx, led, ctx):
    """Suit relevance: the ranks of the discard ``buf[d, idx]``'s answer if it equals
    that of a discard of another suit searched before it, else -1.

    Two cards of a seat void in the suit led, each scoring nothing and neither a trump
    nor the called card, both lose the trick; the positions after them differ only in
    which of the two the seat keeps.  If the earlier one's answer relied on no seat's
    holding of either card's suit (no trick of those suits led to a seat whose play or
    bound read it: then the seat never follows to them, nor leads the card it keeps,
    and plays it only as a discard that loses, as the other), the same proof holds
    with the two cards swapped: so do its ranks."""
    c = buf[d, idx]
    b = bit(c)
    e = _eff(c, ctx)
    bad = ctx[C_WORTH] | ctx[C_CALLED]
    trump = ctx[C_TRUMP]
    if b & bad or e == trump or e == led:
        return -1
    for k in range(idx):
        ranks = buf[d, _MOVES + k]
        if ranks < 0:
            continue
        ck = buf[d, k]
        bk = bit(ck)
        ek = _eff(ck, ctx)
        if bk & bad or ek == trump or ek == led or ek == e:
            continue
        if ranks & ((np.int64(1) << (SUIT_DEPS + e)) | (np.int64(1) << (SUIT_DEPS + ek))):
            continue
        swapped = ranks & ~(b | bk)
        if ranks & b:
            swapped |= bk
        if ranks & bk:
            swapped |= b
        return swapped
    return -1


@njit(cache=True)
def _close_runs(ranks, legal, unplayed, worth):
    """A node's ranks when every move was searched (or skipped): a card passed over as
    equal to the card just above it (``_is_rep``) and that card matter together, so a
    run of equal cards is either all among the ranks or none of it."""
    if ranks & legal & ~worth == 0:
        return ranks
    changed = True
    while changed:
        changed = False
        m = legal & ~worth
        while m:
            x = lowest_card(m)
            m &= m - 1
            above = unplayed & suit_mask(_suit(x)) & ~((bit(x) << 1) - 1)
            if above == 0:
                continue
            nb = bit(lowest_card(above))
            if nb & legal and not nb & worth:
                if ((ranks & bit(x)) != 0) != ((ranks & nb) != 0):
                    ranks |= bit(x) | nb
                    changed = True
    return ranks


@njit(cache=True)
def _is_rep(c, legal, unplayed, worth):
    """Is ``c`` the top of its run of equivalent cards (else a higher card stands for it)?"""
    if bit(c) & worth:
        return True
    above = unplayed & suit_mask(_suit(c)) & ~((bit(c) << 1) - 1)
    if above == 0:
        return True
    nxt = lowest_card(above)
    return not (bit(nxt) & legal and not bit(nxt) & worth)


@njit(cache=True)
def _moves(legal, unplayed, ctx, seat, i, led, win_card, win_seat, taken, buf, depth):
    """The distinct moves among ``legal`` into ``buf[depth]``, most promising first."""
    trump = ctx[C_TRUMP]
    worth = ctx[C_WORTH]
    n = ctx[C_N]
    maximise = _on_pitcher_side(seat, ctx)
    k = 0
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        if not _is_rep(c, legal, unplayed, worth):
            continue
        gp = card_game_points(c)
        if i == 0:
            # Leads: high trumps first, then high cards.
            score = _rank(c) + 20 * (_eff(c, ctx) == trump)
        else:
            wins = _strength(c, led, ctx) > _strength(win_card, led, ctx)
            friend_winning = _on_pitcher_side(win_seat, ctx) == maximise
            stake = _count(taken, ctx) + 10 * _roles(taken, ctx)
            if friend_winning and i > 0:
                # Partner (or own side) ahead: feed it count, do not overtake cheaply.
                score = gp + 5 * _roles(bit(c), ctx) - 20 * wins
            elif wins:
                score = 40 + stake - (_rank(c)) + gp
                if i == n - 1:
                    score += 20
            else:
                score = -gp - 10 * _roles(bit(c), ctx) - (_rank(c))
        buf[depth, _MOVES + k] = score
        buf[depth, k] = c
        j = k
        while j > 0 and buf[depth, _MOVES + j - 1] < score:
            buf[depth, j] = buf[depth, j - 1]
            buf[depth, _MOVES + j] = buf[depth, _MOVES + j - 1]
            j -= 1
        buf[depth, j] = c
        buf[depth, _MOVES + j] = score
        k += 1
    return k


@njit(cache=True, inline="always")
def _top_strength(hand, led, ctx, follow_mask, trump_ok, tmask):
    """The strongest card a seat holding ``hand`` may play to a trick led in ``led``
    (-1: it can play nothing that wins: neither the suit led nor a trump)."""
    follow = hand & follow_mask
    legal = hand if follow == 0 else follow | (hand & trump_ok)
    t = legal & tmask
    if t:
        return _strength(_top_trump(t, ctx), led, ctx)
    f = legal & follow_mask
    if f:
        return _strength(highest_card(f), led, ctx)
    return -1


@njit(cache=True)
def _safe_moves(
    hands, legal, unplayed, ctx, seat, leader, i, led, win_card, win_seat, taken, buf, depth
):
    """As ``_moves`` inside a trick (``i > 0``), ordered by whether the trick is safe for
    the mover's side after the card (from 5 players, ``SECURE_ORDER_FROM``)."""
    trump = ctx[C_TRUMP]
    worth = ctx[C_WORTH]
    n = ctx[C_N]
    maximise = _on_pitcher_side(seat, ctx)
    # The strongest card a seat still to play after this one may play, on the other
    # side and on ours (is the trick safe for us, or lost whatever we do?).
    their_top = -1
    our_top = -1
    tmask = ctx[C_TMASK]
    follow_mask = ctx[C_SUITS + led]
    trump_ok = tmask if (led != trump and ctx[C_MUST_FOLLOW] == 0) else 0
    later = seat
    while True:  # the seats still to play after this one
        later += 1
        if later == n:
            later = 0
        if later == leader:
            break
        top = _top_strength(hands[later], led, ctx, follow_mask, trump_ok, tmask)
        if _on_pitcher_side(later, ctx) == maximise:
            our_top = max(our_top, top)
        else:
            their_top = max(their_top, top)
    stake = _count(taken, ctx) + 10 * _roles(taken, ctx)
    wst = _strength(win_card, led, ctx)
    friend_winning = _on_pitcher_side(win_seat, ctx) == maximise
    k = 0
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        if not _is_rep(c, legal, unplayed, worth):
            continue
        gp = card_game_points(c)
        st = _strength(c, led, ctx)
        wins = st > wst
        ours = wins or friend_winning
        top = st if wins else wst
        roles = _roles(bit(c), ctx)
        if ours and top > their_top:
            # The trick is ours whatever the others play: feed it count and points,
            # take theirs with the cheapest card that makes it safe, and do not
            # overtake our own safe trick.
            if not wins:
                score = 300 + 2 * gp + 10 * roles
            elif not friend_winning:
                score = 300 + stake - _rank(c) + gp
            else:
                score = 150 - _rank(c)
        elif ours:
            # Ours so far but the other side can still take it: feed it nothing.
            score = 200 + (stake + _rank(c) if wins else -(_rank(c))) - 3 * gp - 10 * roles
        elif top > our_top:
            # Lost whatever our side plays: throw the cheapest card.
            score = -3 * gp - 10 * roles - _rank(c)
        else:
            # Theirs so far, but a seat of ours still to play may take it.
            score = 100 - 3 * gp - 10 * roles - _rank(c)
        buf[depth, _MOVES + k] = score
        buf[depth, k] = c
        j = k
        while j > 0 and buf[depth, _MOVES + j - 1] < score:
            buf[depth, j] = buf[depth, j - 1]
            buf[depth, _MOVES + j] = buf[depth, _MOVES + j - 1]
            j -= 1
        buf[depth, j] = c
        buf[depth, _MOVES + j] = score
        k += 1
    return k


@njit(cache=True)
def _lead_order(hand, buf):
    """The opening leads into the last row of ``buf``: the longest, strongest suit first,
    high cards first within a suit (a non-representative card after its representative)."""
    k = 0
    m = hand
    while m:
        c = highest_card(m)
        m &= ~bit(c)
        suit = hand & suit_mask(_suit(c))
        score = 20 * popcount(suit) + _rank(c)
        buf[_MAX_DEPTH - 1, _MOVES + k] = score
        buf[_MAX_DEPTH - 1, k] = c
        j = k
        while j > 0 and buf[_MAX_DEPTH - 1, _MOVES + j - 1] < score:
            buf[_MAX_DEPTH - 1, j] = buf[_MAX_DEPTH - 1, j - 1]
            buf[_MAX_DEPTH - 1, _MOVES + j] = buf[_MAX_DEPTH - 1, _MOVES + j - 1]
            j -= 1
        buf[_MAX_DEPTH - 1, j] = c
        buf[_MAX_DEPTH - 1, _MOVES + j] = score
        k += 1
    return k


@njit(cache=True)
def _value(
    hands,
    counts,
    ctx,
    table,
    buf,
    rest,
    seat,
    leader,
    i,
    led,
    win_card,
    win_seat,
    taken,
    pts,
    floor,
    cap,
):
    """The largest k the pitcher's side can force, by zero-window searches; a value below
    ``floor`` comes back as ``floor`` (enough when only a better value matters), and the
    climb stops at ``cap`` (a value of at least ``cap`` may come back as ``cap``: a target
    query asks only whether ``cap`` is made)."""
    if i == 0:
        lo, hi = _bounds(hands, counts, ctx, rest, pts)
    else:
        lo, hi, _ = _trick_bounds(
            hands, counts, ctx, rest | taken, pts, i, seat, leader, led, win_card, win_seat, taken
        )
    v = max(lo, floor)
    fr = np.empty((_MAX_DEPTH, _FRAME), dtype=np.int64)
    while v < hi and v < cap:
        start = ctx[C_NODES]
        r = _search(
            hands,
            counts,
            ctx,
            table,
            buf,
            fr,
            rest,
            seat,
            leader,
            i,
            led,
            win_card,
            win_seat,
            taken,
            pts,
            v + 1,
        )
        if r < 0:
            return -1  # out of budget (a node limit is only ever set as a budget here)
        ctx[C_YES_NODES if r == 1 else C_NO_NODES] += ctx[C_NODES] - start
        if r == 0:
            break
        v += 1
    return v


@njit(cache=True)
def next_generation(table, gen, same):
    """Start a call's generation: a fresh one (the entries of other positions are stale:
    their key leaves out what one position fixes, such as the pitcher and the cards
    dealt), or, when ``table[0, same]`` says this call solves the last call's position
    again, the last one: its entries are proven bounds whatever stopped that call (a
    node budget only stops a search, never records a guess).  The flag is cleared."""
    if table[0, same] == 0 or table[0, gen] == 0:
        table[0, gen] += 1
    table[0, same] = 0


@njit(cache=True)
def _root(
    hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, target,
    called,
):  # fmt: skip
    """Shared by every entry point (``out.size == 0``: value only; ``target`` > 0: each
    card's target query, as ``card_targets``; ``called``: the card a pitcher called under
    a called partner, 12.1, else -1)."""
    if n < 2 or n > MAX_SEATS:
        raise ValueError("the solver takes 2-7 players")
    ctx = np.zeros(_CTX, dtype=np.int64)
    i64 = np.int64  # (plain int64 scalars: see the note above ``solve_position``)
    v = _solve(
        hands, won, dealt, i64(n), i64(leader), trick, i64(trick_len), i64(trump), i64(pitcher),
        fr, tab, table, out, ctx, i64(target), i64(called),
    )  # fmt: skip
    table[0, T_NODES] += ctx[C_NODES]  # nodes searched, summed over calls (bench_solve.py)
    table[0, T_GAVE_UP] += ctx[C_GAVE_UP]  # searches given up in a race of the opening leads
    table[0, T_SKIPPED] += ctx[C_SKIPPED] + ctx[C_MERGED]
    table[0, T_COVERED] += ctx[C_COVERED]
    table[0, T_YES_NODES] += ctx[C_YES_NODES]
    table[0, T_NO_NODES] += ctx[C_NO_NODES]
    table[0, T_DOMINATED] += ctx[C_DOMINATED]
    if v < 0:
        table[0, T_ABORTED] += 1
        out[:] = -1  # nothing to use
    return v


@njit(cache=True)
def _solve(
    hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, ctx, target,
    called,
):  # fmt: skip
    if trump < 0 and trick_len > 0:
        trump = _suit(trick[0])  # the first card's printed suit is trump (6.3.5)
    _setup(ctx, dealt, n, pitcher, trump, fr, tab, called)
    if table[0, T_BUDGET] > 0:
        ctx[C_ABORT] = table[0, T_BUDGET]
        ctx[C_LIMIT] = ctx[C_ABORT]
    next_generation(table, np.int64(T_GEN), np.int64(T_SAME))
    ctx[C_GEN] = table[0, T_GEN]
    ctx[C_RELEVANCE] = table[0, T_NO_RELEVANCE] != 1
    ctx[C_SUIT_MERGE] = table[0, T_NO_RELEVANCE] == 0
    ctx[C_PARTITION] = table[0, T_NO_PARTITION] < 0 or (
        table[0, T_NO_PARTITION] == 0 and n >= PARTITION_FROM
    )
    ctx[C_WAYS] = min(PART_WAYS, table[0, T_MASK] + 1)
    ctx[C_DOMINANCE] = table[0, T_NO_DOMINANCE] < 0 or (
        table[0, T_NO_DOMINANCE] == 0 and n >= DOMINANCE_FROM
    )
    ctx[C_TWO_CHOICE] = ctx[C_DOMINANCE] != 0 and table[0, T_NO_TWO_CHOICE] == 0
    buf = np.empty((_MAX_DEPTH, 2 * _MOVES), dtype=np.int64)
    # Each card's value exactly (floor 0, no cap), or a target query: the climb starts
    # at target - 1 and stops at target, and the value is clipped to those two.
    floor = np.int64(0) if target <= 0 else target - 1
    cap = np.int64(NO_CAP) if target <= 0 else target
    h = hands[:n].copy()
    counts = np.zeros(MAX_SEATS, dtype=np.int64)
    rest = np.int64(0)
    for s in range(n):
        rest |= h[s]
        counts[_slot(s, ctx)] += _count(won[s], ctx)
    for c in range(out.size):
        out[c] = -1
    seat = (leader + trick_len) % n

    if trump < 0 and out.size == 0:
        return _race_leads(h, counts, ctx, table, buf, rest, seat, leader, dealt, tab)
    if trump < 0:
        # Before the opening lead: each lead fixes its own trump, and its value is wanted.
        hand = h[seat]
        leads = _lead_order(hand & ~JOKERS, buf)  # a joker never leads first (6.3.5)
        best = -1
        for j in range(leads):
            c = buf[_MAX_DEPTH - 1, j]
            _trump_context(ctx, _suit(c), dealt, tab)
            if not _is_rep(c, hand, rest, ctx[C_WORTH]):
                # An equal card just above it in the same hand: the same value.
                if out.size > 0:
                    out[c] = out[lowest_card(hand & suit_mask(_suit(c)) & ~((bit(c) << 1) - 1))]
                continue
            h[seat] = hand & ~bit(c)
            v = _value(
                h,
                counts,
                ctx,
                table,
                buf,
                rest,
                (seat + 1) % n,
                leader,
                np.int64(1),
                _suit(c),
                c,
                seat,
                bit(c),
                ctx[C_BASE],
                floor if out.size > 0 else best,
                cap if out.size > 0 else np.int64(NO_CAP),
            )
            h[seat] = hand
            if v < 0:
                return -1  # out of budget
            if out.size > 0:
                v = min(v, cap)
                out[c] = v
            if v > best:
                best = v
        return best

    _trump_context(ctx, trump, dealt, tab)
    pts = ctx[C_BASE]
    for s in range(n):
        if _on_pitcher_side(s, ctx):
            pts += _roles(won[s], ctx)
    if ctx[C_ONLY] != 0:
        # follow=only: only trumps are ever played (4.9), the rest are out of play
        rest = np.int64(0)
        for s in range(n):
            h[s] &= ctx[C_TMASK]
            rest |= h[s]
    led = np.int64(-1)
    win_card = np.int64(-1)
    win_seat = np.int64(-1)
    taken = np.int64(0)
    last = leader
    for j in range(trick_len):
        c = trick[j]
        last = (leader + j) % n
        if ctx[C_ONLY] != 0:
            for s in range(n):  # who played it: seats out of the hand are passed over
                if dealt[s] >> c & 1:
                    last = s
        if j == 0:
            led = _eff(c, ctx)
        if j == 0 or _strength(c, led, ctx) > _strength(win_card, led, ctx):
            win_card = c
            win_seat = last
        taken |= bit(c)
    if ctx[C_ONLY] != 0:
        if trick_len == 0:
            seat = _lead_from(h, leader, ctx)
            leader = seat
        else:
            seat = _after(h, last, leader, trick_len - 1, ctx)
    if rest == 0:
        return pts + _game_won(counts, ctx)
    played = np.int64(0)
    for s in range(n):
        played |= won[s]
    if trick_len == 0 and played == 0 and ctx[C_LEAD_TRUMP] != 0 and h[seat] & ctx[C_TMASK]:
        ctx[C_ROOT_LEGAL] = ctx[C_TMASK]  # lead-trump: the opening lead is a trump
    if out.size == 0:
        return _value(
            h,
            counts,
            ctx,
            table,
            buf,
            rest,
            seat,
            leader,
            trick_len,
            led,
            win_card,
            win_seat,
            taken,
            pts,
            np.int64(0),
            np.int64(NO_CAP),
        )
    # Every legal card: the value after it (equivalent cards share one search); the
    # position's value is the best of them for the player to move.
    maximise = _on_pitcher_side(seat, ctx)
    v = -1 if maximise else 1 << 20
    hand = h[seat]
    if trick_len == 0:
        legal = hand & ctx[C_ROOT_LEGAL]
    else:
        follow = hand & ctx[C_SUITS + led]
        trump_ok = ctx[C_TMASK] if (led != trump and ctx[C_MUST_FOLLOW] == 0) else 0
        legal = hand if follow == 0 else follow | (hand & trump_ok)
    if seat == ctx[C_DUTY] and hand & ctx[C_CALLED]:
        legal = ctx[C_CALLED]  # 12.1.3
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        rep = c
        while not _is_rep(rep, legal, rest | taken, ctx[C_WORTH]):
            above = (rest | taken) & suit_mask(_suit(rep)) & ~((bit(rep) << 1) - 1)
            rep = lowest_card(above)
        if out[rep] >= 0:  # its representative (or itself) is solved already
            out[c] = out[rep]
            continue
        out[c] = _child_value(
            h,
            counts,
            ctx,
            table,
            buf,
            rest,
            seat,
            leader,
            trick_len,
            led,
            win_card,
            win_seat,
            taken,
            pts,
            rep,
            floor,
            cap,
        )
        if out[c] < 0:
            return -1  # out of budget
        out[c] = min(out[c], cap)
        out[rep] = out[c]
        v = max(v, out[c]) if maximise else min(v, out[c])
    return v


@njit(cache=True)
def _race_leads(h, counts, ctx, table, buf, rest, seat, leader, dealt, tab):
    """The whole deal's value from the opening lead (each lead fixes its own trump).

    The value is the best lead's, so for each k in turn, "can some lead make k?".  One
    lead may settle it in a few hundred nodes where another needs millions (a proof
    that the pitcher makes k must answer every defence), so the leads race: each
    undecided lead searches up to a node budget, the budget grows each round, and the
    first lead shown to make k settles k.  A lead shown not to make k drops out.  A
    search given up leaves only settled bounds in the table, which the next round uses.
    """
    n = ctx[C_N]
    hand = h[seat]
    count = _lead_order(hand & ~JOKERS, buf)  # a joker never leads first (6.3.5)
    cards = np.empty(count, dtype=np.int64)
    lo = np.empty(count, dtype=np.int64)
    hi = np.empty(count, dtype=np.int64)
    m = 0
    best = 0
    for j in range(count):
        c = buf[_MAX_DEPTH - 1, j]
        _trump_context(ctx, _suit(c), dealt, tab)
        if not _is_rep(c, hand, rest, ctx[C_WORTH]):
            continue  # an equal card just above it in the same hand: the same value
        h[seat] = hand & ~bit(c)
        lo[m], hi[m], _ = _trick_bounds(
            h, counts, ctx, rest, ctx[C_BASE], np.int64(1), (seat + 1) % n, leader, _suit(c), c,
            seat, bit(c),
        )  # fmt: skip
        h[seat] = hand
        cards[m] = c
        best = max(best, lo[m])
        m += 1
    fr = np.empty((_MAX_DEPTH, _FRAME), dtype=np.int64)
    budget = RACE_NODES
    while True:
        target = best + 1
        alive = False
        for j in range(m):
            alive |= hi[j] >= target
        if not alive:
            break
        settled = False
        for j in range(m):
            if hi[j] < target:
                continue
            c = cards[j]
            _trump_context(ctx, _suit(c), dealt, tab)
            h[seat] = hand & ~bit(c)
            ctx[C_LIMIT] = min(ctx[C_NODES] + budget, ctx[C_ABORT])
            start = ctx[C_NODES]
            r = _search(
                h,
                counts,
                ctx,
                table,
                buf,
                fr,
                rest,
                (seat + 1) % n,
                leader,
                np.int64(1),
                _suit(c),
                c,
                seat,
                bit(c),
                ctx[C_BASE],
                target,
            )
            h[seat] = hand
            if r < 0 and ctx[C_NODES] >= ctx[C_ABORT]:
                ctx[C_LIMIT] = ctx[C_ABORT]
                return -1  # out of budget
            if r >= 0:
                ctx[C_YES_NODES if r == 1 else C_NO_NODES] += ctx[C_NODES] - start
            if r == 1:
                best = target
                settled = True
                break
            if r == 0:
                hi[j] = target - 1
        # k settled: the next k starts small again; else the leads left get more nodes.
        budget = RACE_NODES if settled else budget * RACE_GROWTH
    ctx[C_LIMIT] = ctx[C_ABORT]
    return best


@njit(cache=True)
def _child_value(
    h, counts, ctx, table, buf, rest, seat, leader, i, led, win_card, win_seat, taken, pts, c,
    floor, cap,
):  # fmt: skip
    """The value after the player to move (``seat``, ``i``-th to the trick) plays ``c``
    (``floor`` and ``cap`` as ``_value``'s)."""
    hand = h[seat]
    h[seat] = hand & ~bit(c)
    if i == 0:
        led = _eff(c, ctx)
        win_card = c
        win_seat = seat
    elif _strength(c, led, ctx) > _strength(win_card, led, ctx):
        win_card = c
        win_seat = seat
    taken |= bit(c)
    nxt = _after(h, seat, leader, i, ctx)
    if nxt < 0:
        slot = _slot(win_seat, ctx)
        gained = _count(taken, ctx)
        counts[slot] += gained
        if _on_pitcher_side(win_seat, ctx):
            pts += _roles(taken, ctx)
        nrest = rest & ~taken
        if nrest == 0:
            v = max(pts + _game_won(counts, ctx), floor)
        else:
            ld = _lead_from(h, win_seat, ctx)
            none = np.int64(-1)
            v = _value(
                h, counts, ctx, table, buf, nrest, ld, ld, np.int64(0), none, none, none,
                np.int64(0), pts, floor, cap,
            )  # fmt: skip
        counts[slot] -= gained
    else:
        v = _value(
            h,
            counts,
            ctx,
            table,
            buf,
            rest,
            nxt,
            leader,
            i + 1,
            led,
            win_card,
            win_seat,
            taken,
            pts,
            floor,
            cap,
        )
    h[seat] = hand
    return v


# ``_root`` hands the search its scalars as plain int64 (``np.int64``): numba compiles a
# function once per pattern of literal arguments, and a constant an outside kernel
# passes (a leader 0, an opening trick_len 0, trump -1) would otherwise reach the whole
# search below as a literal and compile it again (its typing and lowering, 10-40 CPU s
# a pattern).  Only the small entry point and ``_root`` compile per pattern; the search
# is the int64 one every command already runs.
#
# One compiled entry point answers every question of one position
# (``position_values``: the value, each legal card's value or target query); the
# others are plain Python calls of it.  Each compiled entry point costs the whole search
# again in compile time and machine code (about 0.4 MB, 10 CPU s), whatever it adds.
_NO_CARDS = np.empty(0, dtype=np.int64)  # ``out`` of a value alone


@njit(cache=True)
def position_values(
    hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, target,
    called,
):  # fmt: skip
    """The value under any preset (``fr``, ``tab``: its ``presets.rules_array`` and
    ``rules_table``; ``held`` the hands when the first card was led, after any draw;
    ``called`` the card a pitcher called, 12.1, its holder in ``held`` his partner, -1:
    none), and in ``out[54]`` the value after each legal card (-1: not legal; ``out``
    empty: the value alone).  ``target`` above 0: a target query per card instead (DDS's
    target mode): ``out[c]`` is ``target`` when the pitcher's side makes ``target`` after
    card c, ``target - 1`` when it does not; the return value the best of them for the
    player to move.  One zero-window search a card at most, where exact values climb
    through every value to the card's own."""
    return _root(
        hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out,
        target, called,
    )  # fmt: skip


def preset_card_values(
    hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, called
):  # fmt: skip
    """The value and each legal card's (``position_values`` with exact values)."""
    return position_values(
        hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, 0,
        called,
    )  # fmt: skip


def solve_preset(
    hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, called
):  # fmt: skip
    """The value under any preset (``position_values``' arguments, without ``out``)."""
    return position_values(
        hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table,
        _NO_CARDS, 0, called,
    )  # fmt: skip


def solve_position(hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, table):
    """The position's double-dummy value (0-4) under the base game's options ``fr``
    (auction-pitch's tables)."""
    return card_targets(
        hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, table, _NO_CARDS, 0
    )  # fmt: skip


def card_values(hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, table, out):
    """The value, and in ``out[52]`` the value after each legal card (-1: not legal),
    under the base game's options ``fr``."""
    return card_targets(
        hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, table, out, 0
    )  # fmt: skip


def card_targets(
    hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, table, out, target
):  # fmt: skip
    """``card_values`` with a target query per card (``position_values``' ``target``;
    0 or less: exact values), under the base game's options ``fr``."""
    return position_values(
        hands, won, dealt, n, leader, trick, trick_len, trump, pitcher, fr, AUCTION_PITCH,
        table, out, target, -1,
    )  # fmt: skip


@njit(cache=True)
def preset_world_values(
    worlds, pby, n, pitcher, trump, leader, trick, trick_len, won, fr, tab, table, cards, out,
    nodes, called,
):  # fmt: skip
    """pimc's valuing under any preset: ``out[j, w]`` the double-dummy value (the pitcher's
    side's points) after ``cards[j]`` in world w.  Under a called partner (12.1,
    ``called`` the card) each world has its own sides: the pitcher and the holder of
    the call in that world (12.1.5, 12.1.6), who under partner=called plays it to the
    first trick (12.1.3).  ``worlds[w, :n]`` are the seats' cards
    now (``kernels.search.worlds``; ``worlds[w, n]``, cards put down face down, are out
    of play: in no hand, never in play); ``pby[s]`` the cards seat s has played.  Returns
    (worlds done, nodes searched): a budget of ``nodes`` (0: none) stops at the first
    world it does not finish, which is left out, as the base game's ``dd_outcomes``."""
    hands = np.empty(n, dtype=np.int64)
    held = np.empty(n, dtype=np.int64)
    values = np.empty(N_CARDS, dtype=np.int64)
    start = table[0, T_NODES]
    table[0, T_BUDGET] = 0
    for w in range(worlds.shape[0]):
        if nodes > 0:
            left = nodes - (table[0, T_NODES] - start)
            if left <= 0:
                return w, table[0, T_NODES] - start
            table[0, T_BUDGET] = left
        for s in range(n):
            hands[s] = worlds[w, s]
            held[s] = worlds[w, s] | pby[s]  # in play: the cards now and those played (0.6)
        v = _root(
            hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, values,
            np.int64(0), called,
        )  # fmt: skip
        if v < 0:
            table[0, T_BUDGET] = 0
            return w, table[0, T_NODES] - start  # out of budget: this world is not done
        for j in range(cards.size):
            out[j, w] = values[cards[j]]
    table[0, T_BUDGET] = 0
    return worlds.shape[0], table[0, T_NODES] - start


@njit(cache=True, parallel=True)
def solve_deals(dealt, pitchers, fr):
    """Whole deals (``dealt[d, :n]`` as dealt) from the opening lead, in parallel.

    Deal d's value is what the pitcher ``pitchers[d]`` makes with every hand open; each
    thread reuses one transposition table, so the values do not depend on threads.
    """
    m, n = dealt.shape
    out = np.empty(m, dtype=np.int64)
    chunks = min(m, 64)  # a table per chunk; get_num_threads() here would defeat the cache
    won = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    tab = AUCTION_PITCH.copy()  # (a global array is typed read-only: the search's type)
    no_cards = np.empty(0, dtype=np.int64)
    for k in prange(chunks):
        table = new_table()
        for d in range(k * m // chunks, (k + 1) * m // chunks):
            out[d] = position_values(
                dealt[d], won, dealt[d], n, pitchers[d], trick, np.int64(0), np.int64(-1),
                pitchers[d], fr, tab, table, no_cards, np.int64(0), np.int64(-1),
            )  # fmt: skip
    return out
