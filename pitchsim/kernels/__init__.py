"""Numba kernels: dealing, the trick loop and scoring, play policies, batch loops.

Every kernel is compiled with ``cache=True``; the plain-Python reference engine in
``pitchsim.game.reference`` is the specification they are tested against.

Numba's on-disk cache checks only the timestamp of the file a kernel is defined in, not
of the modules whose functions it inlines, so an edit to, say, the dealing code would
leave stale machine code cached for every kernel that deals.  The cache therefore lives
in a folder named for a digest of all of pitchsim's numba source,
``~/.cache/pitchsim/numba/<digest>``: any edit to it means a fresh folder and a fresh
compile.  ``NUMBA_CACHE_DIR``, when set, is respected as is.

Old folders are pruned when a fresh compile starts: those nobody has used for
``STALE_DAYS`` days (a folder's time is touched whenever pitchsim runs from it, so two
checkouts of different versions can share the cache without deleting each other's).
``pitchsim cache`` shows the folders and clears them.

Compile time: numba compiles a kernel once per distinct tuple of argument types, and
a constant is a type of its own (``Literal[int](0)``) before it widens to int64.  So a
variable set to a constant and changed later in a loop (``high = 0``), or a constant
passed where others pass a variable, types its calls first with the literal and then
with int64: every callee compiled twice, whole hands of play among them.  Hence
``np.int64(0)`` for such starting values, and ``np.int64(b)`` for a ``prange`` index
passed on (numba's parallel loop body sees it as uint64, the serial typing as int64).
``scripts/compiled_twice.py`` lists the kernels a command compiles more than once.
"""

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

import numba
from numba.core import event

from ..util.runtime import user_cache

_PACKAGE = Path(__file__).resolve().parent.parent
STALE_DAYS = 3
COMPILE_NOTICE = "pitchsim: compiling pitchsim's kernels, once: 15-60 s (cached for later runs)"


def _numba_source_digest() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        # (and the data kernels freeze as constants: the rules, each preset's tables)
        if b"numba" in text or path.name in ("rules.py", "presets.py", "trumps.py"):
            h.update(path.relative_to(_PACKAGE).as_posix().encode())
            h.update(text)
    return h.hexdigest()[:16]


# Kernel threads sleep as soon as a parallel loop ends instead of spinning (OpenMP's
# default): between kernel calls the cores go to other work, such as a run's Parquet
# writer, rather than to waiting (pipeline +2% at 3 players; the kernels' own speed is
# unchanged, scripts/bench.py).  Read when numba first starts its threads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def cache_root() -> Path:
    """The folder holding one cache folder per digest of pitchsim's numba source."""
    return user_cache("numba")


DIGEST = _numba_source_digest()
OWN_CACHE = not os.environ.get("NUMBA_CACHE_DIR")  # False: the user chose the folder
CACHE_DIR = cache_root() / DIGEST if OWN_CACHE else Path(os.environ["NUMBA_CACHE_DIR"])
if OWN_CACHE:
    numba.config.CACHE_DIR = str(CACHE_DIR)
    try:  # mark this version's folder as in use (see prune_cache)
        os.utime(CACHE_DIR)
    except OSError:
        pass


def cache_folders() -> list[tuple[Path, int, float]]:
    """(folder, bytes, last used as a Unix time) for every digest folder, newest first."""
    root = cache_root()
    if not root.is_dir():
        return []
    out = []
    for d in root.iterdir():
        if d.is_dir():
            size = sum(f.stat().st_size for f in d.rglob("*") if f.is_file())
            out.append((d, size, d.stat().st_mtime))
    return sorted(out, key=lambda x: -x[2])


def prune_cache(older_than_days: float = STALE_DAYS, keep_current: bool = True) -> list[Path]:
    """Delete digest folders unused for ``older_than_days`` days (0: all of them but the
    current one; ``keep_current=False`` as well); return the folders deleted."""
    if not OWN_CACHE:
        return []
    cutoff = time.time() - older_than_days * 86400
    gone = []
    for d, _, used in cache_folders():
        if d.name == DIGEST and keep_current:
            continue
        if older_than_days == 0 or used < cutoff:
            shutil.rmtree(d, ignore_errors=True)
            gone.append(d)
    return gone


class _CompileNotice(event.Listener):
    """Says once on stderr that kernels are being compiled.

    Numba broadcasts ``numba:compile`` only on a cache miss (a kernel loaded from the
    cache is not compiled), so this is exactly a cold cache's signal: quiet when warm.
    It goes to stderr even when stderr is not a terminal: a first run that sits silent
    for minutes looks hung whoever reads it.  ``PITCHSIM_COMPILE_NOTICE=0`` silences it
    (the test suite does, since many tests check stderr is empty).
    """

    announced = False
    compiles = 0  # pitchsim kernels compiled in this process so far (compile_count)

    def on_start(self, event):
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not module.startswith("pitchsim"):
            return  # someone else's numba code in the same process
        _CompileNotice.compiles += 1
        if _CompileNotice.announced:
            return
        _CompileNotice.announced = True
        if OWN_CACHE:
            prune_cache()
        if notice_enabled():
            print(COMPILE_NOTICE, file=sys.stderr, flush=True)

    def on_end(self, event):
        pass


def compile_count() -> int:
    """How many times a pitchsim kernel was compiled in this process (a cache miss):
    whoever times a search can tell compiling from searching (``table.clock``)."""
    return _CompileNotice.compiles


def notice_enabled() -> bool:
    if os.environ.get("PITCHSIM_COMPILE_NOTICE") in ("0", "1"):
        return os.environ["PITCHSIM_COMPILE_NOTICE"] == "1"
    return sys.stderr is not None


event.register("numba:compile", _CompileNotice())
