"""Records checked in-process (table/record.py), where test_records_redteam.py goes
through the CLI: the record contract of docs/record.md ("Every preset": the deal of 6,
9 or 10 cards from the preset's pack) by hand-written records.  No kernel runs."""

import pytest

from pitchsim.game.cards import N_CARDS, format_card, rank_of
from pitchsim.table.record import RecordError, replay


def test_a_card_outside_the_presets_pack_is_named():
    """Ten-point at 5 players deals 10 each from 52 cards and two jokers less the four
    4s (docs/rules.md, 4.3): a 4 dealt there is not in the pack, and the line says so."""
    pack = [format_card(c, symbols=False) for c in range(N_CARDS) if rank_of(c) != 2]
    pack += ["HJ", "LJ"]
    assert len(pack) == 50 and "4C" not in pack
    hands = [pack[10 * s : 10 * s + 10] for s in range(5)]
    doc = {
        "format": "pitchsim-game",
        "version": 1,
        "rules": "ten-point,partnership=false",
        "players": 5,
        "hands": [{"dealer": 0, "hands": hands, "stock": [], "actions": []}],
    }
    with pytest.raises(RecordError) as e:  # the deal itself is fine: no action yet
        replay(doc)
    assert str(e.value) == "hand 1: the actions stop before the hand is over"
    hands[0][-1] = "4C"
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert str(e.value) == (
        "hand 1: seat 0 was dealt 4C, which is not in the pack of "
        "ten-point,partnership=false at 5 players"
    )


def test_the_game_shown_from_a_record_is_the_records_game():
    """``play --replay`` shows the game a record holds (``preset_game_of_record``):
    written as a record again, it is the same record, a hand thrown in under redeal
    included (the base game: its records are the presets' since the one engine)."""
    from pitchsim.game.rules import Rules
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import preset_game_of_record, record_of_preset_game
    from pitchsim.util.jsonio import dumps_json

    doc = play_table_game(["random+random"] * 3, Rules(all_pass="redeal", target=5), 1, 0)
    assert any(h["pitcher"] is None for h in doc["hands"])  # a hand thrown in
    assert dumps_json(record_of_preset_game(preset_game_of_record(doc))) == dumps_json(doc)


def test_a_presets_game_shown_from_its_record_is_the_records_game():
    from pitchsim.game.rules import Rules
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import preset_game_of_record, record_of_preset_game
    from pitchsim.util.jsonio import dumps_json

    doc = play_table_game(["random"] * 4, Rules.parse("smear"), 5, 3)
    assert dumps_json(record_of_preset_game(preset_game_of_record(doc))) == dumps_json(doc)
