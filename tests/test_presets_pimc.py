"""``pimc`` as a play policy under every preset (kernels/search/rollout.py's ``PIMC``
kind): W worlds drawn from what the seat knows, every legal card valued by the one
double-dummy solver with the preset's tables in each, the card best for the seat's side.

Checked here, over auction-pitch as a preset, setback, smear, ten-point and options:

- whole games with pimc seats, decision by decision: the view-reading seat
  (``table.decide``, which sees only what the view shows) makes every decision the
  kernel's game made, and the reference engine replays every card as legal
  (docs/rules.md 0.4, 0.5; 4.9 under follow=only);
- the kernel's values are the solver's on the same worlds as ``search.hint``'s pimc, and
  its card is hint's choice; with every world the true deal, each card's value is the
  plain-Python minimax's (search/minimax.py) and the card played is the best for the
  seat's side (0.9: the pitcher's side wants the bid made, then points; the others the
  reverse);
- the choice against ``table.clock.side_choice`` (the rule in Python) on outcomes as
  large as a preset's points (smear's 5, ten-point's 10 and more: not the base game's 4);
- the node budget stops early and keeps the worlds solved exactly; the same seed plays
  the same games on 1 or 2 threads.
"""

from __future__ import annotations

import numpy as np
import pytest
from logged_hands import cards_of_hand, logged_hands
from preset_path import AP_PRESET
from test_seats_families import decisions

from pitchsim.game.cards import parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels.score import side_of
from pitchsim.kernels.search.monte_carlo import choose_by_outcomes
from pitchsim.kernels.search.rollout import pimc_outcomes
from pitchsim.search import minimax
from pitchsim.search.hint import decision_at
from pitchsim.table.boards import board_game, board_tournament, seat_ids, strategy_for
from pitchsim.table.clock import side_choice
from pitchsim.table.decide import (
    card_counter,
    pimc_valuer,
    search_worlds,
    view_knowledge,
)
from pitchsim.table.policies import DEFAULT_WORLDS
from pitchsim.table.seats import KernelSeat

# Every preset, auction-pitch as one, and options that change the play (follow, jokers,
# partnership, shoot).
PRESETS = [
    AP_PRESET,
    "setback",
    "smear",
    "ten-point",
    "smear,follow=suit",
    "ten-point,follow=trump",
    "ten-point,partnership=false",
    "smear,shoot=true",
    "cinch",
]


@pytest.mark.parametrize("spec", PRESETS)
def test_pimc_is_a_play_policy_under_every_preset(spec):
    """No refusal: pimc and pimc:W are family strategies (the base game's default
    worlds), and a pimc seat makes the play ids int32, the search kernels'; a table
    without a search seat keeps int64 (the plain kernels, no solver compiled in)."""
    r = Rules.parse(spec)
    assert strategy_for("heuristic+pimc:8", r).play == "pimc:8"
    default = strategy_for("heuristic+pimc", r)
    assert default.play == "pimc" and DEFAULT_WORLDS["pimc"] == 16
    _, ids = seat_ids([default, strategy_for("heuristic", r)])
    assert ids.dtype == np.int32 and ids[0] >> 8 == 16 and ids[0] & 0xFF == 3
    _, plain = seat_ids([strategy_for("heuristic", r), strategy_for("random", r)])
    assert plain.dtype == np.int64
    # rollout alone: uint32, whose kernels compile no solver in
    _, rollout = seat_ids([strategy_for("heuristic+rollout:4", r), default])
    assert rollout.dtype == np.int32
    _, rollout = seat_ids([strategy_for("heuristic+rollout:4", r)])
    assert rollout.dtype == np.uint32 and rollout[0] >> 8 == 4 and rollout[0] & 0xFF == 2


# (rules, players, strategies): a pimc seat at each table, every preset.
TABLES = [
    (AP_PRESET, 4, ["heuristic+pimc:3", "heuristic+heuristic"]),
    ("setback", 4, ["heuristic+heuristic", "odds+pimc:3"]),
    ("smear", 4, ["heuristic+pimc:3", "heuristic+heuristic", "random+random", "odds+pimc:2"]),
    ("ten-point", 4, ["odds+pimc:3", "heuristic+heuristic"]),
    ("ten-point,partnership=false", 5, ["heuristic+pimc:2", "odds+heuristic", "random+random"]),
    ("smear,shoot=true", 3, ["heuristic+heuristic", "random+pimc:3", "heuristic+pimc:2"]),
    # 11.8: the dealer robs (12.7) and the discards are face up (12.9)
    ("cinch", 4, ["odds+pimc:3", "heuristic+heuristic"]),
]


@pytest.mark.parametrize(("spec", "n", "names"), TABLES)
def test_pimc_games_are_whole_legal_and_the_seats_own(spec, n, names):
    """A whole game, decision by decision (test_seats_families' replay: the reference
    engine plays every logged card, so each is legal by its rules): the seat that reads
    only its view (its hand, the cards played, the voids shown, the sizes) plays every
    pimc card the kernel played.  A kernel world that saw a hidden card, a world count
    or a stream other than the view's, or a side valued wrongly, plays another card."""
    pimc_cards = 0
    for strategy, view, key, action in decisions(spec, n, names, seed=11, board=0):
        got = KernelSeat(strategy).decide(view, key).action
        assert got == action, (spec, strategy.name, view.to_json(), got, action)
        if view.phase == "play" and strategy.play.startswith("pimc") and len(view.legal()) > 1:
            pimc_cards += 1
    assert pimc_cards > 5


@pytest.mark.parametrize("spec", [AP_PRESET, "setback", "smear", "ten-point"])
def test_the_kernel_values_and_card_are_hints_pimc_on_the_same_worlds(spec):
    """The pimc seat's values (``pimc_valuer``: the kernel's ``pimc_outcomes``) equal
    ``search.hint``'s pimc values (its own call of the solver) on the worlds the kernel
    draws, and the card the seat plays (the kernel's, by the test above) is hint's choice
    from them."""
    seat = KernelSeat("heuristic+pimc:5")
    checked = 0
    for _, view, key, _ in decisions(spec, 4, ["heuristic+heuristic"], seed=3, board=0):
        if view.phase != "play" or len(view.legal()) < 2:
            continue
        k = view_knowledge(view)
        worlds = search_worlds(k, key, card_counter(k), 5)
        assert worlds.shape[0] == 5
        d = decision_at(k, view.preset.max_bid, "pimc")
        want, _ = d.valuer("pimc", worlds)[0](0, 5)
        got, _ = pimc_valuer(k, worlds, d.cards)(0, 5)
        assert np.array_equal(got, want), (spec, view.to_json())
        card = seat.decide(view, key).action
        j = side_choice(want, d.ours, d.aim, d.index(d.prior))
        assert parse_cards(card, view.rules.jokers)[0] == int(d.cards[j]), (spec, card)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def _late_positions(spec: str, n: int, cards_left: int, deals: int, seed: int):
    """Positions of heuristic hands (``play_logged``) with at most ``cards_left``
    cards in the hand to move and more than one legal card: (rules, fr, tab, held, hands,
    won, trump, leader, trick, tseats, seat, trick_no, pby, pitcher, legal)."""
    lg = logged_hands(spec, n, deals, seed)
    for d in range(deals):
        for at in cards_of_hand(lg, d):
            if bin(at.hands[at.seat]).count("1") <= cards_left and at.legal & (at.legal - 1):
                yield (
                    lg.r, lg.fr, lg.tab, list(lg.held[d]), at.hands, at.won, at.trump, at.leader,
                    at.trick, at.tseats, at.seat, at.t, at.pby, lg.pitcher, at.legal,
                )  # fmt: skip


@pytest.mark.parametrize("spec", PRESETS)
def test_in_the_true_deal_pimc_plays_the_minimax_best(spec):
    """W worlds, each the true deal: every card's value is the plain-Python minimax's
    (search/minimax.py, the reference engine's rules: 0.4-0.9, 4.9) and the card pimc
    plays is worth the best the seat's side can get (the pitcher's side the most, every
    other side the least: the solver's two sides)."""
    n = 5 if "partnership=false" in spec else 4
    checked = 0
    for pos in _late_positions(spec, n, 3, 30, seed=21):
        r, fr, tab, held, hands, won, trump, leader, trick, tseats, seat, t, pby, pitcher, legal = (
            pos
        )
        kept = 3
        worlds = np.zeros((kept, n + 1), np.int64)
        worlds[:, :n] = hands
        cards = np.array([c for c in range(54) if legal >> c & 1], np.int64)
        out = np.zeros((cards.size, kept), np.int64)
        tr = np.zeros(n, np.int64)
        ts = np.zeros(n, np.int64)
        tr[: len(trick)] = trick
        ts[: len(tseats)] = tseats
        done, _ = pimc_outcomes(
            worlds, cards, seat, n, pitcher, trump, tr, ts, len(trick),
            np.array(won, np.int64), np.array(pby, np.int64), fr, tab, out, 0, -1,
        )  # fmt: skip
        assert done == kept
        st = minimax.start_state(r, pitcher, held, hands, won, trump, leader, tuple(trick))
        assert st.to_play() == seat
        values = minimax.card_values(st)
        assert sorted(values) == [int(c) for c in cards]
        for j, c in enumerate(cards):
            assert list(out[j]) == [values[int(c)]] * kept, (spec, pos)
        ours = side_of(seat, fr) == side_of(pitcher, fr)
        for bid in (1, 2, max(values.values())):
            card = int(choose_by_outcomes(cards, out, kept, ours, bid, int(cards[-1])))
            best = max(values.values()) if ours else min(values.values())
            assert values[card] == best, (spec, pos, bid)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


@pytest.mark.parametrize("points", [4, 5, 10, 17])
def test_the_choice_is_the_side_rule_for_any_points_range(points):
    """pimc's choice (``choose_by_outcomes``, the base game's and the presets') against
    ``table.clock.side_choice`` (the rule in Python: the pitcher's side the most worlds
    reaching the bid, then the most points; the defenders the fewest of both; ties to
    the prior) on random outcomes up to a
    preset's points, with ties made likely, and outcomes of 0, the bid or every point
    (a card that makes the bid in more worlds by a few points each against one that
    takes many points in fewer: the bid must come first however many points)."""
    rng = np.random.default_rng(points)
    for i in range(600):
        k = int(rng.integers(2, 7))
        w = int(rng.integers(1, 9))
        bid = int(rng.integers(1, points + 1))
        if i % 2:
            out = rng.integers(0, points + 1, size=(k, w)).astype(np.int64)
        else:
            out = rng.choice([0, bid, points], size=(k, w)).astype(np.int64)
        if rng.random() < 0.3:
            out[int(rng.integers(k))] = out[0]
        cards = np.sort(rng.choice(54, size=k, replace=False)).astype(np.int64)
        prior_j = int(rng.integers(k))
        for ours in (True, False):
            got = int(choose_by_outcomes(cards, out, w, ours, bid, int(cards[prior_j])))
            assert got == int(cards[side_choice(out, ours, bid, prior_j)]), (out, bid, ours)


def test_the_node_budget_stops_at_a_world_and_keeps_those_solved_exact():
    """A budget smaller than the worlds need stops at the first world it does not
    finish; the worlds it did finish are valued exactly as without a budget (the base
    game's ``PLAY_NODES`` rule: counted, not timed)."""
    spec, n = "ten-point,partnership=false", 6
    for pos in _late_positions(spec, n, 6, 4, seed=5):
        _, fr, tab, held, hands, won, trump, leader, trick, tseats, seat, t, pby, pitcher, legal = (
            pos
        )
        kw = 6
        worlds = np.zeros((kw, n + 1), np.int64)
        worlds[:, :n] = hands
        cards = np.array([c for c in range(54) if legal >> c & 1], np.int64)
        tr = np.zeros(n, np.int64)
        ts = np.zeros(n, np.int64)
        tr[: len(trick)] = trick
        ts[: len(tseats)] = tseats
        args = (seat, n, pitcher, trump, tr, ts, len(trick), np.array(won, np.int64),
                np.array(pby, np.int64), fr, tab)  # fmt: skip
        full = np.zeros((cards.size, kw), np.int64)
        done, nodes = pimc_outcomes(worlds, cards, *args, full, 0, -1)
        assert done == kw and nodes > kw
        part = np.zeros((cards.size, kw), np.int64)
        done2, nodes2 = pimc_outcomes(worlds, cards, *args, part, nodes // 2, -1)
        assert 0 <= done2 < kw and nodes2 < nodes
        assert np.array_equal(part[:, :done2], full[:, :done2])
        none = np.zeros((cards.size, kw), np.int64)
        assert pimc_outcomes(worlds, cards, *args, none, 1, -1)[0] == 0
        return
    pytest.fail("no 6-player position found")


@pytest.mark.parametrize("spec", ["smear", "ten-point"])
def test_pimc_tournaments_repeat_on_any_thread_count(spec):
    r = Rules.parse(spec)
    chosen = [strategy_for(s, r) for s in ("heuristic+pimc:3", "heuristic")]
    one = board_tournament(chosen, 4, 2, r, seed=9, threads=1)
    two = board_tournament(chosen, 4, 2, r, seed=9, threads=2)
    assert np.array_equal(one.wins, two.wins)
    assert np.array_equal(one.score_sum, two.score_sum)
    assert one.wins.sum() + one.unfinished == pytest.approx(2 * 2)
    a = board_game(4, 1, ["heuristic+pimc:3", "heuristic"] * 2, Rules.parse(spec))
    b = board_game(4, 1, ["heuristic+pimc:3", "heuristic"] * 2, Rules.parse(spec))
    assert a.to_json() == b.to_json() and a.hands


@pytest.mark.parametrize("spec", ["smear", "ten-point", "auction-pitch"])
def test_pimc_values_and_clock_give_the_card_played(spec):
    """With values (the pitcher's side's mean points per legal card) the pimc seat plays
    the card it plays without; on an ample clock all worlds are solved and the answer
    and the values are the same."""
    seat = KernelSeat("heuristic+pimc:6")
    seen = 0
    for _, view, key, _ in decisions(spec, 4, ["heuristic+heuristic"], seed=2, board=0):
        if view.phase != "play" or len(view.legal()) < 2:
            continue
        plain = seat.decide(view, key)
        valued = seat.decide(view, key, values=True)
        timed = seat.decide(view, key, values=True, time=60.0)
        assert valued.action == plain.action == timed.action
        assert set(valued.values) == set(view.legal())
        assert timed.values == valued.values
        assert timed.search["worlds"] == timed.search["worlds_max"] == 6
        seen += 1
        if seen == 6:
            break
    assert seen == 6
