"""docs/rules.md 12.1, the called partner, through the commands the family kernels run
(issue 32: "every §12 option works where §6.3 allows it, through every command"):
``play`` (a hand, --rounds, --game) and ``tournament``.  What each expects comes from the
reference engine (``game.reference``): pitchsim's call on the pitcher's hand (12.1.2
before any discard or kitty, 12.1.4 after them), its holder when play starts (12.1.5),
the hand replayed card by card (the reference refuses a partner's other card in trick 1,
12.1.3), the points pooled by sides (12.1.6) and settled per player (12.1.7), the
winners by 12.1.8.  The commands that still refuse a called partner say why in one line.
"""

from __future__ import annotations

import json

import pytest
from clirun import cli
from test_partner_table import check_hand

from pitchsim.game import reference as F
from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.reference.partner import highest_missing_trump, partner_of
from pitchsim.game.reference.score import settle_hand, sides_of
from pitchsim.game.rules import Rules

SPECS = [
    ("smear,partner=called", 5),
    ("smear,partner=announced", 6),
    ("ten-point,partnership=false,partner=called", 5),  # the draw passes over the call
    ("ten-point,partnership=false,partner=announced", 5),  # called after the draw
    ("smear,partner=called,kitty=3", 5),  # the pitcher may take his own call
]


def _masks(hands, jokers: int) -> list[int]:
    return [mask_of(parse_cards(" ".join(h), jokers)) for h in hands]


def check_played_hand(doc: dict, r) -> bool:
    """One hand of ``play --json`` (``BoardHand.to_json``) against the reference engine;
    True when a seat other than the pitcher held the call."""
    n, pitcher = doc["players"], doc["pitcher"]
    dealt = _masks(doc["dealt"], r.jokers)
    held = _masks(doc["held"], r.jokers) if doc.get("held") else dealt
    trump = "CDHS".index(doc["trump"])
    called = highest_missing_trump(
        dealt[pitcher] if r.partner == "called" else held[pitcher], trump, r
    )
    assert doc["called"] == parse_cards_text(called, r)  # 12.1.2, 12.1.4
    partner = partner_of(held, pitcher, called)
    assert doc["partner"] == partner  # 12.1.5
    moves = iter(parse_cards(c, r.jokers)[0] for t in doc["tricks"] for c in t["cards"])
    rec = F.play_hand(
        held, pitcher, lambda v: next(moves), r, bid=doc["bid"], trump=trump, called=called
    )  # 12.1.3: the reference refuses a partner's other card in trick 1
    sides = sides_of(n, pitcher, partner, r)
    assert doc["points_won"] == rec.score.points  # 12.1.6
    if not doc["shoot"]:
        assert doc["change"] == settle_hand(rec.score.points, pitcher, doc["bid"], r, sides)
    if partner is not None:  # 12.1.7: the two each score their side's points
        assert doc["change"][pitcher] == doc["change"][partner]
    return partner is not None


def parse_cards_text(card: int, r) -> str:
    from pitchsim.game.view import card_text

    return card_text(card)


@pytest.mark.parametrize(("spec", "n"), SPECS)
def test_12_1_play_rounds_call_play_and_score_as_the_reference(spec, n):
    """``play --rounds --json``: every hand's call, partner, cards, points and change of
    score as the reference engine works them out from the hands dealt and played."""
    r = Rules.parse(spec)
    partnered = hands = 0
    for seed in (1, 2):
        code, out, err = cli(
            "play", "--rules", spec, "-n", n, "--seed", seed, "--rounds", 12, "--json"
        )
        assert code == 0, err
        for doc in json.loads(out):
            assert "called" in doc and "partner" in doc
            if doc["pitcher"] is None:
                assert doc["called"] is None
                continue
            hands += 1
            partnered += check_played_hand(doc, r)
    assert hands >= 10 and partnered >= 3


def test_12_1_play_a_fixed_hand_and_bid_shows_the_call_and_the_side():
    """``play --hand --trump --bid``: seat 0 pitches, names hearts and calls the highest
    heart he lacks (12.1.2: A♥ K♥ 2♥ held, so Q♥); the text names the call and its
    holder, and a side with a partner is "the pitcher's side" (12.1.6)."""
    spec = "smear,partner=called"
    args = ["play", "--rules", spec, "-n", 5, "--hand", "AH KH 2H 9C 7D 3S", "--trump", "H"]
    code, out, err = cli(*args, "--bid", 2, "--seed", 5, "--json", "--rounds", 24)
    assert code == 0, err
    r = Rules.parse(spec)
    docs = json.loads(out)
    for doc in docs:
        assert doc["pitcher"] == 0 and doc["trump"] == "H" and doc["called"] == "QH"
        check_played_hand(doc, r)
    code, text, err = cli(*args, "--bid", 2, "--seed", 5, "--rounds", 24)
    assert code == 0, err
    assert text.count("Seat 0 calls Q♥ (12.1); ") == 24
    with_partner = [d for d in docs if d["partner"] is not None]
    alone = [d for d in docs if d["partner"] is None]
    assert with_partner and alone
    assert text.count("his partner for the hand") == len(with_partner)
    assert text.count("nobody else holds it: he plays alone") == len(alone)
    assert text.count("Pitcher's side ") == len(with_partner)


@pytest.mark.parametrize(("spec", "n"), [SPECS[0], SPECS[1], SPECS[3]])
def test_12_1_play_game_settles_each_hand_and_names_the_winners_by_12_1_7_and_12_1_8(spec, n):
    """``play --game --json`` (the game's record): every hand as the reference has it
    (test_partner_table.check_hand: the call, the partner, the cards, the points by
    sides, each player's change of score by 12.1.7); the scores are the sums of the
    changes; the winners are the reference's (12.1.8) on the last hand's scores."""
    r = Rules.parse(spec)
    partnered = 0
    for seed in (3, 4):
        code, out, err = cli("play", "--rules", spec, "-n", n, "--seed", seed, "--game", "--json")
        assert code == 0, err
        doc = json.loads(out)
        scores = [0] * n
        last = None
        for h in doc["hands"]:
            scores = [a + b for a, b in zip(scores, h["round_points"], strict=True)]
            assert h["scores_after"] == scores
            if h.get("pitcher") is not None:
                partnered += check_hand(h, r)
                last = h
        assert doc["final_scores"] == scores
        made = last["made"]
        want = F.winners(scores, last["pitcher"], made, r, last["shoot"], partner=last["partner"])
        assert sorted(doc["winners"]) == sorted(want) and want
        code, text, err = cli("play", "--rules", spec, "-n", n, "--seed", seed, "--game")
        assert code == 0, err
        assert text.count(" calls ") == sum(h.get("pitcher") is not None for h in doc["hands"])
    assert partnered >= 2


def test_12_1_a_tournament_under_a_called_partner_wins_the_games_play_game_plays():
    """``tournament``: each board of each rotation is the game ``play --game --board``
    plays with that seating (the same deals), so the games each strategy won are the
    reference-checked games' winners, a shared win split (3.11, 12.1.8)."""
    from pitchsim.table.boards import board_game
    from pitchsim.table.tournament import tournament

    spec, n = "smear,partner=called,target=7", 5
    r = Rules.parse(spec)
    names = ["heuristic+heuristic", "random+random"]
    res = tournament(names, boards=4, seed=9, rules=r, players=n)
    want = [0.0, 0.0]
    for rot in range(2):
        seats = [names[(s + rot) % 2] for s in range(n)]
        for b in range(4):
            g = board_game(res.seed, b, seats, r)
            for h in g.hands:  # each hand as the reference has it
                if h.pitcher is not None:
                    doc = h.to_json(r) | {"players": n}
                    doc["dealt"], doc["held"] = doc["dealt"], doc["held"] or doc["dealt"]
                    check_played_hand(doc, r)
            for w in g.winners:
                want[names.index(seats[w])] += 1 / len(g.winners)
    got = [x.win_rate * 4 * 2 for x in res.results]  # the mean share a board, 1/K a game
    assert got == pytest.approx(want) and sum(want) > 0


def _reference_deal_out(spec: str, n: int, hand: str, trump: int, seed: int, deals: int):
    """bid-odds' deals played by the reference engine: deal d of ``seed`` around the
    hand in seat 0 (the kernels' fixed deal), seat 0 naming ``trump``, calling the
    highest trump it lacks (12.1.2), every seat choosing the kernels' heuristic card.
    Per deal: (the pitcher's side's points, the other side's), by 12.1.6."""
    import numpy as np
    from test_partner_search import _kernel_heuristic

    from pitchsim.kernels.deal import deal_cards_fixed
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.kernels.rng import deal_key

    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    mask = np.int64(mask_of(parse_cards(hand, r.jokers)))
    out = []
    for d in range(deals):
        dealt = np.zeros(n, dtype=np.int64)
        deal_cards_fixed(np.uint64(deal_key(seed, d)), n, n - 1, 0, mask, fr, dealt[:0], dealt)
        held = [int(m) for m in dealt]
        called = highest_missing_trump(held[0], trump, r)
        choose = lambda v: _kernel_heuristic(v, n, fr, tab)  # noqa: E731
        rec = F.play_hand(held, 0, choose, r, trump=trump, called=called)
        sides = sides_of(n, 0, rec.partner, r)
        others = [s for s in range(n) if sides[s] != 0]
        out.append((rec.score.points[0], rec.score.points[others[0]] if others else 0))
    return out


@pytest.mark.parametrize(
    ("spec", "n"), [("smear,partner=called", 5), ("smear,partner=announced", 6)]
)
def test_12_1_bid_odds_counts_the_pitchers_side_as_the_reference_does(spec, n):
    """``bid-odds`` under a called partner: P(make k) is P(the pitcher's side, this hand
    and the call's holder, wins at least k) (12.1.6); the expected score of bid k is
    the side's points when made, -k when set (12.1.7: the pitcher scores his side's);
    the margin is that minus the other side's pooled points, which each opponent scores
    (12.1.7).  All three from the reference engine's play of the same deals."""
    from pitchsim.advice.odds import bid_odds

    hand, deals, seed = "AH KH 2H 9C 7D 3S", 300, 7
    r = Rules.parse(spec)
    res = bid_odds(hand, players=n, samples=deals, seed=seed, trump="H", rules=spec, threads=1)
    o = res.by_trump[2]
    ref = _reference_deal_out(spec, n, hand, 2, seed, deals)
    for k in range(1, r.max_bid + 1):
        assert o.p_at_least(k) == sum(ours >= k for ours, _ in ref) / deals
        score = [ours if ours >= k else -k for ours, _ in ref]
        assert o.expected_score(k) == pytest.approx(sum(score) / deals)
        margin = [s - theirs for s, (_, theirs) in zip(score, ref, strict=True)]
        assert o.expected_margin(k) == pytest.approx(sum(margin) / deals)
    assert res.to_json()["points_of"] == "the pitcher's side"
    code, out, err = cli(
        "bid-odds", hand, "--rules", spec, "--players", n, "--samples", 500, "--seed", 1
    )
    assert code == 0, err
    assert "Chance the pitcher's side wins at least k points" in out
    assert "whoever holds that card" in out and "12.1.7" in out


VALUES = {"three": 3, "five": 5}  # every other point is worth 1 (VARIANTS.md 6.2)


@pytest.mark.parametrize(
    ("spec", "n"),
    [("smear,partner=called", 5), ("ten-point,partnership=false,partner=announced", 5)],
)
def test_12_1_simulate_columns_are_the_pitchers_side_by_the_references_sides(spec, n, tmp_path):
    """``simulate`` under a called partner: each award's column says 0 when the
    pitcher's side took it, the side being he and the holder of pitchsim's call
    (12.1.2, 12.1.4, 12.1.5, 12.1.6) as the reference engine works them out from the
    deal's cards (``play_deals``: every seat's cards dealt and held, trump and
    the seat credited with each award); ``points`` is what that side won: the values
    of the awards it took (the side pools, 12.1.6).  ``table`` reads them as the
    pitcher's side's."""
    import pyarrow.parquet as pq

    from pitchsim.kernels.score import AWARD_NAMES
    from pitchsim.kernels.simulate import policy_row
    from pitchsim.study.batch import play_deals, simulate
    from pitchsim.study.manifest import AWARDS, read_manifest

    r = Rules.parse(spec)
    m, seed, run = 3000, 5, tmp_path / "run"
    simulate(run, m, players=[n], seed=seed, rules=spec, part_size=5000, threads=1)
    t = pq.read_table(run / read_manifest(run).parts[0].part.file).to_pydict()
    c = play_deals(r, n, seed * 8 + n, 0, m, policy_row("heuristic", n), seats=True)
    dealt, held, trump, award = c["all_dealt"], c["all_held"], c["trump"], c["all_award"]
    partnered = 0
    for d in range(m):
        h, k = [int(x) for x in dealt[d]], [int(x) for x in held[d]]
        called = highest_missing_trump(h[0] if r.partner == "called" else k[0], int(trump[d]), r)
        partner = partner_of(k, 0, called)
        sides = sides_of(n, 0, partner, r)
        partnered += partner is not None
        took = 0
        for i, name in enumerate(AWARDS):
            assert AWARD_NAMES[i].replace("-", "_") == name
            seat = int(award[d, i])
            want = 3 if seat == -2 else 2 if seat == -1 else int(sides[seat] != sides[0])
            assert t[name][d] == want, (d, name)
            took += VALUES.get(name, 1) if want == 0 else 0
        assert t["points"][d] == took, d  # 12.1.6
    assert partnered > m // 4
    code, out, err = cli("table", run)
    assert code == 0, err
    assert "P(the pitcher's side wins at least k points)" in out


@pytest.mark.parametrize("spec", ["smear,partner=called", "smear,partner=announced,kitty=2"])
def test_12_1_table_checks_a_king_without_the_ace_wins_high_for_the_side(spec, tmp_path):
    """``table --checks`` on a called-partner run: a pitcher dealt the king of trump
    without the ace calls the ace (the highest trump he lacks, 12.1.2, 12.1.4), so
    whoever holds it is his partner (12.1.5, 12.1.6) and High is always his side's
    (without a partner the ace is an opponent's with probability (n-1)·6/(52-6))."""
    from pitchsim.study.batch import simulate

    run = tmp_path / "run"
    simulate(run, 20_000, players=[5], seed=3, rules=spec, part_size=20_000, threads=1)
    code, out, err = cli("table", run, "--checks", "--format", "json")
    assert code == 0, err
    rows = {r["check"]: r for r in json.loads(out)}
    king = rows["king of trump dealt without the ace wins High"]
    assert king["exact"] == 1.0 and king["estimate"] == 1.0 and king["deals"] > 1000


def _cut(doc: dict, cards: int) -> dict:
    """A played hand's JSON (``play --json``) cut after its first ``cards`` cards: a
    position ``solve`` reads (the call and the hands in play ride along)."""
    tricks, left = [], cards
    for t in doc["tricks"]:
        if left <= 0:
            break
        tricks.append({"leader": t["leader"], "cards": t["cards"][:left]})
        left -= len(t["cards"])
    return doc | {"tricks": tricks}


@pytest.mark.parametrize(
    ("spec", "n"), [("smear,partner=called", 5), ("smear,partner=announced", 6)]
)
def test_12_1_solve_a_position_values_it_as_the_minimax_with_the_partner(spec, n):
    """``solve`` on a called-partner position (a hand of ``play --json``, its "called"
    card given, cut late in the hand): the value and each legal card's value equal the
    exhaustive minimax over the reference's legal cards, which scores by the sides of
    the call (the pitcher and its holder, 12.1.5, 12.1.6)."""
    from pitchsim.search import minimax as fm
    from pitchsim.search.double_dummy import solve
    from pitchsim.search.position import parse_position

    code, out, err = cli("play", "--rules", spec, "-n", n, "--seed", 11, "--rounds", 16, "--json")
    assert code == 0, err
    checked = partnered = 0
    for i, doc in enumerate(json.loads(out)):
        if doc["pitcher"] is None:
            continue
        cut = 3 * n + i % n  # three tricks played, and some of the fourth
        pos = parse_position(_cut(doc, cut))
        assert pos.state.called == parse_cards(doc["called"], 0)[0]
        s = solve(pos)
        assert s.value == fm.solve(pos.state), i
        assert s.cards == fm.card_values(pos.state), i
        checked += 1
        partnered += doc["partner"] is not None
    assert checked >= 8 and partnered >= 3


def test_12_1_3_solve_gives_the_partner_only_the_call_in_trick_1():
    """A trick-1 position under partner=called with the partner to play: his only legal
    card is the call (12.1.3), whatever else he holds of the suit led; ``solve``'s text
    names the call and the partner.  A position without its call is refused in one
    line naming 12.1, and a called card that is not a trump by 12.1.2."""
    spec = "smear,partner=called"
    code, out, err = cli("play", "--rules", spec, "-n", 5, "--seed", 11, "--rounds", 16, "--json")
    assert code == 0, err
    doc = next(
        d
        for d in json.loads(out)
        if d["partner"] is not None and d["tricks"][0]["seats"].index(d["partner"]) > 0
    )
    at = doc["tricks"][0]["seats"].index(doc["partner"])
    position = _cut(doc, at)
    code, out, err = cli("solve", "-", "--json", stdin=json.dumps(position))
    assert code == 0, err
    assert sorted(json.loads(out)["cards"]) == [doc["called"]], out
    code, out, err = cli("solve", "-", stdin=json.dumps(position))
    assert code == 0, err
    from pitchsim.game.cards import format_card

    called = format_card(parse_cards(doc["called"], 0)[0])
    assert f"called {called} (partner)" in out
    line = cli("solve", "-", stdin=json.dumps(position | {"called": None}))[2]
    assert "partner=called (12.1): give the card the pitcher called" in line
    off = next(c for c in ("2C", "2D", "2H", "2S") if c[1] != doc["trump"])
    line = cli("solve", "-", stdin=json.dumps(position | {"called": off}))[2]
    assert "is not a trump (12.1.2" in line


@pytest.mark.parametrize(
    ("spec", "n"),
    [("smear,partner=called", 5), ("ten-point,partnership=false,partner=announced", 5)],
)
def test_12_1_6_family_make_odds_counts_the_pitchers_side_as_simulate_does(spec, n, tmp_path):
    """The library's ``make_odds`` under a called partner: P(make k) and P(each
    award to the pitcher's side) are the pitcher's side's, he and the holder of the call
    (12.1.5, 12.1.6), exactly as ``simulate`` counts the same deals (whose columns are
    the reference's sides: the test above)."""
    import pyarrow.parquet as pq

    from pitchsim.kernels.simulate import make_odds
    from pitchsim.study.analysis import make_table
    from pitchsim.study.batch import simulate
    from pitchsim.study.manifest import read_manifest

    r = Rules.parse(spec)
    m, seed, run = 3000, 5, tmp_path / "run"
    simulate(run, m, players=[n], seed=seed, rules=spec, part_size=5000, threads=1)
    odds = make_odds(r, n, m, "heuristic", seed=seed * 8 + n)  # simulate's deals
    row = make_table(run, []).iloc[0]
    assert row.deals == m and len(odds["p_make"]) == r.max_bid
    assert [row[f"p{k}"] for k in range(1, r.max_bid + 1)] == odds["p_make"]
    t = pq.read_table(run / read_manifest(run).parts[0].part.file).to_pydict()
    assert odds["awards"]
    for name, p in odds["awards"].items():
        ours = [side == 0 for side in t[name.replace("-", "_")]]
        assert p == sum(ours) / m, name


@pytest.mark.parametrize(
    ("spec", "n"), [("smear,partner=called", 5), ("smear,partner=announced", 6)]
)
def test_12_1_5_and_12_1_6_the_reports_sampled_hands_and_checks_under_a_called_partner(spec, n):
    """The report's ``sample_hands`` under a called partner: each deal's partner is the
    holder of pitchsim's call when play starts, as the reference works it out from the
    cards (12.1.2, 12.1.4, 12.1.5), and ``points`` the side's (the awards its two seats
    took, 12.1.6).  Its exact checks then hold: a king of trump without the ace wins
    High for the side every time (the ace is called), the rest are about the deal."""
    from pitchsim.kernels.score import AWARD_VALUES
    from pitchsim.study.exact import sample_hands, summary_checks

    r = Rules.parse(spec)
    s = sample_hands(spec, n, 4000, seed=9, threads=1)
    partnered = 0
    for d in range(4000):
        dealt, held = [int(x) for x in s["dealt"][d]], [int(x) for x in s["held"][d]]
        trump = int(s["trump"][d])
        called = highest_missing_trump((dealt if r.partner == "called" else held)[0], trump, r)
        partner = partner_of(held, 0, called)
        assert s["partner"][d] == (-1 if partner is None else partner), d
        partnered += partner is not None
        side = {0, partner}
        took = sum(int(v) for a, v in zip(s["award"][d], AWARD_VALUES, strict=True) if a in side)
        assert s["points"][d] == took, d
    assert partnered > 1000
    rows = {row["check"].split(": ", 1)[1]: row for row in summary_checks(s)}
    king = rows["king of trump without the ace wins High"]
    assert king["exact"] == 1.0 and king["estimate"] == 1.0 and king["deals"] > 100
    assert all(abs(row["z"]) < 4 for row in rows.values() if row["se"] > 0), rows
