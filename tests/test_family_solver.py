"""The double-dummy solver (kernels/search/solver.py) under every preset against the
plain-Python reference minimax (search/minimax.py), hand-worked values, and ``pitchsim
solve`` under a family (search/position.py, search/double_dummy.py).

Random positions: a hand dealt, trump fixed, discarded and drawn, and played at random
by the reference engine (game/reference/), then cut 2-4 tricks before the
end, half of them inside a trick.  The reference steps and scores the hand with the
reference engine's own legal_cards, trick_winner and score_hand; the kernel with the
family tables, so the two derivations meet only in the values.

Planted in the solver one at a time and reverted, each caught here: the 3 of trump
worth 2; the trumps ordered by their bits (the jick and jokers out of their order);
follow=only's lead staying with a trick's winner that holds no trump; lead-trump's
opening lead left free (the whole hands only); the Game count without joker-game=half's
doubled scale (the six-point hand worked; the random six-point positions missed it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from clirun import cli

from pitchsim.game import reference as ref
from pitchsim.game.cards import card, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search import solver as ks
from pitchsim.search import minimax as fm
from pitchsim.search.double_dummy import solve
from pitchsim.search.position import PresetPosition, read_position

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "smear_endgame.json"


def random_hand(rules, n: int, rng: random.Random, pitcher: int | None = None):
    """(held, record) of one hand played at random from the first lead."""
    dealt, stock = ref.deal(rng, rules, n, rng.randrange(n))
    pitcher = rng.randrange(n) if pitcher is None else pitcher
    trump = -1
    held = dealt
    if rules.trump == "named":
        trump = rng.randrange(4)
        if rules.discard == "non-trump":
            held, _ = ref.discard_and_draw(dealt, stock, pitcher, trump, rules, rng)
    choose = lambda view: rng.choice([c for c in range(54) if view.legal >> c & 1])  # noqa: E731
    rec = ref.play_hand(held, pitcher, choose, rules, trump=trump)
    return held, trump, rec


def cut(held, trump, rec, tricks_done: int, cards: int):
    """The position after ``tricks_done`` whole tricks and ``cards`` of the next:
    (hands, won, leader, trick, trump); trump -1 at the opening lead under first-lead."""
    n = len(held)
    hands = list(held)
    won = [0] * n
    for _leader, seats, cs, winner in rec.tricks[:tricks_done]:
        for s, c in zip(seats, cs, strict=True):
            hands[s] &= ~(1 << c)
            won[winner] |= 1 << c
    if tricks_done < len(rec.tricks):
        leader, seats, cs, _ = rec.tricks[tricks_done]
        trick = list(cs[:cards])
        for s, c in zip(seats[:cards], trick, strict=True):
            hands[s] &= ~(1 << c)
    else:
        leader, trick = rec.tricks[-1][3], []
    if trump < 0 and (tricks_done > 0 or cards > 0):
        trump = rec.trump
    return hands, won, leader, trick, trump


def random_position(rules, n: int, rng: random.Random, back=(2, 4), mid: bool = True):
    """A random position ``back`` tricks (a range) before the end; some mid-trick."""
    held, trump, rec = random_hand(rules, n, rng)
    t = len(rec.tricks)
    k = max(0, t - rng.randint(*back))
    cards = rng.randrange(len(rec.tricks[k][2])) if (mid and rng.random() < 0.5) else 0
    hands, won, leader, trick, trump = cut(held, trump, rec, k, cards)
    return rec.pitcher, held, hands, won, leader, trick, trump


def _kernel_args(rules, pitcher, held, hands, won, leader, trick, trump, table):
    """The solver's positional arguments for one position under a preset."""
    tr = np.zeros(8, dtype=np.int64)
    tr[: len(trick)] = trick
    return (
        np.array(hands, dtype=np.int64),
        np.array(won, dtype=np.int64),
        np.array(held, dtype=np.int64),
        len(hands),
        leader,
        tr,
        len(trick),
        trump,
        pitcher,
        rules_array(rules),
        rules_table(rules),
        table,
    )


def kernel_values(rules, pitcher, held, hands, won, leader, trick, trump, table):
    """(value by solve_preset, value by preset_card_values, each card's value)."""
    args = _kernel_args(rules, pitcher, held, hands, won, leader, trick, trump, table)
    out = np.empty(54, dtype=np.int64)
    each = ks.preset_card_values(*args, out, -1)
    value = ks.solve_preset(*args, -1)
    return int(value), int(each), {c: int(out[c]) for c in range(54) if out[c] >= 0}


# (rules, players, positions, tricks back): every preset at the counts it allows, the
# partnership it allows, and the options that change scoring or play (VARIANTS.md 6.1).
CASES = [
    ("setback", 4, 40, (2, 3)),  # 2: partnership, bids 2-4
    ("smear", 2, 20, (2, 4)),  # 3: jick, low=dealt, named trump
    ("smear", 3, 30, (2, 4)),
    ("smear", 4, 30, (2, 4)),
    ("smear", 5, 20, (2, 3)),
    ("smear", 6, 15, (2, 2)),
    ("smear", 7, 12, (2, 2)),
    ("smear,partnership=true", 4, 20, (2, 3)),  # 0.10 pooled points and counts
    ("smear,low=captured", 4, 20, (2, 3)),  # 6.1 low=captured
    ("ten-point", 4, 30, (2, 4)),  # 4: follow=only, jokers, three, game=ten, draw
    ("ten-point,partnership=false", 4, 20, (2, 4)),
    ("ten-point,partnership=false", 5, 15, (2, 3)),  # 4.3: 10 cards, no fours
    ("ten-point,partnership=false,jokers=1", 5, 12, (2, 3)),
    ("ten-point,partnership=false,follow=trump,rob=false", 4, 20, (2, 3)),
    ("jokers=2,game=ten,three=true,five=true", 3, 20, (2, 4)),  # 6.1 points by capture
    ("jokers=1", 4, 20, (2, 4)),  # first-lead trump with a joker (6.3.5)
    ("jick=true,five=true,low=dealt", 4, 20, (2, 4)),
    ("jokers=2,trump=named,lead-trump=true,follow=suit", 3, 20, (2, 4)),
    ("trump=named,follow=only", 5, 15, (2, 3)),  # 4.9 without a draw: unequal hands
    ("six-point", 4, 40, (2, 4)),  # 9.5, 12.10: Game on the doubled scale (a joker ½)
    ("six-point,partnership=false", 3, 30, (2, 4)),
    ("jokers=2,trump=named,joker-game=half", 7, 10, (2, 2)),  # doubled counts, 8-bit keys
]


@pytest.fixture(scope="module")
def table():
    return ks.new_table(16)


@pytest.mark.parametrize(("spec", "n", "count", "back"), CASES)
def test_kernel_equals_reference_minimax(spec, n, count, back, table):
    rules = Rules.parse(spec)
    rng = random.Random(f"{spec}/{n}")
    for _ in range(count):
        pitcher, held, hands, won, leader, trick, trump = random_position(rules, n, rng, back)
        st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)
        memo: dict = {}  # (one search: the card values are its root's children)
        want = fm.solve(st, memo)
        want_cards = fm.card_values(st, memo) if st.leader is not None else {}
        got = kernel_values(rules, pitcher, held, hands, won, leader, trick, trump, table)
        assert got == (want, want, want_cards), (spec, n, held, hands, won, leader, trick)


def test_whole_hands_from_the_opening_lead(table):
    """Before the opening lead under trump=first-lead (each lead fixes trump, 6.3.5) and
    after trump is named (lead-trump: the opening lead must be a trump), at 2 players
    where the reference can search whole hands."""
    for spec in (
        "smear",
        "jokers=1",
        "jokers=2,three=true,five=true,game=ten",
        "jokers=2,trump=named,lead-trump=true,follow=suit",  # the opening lead a trump (0.4)
    ):
        rules = Rules.parse(spec)
        rng = random.Random(spec)
        for _ in range(3):
            pitcher, held, hands, won, leader, trick, trump = random_position(
                rules, 2, rng, (6, 6), mid=False
            )
            assert not any(won) and not trick
            st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)
            memo: dict = {}
            want = fm.solve(st, memo)
            got = kernel_values(rules, pitcher, held, hands, won, leader, trick, trump, table)
            assert got == (want, want, fm.card_values(st, memo))


def _budgeted(rules, pitcher, held, hands, won, leader, trick, trump, table, budget, each):
    """(value, out) of one call under a node budget, the table's budget cleared after."""
    args = _kernel_args(rules, pitcher, held, hands, won, leader, trick, trump, table)
    out = np.full(54, 99, dtype=np.int64)
    table[0, ks.T_BUDGET] = budget
    try:
        v = ks.preset_card_values(*args, out, -1) if each else ks.solve_preset(*args, -1)
    finally:
        table[0, ks.T_BUDGET] = 0
    return int(v), {c: int(out[c]) for c in range(54) if each and out[c] >= 0}


@pytest.mark.parametrize(("spec", "n"), [("smear", 4), ("ten-point", 4), ("smear", 5)])
def test_a_node_budget_stops_or_gives_the_exact_value(spec, n, table):
    """The contract: a call is deterministic, so one given a node more than it searches
    unbudgeted finishes with the reference's value, and one given exactly those nodes
    stops (-1, nothing in ``out``, the stop counted)."""
    rules = Rules.parse(spec)
    rng = random.Random(f"budget/{spec}/{n}")
    for i in range(6):
        pitcher, held, hands, won, leader, trick, trump = random_position(rules, n, rng, (2, 3))
        st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)
        each = i % 2 == 1 and st.leader is not None
        memo: dict = {}
        want = (fm.solve(st, memo), fm.card_values(st, memo) if each else {})
        pos = (rules, pitcher, held, hands, won, leader, trick, trump, table)
        before = int(table[0, ks.T_NODES])
        assert _budgeted(*pos, 0, each) == want  # no budget
        nodes = int(table[0, ks.T_NODES]) - before
        assert _budgeted(*pos, nodes + 1, each) == want
        assert _budgeted(*pos, 10 * nodes, each) == want
        if nodes > 1:
            stops = int(table[0, ks.T_ABORTED])
            assert _budgeted(*pos, nodes, each) == (-1, {})
            assert int(table[0, ks.T_ABORTED]) == stops + 1
        assert _budgeted(*pos, 0, each) == want  # a stop leaves nothing behind


def test_a_tiny_budget_stops_a_whole_hand(table):
    """Smear at 5 players from the opening lead (named trump): far more than 50 nodes."""
    rules = Rules.parse("smear")
    rng = random.Random("tiny budget")
    pitcher, held, hands, won, leader, trick, trump = random_position(rules, 5, rng, (6, 6), False)
    assert not any(won) and not trick
    pos = (rules, pitcher, held, hands, won, leader, trick, trump, table)
    for each in (False, True):
        assert _budgeted(*pos, 50, each) == (-1, {})
    assert table[0, ks.T_BUDGET] == 0


# ---- hand-worked values ----------------------------------------------------------------------


def test_smear_all_trumps_hand_worked(table):
    """Smear, 2 players, hearts: the pitcher holds A K Q J 10 9 of hearts, seat 1 the
    jick (J of diamonds, a trump ranked under the jack, 3.6), the 2 of hearts and low
    clubs.  Leading the ace and king draws both of seat 1's trumps (it must follow the
    led effective suit, 0.4), so the pitcher takes every trick: High, Jack, Jick and
    Game (3.8: 4 points); Low, the 2, is its holder's under low=dealt (3.8).  Under
    low=captured (6.1) the pitcher captures Low too: 5."""
    held = [mask_of(parse_cards("AH KH QH JH TH 9H")), mask_of(parse_cards("JD 2H 3C 4C 5C 6C"))]
    hearts = 2
    for spec, want in (("smear", 4), ("smear,low=captured", 5)):
        rules = Rules.parse(spec)
        st = fm.start_state(rules, 0, held, held, [0, 0], hearts, 0)
        assert fm.solve(st) == want
        got = kernel_values(rules, 0, held, held, [0, 0], 0, [], hearts, table)
        assert got[0] == got[1] == want


def test_six_point_a_jokers_half_decides_game_hand_worked(table):
    """Six-point alone, 2 players, hearts, the last trick: counts 12 against 12 won
    (10 and queen each), seat 0 (the pitcher) leads the joker, his only card, and takes
    it: the joker's point and, by its half, Game (9.5, 12.10: 12½ against 12): 2.  No
    trump but the joker is in play, so nobody has High or Low (0.7).  Under
    joker-game=0 the counts tie and nobody has Game: 1."""
    held = [mask_of(parse_cards(t, jokers=1)) for t in ("TC QC 3S 4S 5S HJ", "TD QD 6S 7S 8S 9D")]
    won = [mask_of(parse_cards(t)) for t in ("TC QC 3S 4S 6S 7S", "TD QD 5S 8S")]
    hands = [mask_of(parse_cards("HJ", jokers=1)), mask_of(parse_cards("9D"))]
    hearts = 2
    for spec, want in (
        ("six-point,partnership=false", 2),
        ("six-point,partnership=false,joker-game=0", 1),
    ):
        rules = Rules.parse(spec)
        st = fm.start_state(rules, 0, held, hands, won, hearts, 0)
        assert fm.solve(st) == want
        got = kernel_values(rules, 0, held, hands, won, 0, [], hearts, table)
        assert got[0] == got[1] == want


def test_ten_point_follow_only_hand_worked(table):
    """Ten-point, hearts, follow=only (4.9): only trumps are played.  Seat 0 (pitcher,
    partner seat 2) holds A and 3 of hearts, seat 1 the K, seat 2 the 2, seat 3 the
    high joker.  Ace first takes K, 2 and the joker (High 1, the joker 1; Low is seat
    2's, dealt, 4.10), then the 3 alone (3 points, 4.10): 6.  The 3 first loses to the
    king with the joker (the opponents take 3 + 1), then the ace takes High: 2."""
    rules = Rules.parse("ten-point")
    c = lambda t: parse_cards(t, 2)[0]  # noqa: E731
    held = [
        mask_of([c("AH"), c("3H"), c("5C")]),
        mask_of([c("KH"), c("6C")]),
        mask_of([c("2H")]),
        mask_of([c("HJ"), c("7D")]),
    ]
    hearts = 2
    st = fm.start_state(rules, 0, held, held, [0] * 4, hearts, 0)
    assert fm.solve(st) == 6
    assert fm.card_values(st) == {c("AH"): 6, c("3H"): 2}
    got = kernel_values(rules, 0, held, held, [0] * 4, 0, [], hearts, table)
    assert got == (6, 6, {c("AH"): 6, c("3H"): 2})
    assert card(12, hearts) == c("AH")


# ---- pitchsim solve under a family -----------------------------------------------------------


def test_example_position_solves_as_the_reference_says():
    pos = read_position(EXAMPLE.read_text())
    assert isinstance(pos, PresetPosition) and pos.rules.family == "smear"
    s = solve(pos)
    assert s.value == fm.solve(pos.state)
    assert s.cards == fm.card_values(pos.state)
    code, out, _ = cli("solve", EXAMPLE, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["value"] == s.value and doc["made"] == (s.value >= 3)
    code, out, _ = cli("solve", EXAMPLE)
    assert code == 0 and f"Value: {s.value}" in out and "smear" in out


def test_solve_takes_the_family_from_rules(tmp_path):
    doc = json.loads(EXAMPLE.read_text())
    del doc["rules"]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    code, out, err = cli("solve", path, "--rules", "smear", "--json")
    assert code == 0, err
    code, _, err = cli("solve", path, "--rules", "ten-point")
    assert code == 2  # ten-point plays only trumps (4.9): trick 1 led the 6 of diamonds
    code, _, err = cli("solve", EXAMPLE, "--rules", "setback")
    assert code == 2 and "give one" in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"trump": None}, "names trump after the auction"),
        ({"hands": 0}, "holds 5 cards dealt, not 6"),
        ({"rules": "smear", "bid": 6}, "bid must be 1-5"),
        ({"rules": "auction-pitch,jokers=1,trump=named", "hj": True}, ""),
        ({"rules": "auction-pitch", "hj": True}, "HJ is not in this deck (no jokers)"),
        ({"tricks": [{"leader": 2, "cards": ["5C"]}]}, "seat 1 leads it"),
    ],
)
def test_bad_family_positions_are_refused_in_one_line(tmp_path, change, message):
    doc = json.loads(EXAMPLE.read_text())
    doc["tricks"] = doc["tricks"][:1]
    if change.pop("hands", None) == 0:
        doc["hands"][0] = doc["hands"][0][:5]
    if change.pop("hj", False):
        doc["hands"][0][-1] = "HJ"  # 6S (unplayed) becomes the high joker
    doc.update(change)
    if doc.get("trump") is None:
        doc.pop("trump", None)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    code, out, err = cli("solve", path)
    if not message:
        assert code == 0, err
    else:
        assert code == 2 and message in err, err


def test_hint_takes_the_family_position_too(tmp_path):
    code, out, err = cli("hint", EXAMPLE, "--worlds", "5", "--seed", "1")
    assert code == 0 and out.startswith("Seat 0 to play") and "smear" in out, err
