"""The fast checksum of a part's bytes: the numba kernel against its plain-Python
reference, its fixed values (recorded checksums depend on them) and the damage it must
catch."""

import numpy as np
import pytest

from pitchsim.study.checksum import (
    KEYS_LIST,
    LANES,
    SCRAMBLE_STRIPES,
    STRIPE_BYTES,
    checksum,
    checksum_reference,
)


def random_bytes(rng, n):
    return rng.integers(0, 256, n, dtype=np.uint8).tobytes()


def test_the_kernel_is_its_reference_at_every_length_near_the_edges():
    rng = np.random.default_rng(1)
    block = STRIPE_BYTES * SCRAMBLE_STRIPES
    lengths = [
        *range(0, 2 * STRIPE_BYTES + 9),
        *(block + d for d in range(-9, 10)),
        2 * block + 3,
        *rng.integers(0, 3 * block, 40),
    ]
    for n in lengths:
        data = random_bytes(rng, int(n))
        key = int(rng.integers(0, 1 << 63))
        assert checksum(data, key) == checksum_reference(data, key), n


def test_the_kernel_is_its_reference_on_data_like_a_parts():
    """Mostly zeros, repeated words and runs of one byte: what Parquet pages hold."""
    rng = np.random.default_rng(2)
    for _ in range(30):
        n = int(rng.integers(0, 6000))
        data = bytearray(n)
        for _ in range(int(rng.integers(0, 8))):
            a = int(rng.integers(0, n + 1))
            b = min(n, a + int(rng.integers(0, 600)))
            data[a:b] = bytes([int(rng.integers(0, 256))]) * (b - a)
        assert checksum(bytes(data)) == checksum_reference(data)


@pytest.mark.parametrize("offset", range(8))
def test_every_alignment_of_the_bytes_in_memory_gives_the_same_checksum(offset):
    rng = np.random.default_rng(3 + offset)
    for n in (0, 5, 8, 511, 512, 1000, 4099, 9000):
        data = random_bytes(rng, n)
        buf = bytearray(n + 16)
        buf[offset : offset + n] = data
        view = memoryview(buf)[offset : offset + n]
        arr = np.frombuffer(buf, dtype=np.uint8)[offset : offset + n]
        expected = checksum_reference(data)
        assert checksum(view) == checksum(arr) == checksum(data) == expected, (offset, n)


def test_its_values_are_fixed():
    """Runs on disk record these checksums: the function must never change."""
    assert checksum(b"") == "dd9c9cd9e909cf30187523fa52e68f75"
    assert checksum(b"pitch") == "3bd23b068f70303877a995929e9829b8"
    assert checksum(b"pitch", 5) == "d8a3b1e55418f8f1b70f4696702f69b6"
    data = bytes(range(256)) * 41  # 10,496 bytes: a scramble and a padded tail
    assert checksum(data, MAX_KEY) == checksum_reference(data, MAX_KEY) == GOLDEN_10496
    assert len(KEYS_LIST) == LANES and KEYS_LIST[0] == FIRST_KEY


MAX_KEY = (1 << 64) - 1
GOLDEN_10496 = "1403432102d6ec04205396fd662347f1"
FIRST_KEY = 0x24C20CAB65495B1D


def test_the_key_is_part_of_the_checksum():
    rng = np.random.default_rng(7)
    for n in (0, 1, 600, 9000):
        data = random_bytes(rng, n)
        keys = [0, 1, 2, 1 << 63, MAX_KEY, *(int(k) for k in rng.integers(0, 1 << 62, 20))]
        sums = [checksum(data, k) for k in keys]
        assert len(set(sums)) == len(keys)
        for k, got in zip(keys[:8], sums[:8], strict=True):
            assert got == checksum_reference(data, k)


def test_any_one_changed_byte_is_caught():
    """A flip, a set, a clear of every byte in turn (sure to be caught: see the module
    docstring), on random data and on zeros."""
    rng = np.random.default_rng(4)
    for base in (bytearray(random_bytes(rng, 9001)), bytearray(9001)):
        before = checksum(bytes(base))
        seen = {before}
        for i in range(len(base)):
            old = base[i]
            for new in {old ^ 0x80, old ^ 0x01, old ^ 0xFF, (old + 1) % 256}:
                base[i] = new
                got = checksum(bytes(base))
                assert got != before, (i, old, new)
                seen.add(got)
            base[i] = old
        assert len(seen) > 3 * len(base)  # distinct, not merely different from before


def damages(rng, data):
    """Ways a copy goes wrong, at random places: a burst of garbage, a zeroed or a
    repeated 4 KB page, the same bit flipped in two words of one lane stripes apart,
    two runs of words swapped."""
    n = len(data)
    for _ in range(300):
        a = int(rng.integers(0, n - 8192))
        k = int(rng.integers(2, 4096))
        bad = bytearray(data)
        bad[a : a + k] = random_bytes(rng, k)
        yield bad
        bad = bytearray(data)
        page = a & ~4095
        bad[page : page + 4096] = bytes(4096)
        yield bad
        bad = bytearray(data)
        bad[a : a + 4096] = data[a + 4096 : a + 8192]
        yield bad
        bad = bytearray(data)
        bit = 1 << int(rng.integers(0, 8))
        step = STRIPE_BYTES * int(rng.integers(1, 80))
        bad[a] ^= bit
        bad[(a + step) % n] ^= bit
        yield bad
        bad = bytearray(data)
        w = 8 * int(rng.integers(1, 2 * LANES))
        i, j = sorted(int(x) for x in rng.integers(0, n - w, 2))
        if j - i >= w:
            bad[i : i + w], bad[j : j + w] = data[j : j + w], data[i : i + w]
        yield bad


def test_wider_damage_is_caught():
    rng = np.random.default_rng(5)
    n = 64 << 10
    data = bytearray(random_bytes(rng, n))
    data[: n // 2] = bytes(n // 2)  # half zeros, as a part's sparse pages
    before = checksum(bytes(data))
    seen = set()
    for bad in damages(rng, bytes(data)):
        if bad != data:
            got = checksum(bytes(bad))
            assert got != before
            seen.add(got)
    assert len(seen) > 1000  # distinct, not merely different from before
    zeros = bytes(n)
    assert checksum(zeros) != checksum(zeros[:-1])  # the length counts
