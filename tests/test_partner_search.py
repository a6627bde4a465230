"""docs/rules.md 12.1 in the search (``kernels/search/rollout.py`` and the double-dummy
solver, ``kernels/search/solver.py``): each world the search imagines is valued with
that world's sides, the pitcher and the holder of the call there against all the
others (12.1.5, 12.1.6, 12.1.7), the partner owing the call to the first trick under
partner=called (12.1.3), in the play-outs and in the solver alike; the seat's own
knowledge of the partner is the reference engine's (12.1.10).

Checked against the plain-Python reference: the solver against the exhaustive minimax
(``search.minimax``, the reference's legal cards, duty and scoring by sides) on small
positions of trick 1; the rollout's play-out of every legal card against the reference
engine's own ``play_hand`` with the kernel's heuristic as its chooser, scored and
settled by the reference (``score_hand``, ``settle_hand`` with ``sides_of``).
"""

from __future__ import annotations

import random
from functools import partial

import numpy as np
import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, parse_cards
from pitchsim.game.reference.partner import highest_missing_trump, partner_of
from pitchsim.game.reference.score import settle_hand, sides_of
from pitchsim.game.rules import Rules
from pitchsim.kernels import partner as kp
from pitchsim.kernels.policies.cards import heuristic_card
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search import solver as ks
from pitchsim.kernels.search.rollout import rollout_outcomes
from pitchsim.kernels.search.worlds import partner_constraint
from pitchsim.search import minimax as fm

CALLED = "smear,partner=called"
SOLVER_SPECS = [
    (CALLED, 5),
    ("smear,partner=announced", 5),
    ("auction-pitch,trump=named,partner=called", 6),
    ("ten-point,partnership=false,partner=called", 5),  # follow=only, jokers, game=ten
]


def _arrays(rules):
    return rules_array(rules), rules_table(rules)


def small_position(rules, n: int, rng: random.Random):
    """A position of trick 1 (no trick taken yet) with 2 or 3 cards a seat: (pitcher,
    held, hands, leader, trick, trump, called).  The call is a trump a seat other than
    the pitcher holds most of the time (else any trump: the pitcher's own or one out of
    play, 12.1.5); some positions are cut inside the trick."""
    dealt, _ = F.deal(rng, rules, n, rng.randrange(n))
    k = rng.choice((2, 3))
    held = [0] * n
    for s in range(n):
        for c in rng.sample(cards_of(dealt[s]), k):
            held[s] |= 1 << c
    pitcher = rng.randrange(n)
    trump = rng.randrange(4)
    order = F.trump_order(rules, trump)
    theirs = [c for c in order if any(held[s] >> c & 1 for s in range(n) if s != pitcher)]
    called = rng.choice(theirs) if theirs and rng.random() < 0.8 else rng.choice(order)
    leader = pitcher
    if rules.follow == "only":  # 4.9: the first seat from the pitcher holding a trump leads
        leader = next((s % n for s in range(pitcher, pitcher + n)
                       if F.trumps_in(held[s % n], trump, rules)), pitcher)  # fmt: skip
    st = fm.start_state(rules, pitcher, held, held, [0] * n, trump, leader, (), called)
    trick = []
    for _ in range(rng.randrange(n - 1)):
        if st.to_play() is None:
            break
        c = rng.choice(cards_of(st.legal()))
        trick.append(c)
        st = st.play(c)
        if not st.trick:  # (completed: follow=only with seats out; take it back)
            trick = []
            break
    hands = list(held)
    for c in trick:
        for s in range(n):
            hands[s] &= ~(1 << c)
    return pitcher, held, hands, leader, trick, trump, called


def _solver_args(rules, pitcher, held, hands, leader, trick, trump, table):
    fr, tab = _arrays(rules)
    n = len(held)
    tr = np.zeros(8, dtype=np.int64)
    tr[: len(trick)] = trick
    won = np.zeros(n, dtype=np.int64)
    h = np.array(hands, dtype=np.int64)
    return (h, won, np.array(held, dtype=np.int64), n, leader, tr, len(trick), trump, pitcher,
            fr, tab, table)  # fmt: skip


@pytest.mark.parametrize(("spec", "n"), SOLVER_SPECS)
def test_12_1_3_and_12_1_6_the_solver_equals_the_minimax_with_the_partner(spec, n):
    """Every legal card's double-dummy value, and the position's, equal the reference
    minimax's: the pitcher and the call's holder maximise the side's points together
    (12.1.6), and under called the holder plays the call to trick 1 (12.1.3)."""
    rules = Rules.parse(spec)
    rng = random.Random(f"partner solver/{spec}")
    table = ks.new_table(12)
    partnered = 0
    for _ in range(40):
        pitcher, held, hands, leader, trick, trump, called = small_position(rules, n, rng)
        st = fm.start_state(rules, pitcher, held, hands, [0] * n, trump, leader, trick, called)
        if st.leader is None:
            continue
        memo: dict = {}  # (one search: the card values are its root's children)
        want, want_cards = fm.solve(st, memo), fm.card_values(st, memo)
        args = _solver_args(rules, pitcher, held, hands, leader, trick, trump, table)
        out = np.empty(54, dtype=np.int64)
        each = int(ks.preset_card_values(*args, out, called))
        got = {c: int(out[c]) for c in range(54) if out[c] >= 0}
        value = int(ks.solve_preset(*args, called))
        assert (value, each, got) == (want, want, want_cards), (spec, held, hands, trick, called)
        partnered += partner_of(held, pitcher, called) is not None
    assert partnered >= 10


def _mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text, 0))


def test_12_1_3_the_solver_gives_the_partner_the_call_alone_in_trick_1():
    """smear, 5 players, hearts trump: seat 0 pitches and called A♥, which seat 2 holds
    with the 2♠.  Seat 0 led the 3♣ and seat 1 followed with the 4♣; seat 2, void in
    clubs, could play either card, but must play A♥ (12.1.3): it is the one card the
    solver plays there.  With no call both are his."""
    rules = Rules.parse(CALLED)
    held = [_mask(h) for h in ("2H 3C", "KH 4C", "AH 2S", "QH 5C", "JH 6C")]
    hearts, called = 2, parse_cards("AH", 0)[0]
    hands = [held[0] & ~_mask("3C"), held[1] & ~_mask("4C"), *held[2:]]
    table = ks.new_table(12)
    args = _solver_args(rules, 0, held, hands, 0, parse_cards("3C 4C", 0), hearts, table)
    out = np.empty(54, dtype=np.int64)
    ks.preset_card_values(*args, out, called)
    assert [x for x in range(54) if out[x] >= 0] == [called]
    ks.preset_card_values(*args, out, -1)
    assert sorted(x for x in range(54) if out[x] >= 0) == sorted(parse_cards("AH 2S", 0))


@pytest.mark.parametrize(("spec", "n"), [(CALLED, 5), ("smear,partner=announced", 5)])
def test_12_1_6_pimc_values_each_world_with_its_own_sides(spec, n):
    """``preset_world_values`` over worlds that move the call to another seat: each
    world's values are the minimax's with that world's partner (12.1.5, 12.1.6)."""
    rules = Rules.parse(spec)
    rng = random.Random(f"partner worlds/{spec}")
    table = ks.new_table(12)
    fr, tab = _arrays(rules)
    moved = 0
    for _ in range(12):
        pitcher, held, hands, leader, trick, trump, called = small_position(rules, n, rng)
        st = fm.start_state(rules, pitcher, held, hands, [0] * n, trump, leader, trick, called)
        if st.leader is None:
            continue
        me = st.to_play()
        played = {s for s in st.seats}
        # the seats that have not played yet may trade hands: the call may change hands
        free = [s for s in range(n) if s not in played and s != me]
        worlds = [list(hands)]
        for _ in range(3):
            a, b = rng.sample(free, 2) if len(free) >= 2 else (free[0], free[0])
            w = list(hands)
            w[a], w[b] = w[b], w[a]
            worlds.append(w)
        pby = np.array([held[s] & ~hands[s] for s in range(n)], dtype=np.int64)
        arr = np.array([w + [0] for w in worlds], dtype=np.int64)
        cards = np.array(cards_of(st.legal()), dtype=np.int64)
        out = np.empty((cards.size, len(worlds)), dtype=np.int64)
        tr = np.zeros(8, dtype=np.int64)
        tr[: len(trick)] = trick
        done, _ = ks.preset_world_values(
            arr, pby, n, pitcher, trump, leader, tr, len(trick), np.zeros(n, np.int64), fr,
            tab, table, cards, out, 0, called,
        )  # fmt: skip
        assert done == len(worlds)
        for i, w in enumerate(worlds):
            wheld = [w[s] | int(pby[s]) for s in range(n)]
            wst = fm.start_state(rules, pitcher, wheld, w, [0] * n, trump, leader, trick, called)
            want = fm.card_values(wst)
            assert {int(c): int(out[j, i]) for j, c in enumerate(cards)} == want
            moved += partner_of(wheld, pitcher, called) != partner_of(held, pitcher, called)
    assert moved > 0


ROLLOUT_SPECS = [
    (CALLED, 5),
    ("smear,partner=announced", 5),
    ("auction-pitch,trump=named,partner=called", 6),
    ("smear,partner=called,set=to-others", 5),
]


def _kernel_heuristic(view, n, fr, tab):
    """The kernels' heuristic as a reference-engine chooser."""
    trick = np.zeros(n, dtype=np.int64)
    tseats = np.zeros(n, dtype=np.int64)
    for i, c in enumerate(view.trick):
        trick[i] = c
        tseats[i] = (view.leader + i) % n
    return int(
        heuristic_card(
            np.int64(view.legal), np.int64(view.hand), view.seat, n, view.pitcher, view.trump,
            view.trick_no, trick, tseats, len(view.trick), np.int64(view.played), fr, tab,
        )
    )  # fmt: skip


@pytest.mark.parametrize(("spec", "n"), ROLLOUT_SPECS)
def test_12_1_3_and_12_1_7_the_rollout_is_the_reference_hand_played_out(spec, n):
    """With every card known (one world: the deal), the rollout's value of each legal
    card in trick 1 is the reference engine's hand played from there by the kernels'
    heuristic (the partner playing the call to trick 1, 12.1.3), scored and settled by
    sides (12.1.6, 12.1.7): the seat's change less the mean change of the seats on the
    other side, times the n - 1 seats a player has against him."""
    rules = Rules.parse(spec)
    r = rules
    fr, tab = _arrays(rules)
    rng = random.Random(f"partner rollout/{spec}")
    partnered = 0
    for _ in range(15):
        dealt, _ = F.deal(rng, r, n, rng.randrange(n))
        pitcher, trump, bid = rng.randrange(n), rng.randrange(4), rng.randint(2, r.max_bid)
        called = highest_missing_trump(dealt[pitcher], trump, r)
        partner = partner_of(dealt, pitcher, called)
        sides = sides_of(n, pitcher, partner, r)
        prefix: list[int] = []
        hands = list(dealt)
        st = fm.start_state(r, pitcher, dealt, dealt, [0] * n, trump, pitcher, (), called)
        for _ in range(rng.randrange(n)):
            c = rng.choice(cards_of(st.legal()))
            prefix.append(c)
            st = st.play(c)
        for c in prefix:
            hands = [h & ~(1 << c) for h in hands]
        seat, legal = st.to_play(), st.legal()
        want = []
        for card in cards_of(legal):
            moves = iter([*prefix, card])

            def choose(view, moves=moves):
                nxt = next(moves, None)
                return nxt if nxt is not None else _kernel_heuristic(view, n, fr, tab)

            rec = F.play_hand(dealt, pitcher, choose, r, bid=bid, trump=trump, called=called)
            change = settle_hand(rec.score.points, pitcher, bid, r, sides)
            rest = [change[s] for s in range(n) if sides[s] != sides[seat]]
            want.append((n - 1) * change[seat] - (n - 1) * sum(rest) // len(rest))
        world = np.array([[*hands, 0]], dtype=np.int64)
        pby = np.array([dealt[s] & ~hands[s] for s in range(n)], dtype=np.int64)
        tr = np.zeros(n, dtype=np.int64)
        ts = np.zeros(n, dtype=np.int64)
        for i, c in enumerate(prefix):
            tr[i], ts[i] = c, (pitcher + i) % n
        out = np.empty((len(want), 1), dtype=np.int64)
        rollout_outcomes(
            world, np.int64(legal), seat, n, pitcher, bid, trump, 0, tr, ts, len(prefix),
            np.int64(0), np.zeros(n, np.int64), pby, fr, tab, out, called,
        )  # fmt: skip
        assert list(out[:, 0]) == want, (spec, dealt, pitcher, trump, called, prefix)
        partnered += partner is not None
    assert partnered >= 5


def _same_constraint(view, r, fr, pitcher, called, partner, first) -> int:
    """At one reference decision: the kernel's reading of the partner as ``view.seat``
    knows him equals the view's, and with it the kernel's evidence constrains the worlds
    as the view's does (``partner_constraint``); returns the partner as known (-1).
    ``first``: (seat, card) of every card played to trick 1 before this decision."""
    n = view.players
    pby = np.array(view.played_by, dtype=np.int64)
    tr = np.zeros(n, dtype=np.int64)
    ts = np.zeros(n, dtype=np.int64)
    for i, c in enumerate(view.trick):
        tr[i], ts[i] = c, (view.leader + i) % n
    holder = -1 if partner is None else partner
    got = kp.known_partner(view.seat, np.int64(view.hand), pby, n, pitcher, called, holder, fr)
    want = -1 if view.partner is None else view.partner
    assert got == want
    trick1 = 0
    if r.partner == "called":
        for s, c in first:
            trick1 |= (1 << s) if c != called else 0
    kt = kp.trick1_others(n, view.trick_no, tr, ts, len(view.trick), called)
    unseen = ((1 << 54) - 1) & ~view.hand & ~int(pby.sum())
    made = []
    for who, t1 in ((want, trick1), (got, kt)):
        allowed = np.full(n + 1, unseen, dtype=np.int64)
        must = partner_constraint(
            n, pitcher, called, who, np.int64(t1), fr, np.int64(unseen), allowed, np.int64(0)
        )
        made.append((list(allowed), int(must)))
    assert made[0] == made[1]
    return want


@pytest.mark.parametrize(
    ("spec", "n"),
    [(CALLED, 5), ("smear,partner=announced", 6), ("smear,partner=called,kitty=3", 5)],
)
def test_12_1_10_the_kernel_search_knows_the_partner_as_the_reference_seat(spec, n):
    """At every decision of random reference hands the search kernel's reading of what
    the seat knows (``partner.known_partner``, ``trick1_others``)
    makes the same worlds' constraint (``worlds.partner_constraint``) as the reference
    view's (its ``partner``, and the seats that played another card to trick 1)."""
    rules = Rules.parse(spec)
    r = rules
    fr, _ = _arrays(rules)
    rng = random.Random(f"partner knowledge/{spec}")
    known = []
    for _ in range(20):
        dealt, _ = F.deal(rng, r, n, rng.randrange(n))
        pitcher, trump = rng.randrange(n), rng.randrange(4)
        called = highest_missing_trump(dealt[pitcher], trump, r)
        if rng.random() < 0.3:
            called = rng.choice(F.trump_order(r, trump))  # the pitcher's own, or out of play
        check = partial(
            _same_constraint, r=r, fr=fr, pitcher=pitcher, called=called,
            partner=partner_of(dealt, pitcher, called), first=[],
        )  # fmt: skip

        def choose(view, check=check):
            known.append(check(view))
            card = rng.choice(cards_of(view.legal))
            if view.trick_no == 0:
                check.keywords["first"].append((view.seat, card))
            return card

        F.play_hand(dealt, pitcher, choose, r, trump=trump, called=called)
    assert len(known) > 100 and sum(k >= 0 for k in known) > 10


# (rules, players, the strategies at the table): a search seat of each kind, bidding by
# the policies that read no odds table (test_partner_engine: the odds bidder there).
PARTNER_TABLES = [
    (CALLED, 5, ["heuristic+rollout:8", "heuristic+heuristic", "random+pimc:4"]),
    ("smear,partner=announced", 5, ["random+rollout:8", "heuristic+pimc:4"]),
    ("auction-pitch,trump=named,partner=called", 6, ["heuristic+rollout:8", "random+random"]),
]


@pytest.mark.parametrize(("spec", "n", "names"), PARTNER_TABLES)
def test_12_1_10_the_engine_seat_makes_the_kernel_games_search_decisions(spec, n, names):
    """A whole game of the family game kernel with searching seats under a called
    partner, decision by decision: the engine's seat (``KernelSeat`` at the view cut
    from the reference's replay of the same hand) makes the kernel's decision every time,
    the search's cards included.  So the kernel's search samples the worlds the view's
    knowledge admits (12.1.10) and values them as the seat at a view does; every card is
    legal (the reference replays it, 12.1.3 included).  Asked for its values too (the
    valuers ``hint`` and the seat share), it makes the same card."""
    from test_seats_families import decisions

    from pitchsim.table.seats import KernelSeat

    kinds: dict[str, int] = {}
    for board in range(2):
        for strategy, view, key, action in decisions(spec, n, names, seed=5, board=board):
            got = KernelSeat(strategy).decide(view, key).action
            assert got == action, (strategy.name, view.to_json(), got, action)
            if view.phase == "play" and len(view.legal()) > 1:
                # with its values (the valuers of hint's and the seat's own): the same card
                valued = KernelSeat(strategy).decide(view, key, values=True).action
                assert valued == action, (strategy.name, view.to_json(), valued, action)
                kind = f"{strategy.play.split(':')[0]}:{'partner' if view.partner is not None else 'unknown'}"
                kinds[kind] = kinds.get(kind, 0) + 1
    searches = {s.split("+")[1].split(":")[0] for s in names} & {"rollout", "pimc"}
    known = ("unknown", "partner") if "called" in spec else ("partner",)  # 12.1.4: all know
    assert all(kinds.get(f"{p}:{k}", 0) > 0 for p in searches for k in known), kinds
