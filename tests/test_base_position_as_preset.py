"""The base game's positions held as the auction-pitch preset (docs/rules.md 1.1: the base
game is the auction-pitch preset, unchanged; 1.3: its generic options' values).

However its rules are written -- ``Rules(...)`` or a rule string naming the
auction-pitch preset -- a base game's position is read by the same reader, solved by the
one solver (``solve_preset``: the preset's options and tables) to the values and cards
the base game's entry point (``card_values``: its options, auction-pitch's tables) gives,
node for node, and hinted, written and shown as the base game always was.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_solver import random_position  # a random deal played down to some cards

from pitchsim.cli.solve import render
from pitchsim.game.rules import Rules, rules_text
from pitchsim.game.short_view import short_view
from pitchsim.kernels.search import solver as kernel
from pitchsim.search.double_dummy import kernel_args, preset_args, solve
from pitchsim.search.hint import hint, hint_view
from pitchsim.search.position import Position, parse_position

BASE = [
    Rules(),
    Rules(low="dealt"),
    Rules(follow="suit"),
    Rules(low="dealt", follow="suit", target=11, min_bid=2),
]
# examples/endgame.json (the README's and test_fuzz's position), without its rules: a
# position that carries none, read under the rules the caller states
ENDGAME = {
    k: v
    for k, v in json.loads(
        (Path(__file__).parent.parent / "examples" / "endgame.json").read_text()
    ).items()
    if k != "rules"
}


def test_the_base_game_is_told_by_its_rules_not_their_type():
    """1.1, 1.3: the preset at its own values is the base game; any option of §6 or a
    family beyond it is not."""
    for rules in [*BASE, Rules(partnership=True)]:
        assert rules.base_game
        assert Rules.parse(f"auction-pitch,{rules_text(rules)}") == rules
    for spec in ("jokers=1", "smear", "dealer-steal=max", "follow=only,trump=named"):
        assert not Rules.parse(spec).base_game


@pytest.mark.parametrize("n", range(2, 8))
def test_the_preset_solver_is_the_base_solver_node_for_node(n):
    """1.1: the one solver's preset form (options and tables of auction-pitch) values a
    base position and each legal card as the base entry point does, with the same search
    (fresh tables: the same nodes); the base rules' preset arguments are those of the
    same rules held as the preset."""
    rng = random.Random(f"preset-form-{n}")
    variants = BASE + ([Rules(partnership=True, low="dealt")] if n == 4 else [])
    checked = 0
    for rules in variants:
        for _ in range(3):
            pos = random_position(rng, n, rules, rng.randrange(n + 1, 3 * n + 1))
            base_out = np.empty(52, dtype=np.int64)
            preset_out = np.empty(kernel.N_CARDS, dtype=np.int64)
            t1, t2 = kernel.new_table(12), kernel.new_table(12)
            v1 = kernel.card_values(*kernel_args(pos), t1, base_out)
            v2 = kernel.preset_card_values(*preset_args(pos), t2, preset_out, -1)
            assert v1 == v2, pos.to_json()
            assert (base_out == preset_out[:52]).all() and (preset_out[52:] == -1).all()
            assert t1[0, kernel.T_NODES] == t2[0, kernel.T_NODES]
            held = replace(pos, rules=rules)
            for a, b in zip(preset_args(pos), preset_args(held), strict=True):
                assert np.array_equal(a, b)
            assert solve(held).to_json() == solve(pos).to_json()
            checked += 1
    assert checked == 3 * len(variants)


@pytest.mark.parametrize("rules", BASE, ids=lambda r: f"{r.low}-{r.follow}-{r.target}")
def test_a_base_position_under_the_preset_reads_solves_and_shows_as_the_base_game(rules):
    """1.1: stated as the preset or as the base rules, the same position: the base
    game's reader and checks (a base Position, also for a caller that solves families),
    the same value and cards, the base game's JSON (its own rule string) and text."""
    preset = Rules.parse(f"auction-pitch,{rules_text(rules)}")  # the preset, spelled out
    got = {}
    for stated in (rules, preset):
        pos = parse_position(ENDGAME, stated)
        assert type(pos) is Position and pos.rules is stated
        # stated and carried alike: the caller's rules object
        assert parse_position(ENDGAME | {"rules": rules_text(rules)}, stated).rules is stated
        s = solve(pos)
        got[stated is preset] = (pos.to_json(), s.to_json(), render(s, "Position"))
    assert got[False] == got[True]
    doc = got[False][0]
    assert doc["rules"] == ",".join(f"{k}={str(v).lower()}" for k, v in rules.describe().items())
    # the preset's round as `pitchsim play --json` writes it (dealt, held null) reads alike
    as_preset_round = {k: v for k, v in doc.items() if k != "hands"} | {
        "dealt": doc["hands"],
        "held": None,
        "rules": "auction-pitch," + doc["rules"],
    }
    pos = parse_position(as_preset_round)
    assert type(pos) is Position and pos.to_json() == doc
    # a bid of 5 is no bid of the base game (its maximum is 4, 1.3), however written
    with pytest.raises(Exception, match="bid must be 1-4, not 5"):
        parse_position(ENDGAME | {"bid": 5}, preset)


def test_a_base_position_and_view_under_the_preset_are_hinted_as_the_base_game():
    """1.1: the base game's hint (its default policy by player count, pimc at 4, its
    fields) however the base rules are written, position and short view alike."""
    got = []
    for stated in (Rules(), Rules.parse("auction-pitch")):
        pos = parse_position(ENDGAME, stated)
        got.append(json.dumps(hint(pos, worlds=24, seed=5).to_json(), sort_keys=True))
    assert got[0] == got[1]
    assert json.loads(got[0])["policy"] == "pimc"
    answers = []
    for stated in (Rules(), Rules.parse("auction-pitch")):
        view = short_view("AH KH 2H 9C 7D 3S", 4, 3, "pass,pass,2,pass", None, None, None, stated)
        assert view.rules == stated  # (a view's document is views' business: game/view.py)
        answers.append(json.dumps(hint_view(view, worlds=24, seed=5).to_json(), sort_keys=True))
    assert answers[0] == answers[1]
    assert json.loads(answers[0])["policy"] == "pimc"
