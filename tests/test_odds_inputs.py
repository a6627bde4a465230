"""bid_odds' trump argument (issue 22's mutation run over advice/odds.py): clubs is
suit 0 and must be accepted, a boolean is not a suit."""

import pytest

from pitchsim.advice.odds import bid_odds
from pitchsim.util.errors import InputError

HAND = "AH KH 2H 9C 7D 3S"  # clubs held: 9C


def test_clubs_is_suit_zero_and_may_be_asked_for():
    for trump in (0, "C"):
        r = bid_odds(HAND, samples=200, seed=1, trump=trump)
        assert [int(s) for s in r.by_trump] == [0] and int(r.chosen_trump) == 0 and r.trump_fixed


@pytest.mark.parametrize("trump", [True, False, 4, -1, 1.0])
def test_a_trump_that_is_not_a_suit_is_refused(trump):
    with pytest.raises(InputError) as e:
        bid_odds(HAND, samples=200, seed=1, trump=trump)
    assert str(e.value).startswith("trump must be a suit (C, D, H, S or 0-3), not ")
