"""``pitchsim hint POSITION.json`` under every preset (issue 28): a preset's position is
valued as the view of the player to move is.  What that player knows, read off the
position (``search.hint.position_knowledge``), is checked against what the view reader
(``game.family_view``, its own replay) gives the same seat at every card decision of
games the reference engine played; the answer on a position is the view's answer."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from clirun import cli, refused
from preset_path import AP_PRESET

import pitchsim.game.reference as F
from pitchsim.game.cards import cards_of, format_card, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.short_view import short_view
from pitchsim.game.view import View, cut_hand
from pitchsim.kernels.bidding.calls import BIDDING_IDS, choose_call, name_suit
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search.worlds import world_constraint
from pitchsim.search.hint import (
    HintError,
    _CallFit,
    _FittedSampler,
    _Sampler,
    hint,
    hint_view,
    position_knowledge,
)
from pitchsim.search.position import PresetPosition, _preset_position, parse_position
from pitchsim.table.boards import no_odds, odds_bidder_table
from pitchsim.table.decide import view_knowledge


def card_views(spec: str, n: int, seed: int, hands: int = 3):
    """(hand record, view) at every card decision of a reference game of random legal
    decisions."""
    rules = Rules.parse(spec)
    pick = random.Random(seed + 1)
    game = F.play_game(
        n, rules, random.Random(seed),
        lambda seat, hand, calls, legal, scores: pick.choice(legal),
        lambda seat, hand: pick.randrange(4),
        lambda view: pick.choice(cards_of(view.legal)),
        max_hands=hands,
    )  # fmt: skip
    before = [0] * n
    for hand in game.hands:
        for _seat, doc, _ in cut_hand(hand, n, rules, before):
            v = View.from_json(json.loads(json.dumps(doc)), rules=rules)
            if v.phase == "play":
                yield hand, v
        before = list(hand.scores)


def position_of(hand, v: View) -> dict:
    """The position of the view's decision, every hand open: the hands when the first
    card was led and the tricks so far (as ``solve`` takes it)."""
    doc = {
        "players": v.players,
        "pitcher": v.pitcher,
        "bid": v.bid,
        "rules": v.rules.family,
        "hands": [[format_card(c, symbols=False) for c in cards_of(m)] for m in hand.play.held],
        "tricks": [
            {"leader": t.leader, "cards": [format_card(c, symbols=False) for c in t.cards]}
            for t in v.tricks
        ],
    }
    if v.rules.trump == "named":
        doc["trump"] = "CDHS"[v.trump]
    return doc


def family_position(doc: dict) -> PresetPosition:
    """The position under its preset, auction-pitch too (the base game's plain rules
    parse to a base ``Position``: here it is the auction-pitch preset's)."""
    pos = parse_position(doc)
    if isinstance(pos, PresetPosition):
        return pos
    r = Rules.parse(doc["rules"])
    return _preset_position(doc, r, doc["players"], doc["pitcher"])


FIELDS = ("legal", "hand", "seat", "n", "pitcher", "bid", "trump", "trick_no", "count")
ARRAYS = ("trick", "tseats", "won", "pby")


@pytest.mark.parametrize(
    "spec, n", [("setback", 4), ("smear", 3), ("smear,follow=suit", 4), ("ten-point", 4),
                ("ten-point,follow=trump", 4), ("five-point", 4), (AP_PRESET, 3)],
)  # fmt: skip
def test_a_positions_knowledge_is_the_views(spec, n):
    checked = 0
    for seed in (7, 1):
        for hand, v in card_views(spec, n, seed, hands=3):
            doc = position_of(hand, v)
            doc["rules"] = spec
            pos = family_position(doc)
            assert pos.to_play == v.seat
            got, want = position_knowledge(pos), view_knowledge(v)
            for f in FIELDS:
                assert getattr(got, f) == getattr(want, f), (spec, seed, f, v.tricks)
            for f in ARRAYS:
                assert np.array_equal(getattr(got, f), getattr(want, f)), (spec, f, v.tricks)
            # the played-card bits of the trick beyond its count are not read
            assert got.voids == want.voids, (spec, seed, v.tricks, v.out)
            assert np.array_equal(got.counts[:n], want.counts[:n])
            if v.rules.discard == "none":
                assert got.known_out == want.known_out == 0 and got.counts[n] == 0
            else:  # the position has no draw: the seat's discards are not known, and
                # under rob a trump in no hand counts as seen (burnt or put down)
                in_play = 0
                for m in hand.play.held:
                    in_play |= int(m)
                assert got.known_out & in_play == 0
                assert got.known_out == F.trumps_in(got.known_out, v.trump, v.rules)
                _admits_the_true_deal(got, hand, v)
            checked += 1
    assert checked > 20


def _admits_the_true_deal(k, hand, v: View) -> None:
    """The true hands now fit the position's knowledge: each other seat's cards among
    those it may hold, every card that must be placed in some hand."""
    allowed = np.empty(k.n + 1, dtype=np.int64)
    unseen, must = world_constraint(
        k.n, k.seat, np.int64(k.hand), np.int64(k.known_out), k.drawn_back, k.pby,
        np.int64(k.voids), k.counts, k.trump, k.fr, k.tab, allowed,
    )  # fmt: skip
    now = [int(m) for m in hand.play.held]
    for t in v.tricks:
        for s, c in zip(t.seats, t.cards, strict=True):
            now[s] &= ~(1 << c)
    held = 0
    for s in range(k.n):
        held |= now[s]
        if s != k.seat:
            assert now[s] & ~int(allowed[s]) == 0, (s, v.tricks)
    assert int(must) & ~held == 0


@pytest.mark.parametrize("spec", ["setback", "smear", "auction-pitch"])
def test_a_position_answers_as_the_view_of_its_seat(spec):
    """Same knowledge, same worlds, same seed: the same values card for card (the
    auction-pitch preset's position and view both the base game's, rules.md 1.1: the
    base game's hint)."""
    for hand, v in list(card_views(spec, 4, 3, hands=1))[5:8]:
        doc = position_of(hand, v) | {"rules": spec}
        pos = parse_position(doc)
        a = hint(pos, "rollout", 30, seed=4)
        b = hint_view(v, "rollout", 30, seed=4, fit_calls=False)
        assert [(c.card, c.points) for c in a.cards] == [(c.card, c.points) for c in b.cards]
        assert a.recommended == b.recommended and a.seat == b.seat == v.seat


@pytest.mark.parametrize("spec", ["setback", "smear", "ten-point"])
@pytest.mark.parametrize("policy", ["rollout", "pimc"])
def test_hint_takes_a_preset_position_file(tmp_path, spec, policy):
    hand, v = next(
        (h, v) for h, v in card_views(spec, 4, 5, hands=2) if len(v.legal()) > 1 and v.tricks
    )
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position_of(hand, v) | {"rules": spec}))
    argv = ["hint", path, "--worlds", "20", "--seed", "2", "--policy", policy, "--json"]
    code, out, err = cli(*argv)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["to_play"] == v.seat and doc["rules"] == spec and doc["policy"] == policy
    assert sorted(c["card"] for c in doc["cards"]) == sorted(v.legal())
    assert doc["recommended"] in v.legal() and cli(*argv)[1] == out  # same seed, same answer
    code, text, err = cli("hint", path, "--worlds", "20", "--seed", "2", "--policy", policy)
    assert code == 0 and f"Seat {v.seat} to play" in text and spec in text, err
    code, _, err = cli("solve", path)  # the same file, every hand open
    assert code == 0, err


def test_a_finished_preset_position_is_refused_in_one_line(tmp_path):
    hand, v = next(card_views("smear", 4, 5, hands=1))
    doc = position_of(hand, v) | {"rules": "smear"}
    doc["tricks"] = [
        {"leader": t[0], "cards": [format_card(c, symbols=False) for c in t[2]]}
        for t in hand.play.tricks
    ]
    path = tmp_path / "over.json"
    path.write_text(json.dumps(doc))
    refused("hint", path, "--worlds", "5", words="the hand is over: nobody is to play")
    refused("hint", path, "--model", "heuristic", words="a position has no calls")


# ---------------------------------------------------------------- --model: the calls heard


def smear_view(calls: str = "pass,pass,2,pass", tricks: str = "2: 4S 8S"):
    """Seat 0's view under smear: seat 2 pitched 2 and named spades, the first trick led."""
    return short_view("AH KH 2H 9C 4D JS", 4, 3, calls, tricks, 0, None, Rules.parse("smear"), "S")


def _fits_by_the_reference_auction(v, dealt, model: int, odds, defender) -> bool:
    """Every other caller makes his call by the model, each asked with the legal calls
    of the reference engine's auction (``legal_calls``), and the pitcher names trump
    (under trump=first-lead: his call counted the suit he led, as the base game's
    pitcher planned it)."""
    r, n = v.rules, v.players
    fr, tab = rules_array(r), rules_table(r)
    made: list[int] = []
    high, high_seat = 0, -1
    scores = np.array(v.seat_scores(), dtype=np.int64)
    for i, call in enumerate(v.calls):
        s = (v.dealer + 1 + i) % n
        legal = 0
        for c in F.legal_calls(made, s == v.dealer, r, may_shoot=v.seat_score(s) >= 0):
            legal |= 1 << c
        if s != v.seat:
            got = choose_call(
                model, np.int64(dealt[s]), s, n, v.dealer, high, high_seat, np.int64(legal),
                scores, fr, tab, odds, defender, np.uint64(0), 0,
            )  # fmt: skip
            if got != call:
                return False
        made.append(call)
        if call:
            high, high_seat = max(high, call), s
    if v.pitcher != v.seat and v.trump is not None and v.trump >= 0:
        # named: he names it; first-lead: his call counted the suit he led
        return name_suit(model, np.int64(dealt[v.pitcher]), n, fr, tab, np.uint64(0), 0) == v.trump
    return True


def stolen_view():
    """Seat 0's view under auction-pitch as a preset: seat 0 bid 2, the dealer (seat 3)
    took it at 2 (dealer-steal) and led a spade."""
    r = Rules.parse(AP_PRESET)
    return short_view("AH KH 2H 9C 4D JS", 4, 3, "2,pass,pass,2", "3: 4S", 0, None, r)


def near_view():
    """``smear_view`` near the end: seats 1 and 3 one point short, seat 2 two short
    (the odds-game callers weigh the scores)."""
    return short_view(
        "AH KH 2H 9C 4D JS", 4, 3, "pass,pass,2,pass", "2: 4S 8S", 0, "6,10,9,10",
        Rules.parse("smear"), "S",
    )  # fmt: skip


@pytest.mark.parametrize(
    "view, model",
    [
        (smear_view, "heuristic"),
        (smear_view, "odds"),
        (stolen_view, "heuristic"),
        (near_view, "odds-game"),
    ],
)
def test_model_worlds_are_the_play_worlds_that_fit_the_calls(view, model):
    """The fitted block is the play-only sampler's first batch filtered by the calls,
    checked by an auction of the reference's legal calls: no fitting world dropped, no
    other kept."""
    v = view()
    k = view_knowledge(v)
    mid = BIDDING_IDS[model]
    odds, defender = odds_bidder_table(v.rules, 4) if model in ("odds", "odds-game") else no_odds()
    fitted = _FittedSampler(k, 9, 25, _CallFit(v, mid, odds, defender))
    kept = fitted.block(0)
    # the same stream and attempts: the fitted block's first batch of 4 x 25 worlds
    batch = _Sampler(k, 9, 100).draw(0, 100)[0]
    want = [
        w for w in batch if _fits_by_the_reference_auction(v, w[:4] | k.pby, mid, odds, defender)
    ]
    n_first = min(len(want), 25)
    assert 0 < len(want) < len(batch)  # the calls rule some worlds out
    assert np.array_equal(kept[:n_first], np.array(want[:n_first]))


def test_hint_model_fits_the_calls_and_says_so():
    v = smear_view()
    h = hint_view(v, "rollout", 40, seed=3, model="heuristic")
    assert h.auction.fitted and h.auction.model == "heuristic" and h.auction.kept == h.worlds
    assert h.auction.attempts > h.worlds  # some drawn worlds did not fit
    plain = hint_view(v, "rollout", 40, seed=3)
    assert not plain.auction.fitted and "name a --model" in plain.auction.note
    assert hint_view(v, "rollout", 40, seed=3, model="random").auction.acceptance_rate == 1.0


# A smear defender's short-form hint (seat 0 to follow 4S 8S under spades).
SMEAR_SHORT = ["hint", "--hand", "AH KH 2H 9C 4D JS", "--rules", "smear", "--calls",
               "pass,pass,2,pass", "--dealer", "3", "--trump", "S", "--seat", "0",
               "--tricks", "2: 4S 8S", "--worlds", "30", "--seed", "1"]  # fmt: skip


def test_hint_read_play_on_the_command_line():
    """``--read-play RHO`` (``test_play_fit``: what it does), said in ``play_read``; a
    RHO outside (0, 1] is one line."""
    code, out, err = cli(*SMEAR_SHORT, "--read-play", "0.3", "--json")
    assert code == 0, err
    doc = json.loads(out)["play_read"]
    assert doc["rho"] == 0.3 and doc["read"] is True
    for bad in ("0", "1.5", "nan", "-0.2"):
        refused(*SMEAR_SHORT, "--read-play", bad, words="--read-play")


def test_hint_model_on_the_command_line():
    base = SMEAR_SHORT
    code, out, err = cli(*base, "--model", "heuristic", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["auction"]["fitted"] and doc["auction"]["model"] == "heuristic"
    code, out, err = cli(*base, "--model", "odds-game", "--json")  # the scores weighed too
    assert code == 0 and json.loads(out)["auction"]["model"] == "odds-game", err
    refused(*base, "--model", "advisor", words="the model cannot be the advisor")
    refused(
        "hint", "--hand", "AH KH 2H 9C 4D JS", "--rules", "smear", "--dealer", "3",
        "--calls", "pass,pass,2,pass", "--model", "heuristic", "--seat", "0",
        words="seat 2 names trump",
    )  # fmt: skip


def test_hint_model_under_a_draw_is_refused_naming_the_rule():
    hand, v = next((h, v) for h, v in card_views("ten-point", 4, 5, hands=2) if len(v.legal()) > 1)
    with pytest.raises(HintError, match=r"discards before the play \(4\.8, 12\.8\)"):
        hint_view(v, "rollout", 10, seed=1, model="heuristic")


@pytest.mark.parametrize("spec", ["setback", "smear", "ten-point"])
def test_a_presets_round_from_play_json_is_a_position(tmp_path, spec):
    """`play --json` under a preset writes the hands as ``dealt`` (and ``held`` after a
    draw): cut after a trick and a card, solve and hint read it as the position."""
    for seed in range(1, 30):
        doc = json.loads(cli("play", "--rules", spec, "--seed", seed, "--json")[1])
        if doc["pitcher"] is not None:
            break
    t = doc["tricks"]
    doc["tricks"] = [t[0], {"leader": t[1]["leader"], "cards": t[1]["cards"][:1]}]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(doc))
    pos = parse_position(json.loads(path.read_text()))
    held = doc["held"] if doc["held"] is not None else doc["dealt"]
    assert [sorted(cards_of(m)) for m in pos.held] == [
        sorted(parse_cards(" ".join(h), 2)) for h in held
    ]
    assert pos.to_play == (t[1]["leader"] + 1) % 4 or spec == "ten-point"
    for argv in (["solve", path], ["hint", path, "--worlds", "10", "--seed", "1"]):
        code, out, err = cli(*argv)
        assert code == 0, err


# ---------------------------------------------------------------- the presets' defaults


def test_auction_pitch_keeps_the_base_games_defaults_and_the_others_theirs():
    """auction-pitch: pimc at 2-4 players (rollout at 5-7), the calls fitted by odds,
    points valued; smear: rollout valuing the score change, the calls not fitted.  The
    default model under rules with no odds rows shipped (jokers: another maximum bid)
    fits the calls by rows made for them."""
    hand, calls, tricks = "AH KH 2H 9C 4D JS", "2,pass,pass,pass", "4S"
    base = short_view(hand, 4, 3, calls, tricks, 1, None, Rules.parse("auction-pitch"))
    h = hint_view(base, worlds=25, seed=1)
    assert (h.policy, h.default_policy, h.objective) == ("pimc", True, None)
    assert h.auction.model == "odds" and h.auction.fitted and len(h.cards[0].p_at_least) == 4
    wide = short_view(hand, 5, 3, "pass,pass,2,pass,pass", None, 1, None, Rules())  # he leads
    assert hint_view(wide, worlds=10, seed=1).policy == "rollout"
    r = hint_view(base, "rollout", 25, seed=1)
    assert r.objective is None and r.auction.fitted  # points, as pimc's
    smear = smear_view()
    s = hint_view(smear, worlds=25, seed=1)
    assert s.policy == "rollout" and s.objective is not None and not s.auction.fitted
    jokers = Rules.parse("auction-pitch,jokers=2")
    j = short_view(hand, 4, 3, calls, tricks, 1, None, jokers)
    h = hint_view(j, worlds=10, seed=1)
    assert h.auction.model == "odds" and h.auction.fitted, h.auction.note
