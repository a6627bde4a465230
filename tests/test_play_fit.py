"""Worlds that read the play (issue 31 item 3, ``kernels.search.play_fit`` and
``search.hint``'s ``read_play``): each other seat taken to play ``heuristic``'s card, a
world kept with chance rho to the power of the plays it explains otherwise.

What the tests expect is derived apart from the kernel: at a table where every seat
plays the heuristic, the true deal explains every play (no miss, under every preset);
a world's misses are recounted by stepping the hand with the reference engine
(``game.reference.play_hand``: its own legal cards, 0.6-0.7 and 4.9, its own trick
order, the called card's duty, 12.1.3) and asking the heuristic at each of its
views; the kept worlds' count matches the sum of each world's chance."""

from __future__ import annotations

import math

import numpy as np
import pytest
from logged_hands import heuristic_chooser

import pitchsim.game.reference as F
from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import card_text
from pitchsim.search.hint import HintError, _PlayFit, _Sampler, hint_view, worlds_at
from pitchsim.table.decide import view_knowledge
from pitchsim.table.game import play_table_game
from pitchsim.table.record import _decisions

# (rules, players): first-lead trump, partnership, the jick, jokers and follow=only with a
# discard and draw (4.8, 4.9), a called partner owing his card to trick 1 (12.1.3)
TABLES = [
    ("auction-pitch", 4),
    ("setback", 4),
    ("smear", 3),
    ("ten-point", 4),
    ("six-point", 4),
    ("smear,partner=called", 5),
]


def card_views(spec: str, n: int, seed: int, strategy: str = "heuristic+heuristic"):
    """(view, the hands when play started, the rules) at every card decision after the
    first card of one table game whose seats all play ``strategy``."""
    rules = Rules.parse(spec)
    doc = play_table_game([strategy] * n, rules, seed=seed)
    for _k, h, view, _act, _sc, _full in _decisions(doc):
        if view is None or not view.tricks or view.to_move != view.seat:
            continue
        held = [
            mask_of(parse_cards(" ".join(x), rules.jokers)) for x in h.get("held") or h["hands"]
        ]
        yield view, held, rules


def misses_of(view, worlds: np.ndarray) -> np.ndarray:
    return _PlayFit(1.0).misses(worlds, view_knowledge(view))


@pytest.mark.parametrize("spec, n", TABLES)
def test_the_true_deal_explains_heuristic_play(spec, n):
    """At a table of heuristic players the deal itself has no miss, at every card
    decision: the kernel replays each seat's hand, the trick so far, the cards of the
    tricks done and the duty to play the call as the table did."""
    seen = 0
    for view, held, _r in card_views(spec, n, seed=11):
        k = view_knowledge(view)
        truth = np.array([[held[s] & ~int(k.pby[s]) for s in range(n)] + [0]], dtype=np.int64)
        assert truth[0, view.seat] == k.hand
        assert misses_of(view, truth)[0] == 0, (spec, view.tricks)
        seen += 1
    assert seen > 20


class _Stop(Exception):
    pass


def reference_misses(view, rules: Rules, world) -> int:
    """The misses of one world, recounted: the hand stepped by the reference engine from
    the hands when play started (the world's cards now and those played), the cards seen
    played in order, each other seat's choice compared with the heuristic's card at the
    reference's own view of it."""
    k = view_knowledge(view)
    n = view.players
    held = [int(world[s]) | int(k.pby[s]) for s in range(n)]
    script = [c for t in view.tricks for c in t.cards]
    heuristic = heuristic_chooser(n, k.fr, k.tab, [])
    first_fixes = rules.trump == "first-lead"
    state = {"i": 0, "misses": 0}

    def choose(v) -> int:
        i = state["i"]
        if i == len(script):
            raise _Stop
        card = script[i]
        state["i"] = i + 1
        choice = v.seat != view.seat and bin(v.legal).count("1") > 1
        if choice and not (i == 0 and first_fixes) and heuristic(v) != card:
            state["misses"] += 1
        return card

    trump = -1 if first_fixes else view.trump
    try:
        F.play_hand(held, view.pitcher, choose, rules, view.bid, trump, called=view.called)
    except _Stop:
        pass
    assert state["i"] == len(script)
    return state["misses"]


@pytest.mark.parametrize("spec, n", TABLES)
def test_misses_agree_with_the_reference_engine(spec, n):
    """Worlds of a seat's view (uniform among those fitting the play), at tables of
    rollout players, whose plays the heuristic does not always make: each world's
    count of misses equals the reference engine's recount."""
    checked = hits = 0
    for j, (view, _held, r) in enumerate(card_views(spec, n, seed=5, strategy="heuristic+rollout")):
        if j % 5:
            continue
        worlds = worlds_at(view, 6, seed=j)
        got = misses_of(view, worlds)
        want = [reference_misses(view, r, w) for w in worlds]
        assert list(got) == want, (spec, j)
        checked += len(want)
        hits += sum(m > 0 for m in want)
        if checked >= 120:
            break
    assert checked >= 30 and hits > 0


def _view(spec="auction-pitch", n=4, at=12):
    for j, (view, held, _r) in enumerate(card_views(spec, n, seed=3)):
        if j >= at and len(view.tricks) >= 2:
            return view, held
    raise AssertionError("no view")


def test_kept_worlds_match_each_worlds_chance():
    """Of a batch of uniform worlds, the play fit keeps each with chance rho ** misses:
    the count kept is within four standard errors of the sum of those chances, and the
    worlds kept miss less often than the batch."""
    view, _ = _view()
    k = view_knowledge(view)
    batch = _Sampler(k, 4, 2000).draw(0, 2000)[0]
    m = misses_of(view, batch)
    assert m.min() == 0 and m.max() >= 2  # the play tells the worlds apart
    for rho in (0.5, 0.1):
        keep = _PlayFit(rho).fits(batch, k, np.uint64(99))
        p = rho ** m.astype(float)
        assert abs(keep.sum() - p.sum()) <= 4 * math.sqrt((p * (1 - p)).sum()) + 1
        assert m[keep].mean() < m.mean()


def test_a_tiny_rho_keeps_only_worlds_that_explain_the_play():
    view, _ = _view()
    worlds = worlds_at(view, 30, seed=2, read_play=1e-12)
    assert len(worlds) > 0
    assert (misses_of(view, worlds) == 0).all()


def test_rho_one_reads_nothing():
    """rho 1 keeps every world: the same worlds, and so the same answer, as without."""
    view, _ = _view("smear", 4)
    a = hint_view(view, "rollout", 50, seed=5, fit_calls=False)
    b = hint_view(view, "rollout", 50, seed=5, fit_calls=False, read_play=1.0)
    assert b.play.read and b.play.kept == b.worlds
    assert [c.points for c in a.cards] == [c.points for c in b.cards]
    assert np.array_equal(worlds_at(view, 50, 5), worlds_at(view, 50, 5, read_play=1.0))


def test_hint_reads_the_play_and_says_so():
    view, _ = _view()
    h = hint_view(view, "rollout", 60, seed=1, fit_calls=False, read_play=0.2)
    assert h.play.read and h.play.rho == 0.2 and h.play.attempts >= h.play.kept == h.worlds
    doc = h.to_json()["play_read"]
    assert doc["model"] == "heuristic" and doc["read"] is True
    assert hint_view(view, "rollout", 60, seed=1, fit_calls=False).play is None
    with pytest.raises(HintError, match="--read-play"):
        hint_view(view, "rollout", 60, seed=1, read_play=0.0)


# ------------------------------------------------------- the table's rollout:read seats


def test_read_policy_names():
    from pitchsim.kernels.policies import WORLDS_SHIFT
    from pitchsim.kernels.search.rollout import READ_SHIFT, WORLDS_MASK
    from pitchsim.table.policies import PolicyError, play_policy, policy_name

    p = play_policy("rollout:read")
    assert p.name == "rollout:read" and p.worlds == 32
    word = p.id >> WORLDS_SHIFT
    assert word & WORLDS_MASK == 32 and word >> READ_SHIFT & 1
    for name in ("rollout:64:read", "pimc:read", "rollout:16", "rollout"):
        assert policy_name(play_policy(name).id) == name
    assert not play_policy("rollout:64").id >> WORLDS_SHIFT >> READ_SHIFT & 1
    for bad in ("rollout:read:64", "rollout::read", "rollout:64:reed", "heuristic:read"):
        with pytest.raises(PolicyError):
            play_policy(bad)


@pytest.mark.parametrize(
    "spec, names",
    [
        ("smear", ["heuristic+rollout:8:read", "heuristic", "heuristic+rollout:8", "heuristic"]),
        ("auction-pitch", ["odds+rollout:6:read"] * 3),
        ("ten-point", ["heuristic+rollout:6:read", "heuristic"] * 2),
    ],
)
def test_read_seats_at_the_table_play_the_kernel_game(spec, names):
    """A game of seats that read the play, asked decision by decision from their views
    (``table.decide``: the play seen rebuilt from the view), is the game the kernels play
    for the board (the play seen kept by the play loop)."""
    from pitchsim.table.bidding import Strategy
    from pitchsim.table.boards import board_game
    from pitchsim.table.record import record_of_preset_game, replay

    rules = Rules.parse(spec)
    table = play_table_game(names, rules, 3, 1)
    kernel = record_of_preset_game(board_game(3, 1, [Strategy.parse(s) for s in names], rules))
    assert table == kernel
    assert replay(table) == table


def test_reading_the_play_changes_the_seats_cards():
    """The read bit has an effect: the same boards played by rollout seats that read the
    play and by seats that do not differ somewhere."""
    rules = Rules.parse("auction-pitch")
    differ = 0
    for board in range(4):
        a = play_table_game(["odds+rollout:8:read"] * 4, rules, 5, board)
        b = play_table_game(["odds+rollout:8"] * 4, rules, 5, board)
        differ += a["hands"] != b["hands"]
    assert differ > 0


def test_read_seat_values_pick_the_kernels_card():
    """The engine's values path (``_valued_card``: the same worlds by ``search_worlds``)
    recommends the card the kernel's search plays, on views of a game."""
    from pitchsim.kernels.policies import KIND_MASK, WORLDS_SHIFT
    from pitchsim.table.decide import _valued_card, card_counter, kernel_search_card
    from pitchsim.table.policies import play_policy

    policy = play_policy("rollout:12:read").id
    checked = 0
    for view, _held, _r in card_views("smear", 4, seed=8):
        k = view_knowledge(view)
        if k.legal.bit_count() < 2:
            continue
        counter = card_counter(k)
        word = policy >> WORLDS_SHIFT
        want = kernel_search_card(k, policy & KIND_MASK, 77, counter, word)
        got = _valued_card(k, 77, counter, word, 6, True, None)
        assert got.action == card_text(want)
        checked += 1
    assert checked > 10
