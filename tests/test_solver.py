"""The double-dummy solver: the numba kernel against the plain-Python minimax.

Random positions come from random deals played out by random legal cards and cut at a
random card: whole 2-player deals from the opening lead, 2-player deals cut anywhere,
and 3-7 player endgames (2 or 3 tricks left), often inside a trick; every player count,
solo and partnership, base rules and each variant that changes play or scoring.  Both
the value and every legal card's value must agree.
"""

from __future__ import annotations

import json
import random

import pytest

from pitchsim.cli import main
from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array
from pitchsim.search import minimax as reference
from pitchsim.search.double_dummy import solve, solve_value
from pitchsim.search.position import parse_position, start_position

VARIANTS = [Rules(), Rules(follow="suit"), Rules(low="dealt"), Rules(follow="suit", low="dealt")]
COMPARED = {"positions": 0}  # how many positions the comparisons below ran (printed by -s)


def random_position(rng: random.Random, n: int, rules: Rules, cards_left: int):
    """A random deal, played by random legal cards until ``cards_left`` remain unplayed."""
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]
    pos = start_position(dealt, rng.randrange(n), rules, bid=rng.choice([None, 1, 2, 3, 4]))
    for _ in range(6 * n - cards_left):
        pos = pos.play(rng.choice(cards_of(pos.legal())))
    return pos


def check_against_reference(pos):
    expected = reference.card_values(pos)
    want = max(expected.values()) if pos.pitcher_side(pos.to_play) else min(expected.values())
    got = solve(pos)
    assert (got.value, got.cards) == (want, expected), pos.to_json()
    assert solve_value(pos) == want
    COMPARED["positions"] += 1


def cases(n: int):
    if n == 4:
        return VARIANTS + [
            Rules(partnership=True, **r) for r in ({}, {"follow": "suit"}, {"low": "dealt"})
        ]
    return VARIANTS


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.follow}-{r.low}")
def test_whole_two_player_deals(rules):
    rng = random.Random(f"whole-{rules}")
    for _ in range(3):
        check_against_reference(random_position(rng, 2, rules, 12))


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.follow}-{r.low}")
def test_two_player_deals_cut_anywhere(rules):
    rng = random.Random(f"cut-{rules}")
    for _ in range(60):
        check_against_reference(random_position(rng, 2, rules, rng.randrange(1, 11)))


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_endgames(n):
    """3 tricks left (2 at 5-7 players) or fewer, cut at any card, solo and partnership."""
    for rules in cases(n):
        rng = random.Random(f"end-{n}-{rules}")
        most = 3 * n if n <= 4 else 2 * n
        for _ in range(100 if n <= 4 else 80):
            check_against_reference(random_position(rng, n, rules, rng.randrange(1, most + 1)))


def test_positions_compared_count():
    """Runs last in this file's order: says how many positions were compared."""
    print(f"\nkernel == reference on {COMPARED['positions']} positions")


def deal_position(hands: list[str], tricks: list[tuple[int, str]], pitcher=0, rules=None, **kw):
    kw["rules"] = {} if rules is None else rules  # {}: the base rules
    return parse_position(
        {
            "players": len(hands),
            "pitcher": pitcher,
            "hands": [parse_names(h) for h in hands],
            "tricks": [{"leader": lead, "cards": parse_names(cs)} for lead, cs in tricks],
            **kw,
        }
    )


def parse_names(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_six_top_trumps_win_four(n):
    """(6 and 7 players take too long for a test: every opponent's discards are searched.)"""
    rng = random.Random(n)
    mine = parse_cards("AH KH QH JH TH 9H")
    deck = [c for c in range(52) if c not in mine]
    for _ in range(5):
        rng.shuffle(deck)
        dealt = [mask_of(mine)] + [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n - 1)]
        pos = start_position(dealt, 0, Rules())
        s = solve(pos)
        assert s.value == 4
        # Leading a heart keeps all four; the whole deal's value is the best lead's.
        assert all(s.cards[c] == 4 for c in mine)


def test_trumping_in_changes_the_value():
    """Trump hearts.  Left: pitcher TS 3S, defender 4S 2H, pitcher to lead; no game count
    captured yet and the pitcher already holds High (9H).  Base rules: the defender trumps
    the ten with 2H (or, on a 3S lead, wins with the 4S and trumps the ten next): the
    pitcher has 1.  Follow = suit: on the ten the defender must play the 4S; Game is the
    pitcher's (10 to 0) and so is a second point."""
    hands = ["9H 3C 4C 5C TS 3S", "8H 2H 6D 7D 8D 4S"]
    tricks = [(0, "9H 8H"), (0, "3C 6D"), (0, "4C 7D"), (0, "5C 8D")]
    base = deal_position(hands, tricks)
    must = deal_position(hands, tricks, rules="follow=suit")
    assert reference.solve(base) == solve_value(base) == 1
    assert reference.solve(must) == solve_value(must) == 2
    assert solve(must).best == parse_cards("TS")


def test_jack_as_only_trump_is_three_points():
    """The only trump in play is the jack: High, Low and Jack go to whoever wins it."""
    hands = ["JH AS 2C 3C 4C 5C", "KS 6C 7C 8C 9C 2D"]
    pos = deal_position(hands, [])
    s = solve(pos)
    assert s.cards[parse_cards("JH")[0]] == 3 + 1  # and Game: AS, KS, JH are all his
    assert reference.card_values(pos) == s.cards


def test_points_already_decided_count():
    """High and Low (the only trumps) captured in trick 1: with the ace's 4 for Game, 3."""
    hands = ["AH 3C 4C 5C 6C 7C", "2H 8D 9D 2S 3S 4S"]
    pos = deal_position(hands, [(0, "AH 2H")])
    assert solve_value(pos) == reference.solve(pos) == 3


def test_low_dealt_goes_to_its_holder():
    """Low under low = dealt belongs to whoever was dealt it, whoever captures it."""
    hands = ["AH KH 3C 4C 5C 6C", "2H 8D 9D 2S 3S 4S"]
    captured = deal_position(hands, [])
    dealt = deal_position(hands, [], rules="low=dealt")
    ace = parse_cards("AH")[0]
    assert solve(captured).cards[ace] == 3  # the ace draws the 2H: High, Low, Game (no jack)
    assert solve(dealt).cards[ace] == 2
    # A club lead makes clubs trump, all of them his: 3 under either rule.
    assert solve_value(captured) == solve_value(dealt) == 3


def test_partnership_pools_points():
    """Seats 0 and 2 hold every trump and every trick is theirs: all 4 points to the team.
    Solo, seat 2 is an opponent who can keep the 10S for Game with a club trick."""
    hands = ["AH KH QH 2C 3C 4C", "2D 3D 4D 5D 6D 7D", "JH 9H 3H TS 8C 9C", "2S 3S 4S 5S 6S 7S"]
    team = deal_position(hands, [], partnership=True)
    solo = deal_position(hands, [])
    assert solve_value(team) == 4
    assert solve_value(solo) < 4


def test_finished_hand_is_its_score():
    rng = random.Random(7)
    pos = random_position(rng, 3, Rules(), 0)
    assert pos.finished and solve_value(pos) == pos.points() == solve(pos).value
    assert solve(pos).cards == {}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_the_minimax_plays_a_base_position_as_auction_pitch(n):
    """The reference minimax (search/minimax.py) solves a base position as the
    auction-pitch preset's state (``Position.state``), stepped by the family reference engine:
    along random play from the opening lead, the two reference engines agree card by
    card on who plays and what is legal, and at the end on the pitcher's side's points
    (low=dealt and partnership included: the deal and the sides must carry over)."""
    rng = random.Random(f"as-auction-pitch-{n}")
    for rules in cases(n):
        for _ in range(4):
            deck = list(range(52))
            rng.shuffle(deck)
            dealt = [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]
            pos = start_position(dealt, rng.randrange(n), rules)
            st = pos.state
            while not pos.finished:
                assert (st.to_play(), st.legal()) == (pos.to_play, pos.legal())
                c = rng.choice(cards_of(pos.legal()))
                pos, st = pos.play(c), st.play(c)
                assert pos.state == st
            assert st.leader is None and st.points() == pos.points(), (rules, pos.to_json())


# --- pitchsim solve ---------------------------------------------------------------------


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as e:
        main(list(argv))
    out, err = capsys.readouterr()
    return e.value.code, out, err


TRUMPING = {
    "players": 2,
    "pitcher": 0,
    "bid": 2,
    "hands": [["9H", "3C", "4C", "5C", "TS", "3S"], ["8H", "2H", "6D", "7D", "8D", "4S"]],
    "tricks": [
        {"leader": 0, "cards": c} for c in (["9H", "8H"], ["3C", "6D"], ["4C", "7D"], ["5C", "8D"])
    ],
    "winner": 0,
    "rules": {},
}


def test_cli_json_and_text(capsys, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(TRUMPING))
    code, out, _ = run(capsys, "solve", str(path), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["to_play"] == 0 and doc["value"] == 1 and doc["cards"] == {"3S": 1, "TS": 1}
    assert doc["made"] is False
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 0 and "Value: 1" in out and "seat 0" in out and "best" in out.lower()


def test_cli_list_from_stdin(capsys, monkeypatch):
    docs = [TRUMPING, {**TRUMPING, "rules": "follow=suit"}]
    code, out, _ = run(
        capsys, "solve", "-", "--json", stdin=json.dumps(docs), monkeypatch=monkeypatch
    )
    assert code == 0
    assert [d["value"] for d in json.loads(out)] == [1, 2]


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not JSON"),
        ('{"players": 2}', "no 'pitcher'"),
        (json.dumps({**TRUMPING, "hands": TRUMPING["hands"][:1]}), "one hand per seat"),
        (json.dumps({**TRUMPING, "tricks": [{"leader": 1, "cards": ["9H"]}]}), "led by seat 1"),
    ],
)
def test_cli_bad_input(capsys, monkeypatch, text, message):
    code, out, err = run(capsys, "solve", "-", stdin=text, monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert err.startswith("pitchsim: error: ") and message in err and err.count("\n") == 1


def test_cli_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "solve", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json" in err and err.count("\n") == 1


def test_batch_of_whole_deals_equals_one_by_one():
    import numpy as np

    from pitchsim.kernels.search import solver as kernel

    rng = random.Random(11)
    for n, rules in ((3, Rules()), (4, Rules(partnership=True, follow="suit"))):
        deals = []
        for _ in range(40):
            deck = list(range(52))
            rng.shuffle(deck)
            deals.append([mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)])
        pitchers = np.array([d % n for d in range(len(deals))], dtype=np.int64)
        batch = kernel.solve_deals(np.array(deals, dtype=np.int64), pitchers, rules_array(rules))
        one = [
            solve_value(start_position(d, int(p), rules))
            for d, p in zip(deals, pitchers, strict=True)
        ]
        assert list(batch) == one


def test_racing_leads_is_the_best_lead_value():
    """A whole deal's value races the opening leads under node budgets (searches given up
    and resumed); it must equal the best of every lead's exact value (``card_values``,
    which solves each lead in full), on 5-player deals where searches are given up."""
    import numpy as np

    from pitchsim.kernels.search import solver as kernel

    rng = random.Random(19)
    gave_up = 0
    for rules in (Rules(), Rules(follow="suit", low="dealt")):
        arr = rules_array(rules)
        for d in range(30):
            deck = list(range(52))
            rng.shuffle(deck)
            deal = np.array([mask_of(deck[6 * s : 6 * s + 6]) for s in range(5)], dtype=np.int64)
            won = np.zeros(5, dtype=np.int64)
            trick = np.zeros(5, dtype=np.int64)
            out = np.empty(52, dtype=np.int64)
            pitcher = d % 5
            table = kernel.new_table()
            every = kernel.card_values(deal, won, deal, 5, pitcher, trick, 0, -1, pitcher, arr,
                                       kernel.new_table(), out)  # fmt: skip
            value = kernel.solve_position(deal, won, deal, 5, pitcher, trick, 0, -1, pitcher, arr,
                                          table)  # fmt: skip
            assert value == every == out.max(), (rules, d)
            gave_up += table[0, 3]
    assert gave_up > 0  # the budgets ran out somewhere: resuming was exercised


def test_relative_ranks_keep_every_order_and_scoring_card():
    """The table's key renames plain cards: per suit, the cards still held must keep their
    order and holders, and every scoring card its own name (else positions that play
    differently would share an entry)."""
    import numpy as np

    from pitchsim.kernels.bits import HONOURS
    from pitchsim.kernels.search.ranks import relative_hands

    def pattern(hands, worth):
        out = []
        for suit in range(4):
            seq = []
            for c in range(13 * suit, 13 * suit + 13):
                for s, h in enumerate(hands):
                    if h >> c & 1:
                        seq.append((s, c if worth >> c & 1 else None))
            out.append(seq)
        return out

    rng = random.Random(5)
    rel = np.zeros(7, dtype=np.int64)
    for _ in range(300):
        n = rng.randrange(2, 8)
        deck = list(range(52))
        rng.shuffle(deck)
        dealt = [deck[6 * s : 6 * s + 6] for s in range(n)]
        in_play = [c for h in dealt for c in h]
        trump = rng.randrange(4)
        trumps = [c for c in in_play if c // 13 == trump] or [13 * trump + rng.randrange(13)]
        high, low = max(trumps), min(trumps)
        worth = HONOURS | (1 << high) | (1 << low) | (1 << (13 * trump + 9))
        left = rng.randrange(1, 7)
        hands = [mask_of(rng.sample(h, left)) for h in dealt]
        rest = 0
        for h in hands:
            rest |= h
        arr = np.array(hands, dtype=np.int64)
        relative_hands(arr, n, np.int64(rest), np.int64(worth), trump, low % 13, rel)
        renamed = [int(x) for x in rel[:n]]
        assert sum(bin(h).count("1") for h in renamed) == n * left  # no two cards merged
        assert pattern(renamed, worth) == pattern(hands, worth)


def in_trick_bounds(pos):
    """The kernel's bounds (points sure, points possible) for a position inside a trick."""
    import numpy as np

    from pitchsim.kernels.bits import game_count
    from pitchsim.kernels.search import solver as k
    from pitchsim.search.double_dummy import kernel_args

    hands, won, dealt, n, leader, trick, tl, trump, pitcher, rules = kernel_args(pos)
    ctx = np.zeros(k._CTX, dtype=np.int64)
    k._setup(ctx, dealt, n, pitcher, trump, rules, k.AUCTION_PITCH, -1)
    counts = np.zeros(k.MAX_SEATS, dtype=np.int64)
    pts = ctx[k.C_BASE]
    for s in range(n):
        counts[k._slot(s, ctx)] += game_count(won[s])
        if pos.pitcher_side(s):
            pts += k._roles(won[s], ctx)
    led, win_card, win_seat, taken = trick[0] // 13, -1, -1, 0
    for j in range(tl):
        c = int(trick[j])
        if j == 0 or k._strength(c, led, ctx) > k._strength(win_card, led, ctx):
            win_card, win_seat = c, (leader + j) % n
        taken |= 1 << c
    rest = taken
    for h in hands:
        rest |= int(h)
    lo, hi, _ = k._trick_bounds(
        hands,
        counts,
        ctx,
        np.int64(rest),
        pts,
        tl,
        (leader + tl) % n,
        leader,
        led,
        win_card,
        win_seat,
        np.int64(taken),
    )
    return lo, hi


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_in_trick_bounds_hold_the_value(n):
    """Inside a trick the solver bounds the value before searching: the exact value (the
    reference's) must lie within them, for every rule variant, 1-2 tricks left."""
    for rules in cases(n):
        rng = random.Random(f"bounds-{n}-{rules}")
        checked = 0
        while checked < 60:
            pos = random_position(rng, n, rules, rng.randrange(1, 2 * n + 1))
            if not pos.trick:
                continue
            lo, hi = in_trick_bounds(pos)
            assert lo <= reference.solve(pos) <= hi, pos.to_json()
            checked += 1


def test_gather_packs_the_masked_bits_in_order():
    """``gather`` (pext where the CPU has BMI2) and its portable loop against the
    definition, on random 52-bit masks and the edge cases."""
    import random

    from pitchsim.kernels.bits import gather, gather_loop

    def reference(src, mask):
        bits = [src >> i & 1 for i in range(64) if mask >> i & 1]
        return sum(b << k for k, b in enumerate(bits))

    rng = random.Random(5)
    cases = [(0, 0), (-1 & (1 << 52) - 1, 0), (0b1011, 0b1111), (1 << 51, (1 << 52) - 1)]
    cases += [(rng.getrandbits(52), rng.getrandbits(52)) for _ in range(2000)]
    for src, mask in cases:
        want = reference(src, mask)
        assert gather(src, mask) == want == gather_loop(src, mask), (src, mask)


def _ordered_moves(hands_text, seat, trick_text, leader, n, pitcher, trump, secure):
    """The moves ``_moves`` offers the seat to play into a trick, in order (card numbers)."""
    import numpy as np

    from pitchsim.kernels.search import solver as kernel

    hands = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
    for s, text in enumerate(hands_text):
        hands[s] = mask_of(parse_cards(text))
    trick = parse_cards(trick_text)
    dealt = hands.copy()
    for j, c in enumerate(trick):
        dealt[(leader + j) % n] |= 1 << c
    ctx = np.zeros(kernel._CTX, dtype=np.int64)
    kernel._setup(ctx, dealt, n, pitcher, trump, rules_array(Rules()), kernel.AUCTION_PITCH, -1)
    ctx[kernel.C_SECURE_ORDER] = secure  # 0: the plain order (as at 4 players)
    led = trick[0] // 13
    win = max(trick, key=lambda c: c % 13 + 16 * (c // 13 == led) + 32 * (c // 13 == trump))
    taken = mask_of(trick)
    hand = int(hands[seat])
    follow = hand & sum(1 << c for c in range(13 * led, 13 * led + 13))
    legal = (
        hand
        if follow == 0
        else follow | (hand & sum(1 << c for c in range(13 * trump, 13 * trump + 13)))
    )
    buf = np.zeros((kernel._MAX_DEPTH, 2 * kernel._MOVES), dtype=np.int64)
    unplayed = int(np.bitwise_or.reduce(hands[:n])) | taken
    args = (legal, unplayed, ctx, seat, len(trick), led, win, (leader + trick.index(win)) % n,
            taken, buf, 0)  # fmt: skip
    count = (
        kernel._safe_moves(hands, *args[:4], leader, *args[4:]) if secure else kernel._moves(*args)
    )
    return [int(c) for c in buf[0, :count]]


@pytest.mark.parametrize(
    "pitcher_hand, first", [("AH 2C 3C 4C 5C", "2H"), ("2C 3C 4C 5C 6C", "TH")]
)
def test_safe_trick_gets_the_count_and_an_unsafe_one_nothing(pitcher_hand, first):
    """5 players, spades trump, the pitcher (seat 0) plays last; defender 1 led KH and
    defender 2 holds QH TH 2H.  If the pitcher holds AH he can take the trick: feeding
    it the ten is the worst card, the 2 the first to try.  If he can neither follow nor
    trump, the trick is the defenders' whatever happens: the ten goes in first.  (The
    order without the safety test feeds the ten in both.)"""
    hands = [pitcher_hand, "7C 8C 9C TC", "QH TH 2H 2D 3D", "3S 4D 5D 6D", "7D 8D 9D JD"]
    moves = _ordered_moves(hands, 2, "KH", 1, 5, 0, 3, 1)
    assert moves[0] == parse_cards(first)[0]
    assert sorted(moves) == sorted(parse_cards("QH TH 2H"))
    assert _ordered_moves(hands, 2, "KH", 1, 5, 0, 3, 0)[0] == parse_cards("TH")[0]


def test_safe_order_offers_the_same_moves():
    """Ordering by safety only reorders: the same moves as the plain order, at every
    seat of random 5-7 player tricks."""
    import numpy as np

    from pitchsim.kernels.search import solver as kernel

    rng = random.Random(23)
    arr = rules_array(Rules())
    checked = 0
    for _ in range(300):
        n = rng.randrange(5, 8)
        deck = list(range(52))
        rng.shuffle(deck)
        hands = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
        for s in range(n):
            hands[s] = mask_of(deck[6 * s : 6 * s + 6])
        dealt = hands.copy()
        trump, leader, pitcher = rng.randrange(4), rng.randrange(n), rng.randrange(n)
        i = rng.randrange(1, n)
        taken = 0
        led = win = win_seat = -1
        for j in range(i):  # a random trick so far (a random card of each hand)
            seat = (leader + j) % n
            c = rng.choice([c for c in range(52) if hands[seat] >> c & 1])
            hands[seat] &= ~(1 << c)
            taken |= 1 << c
            if j == 0:
                led = c // 13
            st = c % 13 + 16 * (c // 13 == led) + 32 * (c // 13 == trump)
            if j == 0 or st > win % 13 + 16 * (win // 13 == led) + 32 * (win // 13 == trump):
                win, win_seat = c, seat
        seat = (leader + i) % n
        legal = int(hands[seat])
        unplayed = int(np.bitwise_or.reduce(hands[:n])) | taken
        got = []
        for secure in (0, 1):
            ctx = np.zeros(kernel._CTX, dtype=np.int64)
            kernel._setup(ctx, dealt, n, pitcher, trump, arr, kernel.AUCTION_PITCH, -1)
            ctx[kernel.C_SECURE_ORDER] = secure
            buf = np.zeros((kernel._MAX_DEPTH, 2 * kernel._MOVES), dtype=np.int64)
            args = (legal, unplayed, ctx, seat, i, led, win, win_seat, taken, buf, 0)
            count = (
                kernel._safe_moves(hands, *args[:4], leader, *args[4:])
                if secure
                else kernel._moves(*args)
            )
            got.append(sorted(buf[0, :count].tolist()))
        assert got[0] == got[1] and len(got[0]) > 0
        checked += 1
    assert checked == 300
