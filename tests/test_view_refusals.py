"""The player's view (pitchsim.game.view): every refusal's whole line, and the hands
test_view.py leaves out -- a hand played to the end, a hand thrown in, trumping in,
voids shown and then broken, a trick written out empty -- each worked out by hand
from RULES.md (issue 22's mutation run: the survivors of view.py were these).

Cards are numbered suit * 13 + rank (clubs, diamonds, hearts, spades; 2 = rank 0), so
2D = 13, 2H = 26, 2S = 39: the cards where a wrong divisor (14) names the wrong suit."""

import json

import pytest

from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, parse_call, parse_view, read_view

HAND = ["AH", "KH", "2H", "9C", "7D", "3S"]
PITCHER_1 = ["pass", "3", "pass", "pass"]  # dealer 3: seat 1 bids 3 and pitches


def doc(**kw):
    d = {"players": 4, "seat": 1, "dealer": 3, "hand": HAND, "calls": []}
    d.update(kw)
    return d


def view(**kw):
    return View.from_json(doc(**kw))


def tricks(*rows):
    """(leader, "AH 3H 4H 5H") rows -> the view's tricks."""
    return [{"leader": leader, "cards": cards.split()} for leader, cards in rows]


# The pitcher (seat 1) leads AH: hearts are trump and AH takes the trick.
T1 = (1, "AH 3H 4H 5H")


def refusal(d) -> str:
    with pytest.raises(ViewError) as e:
        View.from_json(d)
    return str(e.value)


LONG = "x" * 39  # repr() is 41 characters: one past what a message quotes whole


@pytest.mark.parametrize(
    "d, line",
    [
        ([1, 2], "a view is a JSON object with players, seat, dealer, hand and calls"),
        ({"seat": 1, "dealer": 3, "hand": HAND}, "the view has no 'players'"),
        (doc(players="4"), "players must be a whole number, not '4'"),
        (doc(players=True), "players must be a whole number, not True"),
        (doc(players={"a": 1}), 'players must be a whole number, not {"a": 1}'),
        (doc(players="x" * 38), f"players must be a whole number, not '{'x' * 38}'"),
        (doc(players=LONG), f"players must be a whole number, not '{'x' * 36}..."),
        (doc(seat=1.0), "seat must be a whole number, not 1.0"),
        (doc(dealer=None), "dealer must be a whole number, not None"),
        (doc(seat=4), "seat 4 is not a seat of a 4-player table (0-3)"),
        (doc(dealer=-1), "dealer -1 is not a seat of a 4-player table (0-3)"),
        (doc(hand="AH KH"), 'hand must be a list of cards like ["AH", "TS"]'),
        (doc(hand=[1, 2, 3, 4, 5, 6]), 'hand must be a list of cards like ["AH", "TS"]'),
        (doc(hand=["AH KH", "2H", "9C", "7D", "3S", "4S"]), "hand: 'AH KH' is not one card"),
        (doc(hand=["AH", "AH", "2H", "9C", "7D", "3S"]), "hand: AH is there twice"),
        (doc(hand=HAND[:5]), "hand has 5 cards: a seat is dealt 6"),
        (doc(calls="pass"), 'calls must be a list like ["pass", "2"]'),
        (doc(calls=["pass"] * 5), "5 calls: each of the 4 seats calls at most once"),
        (doc(calls=["5"]), 'call 1 must be "pass" or a bid "1"-"4", not 5'),
        (doc(calls=[7]), 'call 1 must be "pass" or a bid "1"-"4", not 7'),
        (doc(calls=[[2]]), 'call 1 must be "pass" or a bid "1"-"4", not [2]'),
        (doc(calls=["pass", "004"]), 'call 2 must be "pass" or a bid "1"-"4", not "004"'),
        (doc(calls=["4", "pass"]), "call 2 (seat 1) comes after a 4, which ends the auction"),
        (
            doc(calls=["2", "2"]),
            "call 2: seat 1 may not call 2 after a high bid of 2 (legal: pass, 3, 4)",
        ),
        (
            doc(calls=["1", "1"]),
            "call 2: seat 1 may not call 1 after a high bid of 1 (legal: pass, 2, 3, 4)",
        ),
        (
            doc(calls=["pass"] * 4),
            "call 4: seat 3 may not call pass (the dealer is stuck: everybody else passed) "
            "(legal: 2, 3, 4)",
        ),
        (
            doc(calls=["pass", "pass", "pass", "1"]),
            "call 4: seat 3 may not call 1 (a stuck dealer bids at least 2) (legal: 2, 3, 4)",
        ),
        (
            doc(calls=["1"], rules="min-bid=2"),
            "call 1: seat 0 may not call 1 (the minimum bid is 2) (legal: pass, 2, 3, 4)",
        ),
        (
            doc(calls=["2", "pass", "pass", "2"], rules="dealer-steal=false"),
            "call 4: seat 3 may not call 2 (no dealer steal: the dealer must outbid 2) "
            "(legal: pass, 3, 4)",
        ),
        (
            doc(calls=["2", "pass", "pass", "1"]),
            "call 4: seat 3 may not call 1 after a high bid of 2 (legal: pass, 2, 3, 4)",
        ),
        (doc(tricks="x"), 'tricks must be a list of {"leader", "cards"} objects'),
        (doc(tricks=[{}] * 7), "7 tricks: a hand has 6"),
        (doc(tricks=[5]), "trick 1 must be an object with leader and cards"),
        (doc(tricks=[{"leader": 1}]), "trick 1 must be an object with leader and cards"),
        (
            doc(tricks=[{"leader": "1", "cards": []}]),
            "trick 1's leader must be a whole number, not '1'",
        ),
        (doc(tricks=[{"leader": 4, "cards": []}]), "trick 1's leader 4 is not a seat (0-3)"),
        (
            doc(tricks=[{"leader": 1, "cards": "AH"}]),
            'trick 1\'s cards must be a list like ["AH", "TS"]',
        ),
        (doc(tricks=tricks((1, "AH 3H 4H 5H 6H"))), "trick 1 has 5 cards: at most 4 at 4 players"),
        (doc(tricks=tricks((1, "AH AH"))), "trick 1: AH is there twice"),
        (
            doc(calls=["pass"], tricks=tricks((1, "AH"))),
            "1 of 4 calls made, so no card can be played yet",
        ),
        (
            doc(calls=["pass"] * 4, rules="all-pass=redeal", tricks=tricks((1, "AH"))),
            "everybody passed, so the hand was thrown in: no card is played",
        ),
        (doc(scores=[0, 0]), "scores must be a list of whole numbers, one per seat (4)"),
        (doc(scores="0,0,0,0"), "scores must be a list of whole numbers, one per seat (4)"),
        (
            doc(partnership=True, scores=[0, 0, 0, 0]),
            "scores must be a list of whole numbers, one per team (2)",
        ),
        (doc(scores=[0, "1", 0, 0]), "score 1 must be a whole number, not '1'"),
        (
            doc(scores=[0, 0, 10**6 + 1, 0]),
            "score 1000001 is out of range (at most 1,000,000 either way)",
        ),
        (doc(rules=5), 'rules must be a rule string like "low=dealt,follow=suit"'),
        (doc(partnership="yes"), "partnership must be true or false, not 'yes'"),
        (doc(target="7"), "target must be a whole number, not '7'"),
        (doc(calls=PITCHER_1, pitcher=2), "pitcher is 2 but the calls make it 1"),
        (doc(calls=PITCHER_1, bid=2), "bid is 2 but the calls make it 3"),
        (doc(calls=PITCHER_1, pitcher="1"), "pitcher must be a whole number, not '1'"),
        (doc(calls=["pass"], pitcher=0), "pitcher is 0 but the calls make it None"),
        (doc(calls=PITCHER_1, trump="H"), "trump is H but the opening lead has not been made"),
        (
            doc(calls=PITCHER_1, tricks=tricks((1, "AH")), trump="CD"),
            'trump must be a suit letter "C", "D", "H" or "S", not \'CD\'',
        ),
        (
            doc(calls=PITCHER_1, tricks=tricks((1, "AH")), trump=5),
            'trump must be a suit letter "C", "D", "H" or "S", not 5',
        ),
        (
            doc(calls=PITCHER_1, tricks=tricks((1, "AH")), trump="c"),
            "trump is c but the opening lead makes it H",
        ),
        (doc(legal="pass"), 'legal must be a list of actions like ["pass", "3"] or ["KS"]'),
        (
            doc(calls=["pass"], legal=[]),
            "legal lists nothing, but the legal actions are pass 1 2 3 4",
        ),
        (doc(legal=["pass"]), "legal lists pass, but the legal actions are none"),
    ],
)
def test_each_refusal_is_its_own_whole_line(d, line):
    assert refusal(d) == line


def test_refusals_that_quote_another_reader():
    # The card reader's and the rules reader's own words, after what was being read.
    assert refusal(doc(hand=["ZZ", "KH", "2H", "9C", "7D", "3S"])).startswith("hand: ")
    assert refusal(doc(tricks=[{"leader": 1, "cards": ["ZZ"]}])).startswith("trick 1: ")
    assert refusal(doc(rules="no-such-rule=1")).startswith("rules: ")
    # said once, though the rules reader names the rules itself (engine, id 8 by hand)
    twice = "rules: rule option target is given twice"
    assert refusal(doc(rules="smear,target=11,target=12")) == twice
    # a view's rules are never a file, so the empty ones are not told to name one
    assert (
        refusal(doc(rules=" "))
        == "rules: the rules are empty: give a preset (smear) or name=value,..."
    )
    by_object = doc(rules={"family": "smear", "min-bid": 2, "min_bid": 3})
    assert refusal(by_object) == "rules: rule option min-bid is given twice"
    line = refusal(doc(target=0))
    assert "target" in line and line != "None"
    with pytest.raises(ViewError.__mro__[1]) as e:
        parse_view("[1")
    assert str(e.value).startswith("view is not JSON: ")


def test_calls_written_as_numbers_and_short_strings():
    # null and 0 are pass (docs/view.md); a bid may be given as a number.
    assert view(calls=[0, None, 2]).calls == (0, 0, 2)
    assert parse_call(0, "call") == 0 and parse_call("04", "call") == 4
    assert (
        view(calls=[]).calls == ()
        and View.from_json({k: v for k, v in doc().items() if k != "calls"}).calls == ()
    )


def test_fields_the_view_may_state_when_right():
    calls0 = ["3", "pass", "pass", "pass"]  # seat 0 pitches, leads 2S: seat 1 must follow
    v = view(calls=calls0, tricks=tricks((0, "2S")), pitcher=0, bid=3, trump="s", legal=["3s"])
    assert (v.pitcher, v.bid, v.trump, v.legal()) == (0, 3, 3, ["3S"])
    # Not this seat's turn: the only right legal list is the empty one.
    assert view(legal=[]).legal() == []
    # "pass" in any case: the same action.
    assert view(calls=["pass"], legal=["Pass", "1", "2", "3", "4"]).legal_calls() == [0, 1, 2, 3, 4]


def test_scores_per_seat_and_per_team():
    assert view().scores == (0, 0, 0, 0)
    assert view(scores=[3, -2, 10**6, -(10**6)]).scores == (3, -2, 10**6, -(10**6))
    team = view(partnership=True, scores=[3, 5])
    assert team.scores == (3, 5) and team.seat_scores() == (3, 5, 3, 5)
    assert view(scores=[1, 2, 3, 4]).seat_scores() == (1, 2, 3, 4)
    assert view(partnership=True).scores == (0, 0)
    # No rules given: partnership and target are free to set.
    t = view(partnership=True, target=11)
    assert t.partnership and t.target == 11
    assert view(rules={"follow": "suit"}).rules.follow == "suit"
    # Rules that do not name partnership or target leave them free too.
    t = view(rules="follow=suit", partnership=True, target=11, scores=[0, 0])
    assert (t.rules.follow, t.partnership, t.target) == ("suit", True, 11)


def test_a_hand_played_to_the_end():
    rows = [
        T1,
        (1, "KH 6H 7H 8H"),  # KH wins: seat 1
        (1, "2H 9H TH JH"),  # JH, seat 0 (one after seat 3)
        (0, "2C 9C 3C 4C"),  # 9C, seat 1
        (1, "7D 8D 9D TD"),  # TD, seat 0
        (0, "2S 3S 4S 5S"),  # 5S, seat 3
    ]
    v = view(calls=PITCHER_1, tricks=tricks(*rows))
    assert (v.phase, v.to_move, v.pitcher, v.bid, v.trump) == ("over", None, 1, 3, 2)
    assert v.legal() == [] and v.legal_cards() == 0 and v.legal_calls() == []
    assert v.current_trick is None and len(v.complete_tricks) == 6
    assert [v.winner(t) for t in v.tricks] == [1, 1, 0, 1, 0, 3]
    card = {c: i for i, c in enumerate(f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA")}

    def mask(*cards):
        return sum(1 << card[c] for c in cards)

    assert v.won == (
        mask("2H", "9H", "TH", "JH", "7D", "8D", "9D", "TD"),
        mask("AH", "3H", "4H", "5H", "KH", "6H", "7H", "8H", "2C", "9C", "3C", "4C"),
        0,
        mask("2S", "3S", "4S", "5S"),
    )
    assert View.from_json(v.to_json()) == v
    # Cut inside the fifth and the sixth trick: still in play, seat 2 to play.
    for cut, last in ((4, (1, "7D")), (5, (0, "2S 3S"))):
        v = view(calls=PITCHER_1, tricks=tricks(*rows[:cut], last))
        assert (v.phase, v.to_move, len(v.complete_tricks)) == ("play", 2, cut)


def test_a_hand_thrown_in():
    v = view(calls=["pass"] * 4, rules="all-pass=redeal")
    assert (v.phase, v.to_move, v.pitcher, v.bid, v.trump) == ("thrown-in", None, None, None, None)
    assert v.legal() == [] and v.to_json()["legal"] == []


def test_trumping_in_wins_the_trick_and_shows_no_void():
    rows = [
        T1,
        (1, "3S 4S 5S 6S"),  # 6S: seat 0 leads next
        (0, "2C KH 3C 4C"),  # seat 1 holds 9C but may trump in (follow = trump): KH wins
    ]
    v = view(calls=PITCHER_1, tricks=tricks(*rows))
    assert v.to_move == 1 and v.winner(v.tricks[2]) == 1
    assert v.legal() == ["9C", "7D", "2H"]
    assert v.legal_cards() == (1 << 7) | (1 << 18) | (1 << 26)
    # Under follow = suit the same KH is refused, naming the rule.
    assert refusal(doc(calls=PITCHER_1, tricks=tricks(*rows), rules="follow=suit")) == (
        "seat 1's KH in trick 3 is illegal: it holds clubs, so it must follow suit"
    )
    # Another seat trumping in (seat 3's 6H on a club lead) shows no club void: its
    # club next trick is fine, and the trump took the trick (seat 3 leads trick 3).
    rows = [T1, (1, "9C 2D 6H TC"), (3, "QC JC 7D 3D")]
    v = view(calls=PITCHER_1, tricks=tricks(*rows))
    assert [v.winner(t) for t in v.tricks] == [1, 3, 3]
    assert (v.to_move, v.legal(), v.phase) == (3, [], "play")  # seat 3 to lead, not seat 1
    # Clubs led in tricks 2 and 3: seat 2 (2D, 3D) and seat 1 (7D) showed none.
    assert v.voids == (1 << (4 * 2 + 0)) | (1 << (4 * 1 + 0))


def test_a_void_shown_and_then_broken_is_refused():
    rows = [
        T1,
        (1, "7D 9S 8D 9D"),  # seat 2 shows no diamonds; 9D: seat 0 leads
        (0, "2C 9C 4C 6S"),  # seat 3 shows no clubs; 9C: seat 1 leads
        (1, "KH 2D"),  # seat 2's 2D: it had said it held none
    ]
    assert refusal(doc(calls=PITCHER_1, tricks=tricks(*rows))) == (
        "seat 2 plays 2D in trick 4 after showing it held no diamonds"
    )


def test_refusals_in_the_play():
    # Seat 0 pitches and leads 2S (spades trump); seat 1, holding 3S, plays AH.
    calls0 = ["3", "pass", "pass", "pass"]
    assert refusal(doc(calls=calls0, tricks=tricks((0, "2S AH")))) == (
        "seat 1's AH in trick 1 is illegal: it holds spades, so it must follow suit or trump"
    )
    v = view(calls=calls0, tricks=tricks((0, "2S")))
    assert v.trump == 3 and v.legal() == ["3S"]
    assert refusal(doc(calls=calls0, tricks=tricks((0, "2S QS")))) == (
        "seat 1 plays QS in trick 1 but does not hold it (its hand: AH KH 2H 9C 7D 3S)"
    )
    assert refusal(doc(calls=calls0, tricks=tricks((0, "KH")))) == (
        "seat 0 plays KH in trick 1, but seat 1 holds it"
    )
    assert refusal(doc(calls=PITCHER_1, tricks=tricks((0, "2C")))) == (
        "trick 1 is led by seat 0, but the pitcher is seat 1"
    )
    assert refusal(doc(calls=PITCHER_1, tricks=tricks(T1, (0, "2C")))) == (
        "trick 2 is led by seat 0, but the winner of trick 1 is seat 1"
    )
    assert refusal(doc(calls=PITCHER_1, tricks=tricks(T1, (1, "KH 3H")))) == (
        "3H is played twice: by seat 2 in trick 1 and by seat 2 in trick 2"
    )
    assert refusal(doc(calls=PITCHER_1, tricks=tricks((1, "AH 3H"), (1, "KH")))) == (
        "trick 1 has 2 of 4 cards but is not the last"
    )


def test_a_trick_written_out_empty_is_the_same_view_as_none():
    rows = [T1, (1, "3S 4S 5S 6S")]  # seat 0 leads trick 3
    plain = view(calls=PITCHER_1, tricks=tricks(*rows))
    assert view(calls=PITCHER_1, tricks=[*tricks(*rows), {"leader": 0, "cards": []}]) == plain
    assert plain.to_move == 0 and len(plain.tricks) == 2
    first = view(calls=PITCHER_1, tricks=[{"leader": 1, "cards": []}])
    assert first == view(calls=PITCHER_1) and first.to_move == 1
    assert refusal(doc(calls=PITCHER_1, tricks=[*tricks(*rows), {"leader": 1, "cards": []}])) == (
        "trick 3 is led by seat 1, not the winner of trick 2 (0)"
    )
    assert refusal(doc(calls=PITCHER_1, tricks=[{"leader": 0, "cards": []}])) == (
        "trick 1 is led by seat 0, not the pitcher (1)"
    )
    assert refusal(doc(calls=PITCHER_1, tricks=[{"leader": 1, "cards": []}, *tricks(T1)])) == (
        "trick 1 has no cards but is not the last"
    )


def test_a_view_built_directly_is_checked():
    base = view()
    ok = View(Rules(), 4, 1, 3, (0, 13, 26, 39, 51, 12), (), (), (0, 0, 0, 0)).check()
    assert ok.hand_mask == (1 << 0) | (1 << 13) | (1 << 26) | (1 << 39) | (1 << 51) | (1 << 12)
    assert (ok.phase, ok.to_move) == ("auction", 0) and base.phase == "auction"
    for bad, line in [
        ((52, 1, 2, 3, 4, 5), "52 is not a card"),
        ((-1, 1, 2, 3, 4, 5), "-1 is not a card"),
        ((0, 0, 1, 2, 3, 4), "hand must be 6 different cards"),
    ]:
        with pytest.raises(ViewError) as e:
            View(Rules(), 4, 1, 3, bad, (), (), (0, 0, 0, 0)).check()
        assert str(e.value) == line


def test_legal_calls_and_written_json(tmp_path):
    v = view(calls=["2"])
    assert v.legal_calls() == [0, 3, 4] and v.legal_cards() == 0
    assert view(calls=[]).legal_calls() == []  # seat 0's turn, not seat 1's
    p = view(calls=PITCHER_1, tricks=tricks((1, "AH 3H")))
    assert p.legal_calls() == [] and p.legal_cards() == 0  # seat 3 to play
    j = p.to_json()
    assert j == {
        "rules": j["rules"],
        "players": 4,
        "partnership": False,
        "target": Rules().target,
        "seat": 1,
        "dealer": 3,
        "hand": HAND,
        "calls": ["pass", "3", "pass", "pass"],
        "pitcher": 1,
        "bid": 3,
        "trump": "H",
        "tricks": [{"leader": 1, "cards": ["AH", "3H"]}],
        "scores": [0, 0, 0, 0],
        "legal": [],
    }
    assert Rules.parse(j["rules"]) == Rules()  # the base game, however it is written
    path = tmp_path / "v.json"
    path.write_text(json.dumps(j))
    assert read_view(str(path)) == p
    assert parse_view(json.dumps(j)) == p


def test_a_view_file_that_is_not_json_is_named_as_asked(tmp_path):
    path = tmp_path / "v.json"
    path.write_text("{")
    with pytest.raises(ViewError.__mro__[1]) as e:
        read_view(str(path), "the view")
    assert str(e.value).startswith("the view ") and "is not JSON" in str(e.value)


@pytest.mark.parametrize(
    "rules, legal",
    [
        ("smear", ["pass", "2", "3", "4", "5"]),  # rules.md 3.3: bids 2 to 5
        ("setback", ["pass", "2", "3", "4"]),  # 2.4: no bid of 1
        ("jokers=1,trump=named", ["pass", "1", "2", "3", "4", "5"]),  # 6.2: the joker's point
        ("ten-point", None),  # 4.3: nine cards each
    ],
)
def test_a_view_of_a_preset_is_read_by_its_own_rules_never_the_base_games(rules, legal):
    """One reader for every preset: a smear view's calls are judged by smear's range, not
    the base game's 1-4 (a silent wrong answer).  Given where another game is played
    (``rules=``: a table's or a command's), the view is refused, naming both games."""
    doc = {
        "rules": rules,
        "players": 4,
        "seat": 0,
        "dealer": 3,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"],
        "calls": [],
        "tricks": [],
    }
    if legal is None:
        assert refusal(doc) == "hand has 6 cards: a seat is dealt 9 (ten-point, 4 players)"
    else:
        assert View.from_json(doc).legal() == legal
    with pytest.raises(ViewError) as e:
        View.from_json(doc, "the table", Rules())
    game = rules if "=" not in rules else "auction-pitch," + rules  # a preset, and what differs
    assert str(e.value) == f"rules: this is a view of {game}, but the table plays auction-pitch"
