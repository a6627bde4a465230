"""``hint`` from a player's view: the same answer as from the position it was cut from,
worlds that never contradict the calls heard (under every preset whose calls can be
fitted), and the short form typed at the table."""

import json
import random
from pathlib import Path

import numpy as np
import pytest
from clirun import cli
from test_hint import random_position, reshuffled

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of
from pitchsim.game.reference import Bid, deal_hands
from pitchsim.game.rules import Rules
from pitchsim.game.short_view import short_view
from pitchsim.game.view import View, ViewError, call_text, card_text, cut_hand, rules_text
from pitchsim.kernels.bidding.calls import BID_ODDS, choose_call, name_suit
from pitchsim.kernels.game import bidding_round
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.search.hint import hint, hint_view, worlds_at
from pitchsim.search.position import start_position
from pitchsim.table.boards import odds_bidder_table
from pitchsim.table.decide import view_knowledge

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "views"


def view_of(pos, dealer, calls, scores=None):
    """The view of the player to move in ``pos``: his hand as dealt, the calls, the tricks."""
    seat = pos.to_play
    doc = {
        "rules": rules_text(pos.rules),
        "players": pos.players,
        "seat": seat,
        "dealer": dealer,
        "hand": [card_text(c) for c in range(52) if pos.dealt[seat] >> c & 1],
        "calls": [call_text(c) for c in calls],
        "tricks": [
            {"leader": t.leader, "cards": [card_text(c) for c in t.cards]} for t in pos.tricks
        ],
    }
    if scores is not None:
        doc["scores"] = scores
    return View.from_json(doc)


def calls_for(pos, rng):
    """A dealer and calls that make ``pos``'s pitcher the high bidder at its bid."""
    n = pos.players
    first = rng.randrange(n)  # the dealer's left
    order = [(first + i) % n for i in range(n)]
    calls = [0] * n
    calls[order.index(pos.pitcher)] = pos.bid
    if pos.pitcher == order[-1] and pos.bid < 2:
        return None  # a stuck dealer bids at least 2
    return (first - 1) % n, calls


def auctioned(rng, n, rules, cards_played, scores=None):
    """A deal bid by the preset kernels' odds bidder at every seat (the game kernel's
    auction, ``kernel_calls``), the pitcher leading the suit its call counted, then
    played at random up to ``cards_played`` cards: (position, dealer, calls)."""
    fr, tab = rules_array(rules), rules_table(rules)
    while True:
        dealt = deal_hands(rng, n)
        dealer = rng.randrange(n)
        heard, pitcher, bid = kernel_calls(dealt, n, dealer, scores or [0] * n, rules)
        if pitcher >= 0:
            break
    trump = int(name_suit(BID_ODDS, np.int64(dealt[pitcher]), n, fr, tab, np.uint64(0), 0))
    pos = start_position(dealt, pitcher, rules, bid)
    for k in range(cards_played):
        legal = [c for c in range(52) if pos.legal() >> c & 1]
        if k == 0:
            legal = [c for c in legal if c // 13 == trump] or legal
        pos = pos.play(rng.choice(legal))
    return pos, dealer, heard


@pytest.mark.parametrize("policy", ["rollout", "pimc"])
def test_view_hint_equals_position_hint(policy):
    """The view cut from a position, the calls ignored, answers exactly as the position
    does (which sees only its player's view), and so does the position with the hidden
    hands dealt afresh: their views are the same view."""
    rng = random.Random(11)
    done = 0
    while done < (6 if policy == "rollout" else 2):
        rules = [Rules(), Rules(partnership=True), Rules(follow="suit")][done % 3]
        n = 4 if rules.partnership else rng.randrange(3, 6)
        pos = random_position(rng, n, rules, rng.randrange(0, 4 * n), bid=rng.choice([2, 3]))
        auction = calls_for(pos, rng)
        if auction is None:
            continue
        view = view_of(pos, *auction)
        a = hint(pos, policy, 50, seed=5).to_json()
        b = hint_view(view, policy, 50, seed=5, fit_calls=False).to_json()
        assert b.pop("auction")["fitted"] is False
        assert a == b
        other = reshuffled(pos, done)
        assert view_of(other, *auction) == view
        assert hint(other, policy, 50, seed=5).to_json() == a
        done += 1


def seat_cards(mask, suit):
    return mask >> (13 * suit) & 0x1FFF


def odds_views(spec: str, n: int, seed: int, hands: int = 4):
    """Card decisions of a reference game (``game.reference.play_game``) whose every
    call is the preset kernels' ``odds`` bidder's (``choose_call``) on the hand dealt,
    trump named (trump=named) or, under first-lead, led in the suit its call counted
    (``name_suit``), the cards played at random: (view, the hand's record)."""
    rules = Rules.parse(spec)
    r = rules
    fr, tab = rules_array(r), rules_table(r)
    odds, defender = odds_bidder_table(r, n)
    pick = random.Random(seed + 1)

    def bid(seat, hand, calls, legal, scores):
        dealer = (seat - len(calls) - 1) % n
        high = max(calls, default=0)
        high_seat = max(
            ((dealer + 1 + i) % n for i, c in enumerate(calls) if c and c == high), default=-1
        )
        mask = sum(1 << c for c in legal)
        call = int(
            choose_call(
                BID_ODDS, np.int64(hand), seat, n, dealer, high, high_seat, np.int64(mask),
                np.array(scores, dtype=np.int64), fr, tab, odds, defender, np.uint64(0), 0,
            )
        )  # fmt: skip
        suit = int(name_suit(BID_ODDS, np.int64(hand), n, fr, tab, np.uint64(0), 0))
        return Bid(call, trump=suit if call else -1)

    def name(seat, hand):
        return int(name_suit(BID_ODDS, np.int64(hand), n, fr, tab, np.uint64(0), 0))

    game = F.play_game(
        n, rules, random.Random(seed), bid, name,
        lambda view: pick.choice(cards_of(view.legal)), max_hands=hands,
    )  # fmt: skip
    before = [0] * n
    for hand in game.hands:
        for _seat, doc, _ in cut_hand(hand, n, rules, before):
            v = View.from_json(json.loads(json.dumps(doc)), rules=r)
            if v.phase == "play":
                yield v, hand
        before = list(hand.scores)


def kernel_calls(dealt, n, dealer, scores, r) -> tuple[list[int], int, int]:
    """The calls the game kernel's auction (``kernels.game.bidding_round``,
    the ``odds`` bidder at every seat) makes on the hands ``dealt``, its pitcher (-1:
    all passed) and bid."""
    fr, tab = rules_array(r), rules_table(r)
    odds, defender = odds_bidder_table(r, n)
    calls, legal = np.empty(n, np.int64), np.empty(n, np.int64)
    pitcher, bid, _, _ = bidding_round(
        np.uint64(3), n, dealer, np.array(scores, np.int64),
        np.full(n, BID_ODDS, np.int64), fr, tab, odds, defender, 0, 0, 0, -1, -1,
        np.array(dealt, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), calls, legal,
    )  # fmt: skip
    return [int(c) for c in calls if c >= 0], int(pitcher), int(bid)


def replayed(v: View, dealt, r) -> tuple[list[int], int]:
    """``kernel_calls`` of the view's table: the calls and the pitcher."""
    return kernel_calls(dealt, v.players, v.dealer, v.seat_scores(), r)[:2]


# Every preset whose calls are made on the hands played (no discard and draw, 4.8).
FITTED = [("auction-pitch", 3), ("auction-pitch", 4), ("auction-pitch", 5),
          ("auction-pitch", 7), ("auction-pitch,partnership=true", 4), ("setback", 4),
          ("smear", 4), ("smear", 6)]  # fmt: skip


@pytest.mark.parametrize("spec, n", FITTED)
def test_fitted_worlds_never_contradict_the_calls(spec, n):
    """Every world drawn to fit a view's calls, its hands as dealt (the cards held in
    it and those each seat played) bid by the game kernel's auction with ``odds`` at
    every seat, gives exactly the calls heard, and another pitcher's counted suit is
    trump (named, or led under first-lead); every world keeps to the play seen (a
    seat's cards now are those it was dealt less those it played, none of a suit it
    showed void, its own hand its own).  Worlds that ignore the calls do contradict
    them (so the check can fail)."""
    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    contradicted = fitted = 0
    views = [v for v, _ in odds_views(spec, n, seed=n)]
    for case, v in enumerate(random.Random(n).sample(views, min(8, len(views)))):
        k = view_knowledge(v)
        for model in ("odds", None):
            worlds = worlds_at(v, 40, seed=case, model=model)
            if model:
                fitted += len(worlds)
            for w in worlds:
                now = [int(x) for x in w[:n]]
                assert now[v.seat] == v.held
                dealt = [now[s] | v.played_by[s] for s in range(n)]
                seen = 0
                for s in range(n):
                    assert not now[s] & v.played_by[s] and not dealt[s] & seen
                    assert dealt[s].bit_count() == r.cards_each(n)
                    seen |= dealt[s]
                    for suit in range(4):
                        if k.voids >> (4 * s + suit) & 1:
                            assert not seat_cards(now[s], suit)
                calls, pitcher = replayed(v, dealt, r)
                same = calls == list(v.calls) and pitcher == v.pitcher
                if v.pitcher != v.seat:
                    named = name_suit(BID_ODDS, np.int64(dealt[v.pitcher]), n, fr, tab,
                                      np.uint64(0), 0)  # fmt: skip
                    same = same and named == v.trump
                if model:
                    assert same, (case, list(v.calls), calls)
                else:
                    contradicted += not same
    assert fitted > 0 and contradicted > 0


def test_calls_too_unlikely_fall_back_and_say_so():
    """A 4 the model cannot make (the pitcher led hearts, and the viewer holds every
    high heart) fits no world: the hint says so and uses worlds that ignore the calls,
    as many as asked, never a mix."""
    view = View.from_json(
        {
            "players": 4,
            "seat": 1,
            "dealer": 3,
            "hand": ["AH", "KH", "QH", "JH", "TH", "9H"],
            "calls": ["4"],
            "tricks": [{"leader": 0, "cards": ["2H"]}],
        }
    )
    h = hint_view(view, "rollout", 40, seed=1, model="heuristic")
    assert h.auction.fitted is False and h.auction.kept == 0
    assert "too unlikely" in h.auction.note and "ignore the auction" in h.auction.note
    assert h.worlds == 40
    plain = hint_view(view, "rollout", 40, seed=1, fit_calls=False).to_json()
    got = h.to_json()
    got.pop("auction"), plain.pop("auction")
    assert got == plain
    # a random caller's call does not depend on his hand: it rules out no world
    fit = hint_view(view, "rollout", 40, seed=1, model="random")
    assert fit.auction.fitted and fit.worlds == 40 and fit.auction.acceptance_rate == 1.0


def short_of(view, leaders=True):
    """The short form's arguments for ``view``."""
    tricks = "; ".join(
        (f"{t.leader}: " if leaders else "") + " ".join(card_text(c) for c in t.cards)
        for t in view.tricks
    )
    return dict(
        hand=" ".join(card_text(c) for c in view.hand),
        players=view.players,
        dealer=view.dealer,
        calls=",".join(call_text(c) for c in view.calls),
        tricks=tricks,
        scores=",".join(map(str, view.scores)),
        rules=view.rules,
    )


def test_short_form_is_the_json_view():
    for f in sorted(EXAMPLES.glob("*.json")):
        view = View.from_json(json.loads(f.read_text()))
        for leaders in (True, False):
            assert short_view(**short_of(view, leaders)) == view, f.name
            assert short_view(**short_of(view, leaders), seat=view.seat) == view
    rng = random.Random(8)
    for i in range(30):
        n = rng.randrange(3, 8)
        pos, dealer, heard = auctioned(rng, n, Rules(), rng.randrange(0, 6 * n - 1), [i % 7] * n)
        view = view_of(pos, dealer, heard, [i % 7] * n)
        assert short_view(**short_of(view, leaders=False)) == view


def test_hint_cli_short_form_and_view_file(tmp_path):
    f = EXAMPLES / "follow.json"
    view = View.from_json(json.loads(f.read_text()))
    s = short_of(view, leaders=False)
    common = ["--policy", "rollout", "--worlds", "30", "--seed", "4", "--json"]
    code, out, err = cli("hint", str(f), *common)
    assert code == 0, err
    doc = json.loads(out)
    # follow.json's pitcher bid 3 where the preset kernels' odds model bids 2: its calls
    # fit no world, so they are ignored, and the answer says so
    assert not doc["auction"]["fitted"] and doc["auction"]["model"] == "odds"
    assert "too unlikely under the odds model" in doc["auction"]["note"]
    code, out2, err = cli(
        "hint",
        "--hand",
        s["hand"],
        "--dealer",
        str(s["dealer"]),
        "--calls",
        s["calls"],
        "--tricks",
        s["tricks"],
        "--scores",
        s["scores"],
        *common,
    )
    assert code == 0, err
    assert json.loads(out2) == doc
    code, text, _ = cli("hint", str(f), *common[:-1])
    assert code == 0 and "Calls: the calls are too unlikely" in text and "Seat 3 to play" in text
    code, out, err = cli("hint", str(EXAMPLES / "lead.json"), *common)
    assert code == 0 and json.loads(out)["auction"]["fitted"], err


GOOD = [
    "--hand",
    "4C JH TD QD 5S 6H",
    "--dealer",
    "3",
    "--calls",
    "pass,3,pass,pass",
    "--tricks",
    "AH 4H JH 3C; KH 7H",
]


def replace_opt(args, opt, value):
    out = list(args)
    if opt in out:
        i = out.index(opt)
        if value is None:
            del out[i : i + 2]
        else:
            out[i + 1] = value
    else:
        out += [opt, value]
    return out


@pytest.mark.parametrize(
    "opt, value, message",
    [
        ("--hand", "4C JH TD QD 5S", "hand has 5 cards"),
        ("--hand", "4C JH TD QD 5S XX", "--hand: cannot read card 'XX'"),
        ("--hand", "4C JH TD QD 5S 5S", "--hand: duplicate card 5S"),
        ("--calls", "pass,3,pas,pass", "--calls: call 3 must be pass or a bid 1-4, not 'pas'"),
        ("--calls", "pass,3,,pass", "--calls: call 3 must be pass or a bid 1-4, not nothing"),
        ("--calls", "pass,3,2,pass", "call 3: seat 2 may not call 2"),
        ("--calls", "pass,3,pass", "no card can be played yet"),
        ("--tricks", "AH 4H JH 3C;; KH 7H", "--tricks: trick 2 has no cards"),
        ("--tricks", "AH 4H JH 3Q", "--tricks: trick 1: cannot read card '3Q'"),
        ("--tricks", "x: AH 4H JH 3C", "--tricks: trick 1 starts with 'x:'"),
        ("--tricks", "2: AH 4H JH 3C", "trick 1 is led by seat 2, but the pitcher is seat 1"),
        ("--tricks", "AH 4H JH 3C 2C", "trick 1 has 5 cards"),
        ("--tricks", "AH 5S JH 3C; KH 7H", "seat 2 plays 5S in trick 1, but seat 3 holds it"),
        ("--dealer", "4", "--dealer 4 is not a seat"),
        ("--dealer", None, "--dealer: the short form needs the dealer's seat"),
        ("--players", "9", "--players must be 2-7"),
        ("--seat", "2", "seat 2 plays 4H in trick 1 but does not hold it"),
        ("--scores", "1,x,0,0", "--scores: score 2 must be a whole number, not 'x'"),
        ("--scores", "1,0", "scores must be a list of whole numbers, one per seat (4)"),
        ("--model", "advisor", "the model cannot be the advisor"),
        ("--model", "nobody", "nobody"),
    ],
)
def test_bad_short_forms_one_line_exit_2(opt, value, message):
    code, out, err = cli("hint", *replace_opt(GOOD, opt, value), "--worlds", "5")
    assert code == 2 and out == ""
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("pitchsim: error: "), err
    assert message in lines[0], lines[0]


def test_view_hint_refuses_what_it_cannot_answer():
    code, _, err = cli("hint", str(EXAMPLES / "call.json"))
    assert code == 2 and "the auction is on: ask `pitchsim advise`" in err
    code, _, err = cli("hint", str(EXAMPLES / "lead.json"), "--calls", "pass")
    assert code == 2 and "--calls belongs to the short form" in err
    # two options that contradict each other: one would be silently dropped
    code, _, err = cli("hint", str(EXAMPLES / "lead.json"), "--model", "odds", "--ignore-calls")
    assert code == 2 and "--model odds fits the worlds" in err and "give one" in err, err
    # every short-form option, not one silently dropped beside a view (--kitty was)
    for option in (["--kitty", "AH"], ["--called", "AS"], ["--trump", "H"], ["--target", "9"]):
        code, _, err = cli("hint", str(EXAMPLES / "lead.json"), *option)
        assert code == 2 and f"{option[0]} belongs to the short form" in err, err
    with pytest.raises(ViewError):
        short_view("4C JH TD QD 5S 6H", 4, 3, "pass,3,pass,pass", "AH 4H JH 3C; KH 7H", seat=9)


def test_advise_from_a_view_is_advise_from_its_parts():
    """advise reads the seat, table, calls, scores and rules off a view of the auction."""
    from pitchsim.advice.advise import advise, advise_view

    view = View.from_json(json.loads((EXAMPLES / "call.json").read_text()))
    a = advise_view(view, samples=200, seed=3).to_json()
    b = advise(
        " ".join(card_text(c) for c in view.hand),
        players=4,
        seat=1,
        dealer=3,
        calls="pass",
        scores=[2, 0, 3, -1],
        samples=200,
        seed=3,
    ).to_json()
    assert a == b
    code, out, err = cli(
        "advise", str(EXAMPLES / "call.json"), "--samples", "200", "--seed", "3", "--json"
    )
    assert code == 0, err
    assert json.loads(out) == a
    for args, message in (
        ([str(EXAMPLES / "follow.json")], "the auction is over: ask `pitchsim hint`"),
        ([str(EXAMPLES / "call.json"), "--seat", "1"], "--seat comes from the view"),
        # given at all, at the default's value too (a 5-player view would drop it)
        ([str(EXAMPLES / "call.json"), "--players", "4"], "--players comes from the view"),
        (["AH KH 2H 9C 7D 3S", "--dealer", "3"], "--seat is needed with a hand"),
    ):
        code, _, err = cli("advise", *args)
        assert code == 2 and err.startswith("pitchsim: error: ") and message in err, err
