"""The checksum's lane keys, drawn again (issue 22's mutation run: ``_lane_keys`` runs
once at import, before a mutant can be switched on, so the tests that pin the checksums
never saw it change).  Recorded checksums depend on these keys for ever."""

from pitchsim.study.checksum import KEYS_LIST, LANES, _lane_keys

FIRST_KEY = 0x24C20CAB65495B1D  # as pinned in test_checksum.py


def test_the_lane_keys_drawn_again_are_the_recorded_ones():
    keys = _lane_keys()
    assert keys == KEYS_LIST and len(keys) == LANES and keys[0] == FIRST_KEY
    assert len(set(keys)) == LANES
    for k in keys:
        hi, lo = k >> 32, k & 0xFFFFFFFF
        assert hi & 1 and lo & 1 and hi != lo  # both halves odd and different
