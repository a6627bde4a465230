"""Runs on a real Dask cluster: a LocalCluster of worker *processes* (each imports
pitchsim and loads the kernels itself, as on a cluster of machines), through the CLI's
``simulate --scheduler`` and ``--resume``, and with a worker killed in the middle of a
run.  Every way gives the bytes of the local run."""

from __future__ import annotations

import os
import signal
import time

import pytest
from clirun import cli

from pitchsim.study.batch import simulate
from pitchsim.study.manifest import read_manifest

distributed = pytest.importorskip("distributed")

DEALS, PART, SEED = 6000, 1500, 29  # 4 parts per player count


def part_bytes(run):
    return [(run / r.part.file).read_bytes() for r in read_manifest(run).parts]


def succeeded(capsys, *argv):
    code, out, err = cli(*argv)
    assert code == 0, err
    return out, err


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
    ) as c:
        yield c


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    path = tmp_path_factory.mktemp("local") / "run"
    simulate(path, DEALS, [3, 5], seed=SEED, part_size=PART, threads=1)
    return path


def test_simulate_on_worker_processes_gives_the_local_bytes(capsys, tmp_path, cluster, local):
    out = tmp_path / "dask"
    text, _ = succeeded(
        capsys,
        "simulate",
        "--deals",
        DEALS,
        "--players",
        "3,5",
        "--seed",
        SEED,
        "--part-size",
        PART,
        "--out",
        out,
        "--scheduler",
        cluster.scheduler_address,
        "--quiet",
    )
    assert "played 12,000 deals (8 parts)" in text
    assert part_bytes(out) == part_bytes(local)
    assert read_manifest(out).to_json()["parts"] == read_manifest(local).to_json()["parts"]


def test_resume_through_the_cluster(capsys, tmp_path, cluster, local):
    run = tmp_path / "run"
    run.mkdir()
    for f in local.iterdir():
        (run / f.name).write_bytes(f.read_bytes())
    (run / "part-000001.parquet").unlink()
    (run / "part-000006.parquet").write_bytes(b"PAR1")  # truncated by a crash
    text, err = succeeded(
        capsys, "simulate", "--resume", "--out", run, "--scheduler", cluster.scheduler_address
    )
    assert "resumed: played 3,000 deals (2 parts)" in text and "truncated" in err
    assert part_bytes(run) == part_bytes(local)


def _slow_parts(delay):
    """Run on each worker: make its parts take ``delay`` seconds longer, so that a kill
    finds work in flight.  The bytes are the real function's."""
    import pitchsim.study.batch as b

    real = getattr(b, "_real_part_bytes", b.part_bytes)
    b._real_part_bytes = real

    def slow(*args, **kwargs):
        time.sleep(delay)
        return real(*args, **kwargs)

    b.part_bytes = slow


def test_a_worker_killed_mid_run_changes_nothing(tmp_path, cluster, local):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        client.run(_slow_parts, 0.4)
        pids = client.run(os.getpid)
        victim = sorted(pids.values())[0]
        killed = []

        def kill_after_the_first_part(deals):
            if not killed:
                os.kill(victim, signal.SIGKILL)  # the worker process, not its nanny
                killed.append(time.monotonic())

        simulate(
            tmp_path / "run",
            DEALS,
            [3, 5],
            seed=SEED,
            part_size=PART,
            scheduler=cluster.scheduler_address,
            progress=kill_after_the_first_part,
        )
        assert killed
        with pytest.raises(ProcessLookupError):
            os.kill(victim, 0)  # it really died
        client.run(_slow_parts, 0.0)
    assert part_bytes(tmp_path / "run") == part_bytes(local)
