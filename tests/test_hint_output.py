"""hint's written answer and its edges (issue 22's mutation run over search/hint.py:
its survivors were these): P(make) read at the bid, the auction block of the JSON under
its names, as few worlds as asked all fitting the calls, and the refusals of a view
with nobody to play.  Small rollouts only (5 worlds)."""

import math
from pathlib import Path

import pytest

from pitchsim.game.view import View, read_view
from pitchsim.search.hint import CardHint, Hint, HintError, hint_view, view_worlds
from pitchsim.table.decide import view_knowledge

LEAD = read_view(str(Path(__file__).resolve().parent.parent / "examples" / "views" / "lead.json"))


def test_p_make_is_the_chance_of_reaching_the_bid():
    c = CardHint(5, 2.0, None, (0.9, 0.7, 0.4, 0.1), None, (0.0, None))
    h = Hint(1, 1, True, 3, 2, "pimc", 10, 10, 1, [c], 5)
    assert h.p_make(c) == 0.4  # at least 3 points
    assert Hint(1, 1, True, None, 2, "pimc", 10, 10, 1, [c], 5).p_make(c) is None


def test_as_few_worlds_as_asked_all_fit_the_calls():
    h = hint_view(LEAD, "rollout", 5, seed=3)
    assert h.auction.fitted and h.auction.kept == 5 and h.worlds == 5
    doc = h.to_json()["auction"]
    assert doc == {
        "model": "odds",
        "fitted": True,
        "fitting_worlds": 5,
        "attempts": h.auction.attempts,
        "acceptance_rate": pytest.approx(5 / h.auction.attempts),
        "note": h.auction.note,
    }
    assert h.auction.attempts >= 5


def test_worlds_that_ignore_the_calls_still_name_the_model():
    h = hint_view(LEAD, "rollout", 5, seed=3, model="heuristic", fit_calls=False)
    assert h.auction.model == "heuristic" and not h.auction.fitted
    assert h.to_json()["auction"]["model"] == "heuristic"
    assert h.auction.note == (
        "the worlds fit the play and the draw seen, not the calls heard (as asked)"
    )
    # Nothing seen constrains the hidden cards at the opening lead: no world is thrown
    # back, so as many are drawn as valued.
    assert (h.worlds, h.attempts) == (5, 5)


def test_a_view_with_nobody_to_play_is_refused_in_words():
    base = {"players": 4, "seat": 1, "dealer": 3, "hand": ["AH", "KH", "2H", "9C", "7D", "3S"]}
    cases = [
        (
            {"calls": ["pass"] * 4, "rules": "all-pass=redeal"},
            "everybody passed: the hand was thrown in",
        ),
        ({"calls": ["pass"]}, "the auction is on: ask `pitchsim advise` for seat 1's call"),
    ]
    for extra, line in cases:
        with pytest.raises(HintError) as e:
            hint_view(View.from_json(base | extra), "rollout", 5, seed=1)
        assert str(e.value) == line


FOLLOW = read_view(
    str(Path(__file__).resolve().parent.parent / "examples" / "views" / "follow.json")
)


@pytest.mark.parametrize("fit_calls", [True, False])
def test_worlds_deal_every_seat_six_cards_that_fit_the_play(fit_calls):
    # (follow.json's calls fit no world under the preset kernels' odds model: its pitcher
    # bid 3 where that model bids 2; the generated views of test_hint_view fit)
    for view in (LEAD,) if fit_calls else (LEAD, FOLLOW):
        model = "odds" if fit_calls else None
        worlds, attempts = view_worlds(view, 30, 1, model)
        assert 0 < len(worlds) <= 30 and attempts >= len(worlds)
        played = view.played_by
        pby = view_knowledge(view).pby
        assert list(pby) == list(played)  # (a cross-check of the seat's knowledge)
        for dealt in (worlds[:, : view.players] | pby).tolist():
            assert dealt[view.seat] == view.hand_mask
            seen = 0
            for s in range(view.players):
                assert dealt[s] & played[s] == played[s]  # what it played, it held
                assert dealt[s].bit_count() == 6 and not dealt[s] & seen
                seen |= dealt[s]
                for suit in range(4):
                    if view.voids >> (4 * s + suit) & 1:  # no card of a suit shown void
                        assert not (dealt[s] & ~played[s]) >> (13 * suit) & 0x1FFF
        # The seed draws the worlds: another seed, other worlds.
        other, _ = view_worlds(view, 30, 2, model)
        assert worlds.tolist() != other.tolist()


def test_the_json_of_a_hint_names_every_number():
    a = CardHint(
        51,
        2.5,
        (2.0, 3.0),
        (0.9, 0.7, 0.4, 0.1),
        ((0.8, 1.0), (0.6, 0.8), (0.3, 0.5), (0.0, 0.2)),
        (0.0, 0.1),
    )
    b = CardHint(0, 1.5, None, (0.5, 0.25, 0.0, 0.0), None, (-1.0, None))
    h = Hint(
        1,
        3,
        False,
        2,
        0,
        "rollout",
        40,
        41,
        9,
        [a, b],
        51,
        stop="separated",
        asked=40,
        ties=(0,),
        worlds_max=200,
        time=4.0,
        default_policy=True,
    )
    assert h.to_json() == {
        "to_play": 1,
        "pitcher": 3,
        "pitcher_side": False,
        "bid": 2,
        "trump": "C",
        "policy": "rollout",
        "worlds": 40,
        # the clock's fields (issue 19, docs/search.md)
        "worlds_max": 200,
        "stop": "separated",
        "same_answer_with_worlds": 40,
        "time_budget": 4.0,
        "default_policy": True,
        "ties": ["2C"],
        "worlds_dropped": 0,  # pimc's world the clock stopped inside (not counted)
        "fallback": None,  # why the policy is not the one asked for
        "attempts": 41,
        "seed": 9,
        "recommended": "AS",
        "cards": [
            {
                "card": "AS",
                "points": 2.5,
                "points_ci95": [2.0, 3.0],
                "p_at_least": {"1": 0.9, "2": 0.7, "3": 0.4, "4": 0.1},
                "p_at_least_ci95": {
                    "1": [0.8, 1.0],
                    "2": [0.6, 0.8],
                    "3": [0.3, 0.5],
                    "4": [0.0, 0.2],
                },
                "points_vs_recommended": [0.0, 0.1],
                "p_make": 0.7,
                "p_make_ci95": [0.6, 0.8],
            },
            {
                "card": "2C",
                "points": 1.5,
                "points_ci95": None,
                "p_at_least": {"1": 0.5, "2": 0.25, "3": 0.0, "4": 0.0},
                "p_at_least_ci95": {"1": None, "2": None, "3": None, "4": None},
                "points_vs_recommended": [-1.0, None],
                "p_make": 0.25,
                "p_make_ci95": None,
            },
        ],
    }
    # No bid (a position without an auction): no P(make); trump not yet led: null.
    doc = Hint(1, 3, False, None, -1, "pimc", 40, 40, 9, [b], 0).to_json()
    assert "p_make" not in doc["cards"][0] and doc["trump"] is None and "auction" not in doc


Z = 1.959963984540054


def wilson(k, n):
    p = k / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def test_every_number_of_a_hint_recounted_from_its_worlds(monkeypatch):
    """The per-world points of every card, caught as the kernel returns them, recounted
    in plain Python: the mean and its interval, P(>= k) and their Wilson intervals, the
    difference from the recommended card and its half-width."""
    import pitchsim.search.hint as hint_module

    real = hint_module.rollout_points
    rows = []

    def caught(*args):
        real(*args)  # fills out[card, world] for every world given
        cards, out = args[1], args[-2]  # then the called card (-1: none)
        rows.append(([int(c) for c in cards], out.tolist()))

    monkeypatch.setattr(hint_module, "rollout_points", caught)
    h = hint_view(LEAD, "rollout", 30, seed=3, fit_calls=False)
    assert h.policy == "rollout" and h.to_json()["policy"] == "rollout"
    cards = rows[0][0]
    pts = {c: sum((r[1][i] for r in rows), []) for i, c in enumerate(cards)}
    n = len(pts[cards[0]])
    assert n == h.worlds == 30
    best = pts[h.recommended]
    for ch in h.cards:
        x = pts[ch.card]
        m = sum(x) / n
        sd = math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1))
        assert ch.points == pytest.approx(m)
        assert ch.points_ci95 == pytest.approx(
            (m - Z * sd / math.sqrt(n), m + Z * sd / math.sqrt(n))
        )
        hits = [sum(v >= k for v in x) for k in (1, 2, 3, 4)]
        assert ch.p_at_least == pytest.approx(tuple(h_ / n for h_ in hits))
        for got, k in zip(ch.p_ci95, hits, strict=True):
            assert got == pytest.approx(wilson(k, n))
        d = [a - b for a, b in zip(x, best, strict=True)]
        dm = sum(d) / n
        dsd = math.sqrt(sum((v - dm) ** 2 for v in d) / (n - 1))
        assert ch.vs_best == pytest.approx((dm, Z * dsd / math.sqrt(n)))
