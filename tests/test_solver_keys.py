"""The solvers' transposition-table keys, against the plain-Python minimax.

A table entry is shared by every position with the same key, so a key that leaves out
something the rest of the hand depends on (a Game count that can still tie, a Low still
out, the leader) makes different positions share one entry: a wrong value, but only
when two such positions meet in one search.  So the positions here are deep (4 tricks
left at 3-4 players; 3 at 5-7, where the reference minimax gets slow) and drawn to make
the key matter: from few suits (plain neighbours, so different earlier play reaches
the same hands in relative ranks), with Game still open and close (a count within
reach of a tie with the pitcher's side), and Low or the Jack still out.  Inside one
search the same trick-boundary position is then reached by different earlier play:
different tricks taken, so different Game counts captured, Low captured or still out.
Every position is solved through one sequence of tables of every size the solvers use
(one bucket, 4 rows, ``TABLE_BITS`` and ``BIG_TABLE_BITS``), each table reused for
every position, and every card's value is checked against the reference.

Slips planted in the keys one at a time (and reverted) that the key-sharing tests catch:
base ``_key`` without the Game counts, with Game decided either way alike, with Low or
the Jack renamed as plain cards, without the leader, with the leader's side only;
``_key`` clearing a count that can just tie the pitcher's (``c + left <= p``, issue
33's example: caught only by the swapped-captures test, which builds that exact count;
the searches above pass with it).  (Planted in the family solver's key, which the one
solver replaced: without the counts, decided either way alike, without the leader,
with its side only.)  Trump left out of the key is no slip: two positions of one call
under different trumps differ in the hands (the opening lead, in the trump's suit, is
gone from the leader's hand).  The partnership key without the other team's count is
no slip within one call either: the hands fix the count still out, so the pitcher's
team's count fixes theirs.  An entry compared on every hand but the last seat's:
``test_solver_table.py``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from test_family_solver import _kernel_args, random_position

from pitchsim.game.cards import cards_of, game_points, mask_of, rank_of, suit_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import T_TRUMPS, rules_array, rules_table
from pitchsim.kernels.search import solver as kernel
from pitchsim.search import minimax as fm
from pitchsim.search import minimax as reference
from pitchsim.search.double_dummy import kernel_args, solve
from pitchsim.search.position import start_position

JACK_RANK = 9  # rank index (2 = 0)


@pytest.fixture(scope="module")
def tables():
    """One table of each size, reused by every position (entries of earlier positions
    left behind: a later call must not read them as its own)."""
    bits = sorted({1, 2, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS})
    return [kernel.new_table(b) for b in bits]


def dense_deal(rng, n, suits):
    """6 cards a seat from ``suits`` suits (more when they do not hold enough)."""
    order = rng.sample(range(4), 4)
    deck = []
    for k, s in enumerate(order):
        deck += [13 * s + r for r in range(13)]
        if k + 1 >= suits and len(deck) >= 6 * n + 2:
            break
    rng.shuffle(deck)
    return [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]


def counts(pos):
    """The Game count of each seat (solo) or team (partnership) so far."""
    per_seat = [sum(game_points(c) for c in cards_of(w)) for w in pos.won]
    if pos.rules.partnership:
        return [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    return per_seat


def game_close(pos):
    """Game open, and some other side able to tie the pitcher's side's count exactly
    with the count still to be captured (a tie gives Game to nobody)."""
    c = counts(pos)
    me = pos.rules.team(pos.pitcher) if pos.rules.partnership else pos.pitcher
    held = 0
    for h in pos.hands:
        held |= h
    left = sum(game_points(x) for x in cards_of(held | mask_of(pos.trick)))
    p = c[me]
    others = [x for i, x in enumerate(c) if i != me]
    return left > 0 and any(x <= p <= x + left for x in others) and p + left > max(others)


def trumps_out(pos):
    """Low (the lowest trump dealt) and the Jack of trump: which are still held."""
    held = 0
    for h in pos.hands:
        held |= h
    dealt = 0
    for d in pos.dealt:
        dealt |= d
    trumps = [c for c in cards_of(dealt) if suit_of(c) == pos.trump]
    low = min(trumps, key=rank_of)
    jack = 13 * pos.trump + JACK_RANK
    return bool(held >> low & 1), bool(held >> jack & 1 and dealt >> jack & 1)


def keyed_position(rng, n, rules, tricks_left, suits=2, want_low=True, boundary=False):
    """A position ``tricks_left`` tricks from the end (at a trick boundary or a few
    cards into the next trick), played at random, where Game is close and Low (under
    low=captured) or the Jack is still out."""
    for _ in range(5000):
        pos = start_position(dense_deal(rng, n, suits), rng.randrange(n), rules)
        cut = 6 * n - tricks_left * n + (0 if boundary else rng.randrange(min(n, 3)))
        for _ in range(cut):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        if pos.finished or not game_close(pos):
            continue
        low, jack = trumps_out(pos)
        if (low and want_low and rules.low == "captured") or jack:
            return pos
    raise AssertionError("no position found")


def check(pos, tables):
    """Every card's value and the position's value, each table against the reference."""
    expected = reference.card_values(pos)
    mover = pos.pitcher_side(pos.to_play)
    want = max(expected.values()) if mover else min(expected.values())
    for table in tables:
        got = solve(pos, table)
        assert (got.value, got.cards) == (want, expected), (pos.to_json(), table.shape)
        value = kernel.solve_position(*kernel_args(pos), table)
        assert value == want, (pos.to_json(), table.shape)


SOLO = [Rules(), Rules(follow="suit"), Rules(low="dealt")]
CASES = [
    # (players, rules, positions, tricks left)
    (3, Rules(), 8, 4),
    (3, Rules(follow="suit"), 8, 4),
    (3, Rules(low="dealt"), 4, 4),
    (4, Rules(), 1, 4),
    (4, Rules(follow="suit"), 3, 4),
    (4, Rules(partnership=True), 1, 4),
    (4, Rules(partnership=True, follow="suit"), 3, 4),
    (5, Rules(), 6, 3),
    (6, Rules(), 4, 3),
    (7, Rules(), 3, 3),
    (5, Rules(follow="suit"), 6, 3),
    (7, Rules(low="dealt"), 2, 3),
]


def case_id(case):
    n, r, k, left = case
    return f"{n}p-{'team' if r.partnership else 'solo'}-{r.follow}-{r.low}-{left}left"


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_deep_positions_where_the_key_matters(case, tables):
    """Game counts that can still tie, Low and the Jack still out, the leader: a key
    missing any of them shares one entry between positions of different value."""
    n, rules, count, left = case
    rng = random.Random(f"keys/{case_id(case)}")
    for _ in range(count):
        check(keyed_position(rng, n, rules, left), tables)


def test_the_tables_are_left_clean(tables):
    for table in tables:
        assert table[0, kernel.T_BUDGET] == 0
        assert np.all(table[1:, kernel._K_LO] <= table[1:, kernel._K_HI])


# ---- the key itself: positions that share a key have the same value to come ------------------
#
# The searches above meet a wrong key only when two positions sharing it meet in one
# search.  These tests ask the key directly: variants of one trick-boundary position
# (the captured cards dealt out again among the seats, so other Game counts and Low or
# the Jack captured by another side; a held card swapped with a captured one of its
# suit, so Low or the Jack still out or not and other plain cards played; another
# leader) are keyed by the solver (``_key``); any two with one key must have the same
# points still to come by the reference minimax (its value less the points the
# pitcher's side has already captured, counted here from the rules).


def captured_points(pos):
    """High, Low and Jack the pitcher's side holds already (Low under low=dealt: dealt)."""
    dealt = 0
    for d in pos.dealt:
        dealt |= d
    trumps = [c for c in cards_of(dealt) if suit_of(c) == pos.trump]
    high, low = max(trumps, key=rank_of), min(trumps, key=rank_of)
    jack = 13 * pos.trump + JACK_RANK
    ours = [s for s in range(pos.players) if pos.pitcher_side(s)]
    won = 0
    for s in ours:
        won |= pos.won[s]
    points = (won >> high & 1) + (won >> jack & 1 and dealt >> jack & 1)
    if pos.rules.low == "dealt":
        return points + any(pos.dealt[s] >> low & 1 for s in ours)
    return points + (won >> low & 1)


def base_key(pos):
    """The solver's key of a trick-boundary position: (packed, hands in relative ranks)."""
    n = pos.players
    args = kernel_args(pos)
    dealt, rules = args[2], args[9]
    ctx = np.zeros(kernel._CTX, dtype=np.int64)
    kernel._setup(ctx, dealt, n, pos.pitcher, pos.trump, rules, kernel.AUCTION_PITCH, -1)
    counts = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
    for s in range(n):
        counts[s % 2 if pos.rules.partnership else s] += sum(
            game_points(c) for c in cards_of(pos.won[s])
        )
    rest = 0
    for h in pos.hands:
        rest |= h
    rel = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
    hands = np.array(pos.hands, dtype=np.int64)
    packed = kernel._key(hands, counts, ctx, np.int64(rest), pos.leader, rel)
    return int(packed), tuple(int(x) for x in rel[:n])


def variants(pos, rng, count):
    """``count`` positions keyed alike by a sound key more often than chance: the
    captured cards dealt out again, a held card swapped with a captured one of its
    suit, another leader."""
    n = pos.players
    out = [pos]
    for _ in range(count):
        hands, won = list(pos.hands), list(pos.won)
        leader = pos.leader
        kind = rng.randrange(4)
        if kind in (0, 3):
            # Among every seat, or only the other side's (the pitcher's count kept: a
            # count that can just tie it against one that cannot).
            seats = [t for t in range(n) if kind == 0 or not pos.pitcher_side(t)]
            cards = [c for t in seats for c in cards_of(won[t])]
            for t in seats:
                won[t] = 0
            for c in cards:
                won[rng.choice(seats)] |= 1 << c
        if kind in (1, 3):
            s = rng.randrange(n)
            c = rng.choice(cards_of(hands[s]))
            swaps = [(t, x) for t in range(n) for x in cards_of(won[t]) if suit_of(x) == suit_of(c)]
            if swaps:
                t, x = rng.choice(swaps)
                hands[s] = hands[s] & ~(1 << c) | 1 << x
                won[t] = won[t] & ~(1 << x) | 1 << c
        if kind == 2 or rng.random() < 0.3:
            leader = rng.randrange(n)
        out.append(replace(pos, hands=tuple(hands), won=tuple(won), leader=leader, to_play=leader))
    return out


KEY_CASES = [
    # (players, rules, positions, tricks left)
    (3, Rules(), 12, 3),
    (3, Rules(follow="suit"), 6, 3),
    (3, Rules(low="dealt"), 6, 3),
    (4, Rules(), 6, 3),
    (4, Rules(partnership=True), 10, 3),
    (5, Rules(), 6, 2),
    (6, Rules(), 6, 2),
    (7, Rules(), 6, 2),
]


@pytest.mark.parametrize("case", KEY_CASES, ids=[case_id(c) for c in KEY_CASES])
def test_positions_sharing_a_key_have_the_same_value_to_come(case):
    """Any two variants of a position that the solver keys alike have the same points
    still to come: a key that leaves out a count that can still tie, Low or the Jack
    still out, the leader (or its side only) or the other team's count fails here."""
    n, rules, count, left = case
    rng = random.Random(f"keys/variants/{case_id(case)}")
    shared = 0
    for _ in range(count):
        pos = keyed_position(rng, n, rules, left, boundary=True)
        groups: dict = {}
        for v in variants(pos, rng, 60):
            groups.setdefault(base_key(v), {})[(v.hands, v.won, v.leader)] = v
        memo: dict = {}  # (keyed by hands, captures, leader: sound across variants)
        for same in groups.values():
            if len(same) < 2:
                continue
            shared += 1
            to_come = {reference.solve(v, memo) - captured_points(v) for v in same.values()}
            assert len(to_come) == 1, [v.to_json() for v in same.values()]
    assert shared >= count  # the variants do share keys: the test can fail


# ---- a count that can just tie the pitcher's: two other seats' captures swapped ------------------


def just_tie_position(rng, n, rules, tricks_left):
    """A trick-boundary position, Game open, where one other seat ``s`` can at best tie
    the pitcher's count (its count plus the count still out is the pitcher's exactly) and
    another ``t`` has a different count that cannot pass it; with ``(s, t)``."""
    for _ in range(20000):
        pos = start_position(dense_deal(rng, n, 2), rng.randrange(n), rules)
        for _ in range(6 * n - tricks_left * n):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        c = counts(pos)
        held = 0
        for h in pos.hands:
            held |= h
        left = sum(game_points(x) for x in cards_of(held))
        p = c[pos.pitcher]
        others = [s for s in range(n) if s != pos.pitcher]
        ties = [s for s in others if c[s] + left == p]
        below = [t for t in others if c[t] + left <= p]
        if left == 0 or not ties:
            continue
        s = rng.choice(ties)
        pairs = [t for t in below if c[t] != c[s]]
        if pairs:
            return pos, s, rng.choice(pairs)
    raise AssertionError("no position found")


TIE_CASES = [
    # (players, rules, tricks left, positions)
    (3, Rules(), 3, 40),
    (4, Rules(), 2, 40),
    (5, Rules(follow="suit"), 2, 40),
    (6, Rules(), 2, 80),
    (7, Rules(low="dealt"), 2, 80),
]


@pytest.mark.parametrize(("n", "rules", "left", "tries"), TIE_CASES)
def test_a_count_that_can_just_tie_is_kept_in_the_key(n, rules, left, tries):
    """Seat s can at best tie the pitcher for Game (a tie: nobody's), seat t cannot: with
    their captures swapped the same hands are another position (whoever can take the
    rest of the count ties), so when the points still to come differ, the keys must.
    Catches a key that clears a count that can just tie (``c + left <= p``), which the
    tests above miss: it needs that exact count."""
    rng = random.Random(f"keys/tie/{n}/{left}")
    differ = 0
    for _ in range(tries):
        pos, s, t = just_tie_position(rng, n, rules, left)
        memo: dict = {}  # (one deal and pitcher: the reference's memo key is sound)
        won = list(pos.won)
        won[s], won[t] = won[t], won[s]
        other = replace(pos, won=tuple(won))
        a = reference.solve(pos, memo) - captured_points(pos)
        b = reference.solve(other, memo) - captured_points(other)
        if a != b:
            differ += 1
            assert base_key(pos) != base_key(other), pos.to_json()
    assert differ >= 3, differ  # pairs that a key clearing the tie would merge


# ---- a retry keeps the entries of the call the budget stopped (issue 33, item 4) ---------------


def retried(dealt, pitcher, rules, keep):
    """A whole deal solved as ``pitchsim solve --time`` does: calls with a node budget
    growing 4 times a call (from 500 nodes) until one finishes; with ``keep`` each retry keeps the
    entries of the calls before it (``T_SAME``).  (value, total nodes, calls)."""
    n = len(dealt)
    table = kernel.new_table(kernel.table_bits(n))
    d = np.array(dealt, dtype=np.int64)
    won, trick = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    budget, calls = 500, 0
    while True:
        table[0, kernel.T_BUDGET] = budget
        table[0, kernel.T_SAME] = keep and calls > 0
        v = kernel.solve_position(d, won, d, n, pitcher, trick, 0, -1, pitcher, rules, table)
        calls += 1
        assert table[0, kernel.T_SAME] == 0  # a call clears it: the next position is fresh
        if v >= 0:
            return int(v), int(table[0, kernel.T_NODES]), calls
        budget *= 4


def test_a_retry_does_not_search_again_what_a_stopped_call_proved():
    """6-player whole deals that take several calls (random deals of seed 1): every value
    as unbudgeted, and fewer nodes in all when each retry keeps the stopped calls'
    entries (measured: 37,531 -> 25,295 nodes over the first 6 deals; the first budget
    500 nodes, so that with rank relevance three of them still take several calls)."""
    rng = random.Random(1)
    rules = rules_array(Rules())
    fresh = kept = several = 0
    for _ in range(6):
        deck = list(range(52))
        rng.shuffle(deck)
        dealt = [mask_of(deck[6 * s : 6 * s + 6]) for s in range(6)]
        pitcher = rng.randrange(6)
        want = kernel.solve_position(
            *kernel_args(start_position(dealt, pitcher, Rules()))[:-1],
            rules,
            kernel.new_table(kernel.table_bits(6)),
        )
        a, b = retried(dealt, pitcher, rules, False), retried(dealt, pitcher, rules, True)
        assert a[0] == b[0] == want and a[2] == b[2]
        assert b[1] <= a[1]
        fresh, kept, several = fresh + a[1], kept + b[1], several + (a[2] > 1)
    assert several >= 3 and kept < 0.8 * fresh, (kept, fresh)


def test_the_clock_loop_keeps_a_position_entries_and_values(monkeypatch):
    """``pitchsim solve --time``'s loop (double_dummy._on_clock) at a guessed rate of 1,000
    nodes a second: every cut of a deep 3-player position and a 6-player deal, the same
    values as unbudgeted (through calls of 100, 400, ... nodes), the flag never left
    set."""
    from pitchsim.search import double_dummy as dd

    monkeypatch.setitem(dd._last_rate, "base", 1000.0)
    monkeypatch.setattr(dd, "_RATE_NODES", 1 << 60)
    rng = random.Random("keys/clock")
    positions = [keyed_position(rng, 3, Rules(), 4) for _ in range(3)]
    deck = list(range(52))
    rng.shuffle(deck)
    positions.append(
        start_position([mask_of(deck[6 * s : 6 * s + 6]) for s in range(6)], 2, Rules())
    )
    table = kernel.new_table(kernel.table_bits(6))
    for pos in positions:
        free = solve(pos, kernel.new_table(kernel.table_bits(6)))
        timed = solve(pos, table, time=60.0)
        assert timed.solved and (timed.value, timed.cards) == (free.value, free.cards)
        assert table[0, kernel.T_SAME] == 0 and table[0, kernel.T_BUDGET] == 0


# ---- the key under every preset (the jick, jokers, game=ten, the 3 and 5, follow=only) ---------


def family_counts(rules, won):
    """Game counts per side (partners pooled), jokers counting nothing."""
    per_seat = [sum(game_points(c) for c in cards_of(w) if c < 52) for w in won]
    if rules.partnership:
        return [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    return per_seat


def family_position(rules, n, rng, back):
    """A random position ``back`` tricks before the end; under game=count one where Game
    is open and some other side can still tie the pitcher's side exactly."""
    for _ in range(3000):
        pos = random_position(rules, n, rng, back)
        pitcher, held, hands, won, leader, trick, trump = pos
        if rules.game != "count":
            return pos
        c = family_counts(rules, won)
        me = pitcher % 2 if rules.partnership else pitcher
        left = sum(game_points(x) for h in hands for x in cards_of(h) if x < 52)
        left += sum(game_points(x) for x in trick if x < 52)
        others = [x for i, x in enumerate(c) if i != me]
        if any(x <= c[me] <= x + left for x in others) and c[me] + left > max(others):
            return pos
    raise AssertionError("no position found")


# (rules, players, positions, tricks back): Game by count solo and pooled, the jick and
# low=dealt (smear), the jokers, the 3 and the 10 (ten-point: game=ten, follow=only),
# trump fixed by the first lead (trump in the key).
FAMILY_CASES = [
    ("smear", 3, 4, (3, 4)),
    ("smear,partnership=true", 4, 2, (2, 3)),
    ("ten-point", 4, 2, (3, 3)),
    ("jokers=2,game=ten,three=true,five=true", 3, 3, (3, 4)),
    ("jick=true,five=true,low=dealt", 4, 2, (2, 3)),
]


@pytest.mark.parametrize(("spec", "n", "count", "back"), FAMILY_CASES)
def test_family_deep_positions_where_the_key_matters(spec, n, count, back):
    """Each position through one sequence of tables (one bucket, two, the shipped
    size), each reused for every position, against the minimax."""
    rules = Rules.parse(spec)
    rng = random.Random(f"family keys/{spec}/{n}")
    tables = [kernel.new_table(b) for b in (1, 2, kernel.TABLE_BITS)]
    for _ in range(count):
        pos = family_position(rules, n, rng, back)
        pitcher, held, hands, won, leader, trick, trump = pos
        st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)
        memo: dict = {}  # (one search: the card values are its root's children)
        want = fm.solve(st, memo)
        want_cards = fm.card_values(st, memo) if st.leader is not None else {}
        for table in tables:
            args = _kernel_args(rules, pitcher, held, hands, won, leader, trick, trump, table)
            out = np.empty(54, dtype=np.int64)
            each = kernel.preset_card_values(*args, out, -1)
            got = {c: int(out[c]) for c in range(54) if out[c] >= 0}
            assert (int(kernel.solve_preset(*args, -1)), int(each), got) == (
                want,
                want,
                want_cards,
            ), (
                spec,
                n,
                held,
                hands,
                won,
                leader,
                trick,
                table.shape,
            )


def test_family_whole_hands_share_a_table_across_trumps():
    """Before the opening lead under trump=first-lead each lead fixes trump, and one table
    serves them all (trump is in the key): whole 2-player hands against the minimax."""
    table = kernel.new_table(2)
    for spec in ("smear", "jokers=2,three=true,five=true,game=ten"):
        rules = Rules.parse(spec)
        rng = random.Random(f"family keys/whole/{spec}")
        for _ in range(2):
            pitcher, held, hands, won, leader, trick, trump = random_position(
                rules, 2, rng, (6, 6), mid=False
            )
            st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)
            args = _kernel_args(rules, pitcher, held, hands, won, leader, trick, trump, table)
            assert int(kernel.solve_preset(*args, -1)) == fm.solve(st)


def family_key(rules, pitcher, held, hands, won, leader, trump):
    """The solver's key of a trick-boundary position under a preset: (packed, hands in
    relative ranks)."""
    n = len(hands)
    ctx = np.zeros(kernel._CTX, dtype=np.int64)
    fr, tab = rules_array(rules), rules_table(rules)
    kernel._setup(ctx, np.array(held, dtype=np.int64), n, pitcher, trump, fr, tab, -1)
    counts = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
    for side, c in enumerate(family_counts(rules, won)):
        counts[side] = c
    rest = 0
    for x in hands:
        rest |= x
    rel = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
    h = np.array(hands, dtype=np.int64)
    packed = kernel._key(h, counts, ctx, np.int64(rest), leader, rel)
    return int(packed), tuple(int(x) for x in rel[:n])


FAMILY_KEY_CASES = [
    ("smear", 3, 12, (3, 3)),
    ("smear", 4, 6, (2, 3)),
    ("smear,partnership=true", 4, 6, (2, 3)),
    ("setback", 4, 6, (2, 3)),
    ("smear", 5, 8, (2, 2)),
    ("jokers=2,game=ten,three=true,five=true", 3, 8, (3, 3)),
]


@pytest.mark.parametrize(("spec", "n", "count", "back"), FAMILY_KEY_CASES)
def test_family_positions_sharing_a_key_have_the_same_value(spec, n, count, back):
    """Variants of a family position (the captured cards of side suits dealt out again
    among the seats: other Game counts, the same points captured; another leader) that
    the solver keys alike have the same value by the minimax."""
    rules = Rules.parse(spec)
    tab = rules_table(rules)
    rng = random.Random(f"family keys/variants/{spec}/{n}")
    shared = 0
    for _ in range(count):
        pitcher, held, hands, won, leader, trick, trump = random_position(
            rules, n, rng, back, mid=False
        )
        if trump < 0 or not any(hands):
            continue
        trumps = int(tab[trump, T_TRUMPS])
        groups: dict = {}
        for _ in range(60):
            w = [x & trumps for x in won]
            for c in cards_of(sum(won) & ~trumps):
                w[rng.randrange(n)] |= 1 << c
            lead = rng.randrange(n) if rng.random() < 0.5 else leader
            if not hands[lead]:
                continue
            key = family_key(rules, pitcher, held, hands, w, lead, trump)
            groups.setdefault(key, {})[(tuple(w), lead)] = (w, lead)
        memo: dict = {}
        for same in groups.values():
            if len(same) < 2:
                continue
            shared += 1
            values = {
                fm.solve(fm.start_state(rules, pitcher, held, hands, w, trump, lead), memo)
                for w, lead in same.values()
            }
            assert len(values) == 1, (spec, n, held, hands, list(same.values()))
    assert shared >= count // 2  # the variants do share keys: the test can fail


def test_a_plain_trump_is_never_keyed_as_the_three():
    """Ten-point (the 3 of trump worth 3, follow=only: hands of unequal length), hearts,
    seat 1 pitching: seat 0 holding the 3 and 4 of hearts, or the 4 alone (seat 0
    captured the 3), seat 1 the 6 and 7 and Low (the 2, its holder's) dealt.  The
    pitcher's points so far are the same (Low), the points to come are not (seat 1 takes
    the 3 in one), so the keys must differ: renaming the plain 4 onto the 3's rank (just
    above Low) keyed them alike."""
    rules = Rules.parse("ten-point,partnership=false")
    h = lambda rank: 13 * 2 + rank  # noqa: E731  (hearts; rank 0 is the 2)
    bits = lambda *cs: sum(1 << c for c in cs)  # noqa: E731
    with_three = [bits(h(1), h(2)), bits(h(4), h(5)), 0, 0]
    without = [bits(h(2)), bits(h(4), h(5)), 0, 0]
    won_a = [0, bits(h(0)), 0, 0]
    won_b = [bits(h(1)), bits(h(0)), 0, 0]
    held = [bits(h(1), h(2)), bits(h(0), h(4), h(5)), 0, 0]
    values = [
        fm.solve(fm.start_state(rules, 1, held, hands, won, 2, 0))
        for hands, won in ((with_three, won_a), (without, won_b))
    ]
    assert values == [5, 2]  # High, Low, the 3; or High and Low
    a = family_key(rules, 1, held, with_three, won_a, 0, 2)
    b = family_key(rules, 1, held, without, won_b, 0, 2)
    assert a != b
