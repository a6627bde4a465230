"""The advisor's correction for defenders who search (``advice.defence``, issue 31): its
weights give the shifted P(make) and P(win game) by the simulations' own conditional
outcomes; ``advise`` applies it at 5 players under auction-pitch, where it was measured
(reports/advisor_calibration.md), and nowhere else."""

from __future__ import annotations

import numpy as np
import pytest

from pitchsim.advice.advise import advise
from pitchsim.advice.defence import CORRECTIONS, shifted, weights
from pitchsim.game.rules import Rules
from pitchsim.kernels import advice as engine

SHIFT = CORRECTIONS[("auction-pitch", 5)].shift


def outcomes(rng, deals: int, calls: int) -> np.ndarray:
    out = np.zeros((deals, calls, engine.N_OUTCOMES))
    side = rng.random((deals, calls)) < 0.7
    made = side & (rng.random((deals, calls)) < 0.55)
    # a made bid wins the game more often than a set one, as at the table
    won = rng.random((deals, calls)) < np.where(made, 0.6, np.where(side, 0.1, 0.3))
    out[:, :, engine.O_SIDE_PITCHED] = side
    out[:, :, engine.O_MADE] = made
    out[:, :, engine.O_WON] = won
    return out


def test_the_weights_give_the_shifted_p_make_and_p_win_by_its_parts():
    out = outcomes(np.random.default_rng(1), 4000, 3)
    w = weights(out, SHIFT)
    for c in range(3):
        side = out[:, c, engine.O_SIDE_PITCHED] > 0
        made = side & (out[:, c, engine.O_MADE] > 0)
        won = out[:, c, engine.O_WON] > 0
        p = made.sum() / side.sum()
        q = float(shifted(p, SHIFT))
        assert q < p  # the shift sets more bids
        assert w[:, c].mean() == pytest.approx(1.0)
        assert (w[made, c].sum()) / w[side, c].sum() == pytest.approx(q)
        # P(win) = P(not) P(win | not) + P(pitch) [p' P(win | made) + (1-p') P(win | set)]
        parts = (~side).mean() * won[~side].mean() + side.mean() * (
            q * won[made].mean() + (1 - q) * won[side & ~made].mean()
        )
        assert (won * w[:, c]).mean() == pytest.approx(parts)
        assert parts < won.mean()
    assert shifted(np.array([0.0, 1.0]), SHIFT).tolist() == [0.0, 1.0]  # sure stays sure


ARGS = dict(seat=1, calls="2", samples=300, seed=8)


def both(hand: str, players: int, **kw):
    n = players
    scores = ",".join(str(s) for s in (3, 5, 0, 6, 1, 2, 4)[:n])
    args = ARGS | dict(players=n, dealer=n - 1, scores=scores) | kw
    return advise(hand, **args), advise(hand, search_correction=False, **args)


def test_at_5_players_p_make_moves_by_the_tabled_shift_and_p_win_with_it():
    fixed, model = both("AH JH 5H 9C 7D 3S", 5)  # a 3: P(make) 62% by the model
    assert fixed.correction is not None and model.correction is None
    assert "corrected against defenders who search" in " ".join(fixed.notes)
    assert fixed.to_json()["search_correction"]["logit_shift"] == SHIFT
    moved = 0
    for c in fixed.legal_calls:
        a, b = fixed.by_call[c], model.by_call[c]
        assert a.p_pitcher.value == b.p_pitcher.value
        if c == 0:  # passing, the seat's side does not pitch: nothing to correct
            assert a.p_pitcher.value == 0
            assert a.p_win_game.value == pytest.approx(b.p_win_game.value)
            continue
        assert a.p_made.value == pytest.approx(float(shifted(b.p_made.value, SHIFT)))
        if 0.2 < b.p_made.value < 0.8:  # a middling P(make): 4-8 points fewer
            assert -0.08 < a.p_made.value - b.p_made.value < -0.04
            assert a.p_win_game.value < b.p_win_game.value
            assert a.expected_score.value < b.expected_score.value
            moved += 1
    assert moved


@pytest.mark.parametrize("players, rules", [(4, None), (5, Rules.parse("smear"))])
def test_unmeasured_tables_are_not_corrected(players, rules):
    fixed, model = both("KH QH 5H 9C 7D 3S", players, rules=rules)
    assert fixed.correction is None
    assert fixed.to_json() == model.to_json()


def test_the_command_line_turns_the_correction_off_with_model_figures():
    import json

    from clirun import cli

    argv = ["advise", "AH JH 5H 9C 7D 3S", "--players", "5", "--seat", "1", "--dealer", "4"]
    argv += ["--calls", "2", "--scores", "3,5,0,6,1", "--samples", "300", "--seed", "8"]
    code, out, _ = cli(*argv, "--json")
    assert code == 0
    assert json.loads(out)["search_correction"]["logit_shift"] == SHIFT
    code, out, _ = cli(*argv, "--json", "--model-figures")
    assert code == 0
    assert json.loads(out)["search_correction"] is None
    code, out, _ = cli(*argv)
    assert "corrected against defenders who search" in out
