import errno
import os

import pytest

from pitchsim.util.direct_io import write_new_file

SIZES = [0, 1, 4095, 4096, 4097, (1 << 20) + 3, (17 << 20) + 5]  # the last outgrows 16 MB


@pytest.mark.parametrize("size", SIZES)
def test_writes_exactly_the_bytes(tmp_path, size):
    data = os.urandom(size)
    f = tmp_path / "part.tmp"
    f.write_bytes(b"x" * (size + 9000))  # an older, longer file is replaced
    write_new_file(f, memoryview(data))
    assert f.read_bytes() == data


def test_falls_back_where_o_direct_is_refused(tmp_path, monkeypatch):
    real_open = os.open
    data = os.urandom(10_000)

    def no_direct_open(path, flags, *args):
        if flags & getattr(os, "O_DIRECT", 0):
            raise OSError(errno.EINVAL, "O_DIRECT not supported")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", no_direct_open)
    write_new_file(tmp_path / "a", data)
    assert (tmp_path / "a").read_bytes() == data

    def refusing_write(fd, buf):  # some filesystems accept the flag, then refuse writes
        raise OSError(errno.EINVAL, "invalid argument")

    monkeypatch.setattr(os, "open", real_open)
    monkeypatch.setattr(os, "write", refusing_write)  # the fallback writes through io
    write_new_file(tmp_path / "b", data)
    assert (tmp_path / "b").read_bytes() == data
