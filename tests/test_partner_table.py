"""docs/rules.md 12.1 at the table (``table.game.TableDeal``: practice, watch, review):
the pitcher calls a card, pitchsim's seats the highest trump they lack (12.1.2: once
trump is named; 12.1.4: after the draw or the kitty; tests/test_partner_call.py asks
it as a decision), the views carry it and the partner as each seat knows him (12.1.10), the
partner plays the call to trick 1 (12.1.3), and the hand is scored and settled by sides
(12.1.6, 12.1.7) and won by 12.1.8.  Each hand of a table's record is checked against
the reference engine's ``play_hand`` replaying the record's cards, which works out the
partner, the duty and the sides on its own; a person practises a five-player game
coached and reviews it."""

from __future__ import annotations

import json

import pytest
from clirun import cli

from pitchsim.game import reference as F
from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.reference.partner import highest_missing_trump, partner_of
from pitchsim.game.reference.score import settle_hand, sides_of
from pitchsim.game.rules import Rules
from pitchsim.table.game import play_table_game

SPECS = [
    ("smear,partner=called", 5),
    ("smear,partner=announced", 6),
    ("ten-point,partnership=false,partner=called", 5),  # the draw passes over the call
    ("smear,partner=called,kitty=3", 5),  # the pitcher may take his own call
]


def _masks(texts, jokers: int) -> list[int]:
    return [mask_of(parse_cards(" ".join(h), jokers)) for h in texts]


def check_hand(doc: dict, r, person: int | None = None) -> bool:
    """One hand of a table's record against the reference engine; True when a seat
    other than the pitcher held the call.  The call is the pitcher's action (12.1.2),
    pitchsim's unless the pitcher is ``person``'s seat."""
    n, pitcher = doc["players"], doc["pitcher"]
    dealt = _masks(doc["hands"], r.jokers)
    held = _masks(doc["held"], r.jokers) if doc.get("held") else dealt
    trump = "CDHS".index(doc["trump"])
    called = parse_cards(doc["called"], r.jokers)[0]
    before = dealt[pitcher] if r.partner == "called" else held[pitcher]
    (act,) = [a for a in doc["actions"] if a["action"].startswith("call:")]
    assert act == {"seat": pitcher, "action": "call:" + doc["called"]}
    if pitcher != person:
        assert called == highest_missing_trump(before, trump, r)  # 12.1.2, 12.1.4
    partner = partner_of(held, pitcher, called)
    assert doc["partner"] == partner  # 12.1.5
    cards = [parse_cards(c, r.jokers)[0] for t in doc["tricks"] for c in t["cards"]]
    moves = iter(cards)
    rec = F.play_hand(
        held, pitcher, lambda v: next(moves), r, bid=doc["bid"], trump=trump, called=called
    )  # (the reference refuses a partner's other card in trick 1, 12.1.3)
    sides = sides_of(n, pitcher, partner, r)
    assert doc["points_won"] == rec.score.points  # 12.1.6
    assert doc["round_points"] == settle_hand(rec.score.points, pitcher, doc["bid"], r, sides)
    return partner is not None


@pytest.mark.parametrize(("spec", "n"), SPECS)
def test_12_1_the_table_plays_calls_and_scores_as_the_reference(spec, n):
    """Whole games of built-in seats (a searching one among them) at the table: every
    hand's call, partner, cards and score as the reference engine has them; the winners
    by 12.1.8 (the record's replay, ``table.record``, checks them from the actions)."""
    from pitchsim.table.record import replay

    r = Rules.parse(spec)
    partnered = hands = 0
    for seed in range(3):
        names = ["heuristic+rollout:8", "random+heuristic", "heuristic+heuristic"]
        record = play_table_game([names[s % 3] for s in range(n)], r, seed)
        for doc in record["hands"]:
            if doc.get("pitcher") is None:
                continue
            hands += 1
            partnered += check_hand(doc, r)
        replay(json.loads(json.dumps(record)))
    assert hands >= 6 and partnered >= 2


def test_12_1_practice_plays_a_five_player_called_partner_game_coached_and_reviews_it(tmp_path):
    """issue 32: "a person can practise a five-player called-partner game ... coached":
    the person's calls, trump and cards typed in, every one with a choice judged; the
    table names the call and the partner as the person knows him; review judges the
    same decisions again."""
    save = tmp_path / "partner.json"
    args = ["practice", "--rules", "smear,partner=called", "--players", "5", "--seed", "4"]
    coach = ["--samples", "300", "--worlds", "12"]
    answers = "p\n2\n1\n" * 3000  # pass (or the lowest bid), the first suit, card 1
    code, out, err = cli(
        *args, "--opponents", "heuristic+rollout:8", "--save", save, *coach, stdin=answers
    )
    assert code == 0, err
    assert "game over:" in out and "Traceback" not in out
    assert "called: " in out and "the pitcher's partner" in out
    doc = json.loads(save.read_text())
    kinds = {j["kind"] for j in doc["practice"]["judgements"]}
    assert {"call", "card"} <= kinds
    r = Rules.parse("smear,partner=called")
    for h in doc["hands"]:
        if h.get("pitcher") is not None:
            check_hand(h, r, person=0)
    code, out, err = cli("review", save, "--seat", "0", "--json", *coach)
    assert code == 0, err
    judged = [(j["hand"], j["kind"], j["chosen"]) for j in json.loads(out)["judgements"]]
    saved = [(j["hand"], j["kind"], j["chosen"]) for j in doc["practice"]["judgements"]]
    assert judged == saved
    # the default opponents bid by odds, from the called partner's own rows
    code, out, err = cli(*args, "--save", tmp_path / "x.json", *coach, stdin="p\nq\n")
    assert code == 0 and "Traceback" not in out + err, err


def test_12_1_the_coachs_trump_odds_deal_out_plays_the_call():
    """The coach judges the naming of trump by the bid odds' deal-out of the pitcher's
    hand (``fixed_hand.play_fixed``): under a called partner each deal is the
    reference's hand with pitchsim's call (12.1.2), its holder owing it to trick 1
    (12.1.3), the pitcher's points his side's (12.1.6)."""
    import numpy as np
    from test_partner_search import _kernel_heuristic

    from pitchsim.kernels.deal import deal_cards_fixed
    from pitchsim.kernels.fixed_hand import PITCHER, play_fixed
    from pitchsim.kernels.policies.cards import PLAIN_POLICY_IDS
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.kernels.rng import deal_key

    r = Rules.parse("smear,partner=called")
    n, deals, seed, trump = 5, 60, 9, 2  # hearts
    fr, tab = rules_array(r), rules_table(r)
    hand = mask_of(parse_cards("AH 2H 9C 7D 3S QS", 0))
    pol = np.full(n, PLAIN_POLICY_IDS["heuristic"], dtype=np.int64)
    ours, every, trumps = (np.empty(deals, np.int64) for _ in range(3))
    play_fixed(
        seed,
        0,
        deals,
        n,
        PITCHER,
        np.int64(hand),
        trump,
        0,
        pol,
        fr,
        tab,
        ours,
        every,
        trumps,
        None,
    )
    partnered = 0
    for d in range(deals):
        dealt = np.zeros(n, dtype=np.int64)
        deal_cards_fixed(
            np.uint64(deal_key(seed, d)), n, n - 1, PITCHER, np.int64(hand), fr, dealt[:0], dealt
        )
        held = [int(m) for m in dealt]
        called = highest_missing_trump(held[PITCHER], trump, r)
        choose = lambda v: _kernel_heuristic(v, n, fr, tab)  # noqa: E731
        rec = F.play_hand(held, PITCHER, choose, r, trump=trump, called=called)
        assert ours[d] == rec.score.points[PITCHER], d
        partnered += rec.partner is not None
    assert partnered > 10
