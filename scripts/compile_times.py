#!/usr/bin/env python3
"""Where a cold compile's time goes: every numba kernel a pitchsim command compiles,
with its own compile time (its callees' compiles subtracted), slowest first.

    .venv/bin/python scripts/compile_times.py -- bid-odds "AS KS 2H 3D 4C 5C" --rules smear
    .venv/bin/python scripts/compile_times.py --top 15 -- simulate --rules ten-point --deals 2000 --quiet --out /tmp/r

The command runs in this process (the CLI's own entry point) with an empty numba cache
folder (``NUMBA_CACHE_DIR`` set to a fresh temporary folder before pitchsim loads), so
every kernel it touches compiles.  Times are wall and process-CPU seconds around each
``numba:compile`` event; a kernel that another inlines is compiled inside its caller's
event and counted there.  Read CPU seconds on a shared machine.

Last, the kernels compiled for more than one tuple of argument types, with the
arguments that differ: a literal beside an int64 (``Literal[int](0) | int64``) is a
compile wasted (``pitchsim.kernels``' compile notes); dtypes and ``base`` literals are
by design.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=25, help="rows to print (default 25)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- then a pitchsim command")
    args = ap.parse_args()
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not argv:
        ap.error("give a pitchsim command after --")
    cold = tempfile.mkdtemp(prefix="pitchsim-cold-")
    atexit.register(shutil.rmtree, cold, True)  # (the cold cache is of no use afterwards)
    os.environ["NUMBA_CACHE_DIR"] = cold

    from numba.core import event

    rows: dict[str, list[float]] = {}
    kernels: dict[str, object] = {}  # name -> dispatcher
    stack: list[list] = []  # [name, wall0, cpu0, child wall, child cpu]

    class Timer(event.Listener):
        def on_start(self, ev):
            d = (ev.data or {}).get("dispatcher")
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}" if d else "?"
            if d is not None:
                kernels[name] = d
            stack.append([name, time.perf_counter(), time.process_time(), 0.0, 0.0])

        def on_end(self, ev):
            name, w0, c0, cw, cc = stack.pop()
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            r = rows.setdefault(name, [0, 0.0, 0.0])
            r[0] += 1
            r[1] += wall - cw
            r[2] += cpu - cc
            if stack:
                stack[-1][3] += wall
                stack[-1][4] += cpu

    event.register("numba:compile", Timer())
    from pitchsim.cli import main as cli  # (after the cache folder is set)

    w0, c0 = time.perf_counter(), time.process_time()
    code = 0
    try:
        cli(argv)
    except SystemExit as e:
        code = e.code or 0
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    total = sum(r[2] for r in rows.values())
    print(f"\n{' '.join(argv)}  (exit {code})", file=sys.stderr)
    print(
        f"command {wall:.1f} s wall, {cpu:.1f} s CPU; compiling {total:.1f} s CPU "
        f"in {sum(r[0] for r in rows.values())} compiles of {len(rows)} kernels",
        file=sys.stderr,
    )
    print(f"{'CPU s':>7} {'wall s':>7} {'sigs':>4}  kernel", file=sys.stderr)
    for name, (count, w, c) in sorted(rows.items(), key=lambda kv: -kv[1][2])[: args.top]:
        print(f"{c:7.1f} {w:7.1f} {count:4d}  {name}", file=sys.stderr)
    twice = [(name, d.signatures) for name, d in kernels.items() if len(d.signatures) > 1]
    if twice:
        print("\ncompiled for more than one tuple of argument types:", file=sys.stderr)
    for name, sigs in sorted(twice):
        width = max(len(s) for s in sigs)
        at = [i for i in range(width) if len({str(s[i]) if i < len(s) else "-" for s in sigs}) > 1]
        ways = " | ".join(", ".join(str(s[i]) if i < len(s) else "-" for i in at) for s in sigs)
        print(f"  {name} ({len(sigs)}), arguments {at}: {ways[:300]}", file=sys.stderr)


if __name__ == "__main__":
    main()
