"""``epimc`` (kernels/search/epimc.py): pimc with the seat's next decision made once for
the worlds it cannot tell apart then (EPIMC at depth 2), a play policy under every
preset.

Checked here:

- invariants: with one world, or every world the same deal (nothing hidden from the
  seat's view of them), each card's value is pimc's (the solver's line is minimax, so the
  best next card in a world is worth the value after the card: docs/rules.md 0.5-0.9 as
  the solver plays them); on sampled worlds a card is never worth more to the seat's
  side than pimc says, and a game of ``epimc:1`` seats is the game of ``pimc:1`` seats;
- a hand-built position where pimc is misled by strategy fusion and epimc is not
  (worked out in ``test_epimc_sees_the_guess_pimc_fuses``);
- the policy's name, id and kernels (``epimc``, ``epimc:W``, ``epimc:W:read``).
"""

from __future__ import annotations

import numpy as np
import pytest
from preset_path import AP_PRESET
from test_presets_pimc import _late_positions

from pitchsim.game.cards import parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels.partner import hand_side
from pitchsim.kernels.policies import EPIMC
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search.epimc import epimc_outcomes, group_worlds
from pitchsim.kernels.search.monte_carlo import choose_by_outcomes
from pitchsim.kernels.search.rollout import pimc_outcomes
from pitchsim.kernels.search.worlds import ATTEMPTS_PER_WORLD, sample_worlds, world_constraint
from pitchsim.table.boards import board_tournament, seat_ids, strategy_for
from pitchsim.table.policies import play_policy, policy_name

SPECS = [AP_PRESET, "smear", "ten-point", "setback", "ten-point,partnership=false"]


def _arrays(pos, n):
    r, fr, tab, held, hands, won, trump, leader, trick, tseats, seat, t, pby, pitcher, legal = pos
    tr = np.zeros(n, np.int64)
    ts = np.zeros(n, np.int64)
    tr[: len(trick)] = trick
    ts[: len(tseats)] = tseats
    cards = np.array([c for c in range(54) if legal >> c & 1], np.int64)
    played = 0
    for s in range(n):
        played |= int(pby[s])
    for c in trick:
        played &= ~(1 << c)  # the complete tricks' cards only
    return dict(
        fr=fr, tab=tab, hands=list(hands), won=np.array(won, np.int64), trump=trump, tr=tr,
        ts=ts, count=len(trick), seat=seat, t=t, pby=np.array(pby, np.int64), pitcher=pitcher,
        cards=cards, played=played, legal=legal,
    )  # fmt: skip


def _both(a, worlds, n, bid=0, ours=True):
    """(epimc's out, pimc's out) on ``worlds``."""
    kw = worlds.shape[0]
    pe = np.zeros((a["cards"].size, kw), np.int64)
    pp = np.zeros((a["cards"].size, kw), np.int64)
    done, _ = epimc_outcomes(
        worlds, a["cards"], a["seat"], n, a["pitcher"], bid, ours, a["trump"], a["t"], a["tr"],
        a["ts"], a["count"], a["played"], a["won"], a["pby"], a["fr"], a["tab"], pe, 0, -1,
        False,
    )  # fmt: skip
    assert done == kw
    done, _ = pimc_outcomes(
        worlds, a["cards"], a["seat"], n, a["pitcher"], a["trump"], a["tr"], a["ts"],
        a["count"], a["won"], a["pby"], a["fr"], a["tab"], pp, 0, -1,
    )  # fmt: skip
    assert done == kw
    return pe, pp


@pytest.mark.parametrize("spec", SPECS)
def test_one_world_or_identical_worlds_is_pimc(spec):
    """The true deal as the only world, and three copies of it: epimc's value of every
    card is pimc's (the solver's minimax value after it).  A group's next card chosen
    other than the best for the seat's side, values read off the wrong card or world, or
    an opponent's reply that is not the solver's best, give another value."""
    n = 5 if "partnership=false" in spec else 4
    checked = 0
    for pos in _late_positions(spec, n, 4, 30, seed=31):
        a = _arrays(pos, n)
        ours = bool(
            hand_side(a["seat"], a["pitcher"], -1, a["fr"])
            == hand_side(a["pitcher"], a["pitcher"], -1, a["fr"])
        )
        for kw in (1, 3):
            worlds = np.zeros((kw, n + 1), np.int64)
            worlds[:, :n] = a["hands"]
            for bid in (0, 2):
                pe, pp = _both(a, worlds, n, bid, ours)
                assert np.array_equal(pe, pp), (spec, pos, kw, bid)
        checked += 1
        if checked == 10:
            break
    assert checked == 10


def _sampled(a, n, kw, seed):
    """``kw`` worlds drawn from the seat's knowledge at a logged position (voids not
    read: every unseen card anywhere the sizes allow)."""
    seat = a["seat"]
    hand = np.int64(a["hands"][seat])
    counts = np.zeros(n + 1, np.int64)
    for s in range(n):
        counts[s] = bin(int(a["hands"][s])).count("1")
    allowed = np.empty(n + 1, np.int64)
    unseen, must = world_constraint(
        n, seat, hand, np.int64(0), np.zeros(n, np.int64), a["pby"], np.int64(0), counts,
        a["trump"], a["fr"], a["tab"], allowed,
    )  # fmt: skip
    worlds = np.zeros((kw, n + 1), np.int64)
    kept, _ = sample_worlds(
        np.uint64(seed), n, seat, hand, unseen, counts, allowed, must, worlds,
        ATTEMPTS_PER_WORLD * kw,
    )  # fmt: skip
    return worlds[:kept]


@pytest.mark.parametrize("spec", [AP_PRESET, "smear"])
def test_epimc_never_credits_the_seat_more_than_pimc(spec):
    """On worlds sampled from the seat's knowledge, each card's value in each world is
    pimc's or worse for the seat's side (a group's one next card is worth at most each
    world's best), and worse somewhere (else nothing here tests the grouping): a group
    that took each world's best again, or the worst, breaks one of the two."""
    n = 3  # (at 3 players the seat's next decision follows two cards: groups form)
    worse = 0
    seen = 0
    for i, pos in enumerate(_late_positions(spec, n, 6, 60, seed=5)):
        a = _arrays(pos, n)
        worlds = _sampled(a, n, 16, 100 + i)
        if worlds.shape[0] < 2:
            continue
        ours = a["seat"] == a["pitcher"]  # solo: the pitcher's side is the pitcher
        pe, pp = _both(a, worlds, n, 0, ours)
        if ours:
            assert (pe <= pp).all(), (spec, pos)
            worse += int((pe < pp).sum())
        else:
            assert (pe >= pp).all(), (spec, pos)
            worse += int((pe > pp).sum())
        seen += 1
        if seen == 40:
            break
    assert seen == 40
    assert worse > 0


@pytest.mark.parametrize("spec", [AP_PRESET, "ten-point"])
def test_epimc_with_one_world_plays_pimcs_game(spec):
    """A tournament of ``epimc:1`` seats is, board for board, the one of ``pimc:1`` seats
    (one world: the same values, so the same card at every decision)."""
    r = Rules.parse(spec)
    got = []
    for play in ("epimc:1", "pimc:1"):
        chosen = [strategy_for(f"heuristic+{play}", r), strategy_for("heuristic", r)]
        res = board_tournament(chosen, 4, 2, r, seed=4, threads=1)
        got.append((res.wins.copy(), res.score_sum.copy()))
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])


def test_epimc_is_a_search_policy_with_the_solver():
    p = play_policy("epimc")
    assert p.name == "epimc" and p.worlds == 16 and p.id & 0xFF == EPIMC
    assert play_policy("EPIMC:8").name == "epimc:8"
    assert policy_name(play_policy("epimc:8:read").id) == "epimc:8:read"
    r = Rules.parse("smear")
    _, ids = seat_ids([strategy_for("heuristic+epimc:4", r), strategy_for("heuristic", r)])
    assert ids.dtype == np.int32  # the kernels with the solver (not uint32: rollout alone)


def _cards(text: str) -> int:
    m = 0
    for c in parse_cards(text, False):
        m |= 1 << c
    return m


# Two players, trump named spades (auction-pitch, trump=named: 6.3), seat 0 the
# pitcher, aiming at points (bid 0).  Trick 1: seat 0 led 8D, seat 1 played 2H (void in
# diamonds: no world gives him one) and seat 0 took both.  Seat 0 now holds 6D JS AS
# and leads; seat 1 holds 5S and two of 4S KS JC QH (the six worlds, all he can hold).
FUSION_RULES = "auction-pitch,trump=named"
FUSION_HAND = "6D JS AS"
FUSION_WORLDS = ["4S KS", "4S JC", "4S QH", "KS JC", "KS QH", "JC QH"]


def test_epimc_sees_the_guess_pimc_fuses():
    """Worked by hand (0.5, 0.7, 0.8; the play: a trump may be played at any time, a
    trump lead must be followed by a trump).  AS is High, so seat 0's whatever he does;
    Low is 4S or 5S (the lowest spade in play), Jack is seat 0's JS unless KS takes it;
    Game: seat 0 has won no count yet, seat 1 may take KS (3), JC (1), QH (2) and JS (1).

    Lead 6D now: seat 1 may trump it or not, and seat 0 keeps AS JS to draw both his
    spades; the solver gives 3 in every world (High, Low or Jack, Game): 18 in all.

    Lead AS now: seat 1 follows with a spade.  Holding 5S with KS or 4S he keeps the
    other (the solver: 5S best, or 4S and 5S alike with 4S, where the heuristic plays
    5S), and with JC QH 5S is all he has: in all six worlds seat 0 sees 5S.  Then
    seat 0 leads again from 6D JS, not knowing which spade seat 1 kept:
    - JS next: it draws 4S (Jack and Low: 4 with 4S JC, 4S QH; with JC QH 4, nothing
      left to lose), but KS takes it (2 with KS JC, KS QH; 1 with 4S KS);
    - 6D next: seat 1 trumps with 4S and keeps Low (3 with 4S JC, 4S QH), or with KS
      leaves JS to win the last trick (3 with KS JC, KS QH; 1 with 4S KS; 4 with JC QH).
    Each is 17 over the six worlds, less than 6D's 18.  pimc credits AS with the best
    next card of each world, 1 + 4 + 4 + 3 + 3 + 4 = 19, and leads it (strategy fusion);
    epimc values AS at 17 and leads 6D.  A grouping that kept worlds apart (each its own
    best next card), or took the worst next card, or a world's values off another card,
    leads AS or values it otherwise."""
    r = Rules.parse(FUSION_RULES)
    fr, tab = rules_array(r), rules_table(r)
    n, seat, pitcher, trump = 2, 0, 0, 3
    hand = _cards(FUSION_HAND)
    worlds = np.array([[hand, _cards("5S " + x), 0] for x in FUSION_WORLDS], dtype=np.int64)
    pby = np.array([_cards("8D"), _cards("2H")], np.int64)
    won = np.array([_cards("8D 2H"), 0], np.int64)
    cards = np.array(sorted(parse_cards(FUSION_HAND, False)), np.int64)  # 6D JS AS
    tr = np.zeros(n, np.int64)
    kw = len(FUSION_WORLDS)
    pe = np.zeros((3, kw), np.int64)
    pp = np.zeros((3, kw), np.int64)
    args = (tr, tr, 0)
    epimc_outcomes(
        worlds, cards, seat, n, pitcher, 0, True, trump, 1, *args, _cards("8D 2H"), won, pby,
        fr, tab, pe, 0, -1, False,
    )  # fmt: skip
    pimc_outcomes(worlds, cards, seat, n, pitcher, trump, *args, won, pby, fr, tab, pp, 0, -1)
    six_d, _, ace = (int(c) for c in cards)
    assert list(pp[0]) == [3] * 6 and list(pe[0]) == [3] * 6  # 6D: 18 either way
    assert list(pp[2]) == [1, 4, 4, 3, 3, 4]  # AS by pimc: 19
    assert pe[2].sum() == 17 and list(pe[2]) in ([1, 4, 4, 2, 2, 4], [1, 3, 3, 3, 3, 4])
    assert choose_by_outcomes(cards, pp, kw, True, 0, six_d) == ace
    assert choose_by_outcomes(cards, pe, kw, True, 0, ace) == six_d


def test_worlds_are_grouped_by_what_the_seat_saw():
    """``group_worlds``: worlds share a group exactly when the cards played between the
    seat's two decisions, and who played them, are the same, in the same order; a world
    without a choice there is in none.  (One group for all, or a group a world, breaks
    it; the fusion test above needs the grouping too.)"""
    code = lambda card, seat: 8 * card + seat  # noqa: E731
    seen = np.zeros((6, 4), np.int64)
    lens = np.array([2, 2, 2, 3, 2, 2], np.int64)
    seen[0, :2] = [code(5, 1), code(9, 2)]
    seen[1, :2] = [code(5, 1), code(9, 2)]  # = world 0
    seen[2, :2] = [code(9, 2), code(5, 1)]  # the same cards in another order
    seen[3, :3] = [code(5, 1), code(9, 2), code(7, 3)]  # one more card seen
    seen[4, :2] = [code(5, 2), code(9, 1)]  # the same cards, other seats
    seen[5, :2] = [code(5, 1), code(9, 2)]  # = world 0, but no choice left
    legal = np.array([6, 6, 6, 6, 6, 0], np.int64)
    label = np.empty(6, np.int64)
    cut = np.zeros(6, np.int64)
    groups = group_worlds(seen, lens, cut, legal, 6, label)
    assert groups == 4
    assert label[0] == label[1] >= 0 and label[5] == -1
    assert len({int(label[w]) for w in (0, 2, 3, 4)}) == 4
    assert group_worlds(seen, lens, cut, legal, 2, label) == 1  # only the worlds done
    # the coarse grouping (measurement only): entries before ``cut`` (the trick completed
    # in between) are not compared, the next decision's trick is
    two = np.zeros((2, 4), np.int64)
    two[0, :3] = [code(5, 1), code(9, 2), code(7, 3)]
    two[1, :3] = [code(6, 1), code(8, 2), code(7, 3)]
    lens2 = np.array([3, 3], np.int64)
    legal2 = np.array([6, 6], np.int64)
    assert group_worlds(two, lens2, np.array([2, 2], np.int64), legal2, 2, label) == 1
    assert group_worlds(two, lens2, np.array([0, 0], np.int64), legal2, 2, label) == 2
    two[1, 2] = code(7, 0)
    assert group_worlds(two, lens2, np.array([2, 2], np.int64), legal2, 2, label) == 2
