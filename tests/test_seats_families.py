"""The built-in seat under every preset (table/seats.py ``KernelSeat`` at a
``View``, table/decide.py): asked decision by decision with the game's own
keys, it makes every decision the family game kernel made in a whole game (calls,
shoot, the naming of trump, every card, the rollout search's included), for smear,
setback, ten-point and auction-pitch as a family.  The games are played by the kernel
(``kernels.game.whole_game``); the views are cut from the same hands
replayed by the reference engine (``game.reference``: the auction, the draw
and every trick checked against the kernel's log), so a seat reading its view wrongly,
at a wrong stream position, or answering the wrong decision, disagrees with the kernel.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from test_family_hint import recount  # the reference engine's recount of one world

from pitchsim.game import reference as F
from pitchsim.game.cards import parse_cards
from pitchsim.game.reference.partner import highest_missing_trump
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, cut_hand
from pitchsim.kernels.contract import MAX_DEALS
from pitchsim.kernels.game import (
    G_BID,
    G_DEALER,
    G_JUNK,
    G_PITCHER,
    G_SIZE,
    G_TRICKS,
    G_TRUMP,
    MAX_CALL,
    log_layout,
    whole_game,
)
from pitchsim.kernels.play import seat_knowledge
from pitchsim.kernels.policies.cards import any_rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import deal_key
from pitchsim.table.boards import odds_for, seat_ids, strategy_for
from pitchsim.table.decide import card_counter, search_worlds, view_knowledge
from pitchsim.table.seats import KernelSeat, view_key

# (rules, players, the strategies at the table): every bidding and play policy the
# family kernels have, a search seat at each table.
TABLES = [
    ("smear", 4, ["odds+heuristic", "heuristic+rollout:8", "random+random", "odds+random"]),
    ("setback", 4, ["odds+rollout:8", "heuristic+heuristic"]),
    ("ten-point", 4, ["odds+random", "heuristic+rollout:8"]),
    ("ten-point,partnership=false", 5, ["random+random", "odds+rollout:8", "heuristic+heuristic"]),
    # The plain base game's seat is the base kernels' (test_table.py); the base game's
    # shape with one preset-only option (3.4's next-dealer) is the family kernels'.
    (
        "auction-pitch,all-pass=next-dealer",
        4,
        ["heuristic+heuristic", "random+rollout:8", "heuristic+random"],
    ),
    ("smear,shoot=true", 3, ["heuristic+heuristic", "random+rollout:8", "odds+heuristic"]),
    # 11.8: the dealer robs (12.7), the discards face up (12.9); searching seats both sides
    ("cinch", 4, ["odds+rollout:8", "heuristic+rollout:8", "odds+heuristic", "random+random"]),
]


class KernelJunk(random.Random):
    """Shuffles the discards (4.8 step 4) so the reference draws from them what the
    kernel did, in its order (the game log's ``junk``); the pack is not shuffled here."""

    def __init__(self, order: list[int]):
        super().__init__(0)
        self.order = order

    def shuffle(self, x) -> None:
        first = [c for c in self.order if c in x]
        x[:] = first + [c for c in x if c not in first]


def kernel_game(spec: str, n: int, names: list[str], seed: int, board: int):
    """The kernel's game of ``board``: the rules, the seats' strategies and the log rows."""
    r = Rules.parse(spec)
    r.check_players(n)
    seats = [strategy_for(names[s % len(names)], r) for s in range(n)]
    bidders, players = seat_ids(seats)
    odds, defender = odds_for(seats, r, n)
    at = log_layout(n)
    log = np.zeros(MAX_DEALS * at["width"], dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    stats = np.zeros((n, MAX_CALL, 2), dtype=np.int64)
    fr = rules_array(r)
    _, deals = any_rules(whole_game)(  # (the kernel of play --game and records)
        seed, board, n, bidders, players, fr, rules_table(r), odds, defender, scores, stats,
        log,
    )  # fmt: skip
    rows = log.reshape(MAX_DEALS, at["width"])[: int(deals)]
    return r, seats, at, rows


def reference_hand(r, n: int, at: dict, row: np.ndarray, before: list[int]) -> F.GameHand:
    """The kernel's hand of ``row`` replayed by the reference engine, each step checked
    against the log: the auction by the kernel's calls, the draw from the kernel's stock,
    every trick by the kernel's cards."""
    dealer = int(row[G_DEALER])
    dealt = [int(row[at["dealt"] + s]) for s in range(n)]
    kcalls = [int(row[at["calls"] + i]) for i in range(n)]
    auction = F.run_auction(dealer, n, lambda seat, made, legal: kcalls[len(made)], r, before)
    pitcher = int(row[G_PITCHER])
    assert (auction.pitcher if auction.pitcher is not None else -1) == pitcher
    if pitcher < 0:
        return F.GameHand(0, dealer, dealt, [], auction, -1, None, None, None, [0] * n, before)
    assert auction.bid == int(row[G_BID])
    trump = int(row[G_TRUMP]) if r.trump == "named" else -1
    held, draw = dealt, None
    if r.discard == "non-trump":
        size = int(row[G_SIZE])
        stock = [int(row[at["deck"] + i]) for i in range(n * r.cards_each(n), size)]
        junk = [int(row[at["junk"] + i]) for i in range(int(row[G_JUNK]))]
        held, draw = F.discard_and_draw(dealt, stock, pitcher, trump, r, KernelJunk(junk), dealer)
        assert held == [int(row[at["held"] + s]) for s in range(n)]
    tlog = at["tricks"]

    def replay(view) -> int:
        base = tlog + view.trick_no * (n + 2)
        leader = int(row[base])
        return int(row[base + 1 + (view.seat - leader) % n])

    called = -1  # pitchsim's call (12.1.2, 12.1.4): called before the draw, announced after
    if r.partner != "none":
        called = highest_missing_trump(
            (dealt if r.partner == "called" else held)[pitcher], trump, r
        )
    play = F.play_hand(held, pitcher, replay, r, bid=auction.bid, trump=trump, called=called)
    assert len(play.tricks) == int(row[G_TRICKS])
    made = play.score.points[pitcher] >= auction.bid
    return F.GameHand(0, dealer, dealt, [], auction, play.trump, draw, play, made, [], [])


def decisions(spec: str, n: int, names: list[str], seed: int, board: int, rows_too=False):
    """Every decision of the kernel's game: (seat's strategy, view, key, kernel's action)
    (``rows_too``: and the log row and its layout)."""
    r, seats, at, rows = kernel_game(spec, n, names, seed, board)
    before = [0] * n
    counted = 0  # hands=N (12.4): the hands counted before this one, in the view
    limit = r.hands_limit
    for d, row in enumerate(rows):
        key = np.uint64(deal_key(seed, board * MAX_DEALS + d))
        hand = reference_hand(r, n, at, row, before)
        for seat, doc, action in cut_hand(hand, n, r, before):
            doc = doc | ({"hands_played": counted} if limit else {})
            view = View.from_json(json.loads(json.dumps(doc)), rules=r)
            yield (seats[seat], view, key, action) + ((row, at) if rows_too else ())
        before = [int(row[at["scores"] + s]) for s in range(n)]
        counted += int(row[G_PITCHER]) >= 0 or r.all_pass != "redeal"


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("ten-point", 4),
        ("ten-point,partnership=false", 5),
        ("cinch", 4),
    ],
)
def test_the_knowledge_read_off_a_view_is_the_kernels(spec, n):
    """What a seat knows of the discard and draw, read off its view (``view_knowledge``),
    is what the kernel's game gives its search seats (``play.seat_knowledge``, from the
    hands as dealt and as held): the cards it knows are out of play (its discards, the
    robber's put-down, every trump burnt face up; under cinch, 11.8, the dealer robs,
    12.7, and every discard is face up, 12.9) and the pile put down unseen."""
    fr, tab = rules_array(Rules.parse(spec)), rules_table(Rules.parse(spec))
    seen = 0
    for board in range(2):
        for _, view, _, _, row, at in decisions(spec, n, ["odds+random"], 4, board, True):
            if view.phase != "play":
                continue
            dealt = np.array([row[at["dealt"] + s] for s in range(n)], dtype=np.int64)
            held = np.array([row[at["held"] + s] for s in range(n)], dtype=np.int64)
            known = np.zeros(n, dtype=np.int64)
            back = np.zeros((n, n), dtype=np.int64)
            down = seat_knowledge(
                dealt, held, n, view.pitcher, view.dealer, view.trump, fr, tab, known, back, 0
            )
            k = view_knowledge(view)
            assert k.known_out == known[view.seat], view.to_json()
            assert list(k.drawn_back) == list(back[view.seat]), view.to_json()
            robber = view.preset.robber(view.pitcher, view.dealer)  # 12.7: the dealer
            assert k.counts[n] == (0 if view.seat == robber else down)
            seen += down > 0 and view.seat != robber
    assert seen > 0 or n == 5  # a pile unseen by the seat asked (5 players: no stock left)


@pytest.mark.parametrize(("spec", "n", "names"), TABLES)
def test_the_seat_makes_the_kernels_decisions_in_whole_games(spec, n, names):
    """A whole game (to its end) of each table, decision by decision: the seat's action
    is the kernel's every time, and there are calls, a naming of trump where the preset
    names it, and cards of every kind of seat."""
    kinds: dict[str, int] = {}
    for board in range(2):
        for strategy, view, key, action in decisions(spec, n, names, seed=11, board=board):
            got = KernelSeat(strategy).decide(view, key).action
            assert got == action, (strategy.name, view.to_json(), got, action)
            kind = view.phase if view.phase != "play" else f"play:{strategy.play}"
            kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds.get("auction", 0) > 0
    assert ("trump" in kinds) == (Rules.parse(spec).trump == "named")
    assert all(kinds.get(f"play:{s.split('+')[1]}", 0) > 0 for s in names), kinds


@pytest.mark.parametrize("spec", ["smear", "ten-point", "setback", "auction-pitch"])
def test_call_and_play_answer_their_own_decisions_from_the_seed(spec):
    """``call`` answers the calls and the naming of trump (a legal action each time,
    ``"trump:S"`` at the naming), ``play`` the cards; each refuses the other's decision;
    the same view and seed always get the same answer, another seed is drawn anew."""
    seat = KernelSeat("random+random", seed=3)
    other = KernelSeat("random+random", seed=4)
    differs = 0
    phases = set()
    for _, view, _, _ in decisions(spec, 4, ["heuristic+heuristic"], seed=5, board=0):
        phases.add(view.phase)
        ask, wrong = (seat.call, seat.play) if view.phase != "play" else (seat.play, seat.call)
        action = ask(view)
        assert action in view.legal()
        if view.phase == "trump":
            assert action.startswith("trump:")
        with pytest.raises(ValueError, match="the phase is"):
            wrong(view)
        again = View.from_json(json.loads(json.dumps(view.to_json())), rules=view.rules)
        assert ask(again) == action
        assert view_key(3, view) == view_key(3, again)
        differs += (other.call if view.phase != "play" else other.play)(view) != action
    assert differs > 0
    assert "play" in phases and "auction" in phases


def test_the_odds_bidder_calls_up_to_the_largest_maximum_bid():
    """6.2: smear with both pedros, the 3 and two jokers bids to 20, the largest maximum
    bid; an odds seat's call there is read from rows made for it, and after a 19 it
    passes or bids the 20."""
    wide = {"rules": "smear,jokers=2,three=true,five=pedro", "players": 4, "seat": 2}
    hand = ["AH", "KH", "2H", "9C", "7D", "3S"]
    doc = View.from_json(wide | {"dealer": 0, "hand": hand, "calls": ["19"], "scores": [0] * 4})
    assert KernelSeat("odds+heuristic").decide(doc, view_key(0, doc)).action in ("pass", "20")


@pytest.mark.parametrize("spec", ["smear", "ten-point", "setback"])
def test_search_values_are_a_plain_python_recount(spec):
    """Each legal card's value is the mean over the rollout's own worlds (the same draw
    as the kernel's ``rollout_card``) of the reference engine's recount of the hand
    (test_family_hint's ``recount``: the tricks seen, the card, then the family heuristic
    at every seat, scored and settled by the reference rules)."""
    seat = KernelSeat("heuristic+rollout:5")
    checked = 0
    for i, (_, view, key, _) in enumerate(decisions(spec, 4, ["heuristic"], seed=8, board=0)):
        if view.phase != "play" or len(view.legal()) < 2 or i % 2:
            continue
        k = view_knowledge(view)
        worlds = search_worlds(k, key, card_counter(k), 5)
        assert worlds.shape[0] == 5
        got = seat.decide(view, key, values=True).values
        for text, value in got.items():
            c = parse_cards(text, view.rules.jokers)[0]
            want = np.mean([recount(view, w, c) for w in worlds])
            assert value == pytest.approx(want, abs=1e-9), (spec, i, text)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


@pytest.mark.parametrize("spec", ["smear", "ten-point"])
def test_search_values_are_the_numbers_the_card_was_chosen_by(spec):
    """With values the rollout gives every legal card's value and plays the same card as
    without; the best value is the card's (ties: the card is among the best); on an
    ample clock all worlds are valued and the answer is the same."""
    seat = KernelSeat("heuristic+rollout:12")
    seen = 0
    for _, view, key, _ in decisions(spec, 4, ["heuristic+heuristic"], seed=2, board=0):
        if view.phase != "play" or len(view.legal()) < 2:
            continue
        plain = seat.decide(view, key)
        valued = seat.decide(view, key, values=True)
        timed = seat.decide(view, key, values=True, time=60.0)
        assert valued.action == plain.action == timed.action
        assert set(valued.values) == set(view.legal())
        assert valued.values[plain.action] == max(valued.values.values())
        assert timed.values == valued.values
        assert timed.search["worlds"] == timed.search["worlds_max"] == 12
        seen += 1
        if seen == 12:
            break
    assert seen == 12


def test_a_presets_stream_ignores_options_added_to_its_complete_rules(monkeypatch):
    """``view_key`` hashes a preset's view with its rules as ``label`` writes them: a new
    option in the complete rule string a view is written with (as issue 32's three
    were added) leaves the preset's random stream, and so the engine's answers, alone."""
    import pitchsim.game.view as view_module
    from pitchsim.cli.cache import WARM_VIEW

    v = View.from_json(WARM_VIEW, "test")
    before = view_key(7, v)
    real = view_module.spec
    monkeypatch.setattr(view_module, "spec", lambda r: real(r) + ",new-option=off")
    assert v.to_json()["rules"].endswith(",new-option=off")
    assert view_key(7, v) == before
