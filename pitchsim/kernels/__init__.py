"""Numba kernels: dealing, the trick loop and scoring, play policies, batch loops.

Every kernel is compiled with ``cache=True``; the plain-Python reference engine in
``pitchsim.reference`` is the specification they are tested against.

Numba's on-disk cache checks only the timestamp of the file a kernel is defined in, not
of the modules whose functions it inlines, so an edit to, say, the dealing code would
leave stale machine code cached for every kernel that deals.  The cache therefore lives
in a folder named for a digest of all of pitchsim's numba source: any edit to it means
a fresh folder and a fresh compile.  ``NUMBA_CACHE_DIR``, when set, is respected as is.
"""

import hashlib
import os
from pathlib import Path

import numba

_PACKAGE = Path(__file__).resolve().parent.parent


def _numba_source_digest() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text or path.name == "options.py":
            h.update(path.relative_to(_PACKAGE).as_posix().encode())
            h.update(text)
    return h.hexdigest()[:16]


# Kernel threads sleep as soon as a parallel loop ends instead of spinning (OpenMP's
# default): between kernel calls the cores go to other work, such as a run's Parquet
# writer, rather than to waiting (pipeline +2% at 3 players; the kernels' own speed is
# unchanged, scripts/bench.py).  Read when numba first starts its threads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

if not os.environ.get("NUMBA_CACHE_DIR"):
    _base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    numba.config.CACHE_DIR = str(_base / "pitchsim" / "numba" / _numba_source_digest())
