"""The web table under every preset, over HTTP (``pitchsim serve``'s app on a real
uvicorn server): whole smear and ten-point games played by a scripted person who picks
each action from the ones the page offers, every rule effect the page shows checked
against docs/rules.md, and the coach's numbers the terminal's (``pitchsim practice``).

Expected values are worked out here from the rules' clauses, not by the table's code:
the trump order (3.6, 4.7), who captured each point card (0.7, 3.8, 4.10), the Game
count (0.8), following (3.7, 4.9), the target (3.10, 4.12).
"""

from __future__ import annotations

import json
import random

import pytest
from test_serve import call

from pitchsim.coach.judge import COACH_TIME
from pitchsim.coach.practice import practice
from pitchsim.game.rules import Rules, rule_values
from pitchsim.table.record import replay, views_of
from pitchsim.util.jsonio import read_json
from pitchsim.web.app import create_app
from pitchsim.web.server import Running

SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
# What each preset awards, in the order the hand's end lists them, and the worth of each.
AWARDS = {
    "smear": {"High": 1, "Low": 1, "Jack": 1, "Jick": 1, "Game": 1},  # 3.8
    "ten-point": {  # 4.10: no Game point; the 10 of trump; the Three worth 3
        "High": 1,
        "Low": 1,
        "Jack": 1,
        "Jick": 1,
        "High joker": 1,
        "Low joker": 1,
        "Ten": 1,
        "Three": 3,
    },
}
TARGET = {"smear": 11, "ten-point": 32}  # 3.10, 4.12
COUNT = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}  # 0.8: the jick a jack, a joker 0


def trumps_high_to_low(preset: str, trump: str) -> list[str]:
    """3.6: A K Q J Jick 10 ... 2; 4.7: A K Q J Jick HJ LJ 10 ... 2."""
    top = [r + trump for r in "AKQJ"] + ["J" + SAME_COLOUR[trump]]
    jokers = ["HJ", "LJ"] if preset == "ten-point" else []
    return top + jokers + [r + trump for r in "T98765432"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    saves = tmp_path_factory.mktemp("saves")
    with Running(create_app(saves, max_games=2, idle=600)) as url:
        yield url, saves


def check_view(v: dict, preset: str, seen: dict) -> None:
    """The rule effects one view shows the person."""
    assert sorted(v["choices"]) == sorted(v["legal"])  # the page offers the legal ones
    if v["phase"] == "trump":  # trump=named: the pitcher names any suit as "trump:H"
        assert sorted(v["legal"]) == ["trump:C", "trump:D", "trump:H", "trump:S"]
        seen["named"] += 1
    if v["trump"] is None:
        assert v["trumps"] == []
        return
    order = trumps_high_to_low(preset, v["trump"])
    assert v["trumps"] == order
    # the hand shows its trumps first, the jick and jokers among them, highest first
    mine = [c for c in v["held"] if c in order]
    assert v["held"][: len(mine)] == sorted(mine, key=order.index)
    if v["phase"] != "play":
        return
    jick = "J" + SAME_COLOUR[v["trump"]]
    seen["jick"] += jick in v["held"]
    if preset == "ten-point":  # 4.9: only trumps are played
        assert all(c in order for c in v["legal"])
    done = len(v["trick_winners"])
    current = v["tricks"][done] if len(v["tricks"]) > done else None
    if preset == "smear" and current and current["cards"][0] in order:
        # 3.7: a trump led (a jick led too) must be followed by a trump, the jick included
        held_trumps = [c for c in v["held"] if c in order]
        if held_trumps:
            assert sorted(v["legal"]) == sorted(held_trumps)
            seen["jick followed"] += jick in held_trumps


def check_hand(h: dict, end: dict, preset: str, seat: int) -> None:
    """A finished hand's end as the page shows it, worked out again from its tricks."""
    if h["pitcher"] is None:
        assert end["awards"] == []
        return
    names = [a["name"] for a in end["awards"]]
    assert names == list(AWARDS[preset])
    assert {a["name"]: a["worth"] for a in end["awards"]} == AWARDS[preset]
    by = {a["name"]: a["by"] for a in end["awards"]}
    trump = h["trump"]
    captor = {c: t["winner"] for t in h["tricks"] for c in t["cards"]}
    point_cards = {"Jack": "J" + trump, "Jick": "J" + SAME_COLOUR[trump]}
    if preset == "ten-point":
        point_cards |= {"High joker": "HJ", "Low joker": "LJ", "Ten": "T" + trump}
        point_cards |= {"Three": "3" + trump}
    for name, c in point_cards.items():  # to its captor; nobody when not in play
        assert by[name] == captor.get(c), (name, c)
    order = trumps_high_to_low(preset, trump)
    played = [c for t in h["tricks"] for c in t["cards"] if c in order]
    plain = [c for c in played if c not in ("HJ", "LJ")]  # a joker is never High or Low
    if plain:
        high = min(plain, key=order.index)
        assert by["High"] == captor[high]
    if preset == "smear":  # 0.8: the single highest count of cards captured
        counts = [0] * h["players"]
        for t in h["tricks"]:
            counts[t["winner"]] += sum(COUNT.get(c[0], 0) for c in t["cards"] if c[1] != "J")
        assert h["game_points"] == counts
        best = max(counts)
        game = counts.index(best) if counts.count(best) == 1 else None
        assert by["Game"] == game
    # the page's words are the terminal's
    who = "you" if h["pitcher"] == seat else f"seat {h['pitcher']}"
    assert end["lines"][0].startswith("hand ") and f"{who} bid {h['bid']}" in end["lines"][0]


def play_whole_game(url: str, preset: str, seed: int, players: int) -> tuple[dict, list, dict]:
    status, game = call(
        f"{url}/api/games",
        {"preset": preset, "players": players, "coach": False, "seed": seed},
    )
    assert status == 201, game
    assert game["rules"] == preset and game["target"] == TARGET[preset]
    rng = random.Random(seed)
    seen = {"named": 0, "jick": 0, "jick followed": 0}
    sent = []
    while game["status"] != "over":
        if game["status"] == "your turn":
            v = game["view"]
            check_view(v, preset, seen)
            # bid high now and then, so the person pitches and names trump
            action = v["legal"][-1] if v["phase"] == "auction" and rng.random() < 0.4 else None
            action = action or rng.choice(v["choices"])
            status, doc = call(f"{url}/api/games/{game['id']}/action", {"action": action})
            assert status == 200, doc
            sent.append(action)
        status, game = call(f"{url}/api/games/{game['id']}?since={game['version']}")
        assert status == 200 and game["status"] != "error", game
    return game, sent, seen


@pytest.mark.parametrize(("preset", "seed", "players"), [("smear", 5, 4), ("ten-point", 2, 4)])
def test_a_whole_game_of_a_preset_over_http(server, preset, seed, players):
    url, saves = server
    final, sent, seen = play_whole_game(url, preset, seed, players)
    record = replay(read_json(str(saves / final["saved_as"]), "save"), strategies=False)
    assert record["rules"].split(",")[0] == preset
    mine = [a for v, a in views_of(record) if v.seat == 0 and len(v.legal()) > 1]
    assert mine == sent
    assert final["hands"] == record["hands"]
    assert len(final["ends"]) == len(record["hands"])
    for h, end in zip(record["hands"], final["ends"], strict=True):
        check_hand(h, end, preset, 0)
    assert max(final["final_scores"]) >= TARGET[preset]  # 3.11, 4.12: played to the target
    assert seen["named"] >= 1  # the person pitched and named trump at least once


def test_the_coach_on_the_page_gives_the_terminals_numbers(server):
    """A smear game coached on the page, stopped after a few decisions; ``pitchsim
    practice`` given the same seed and the same answers judges them the same."""
    url, saves = server
    body = {"preset": "smear", "players": 3, "samples": 300, "worlds": 20, "seed": 8}
    status, game = call(f"{url}/api/games", body)
    assert status == 201, game
    sent = []
    while len(game["judgements"]) < 5 and game["status"] != "over":
        if game["status"] == "your turn":
            v = game["view"]
            action = v["legal"][-1] if v["phase"] == "auction" else v["choices"][0]
            assert call(f"{url}/api/games/{game['id']}/action", {"action": action})[0] == 200
            sent.append(action)
        _, game = call(f"{url}/api/games/{game['id']}?since={game['version']}")
    _, game = call(f"{url}/api/games/{game['id']}/quit", {})
    page = game["judgements"]
    assert {j["kind"] for j in page} >= {"call", "trump", "card"}
    for j in page:
        assert j["unit_words"] and j["text"].startswith("coach:")
    answers = iter(sent)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    rules = Rules.parse(rule_values("smear", files=False))
    _, terminal = practice(
        3, 0, "odds+rollout", rules, 8, read=read, write=lambda t: None,
        samples=300, worlds=20, time=COACH_TIME,
    )  # fmt: skip
    assert [(j.kind, j.chosen, j.values, j.best) for j in terminal] == [
        (j["kind"], j["chosen"], j["values"], j["best"]) for j in page
    ]
    # the review of the saved game steps through the same judgements
    status, r = call(f"{url}/api/review", {"save": game["saved_as"]})
    assert status == 200 and r["rules"] == "smear"
    assert [s["judgement"]["values"] for s in r["steps"] if s["judgement"]] == [
        j["values"] for j in page
    ]
    assert len(r["ends"]) == len(r["hands"])


# The Odds tab under every preset (issue 30).  From docs/rules.md: the cards dealt each
# seat, the lowest bid and the maximum bid, the points the preset awards (1.2, 2.9,
# 3.8, 4.10, the five-point and seven-point summaries, 11 for cinch).
PRESET_ODDS = {  # preset: (players, hand, cards dealt, lowest bid, maximum bid)
    "auction-pitch": (4, "AH KH 2H 9C 7D 3S", 6, 1, 4),
    "setback": (4, "AH KH 2H 9C 7D 3S", 6, 2, 4),
    "smear": (4, "AH KH JD 2H 9C 3S", 6, 2, 5),
    "ten-point": (4, "AH HJ JD 3H TH 9C 7D 2S KS", 9, 5, 10),
    "five-point": (4, "AH KH JD 2H 9C 3S", 6, 2, 5),
    "six-point": (4, "AH HJ JD 2H 9C 3S", 6, 2, 6),  # 9.2, 9.4: one joker, 6 points
    "seven-point": (4, "AH HJ LJ JD TH 9C 7D 2S KS", 9, 3, 7),
    "cinch": (4, "AH KH 5H 5D JH TH 9C 7D 2S", 9, 1, 14),  # 11: 9 dealt, 14 points
}


def test_the_options_tell_the_odds_tab_each_presets_deal_and_levels(server):
    url, _ = server
    status, doc = call(f"{url}/api/options")
    assert status == 200
    shown = {p["name"]: p for p in doc["presets"]}
    assert set(shown) == set(PRESET_ODDS)
    for name, (players, _, cards, lo, hi) in PRESET_ODDS.items():
        p = shown[name]
        assert (p["cards"][str(players)], p["min_bid"], p["max_bid"]) == (cards, lo, hi)
    assert shown["ten-point"]["cards"] == {"4": 9, "5": 10, "6": 9}  # 4.3
    assert shown["ten-point"]["jokers"] == 2 and shown["smear"]["trump"] == "named"


def test_the_game_form_offers_a_kitty_where_the_preset_can_have_one(server):
    """A kitty needs trump=named, rob=false and discard=none (6.3.8): smear, five-point
    and six-point have them (3.1, 9.2), the others not (auction-pitch and setback name
    trump by the first lead; ten-point, seven-point and cinch rob).  The form offers up
    to a hand's worth (6 cards, the pitcher discards back to 6: 12.2.2) within the pack
    (12.2.3: 7 x 6 = 42 of 52 leaves 10).  A game started with one has it."""
    url, _ = server
    status, doc = call(f"{url}/api/options")
    assert status == 200
    kitty = {p["name"]: p["kitty"] for p in doc["presets"]}
    assert kitty == {
        "auction-pitch": {},
        "setback": {},
        "smear": {str(n): 6 for n in range(2, 8)},
        "ten-point": {},
        "five-point": {"2": 6, "3": 6, "4": 6},
        "six-point": {"2": 6, "3": 6, "4": 6},
        "seven-point": {},
        "cinch": {},
    }
    body = {"preset": "smear", "kitty": 3, "players": 4, "coach": False, "seed": 3}
    status, game = call(f"{url}/api/games", body)
    assert status == 201, game
    assert game["rules"] == "smear,kitty=3"
    stop(url, game)
    status, game = call(f"{url}/api/games", body | {"kitty": 0})
    assert status == 201 and game["rules"] == "smear", game
    stop(url, game)


def test_the_game_form_offers_the_kitties_the_opponents_play(server):
    """Of the sizes the pack allows (12.2.2, 12.2.3), the form offers those a game against
    the chosen opponents starts with: the default opponents bid by the odds table, whose
    rows for a kitty (12.2: a kitty changes every make-probability) ship for smear at 4
    players and are made on first use elsewhere, so smear at 4 and at 5 offers every
    size, as heuristic bidders do, and a game with a kitty at 5 starts.  A table refused
    whatever the kitty is refused as a new game is (the odds bidder under a maximum bid
    beyond the kernels' calls, 6.2, in one line naming it); a preset without a kitty
    offers none."""
    from pitchsim.table.bidding import PLAYER_STRATEGY

    url, _ = server
    smear = {"preset": "smear", "players": 4}
    status, doc = call(f"{url}/api/kitties", smear)
    assert (status, doc) == (200, {"most": 6, "sizes": [1, 2, 3, 4, 5, 6], "refused": None})
    assert PLAYER_STRATEGY.startswith("odds")
    status, doc = call(f"{url}/api/kitties", smear | {"opponents": "heuristic"})
    assert (status, doc) == (200, {"most": 6, "sizes": [1, 2, 3, 4, 5, 6], "refused": None})
    status, doc = call(f"{url}/api/kitties", smear | {"players": 5})
    assert (status, doc) == (200, {"most": 6, "sizes": [1, 2, 3, 4, 5, 6], "refused": None})
    status, doc = call(f"{url}/api/kitties", smear | {"players": 5, "opponents": "heuristic"})
    assert status == 200 and doc["sizes"] == [1, 2, 3, 4, 5, 6], doc
    status, doc = call(f"{url}/api/kitties", {"preset": "ten-point"})  # 4.11: it robs
    assert (status, doc) == (200, {"most": 0, "sizes": [], "refused": None})
    for bad, words in [
        ({"partnership": True, "players": 3}, "partnership needs exactly 4 players"),
        ({"opponents": "odds+bogus"}, "unknown play policy 'bogus'"),
        ({"opponents": "cmd:bot.py"}, "unknown bidding policy 'cmd:bot.py'"),
        ({"rules": "nosuch=1"}, "unknown rule option 'nosuch'"),
    ]:
        status, doc = call(f"{url}/api/kitties", smear | bad)
        assert status == 400 and words in doc["error"] and "\n" not in doc["error"], doc
    # a kitty with no rows shipped (5 players): the game starts, its rows made
    body = smear | {"players": 5, "kitty": 2, "coach": False, "seed": 3}
    status, game = call(f"{url}/api/games", body)
    assert status == 201 and game["rules"] == "smear,kitty=2", game
    stop(url, game)


def stop(url: str, game: dict) -> None:
    """Save and quit: the game is over when the answer comes (the server runs two)."""
    status, doc = call(f"{url}/api/games/{game['id']}/quit", {})
    assert status == 200 and doc["status"] == "over", doc


@pytest.mark.parametrize("preset", list(PRESET_ODDS))
def test_odds_of_a_hand_under_every_preset(server, preset):
    """The request carries the preset; the answer is ``bid_odds`` under it with the same
    seed: every level 1 .. the preset's maximum bid, per trump suit, and the defence."""
    from pitchsim.advice.odds import bid_odds

    url, _ = server
    players, hand, cards, lo, hi = PRESET_ODDS[preset]
    assert len(hand.split()) == cards
    body = {"hand": hand, "preset": preset, "players": players, "samples": 200, "seed": 3}
    status, doc = call(f"{url}/api/odds", body)
    assert status == 200, doc
    o = doc["bid_odds"]
    # one JSON shape, the base game's too (read as the base game's Rules, as --rules
    # reads it: its eight options in full)
    assert o["rules"] == preset and (o["min_bid"], o["max_bid"]) == (lo, hi)
    if preset == "auction-pitch":
        assert o["rules_in_full"]["low"] == "captured" and "family" not in o["rules_in_full"]
    levels = [str(k) for k in range(1, hi + 1)]
    for t in o["by_trump"].values():
        assert list(t["p_at_least"]) == levels
        p = [t["p_at_least"][k] for k in levels]
        assert p == sorted(p, reverse=True)  # making k+1 makes k
        assert sum(t["points_distribution"].values()) == 200
    assert 0 <= o["passing"]["expected_points"] <= hi
    rules = Rules.parse(rule_values(preset, files=False))
    expected = bid_odds(hand, players, 200, 3, rules=rules, partnership=rules.partnership)
    assert o == json.loads(json.dumps(expected.to_json()))
    assert doc["advise"] is not None or doc["advise_error"]


def test_odds_with_trump_named_and_the_ten_point_deal_of_five(server):
    """trump=H asks about hearts alone (a smear pitcher names it, 3.1); five players at
    ten-point are dealt 10 cards from the pack without the 4s (4.3)."""
    url, _ = server
    body = {"hand": "AH KH JD 2H 9C 3S", "preset": "smear", "samples": 200, "seed": 4}
    status, doc = call(f"{url}/api/odds", dict(body, trump="H"))
    assert status == 200, doc
    assert list(doc["bid_odds"]["by_trump"]) == ["H"]
    assert doc["bid_odds"]["chosen_trump_share"] == {"H": 1.0}
    hand = "AH HJ JD 3H TH 9C 7D 2S KS QC"
    status, doc = call(
        f"{url}/api/odds",
        {"hand": hand, "preset": "ten-point", "rules": "partnership=false", "players": 5,
         "samples": 200, "seed": 4},
    )  # fmt: skip
    assert status == 200, doc
    assert doc["bid_odds"]["hand"] == hand.split()
    assert list(doc["bid_odds"]["by_trump"]["H"]["p_at_least"]) == [str(k) for k in range(1, 11)]


SMEAR = {"preset": "smear", "samples": 200}
TEN = {"preset": "ten-point", "samples": 200}


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (
            dict(TEN, hand="AH KH 2H 9C 7D 3S"),
            "ten-point with 4 players deals 9 cards: the hand has 6",
        ),
        (dict(TEN, hand=""), "type a hand of 9 cards (HJ and LJ the jokers)"),
        (
            dict(TEN, hand="AH HJ JD 3H TH 9C 7D 2S KS 4C", rules="partnership=false", players=5),
            "4C is not in this deck",
        ),
        (dict(SMEAR, hand="AH KH JD 2H 9C HJ"), "HJ"),
        (dict(SMEAR, hand="AH KH JD 2H 9C 9C"), "duplicate card 9C"),
        (dict(SMEAR, hand="AH KH QH 2H 9H 3H", trump="C"), "no trump in that suit"),  # no JS
        (dict(SMEAR, hand="AH KH JD 2H 9C 3S", trump="X"), "X"),
        (dict(SMEAR, hand="AH KH JD 2H 9C 3S", trump=2), "trump must be text"),
        (dict(SMEAR, hand="AH KH 2H 9C 7D 3S", preset="pinochle"), "pinochle"),
        (dict(SMEAR, hand="AH KH 2H 9C 7D 3S", preset="setback", players=3), "4 players, not 3"),
        (dict(SMEAR, hand="AH KH 2H 9C 7D 3S", samples=99), "samples must be"),
        (dict(SMEAR, hand="AH KH 2H 9C 7D 3S", players=8), "players must be"),
    ],
)
def test_bad_odds_requests_get_one_line_and_400(server, body, says):
    url, _ = server
    status, doc = call(f"{url}/api/odds", body)
    assert status == 400, doc
    assert says in doc["error"] and "\n" not in doc["error"]


def test_odds_trumps_are_the_suits_bid_odds_takes(server):
    """/api/odds/trumps names the suits /api/odds accepts as trump for the hand: each
    one named is answered, each other one refused (the server's one line)."""
    url, _ = server
    for preset, hand in (("", "AH KH JS 2H 9D 3D"), ("smear", "AH KH JS 2H 9D 3D")):
        status, doc = call(f"{url}/api/odds/trumps", {"hand": hand, "preset": preset})
        assert status == 200, doc
        for suit in "CDHS":
            body = {"hand": hand, "preset": preset, "players": 4, "samples": 100, "seed": 1}
            status, odds = call(f"{url}/api/odds", dict(body, trump=suit))
            assert (status == 200) == (suit in doc["suits"]), (preset, suit, odds)
    status, doc = call(f"{url}/api/odds/trumps", {"hand": "AH KH XX"})
    assert status == 400 and "XX" in doc["error"]


@pytest.mark.parametrize(("preset", "by"), [("cinch", "dealer"), ("ten-point", "pitcher")])
def test_the_page_names_the_seat_that_robbed_the_stock(preset, by):
    # 4.8 step 5: under rob=true the pitcher robs the stock; under rob=dealer (cinch,
    # 12.7) the dealer does.  The page named the pitcher either way ("you robbed the
    # stock" under cinch when the dealer, your partner, had).
    from pitchsim.table.game import play_table_game
    from pitchsim.web.sessions import view_json

    seen = 0
    for seed in range(1, 6):
        record = play_table_game(["heuristic"] * 4, Rules.parse(preset), seed)
        for view, _ in views_of(replay(record, strategies=False)):
            if view.phase != "play" or view.pitcher is None:
                continue
            draw = view_json(view)["draw"]
            robber = view.dealer if by == "dealer" else view.pitcher
            assert draw["robber"] == robber, (seed, view.seat, view.dealer, view.pitcher)
            seen += view.dealer != view.pitcher
    assert seen  # a hand where the two differ, where the bug showed


def test_the_page_names_the_call_and_the_partner_as_the_seat_knows_him():
    # 12.1: the card called is heard by all, and the partner is known to others only
    # when he plays it to trick 1 (12.1.3, 12.1.10).  The page showed neither (the
    # terminal did): each view of a called-partner game carries the terminal's words
    # for the seat, and no view before the call carries any.
    from pitchsim.table.game import play_table_game
    from pitchsim.web.sessions import view_json

    r = Rules.parse("smear,partner=called")
    words = set()
    for seed in range(1, 4):
        record = play_table_game(["heuristic"] * 5, r, seed)
        for view, _ in views_of(replay(record, strategies=False)):
            doc = view_json(view)
            if view.called < 0:
                assert "called_words" not in doc
                continue
            said = doc["called_words"]
            if view.partner is None and not view.complete_tricks:
                assert said.startswith("its holder is the pitcher's partner (not known yet")
            elif view.partner not in (None, view.pitcher):
                name = "you are" if view.partner == view.seat else f"seat {view.partner} is"
                assert said == f"{name} the pitcher's partner"
            words.add(said.split(" ")[0])
    assert {"its", "seat", "you"} <= words  # unknown, another's partner, your own
