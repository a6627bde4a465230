"""scripts/trickster_style_bot.py, the outside ten-point opponent of issue 31 item 1: its
point estimates worked by hand, its calls and cards on hand-built views, and whole
ten-point games at a pitchsim table through the engine protocol (docs/protocol.md), with
no forfeit.  Rules cited from docs/rules.md (ten-point, 4.x)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from script_module import script_module

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "scripts" / "trickster_style_bot.py"
TEN_POINT = (
    "ten-point,partnership=true,jokers=2,jick=true,game=ten,three=true,five=false,"
    "discard=non-trump,rob=true,trump=named,lead-trump=true,min-bid=5,low=dealt,follow=only"
)


@pytest.fixture(scope="module")
def bot():
    return script_module("trickster_style_bot")


def view(**kw) -> dict:
    v = {
        "rules": TEN_POINT,
        "players": 4,
        "partnership": True,
        "seat": 1,
        "dealer": 0,
        "hand": ["AH", "KH", "JH", "3H", "2H", "HJ", "4C", "5D", "6S"],
        "calls": [],
        "trump": None,
        "tricks": [],
        "out": [],
    }
    v.update(kw)
    return v


def test_ten_point_is_worth_ten(bot):
    """4.10 / 4.15.4: High, Low, Jack, Jick, both jokers, the ten 1 each, the three 3."""
    assert bot.Table(view()).max_points() == 10


def test_a_strong_heart_hand_is_estimated_by_hand(bot):
    """A K J 3 2 HJ of hearts, six trumps (4.7), with the discard after the bid (4.8).
    Capturable: 10 - 1 (the ace's own) - 1 (Low goes to its holder, 4.10) - 3 (the three,
    held) - 1 (the jack) - 1 (HJ) = 3.  0.1 + 6 x 0.1 for the trumps; the ace 1, and
    min(3 // 2, 2) = 1 captured (2 left); the king 1 captured; the jack and HJ 1 each
    (four trumps or more); the three 3 (five or more); the two 1: 9.7."""
    t = bot.Table(view())
    assert bot.estimate(t, view()["hand"], "H") == pytest.approx(9.7)
    assert bot.best_suit(t, view()["hand"]) == ("H", pytest.approx(9.7))


def test_an_ace_king_deuce_hand_is_estimated_by_hand(bot):
    """A K 2 of spades: 0.1 + 0.3; capturable 10 - 1 - 1 = 8; the ace 1 + min(4, 2);
    the king 1; the two 1: 5.4, a bid of 5 (the minimum, 4.4) from the first seat."""
    hand = ["AS", "KS", "2S", "7H", "8D", "9C", "TC", "3D", "4H"]
    v = view(hand=hand, legal=["pass", "5", "6", "7", "8", "9", "10"])
    t = bot.Table(v)
    assert bot.estimate(t, hand, "S") == pytest.approx(5.4)
    assert bot.call(t) == "5"


def test_calls_beat_the_high_bid_and_never_outbid_the_partner_from_the_dealer_seat(bot):
    legal = ["pass", "6", "7", "8", "9", "10"]
    # first to call (left of the dealer): the estimate floored, 9
    assert bot.call(bot.Table(view(legal=["pass", "5", "6", "7", "8", "9", "10"]))) == "9"
    # the dealer facing an opponent's 5 bids one more (the dealer must outbid, 4.4)
    dealer = view(seat=0, dealer=0, calls=["5", "pass", "pass"], legal=legal)
    assert bot.call(bot.Table(dealer)) == "6"
    # the dealer whose partner (seat 2, 4.1) holds the high bid passes
    dealer = view(seat=0, dealer=0, calls=["pass", "5", "pass"], legal=legal)
    assert bot.call(bot.Table(dealer)) == "pass"
    # a weak hand passes
    weak = view(hand=["4C", "5D", "6S", "7C", "8D", "9S", "TC", "3D", "4H"], legal=legal)
    assert bot.call(bot.Table(weak)) == "pass"


def test_the_pitcher_names_its_best_suit(bot):
    v = view(
        calls=["9", "pass", "pass", "pass"], legal=["trump:C", "trump:D", "trump:H", "trump:S"]
    )
    assert bot.decide(v) == "trump:H"


def test_the_jick_and_jokers_rank_as_trumps(bot):
    """4.7: A K Q J Jick HJ LJ 10 9 ... 2 with hearts trump."""
    t = bot.Table(view(trump="H"))
    order = ["AH", "KH", "QH", "JH", "JD", "HJ", "LJ", "TH", "9H", "2H"]
    keys = [t.order(c) for c in order]
    assert keys == sorted(keys, reverse=True)
    assert t.is_trump("JD") and t.is_trump("LJ") and not t.is_trump("JC")


def test_4_8_7_the_robber_puts_down_his_cheapest_card(bot):
    """4.8.7: the come-down after the rob is the robber's decision: the bot puts down
    the cheapest card offered, a non-trump while the table offers them, then the trump
    of fewest points, lowest first."""
    v = view(trump="H", legal=["down:9C", "down:4D", "down:AS"])
    assert bot.decide(v) == "down:4D"
    v = view(trump="H", legal=["down:AH", "down:3H", "down:9H", "down:4H", "down:HJ"])
    assert bot.decide(v) == "down:4H"


def play_view(**kw) -> dict:
    return view(
        calls=["7", "pass", "pass", "pass"],
        pitcher=1,
        bid=7,
        trump="H",
        **kw,
    )


def test_the_last_seat_gives_its_partner_a_point_under_a_sure_winner(bot):
    """Seat 0 plays last to 2H QH 7H; its partner (seat 2) holds the trick with the queen,
    and seat 0 holds the king, so the queen is sure: it gives a joker (a point), never
    the king."""
    v = play_view(
        seat=0,
        held=["KH", "HJ", "LJ", "8H", "4C", "5C"],
        tricks=[{"leader": 1, "seats": [1, 2, 3], "cards": ["2H", "QH", "7H"]}],
        legal=["KH", "HJ", "LJ", "8H"],
    )
    assert bot.decide(v) == "LJ"


PITCHER_HELD = ["AH", "JD", "4H", "5H", "8H", "JH"]  # seat 1, hearts trump, to lead


def test_the_pitcher_leads_its_sure_ace_then_a_cheap_trump(bot):
    assert bot.decide(play_view(seat=1, held=PITCHER_HELD, legal=PITCHER_HELD)) == "AH"
    after = play_view(
        seat=1,
        held=PITCHER_HELD,
        tricks=[{"leader": 1, "seats": [1, 2, 3, 0], "cards": ["AH", "6H", "TH", "2H"]}],
        legal=["JD", "4H", "5H", "8H", "JH"],
    )
    assert bot.decide(after) == "4H"


def test_it_speaks_the_protocol(bot):
    v = play_view(seat=1, held=PITCHER_HELD, legal=PITCHER_HELD)
    lines = [
        {"type": "hello", "protocol": "pitch-engine/1"},
        {"type": "decide", "id": 7, "view": v},
        {"type": "ready"},
        {"type": "quit"},
    ]
    r = subprocess.run(
        [sys.executable, str(BOT)],
        input="".join(json.dumps(m) + "\n" for m in lines) + "not json\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    assert [m["type"] for m in replies] == ["hello", "action", "readyok"]
    assert replies[0]["protocol"] == "pitch-engine/1"
    assert replies[1] == {"type": "action", "id": 7, "action": "AH"}


def test_whole_ten_point_games_against_pitchsim_without_a_forfeit(tmp_path):
    """Two boards, both rotations, at a pitchsim ten-point table: every decision answered
    with a legal action (a bad one forfeits the game, docs/protocol.md)."""
    from pitchsim import tournament

    result = tournament(
        [f"cmd:{sys.executable} {BOT}", "odds+heuristic"],
        players=4,
        boards=2,
        seed=3,
        rules="ten-point",
    )
    assert result.games == 4 and result.unfinished == 0
    assert not result.forfeited, result.forfeited
    assert sum(r.wins for r in result.results) == 4
