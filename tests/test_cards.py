import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitchsim.game.cards import (
    CardError,
    card,
    cards_of,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_hand,
    parse_suit,
)


def test_encoding():
    assert parse_card("2C") == 0
    assert parse_card("AS") == 51
    assert parse_card("TH") == card(8, 2) == parse_card("10h") == parse_card("T♥")


@given(st.integers(min_value=-(1 << 70), max_value=1 << 70))
def test_cards_of_lists_the_packs_cards_in_a_mask_lowest_first(mask):
    """Every card of the 54 (jokers 52, 53) whose bit is set, in order; bits past the
    jokers are no cards (a recount bit by bit)."""
    assert cards_of(mask) == [c for c in range(54) if (mask >> c) & 1]


@pytest.mark.parametrize(
    "text",
    [
        "AH KH 2H 9C 7D 3S",
        "Ah,Kh,2h,9c,7d,3s",
        "ahkh2h9c7d3s",
        "A♥ K♥ 2♥ 9♣ 7♦ 3♠",
        "AH, KH; 2H 9C 7D 3S",
    ],
)
def test_parse_the_ways_people_type(text):
    assert format_cards(parse_hand(text), symbols=False) == "AH KH 2H 9C 7D 3S"


def test_ten_spellings():
    assert parse_cards("10h 10S") == [parse_card("TH"), parse_card("TS")]
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("10h Th")


@pytest.mark.parametrize("bad", ["1H", "AX", "KH QQ", "A", "H", "11H"])
def test_bad_cards(bad):
    with pytest.raises(CardError, match="cannot read card"):
        parse_cards(bad)


def test_hand_size_and_duplicates():
    with pytest.raises(CardError, match="exactly 6 cards, got 5"):
        parse_hand("AH KH 2H 9C 7D")
    with pytest.raises(CardError, match="duplicate card AH"):
        parse_hand("AH KH 2H 9C 7D ah")


def test_format():
    assert format_card(parse_card("TH")) == "10♥"
    assert format_card(parse_card("TH"), symbols=False) == "TH"
    assert format_card(parse_card("TH"), symbols=False) == "TH"
    assert parse_suit("♠") == parse_suit("s") == parse_suit("spades") == 3
    with pytest.raises(CardError):
        parse_suit("X")
