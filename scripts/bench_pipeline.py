#!/usr/bin/env python3
"""How much of the kernel's speed the batch pipeline keeps, and how fast a big run
aggregates.

    .venv/bin/python scripts/bench_pipeline.py pipeline --deals 8388608 --players 3,4,7
    .venv/bin/python scripts/bench_pipeline.py encode
    .venv/bin/python scripts/bench_pipeline.py aggregate --run runs/reports
    .venv/bin/python scripts/bench_pipeline.py aggregate --run runs/reports --rehash --verify all
    .venv/bin/python scripts/bench_pipeline.py checksum --run runs/reports

``pipeline``: the run's kernel alone (auction-pitch's, ``batch.play_deals``: the columns
in memory, over the same deals, in the same parts, writing nothing; until session 68 a
hand kernel of its own that wrote three numbers a deal) against ``pitchsim.study.batch.simulate`` (kernel + hand features +
Parquet encoding + writing parts and manifest), alternating A, B, A, B ...
so that load from other programs falls on both alike; reports the median and the best
round of each, wall-clock and CPU time (the CPU figure is the steady one on a machine
shared with other work).

``encode``: one part's Parquet encoding by pitchsim.study.parquet and by pyarrow's writer.

``aggregate``: times ``make_table`` (length x high; exact holding) and the exact checks
on a run, all player counts, reading the parts verified against the manifest and not
(``--no-verify``), alternately, and reports what verification costs; ``--verify all``
adds reads checked by SHA-256 (``--full-check``), ``--rehash`` makes every verified read
a first read (the memory of checked parts emptied), ``--cold`` evicts the run's files
from the page cache before each round.  With ``--copies K --verify off``
it first builds a run of K times the given run's parts (hard links: the same bytes, so
the same decoding work) -- a cheap stand-in for a run K times as long, which
verification rightly refuses (its parts claim deal ranges they do not hold).

``checksum``: the fast checksum (pitchsim.study.checksum) against SHA-256 over a run's part
files in memory, thread CPU time, best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pitchsim.game.rules import Rules
from pitchsim.kernels.simulate import policy_row
from pitchsim.study import batch, manifest
from pitchsim.study.analysis import Run, make_table
from pitchsim.study.batch import PART_SIZE, simulate
from pitchsim.study.exact import exact_checks
from pitchsim.study.manifest import RunParams, parse_players
from pitchsim.util.runtime import chunked


def raw_kernel(seed: int, players: int, deals: int, threads: int | None) -> tuple[float, float]:
    """Wall and CPU seconds for the kernel alone to play ``deals`` deals, in the
    pipeline's parts."""
    policies = policy_row("heuristic", players)
    r = Rules()
    buffers = batch.part_buffers(PART_SIZE)
    stream = RunParams(seed, "heuristic", {}).stream_seed(players)
    start, cpu = time.perf_counter(), time.process_time()
    for s, e in chunked(deals, PART_SIZE):
        batch.play_deals(r, players, stream, s, e - s, policies, threads, buffers=buffers)
    return time.perf_counter() - start, time.process_time() - cpu


def pipeline(
    seed: int, players: int, deals: int, threads: int | None, where: Path
) -> tuple[float, float]:
    """Wall and CPU seconds for a whole run (its directory is deleted afterwards)."""
    out = where / f"run-{players}"
    shutil.rmtree(out, ignore_errors=True)
    start, cpu = time.perf_counter(), time.process_time()
    simulate(out, deals, [players], seed=seed, threads=threads)
    seconds = time.perf_counter() - start, time.process_time() - cpu
    shutil.rmtree(out)
    return seconds


def bench_pipeline(args) -> None:
    with tempfile.TemporaryDirectory(prefix="pitchsim-bench-") as tmp:
        where = Path(tmp)
        for n in parse_players(args.players):
            raw_kernel(1, n, 20_000, args.threads)  # compile / load caches
            pipeline(1, n, 20_000, args.threads, where)
            raw, pipe = [], []
            for r in range(args.rounds):
                raw.append(raw_kernel(100 + r, n, args.deals, args.threads))
                pipe.append(pipeline(100 + r, n, args.deals, args.threads, where))
            d = args.deals
            kr = d / statistics.median(w for w, _ in raw)
            kp = d / statistics.median(w for w, _ in pipe)
            cr = statistics.median(c for _, c in raw) / d * 1e9
            cp = statistics.median(c for _, c in pipe) / d * 1e9
            br, bp = d / min(w for w, _ in raw), d / min(w for w, _ in pipe)
            print(
                f"{n} players, {d:,} deals x {args.rounds} rounds (medians):\n"
                f"  wall: raw kernel {kr:,.0f} deals/s, pipeline {kp:,.0f} deals/s "
                f"-> keeps {100 * kp / kr:.1f}% (best rounds: {br:,.0f} and {bp:,.0f} "
                f"deals/s -> {100 * bp / br:.1f}%)\n"
                f"  CPU:  raw kernel {cr:,.0f} ns/deal, pipeline {cp:,.0f} ns/deal "
                f"-> keeps {100 * cr / cp:.1f}%\n"
                f"  rounds, deals/s: raw {', '.join(f'{d / w:,.0f}' for w, _ in raw)}; "
                f"pipeline {', '.join(f'{d / w:,.0f}' for w, _ in pipe)}",
                flush=True,
            )


def link_copies(run: Path, copies: int, out: Path) -> Path:
    """A run of ``copies`` times ``run``'s parts, as hard links, with a matching manifest."""
    doc = json.loads((run / manifest.MANIFEST).read_text())
    if any(p["count"] != doc["part_size"] or p["status"] != "done" for p in doc["parts"]):
        sys.exit("--copies needs a finished run whose parts are all full")
    out.mkdir(parents=True)
    parts = []
    for n in doc["players"]:
        start = 0
        for _ in range(copies):
            for p in (p for p in doc["parts"] if p["players"] == n):
                i = len(parts)
                os.link(run / p["file"], out / f"part-{i:06d}.parquet")
                parts.append(dict(p, index=i, start=start, file=f"part-{i:06d}.parquet"))
                start += p["count"]
    doc.update(parts=parts, deals_per_player_count=doc["deals_per_player_count"] * copies)
    (out / manifest.MANIFEST).write_text(json.dumps(doc))
    return out


def evict(run: Path) -> None:
    """Drop the run's files (only those) from the page cache: the next read is from disk."""
    for f in run.glob("part-*.parquet"):
        fd = os.open(f, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def bench_aggregate(args) -> None:
    run = Path(args.run)
    with tempfile.TemporaryDirectory(prefix="pitchsim-agg-", dir=run.parent) as tmp:
        if args.copies > 1:
            if args.verify != "off":
                sys.exit(
                    "--copies repeats parts at other deal ranges, which verification "
                    "refuses: add --verify off"
                )
            run = link_copies(run, args.copies, Path(tmp) / "linked")
        m = manifest.read_manifest(run)
        deals = sum(r.rows for r in m.done())
        size = sum(r.bytes for r in m.done())
        cache = "cold page cache" if args.cold else "warm page cache"
        print(
            f"run {args.run}{f' x {args.copies} (hard links)' if args.copies > 1 else ''}: "
            f"{deals:,} deals in {len(m.done())} parts, {size / 1e9:.2f} GB, {cache}; "
            f"load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        modes = {
            "both": [True, False],
            "on": [True],
            "off": [False],
            "full": ["full"],
            "all": [True, "full", False],
        }[args.verify]
        for label, fn in [
            ("make_table by length, high", lambda r: make_table(r, ["length", "high"])),
            ("make_table by holding", lambda r: make_table(r, ["holding"])),
            ("exact_checks", lambda r: exact_checks(r)),
        ]:
            times = {v: [] for v in modes}
            cpus = {v: [] for v in modes}
            for _ in range(args.rounds):
                for verify in modes:  # alternating, so that load from others falls on both
                    if args.cold:
                        evict(run)
                    opened = Run(run, verify=verify)
                    if args.rehash and opened.known is not None:
                        opened.known.entries.clear()  # as on the first read of a copied run
                    start, cpu = time.perf_counter(), time.process_time()
                    fn(opened)
                    times[verify].append(time.perf_counter() - start)
                    cpus[verify].append(time.process_time() - cpu)
            for verify, ts in times.items():
                what = {
                    True: "verified" + (", first read" if args.rehash else ""),
                    "full": "verified by SHA-256 (--full-check)",
                    False: "unverified (--no-verify)",
                }[verify]
                print(
                    f"  {label}, {what}: {min(ts):.2f} s best of {args.rounds} "
                    f"({deals / min(ts) / 1e6:.1f}M deals/s; all: "
                    f"{', '.join(f'{t:.2f}' for t in ts)} s); CPU "
                    f"{min(cpus[verify]):.2f} s best",
                    flush=True,
                )
            for verify in [v for v in modes if v is not False and False in modes]:
                on, off = min(times[verify]), min(times[False])
                med = statistics.median(times[verify]) / statistics.median(times[False]) - 1
                c_on, c_off = min(cpus[verify]), min(cpus[False])
                how = "SHA-256 verification" if verify == "full" else "verification"
                print(
                    f"  -> {how} costs {100 * (on - off) / off:+.1f}% wall (best "
                    f"against best; {100 * med:+.1f}% median against median), "
                    f"{100 * (c_on - c_off) / c_off:+.1f}% CPU (best against best)",
                    flush=True,
                )
        print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)


def bench_encode(args) -> None:
    """One part's columns encoded by pitchsim.study.parquet and by pyarrow's writer with the
    same encodings (thread CPU time, best of ``rounds``), and the bytes each writes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pitchsim.study.parquet import Encoder

    n = args.players
    columns = batch.simulate_part(manifest.Part(0, n, 0, args.deals), RunParams(1, "heuristic", {}))
    table = batch.part_table(columns)
    encodings = {
        c.name: "PLAIN"
        if c.encoding == "plain" or pa.types.is_boolean(c.type)
        else "DELTA_BINARY_PACKED"
        for c in batch._PARQUET_COLUMNS
    }
    encoder = Encoder()

    def ours():
        return encoder.encode(batch._PARQUET_COLUMNS, columns)

    def pyarrow_writer():
        sink = pa.BufferOutputStream()
        pq.write_table(
            table,
            sink,
            row_group_size=table.num_rows,
            compression="none",
            use_dictionary=False,
            write_statistics=False,
            store_schema=False,
            column_encoding=encodings,
        )
        return sink.getvalue()

    for label, fn in [("pitchsim.study.parquet", ours), ("pyarrow", pyarrow_writer)]:
        best = float("inf")
        for _ in range(args.rounds + 1):  # the first round warms caches and buffers
            start = time.thread_time()
            data = fn()
            best = min(best, time.thread_time() - start)
        same = pq.read_table(pa.BufferReader(bytes(data))).equals(table)
        print(
            f"{label:17s} {best / args.deals * 1e9:5.1f} ns CPU a deal, "
            f"{len(data) / args.deals:.2f} bytes a deal, reads back equal: {same}"
        )


def bench_checksum(args) -> None:
    """GB/s of thread CPU time for the fast checksum and for SHA-256 over a run's parts."""
    import hashlib

    from pitchsim.study.checksum import checksum

    run = Path(args.run)
    parts = [f.read_bytes() for f in sorted(run.glob("part-*.parquet"))]
    size = sum(len(p) for p in parts)
    checksum(parts[0])  # load the compiled kernel
    print(
        f"{len(parts)} parts of {run}, {size / 1e9:.2f} GB in memory; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    for label, fn in [
        ("fast checksum", checksum),
        ("SHA-256", lambda d: hashlib.sha256(d).hexdigest()),
    ]:
        best = float("inf")
        for _ in range(args.rounds):
            start = time.thread_time()
            for p in parts:
                fn(p)
            best = min(best, time.thread_time() - start)
        print(
            f"  {label:13s} {size / best / 1e9:6.2f} GB/s ({best:.3f} s CPU, best of {args.rounds})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pipeline", help="pipeline deals/s against the raw kernel")
    p.add_argument("--deals", type=int, default=4 * PART_SIZE)
    p.add_argument("--players", default="3,4")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=None)
    e = sub.add_parser("encode", help="Parquet encoding: pitchsim.study.parquet against pyarrow")
    e.add_argument("--deals", type=int, default=PART_SIZE)
    e.add_argument("--players", type=int, default=4)
    e.add_argument("--rounds", type=int, default=5)
    a = sub.add_parser("aggregate", help="time the aggregations on a run")
    a.add_argument("--run", default="runs/reports")
    a.add_argument("--copies", type=int, default=1)
    a.add_argument("--rounds", type=int, default=2)
    a.add_argument("--cold", action="store_true", help="evict the parts from the page cache first")
    a.add_argument(
        "--verify",
        choices=["both", "on", "off", "full", "all"],
        default="both",
        help="read parts verified (checksum, rows, players, deals), not, both "
        "alternately (default), reporting what verification costs; full: "
        "by SHA-256 (--full-check); all: verified, full and not",
    )
    a.add_argument(
        "--rehash",
        action="store_true",
        help="hash every part on every verified read, as on the first read of a "
        "run copied in (by default a part already hashed is not hashed again)",
    )
    c = sub.add_parser("checksum", help="the fast checksum against SHA-256 on a run's parts")
    c.add_argument("--run", default="runs/reports")
    c.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    {
        "pipeline": bench_pipeline,
        "encode": bench_encode,
        "aggregate": bench_aggregate,
        "checksum": bench_checksum,
    }[args.what](args)


if __name__ == "__main__":
    main()
