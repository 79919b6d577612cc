"""An interrupted ``yukon study run`` stops its deals at once, not at their time limit, and resumes."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from yukon.study import StudyDB

from .helpers import alive, committed, python_children, study_command

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")]

#: a hard deal: undecided after the 30 s per deal that the runs below allow it
HARD = 183
#: deals decided in well under a second each (seed 2 takes seconds: not among them)
QUICK = (1, 3, 4)
#: a deal after the hard one that the solver proves lost before any search
LOST_AT_ONCE = 185
#: seconds an interrupted run may take to end (its workers stopped, the study file closed, the interpreter
#: gone): enough for a load average of 15, far below the 30 s limit of the deal it stops
EXIT_WITHIN = 10.0
#: the honest runs' budget: a game of deal 1 takes minutes with it (with the default, about 8 s idle)
HONEST_BUDGET = "100x50000"


def _start(db: Path, seeds: str, *extra: str) -> subprocess.Popen[str]:
    limit = [] if "honest" in extra else ["--time-limit", "30"]  # (the honest player has its budget instead)
    cmd = study_command("run", "--variant", "yukon", "--seeds", seeds, *limit, "--db", str(db), *extra)
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for(proc: subprocess.Popen[str], ready: object, what: str, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not ready():  # type: ignore[operator]
        assert proc.poll() is None, f"the run ended before {what}: {proc.stderr.read() if proc.stderr else ''}"
        assert time.monotonic() < deadline, f"not {what} within {within:g} s"
        time.sleep(0.05)


def _interrupt(proc: subprocess.Popen[str], signum: int) -> tuple[float, str, set[int]]:
    """Send ``signum`` to the study alone (Ctrl-C on a terminal goes to the group too: its workers ignore
    SIGINT); the seconds until it ended, its stderr and the worker processes it had."""
    workers = python_children(proc.pid)
    assert workers, "no worker process"
    sent = time.monotonic()
    proc.send_signal(signum)
    try:
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    took = time.monotonic() - sent
    return took, proc.stderr.read() if proc.stderr else "", workers


def _assert_no_worker_left(workers: set[int]) -> None:
    deadline = time.monotonic() + 5
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = sorted(p for p in workers if alive(p))
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, f"workers {left} still run after the study ended"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_ends_at_once_and_resumes(tmp_path: Path, signum: int) -> None:
    """The hard deal is stopped in the middle of its 30 s: the run ends within a second or so with the
    message, keeps the quick deals' rows, writes none for the hard one, and the same command resumes it."""
    db = tmp_path / "s.sqlite3"
    seeds = ",".join(map(str, (*QUICK, HARD)))
    proc = _start(db, seeds, "--workers", "1")
    _wait_for(proc, lambda: committed(db) == len(QUICK), "the quick deals were committed")
    time.sleep(0.5)  # the hard deal's search is under way
    took, err, workers = _interrupt(proc, signum)
    assert took < EXIT_WITHIN, f"the run took {took:.1f} s to end after the signal"
    assert proc.returncode == 130, err
    assert "interrupted: run the same command again to resume" in err
    _assert_no_worker_left(workers)
    with StudyDB(db) as study:
        ((sid, _),) = study.studies()
        assert [r.seed for r in study.rows(sid)] == list(QUICK)  # no row for the stopped deal
    # the same command again has only the hard deal to do
    again = _start(db, seeds, "--workers", "1")
    _wait_for(again, lambda: python_children(again.pid), "a worker started")
    time.sleep(0.5)
    took, err, workers = _interrupt(again, signum)
    assert took < EXIT_WITHIN
    assert f"{len(QUICK)} already done, 1 to solve" in err, err
    _assert_no_worker_left(workers)


def test_sigint_after_the_first_row_keeps_it_and_the_same_command_finishes_the_rest(tmp_path: Path) -> None:
    """Ctrl-C once the first deal's row is in: the run stops the deal under way (the hard one, 3 s), keeps
    the row, says how to resume; the same command then solves only the deals without a row, to the end,
    and leaves the first row as it was."""
    db = tmp_path / "s.sqlite3"
    order = (QUICK[0], HARD, LOST_AT_ONCE)  # (a run solves its seeds in order)
    seeds = ",".join(map(str, order))

    def start() -> subprocess.Popen[str]:
        cmd = study_command("run", "--variant", "yukon", "--seeds", seeds, "--time-limit", "3", "--db", str(db),
                            "--workers", "1")
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

    proc = start()
    _wait_for(proc, lambda: committed(db) >= 1, "the first row was committed")
    took, err, workers = _interrupt(proc, signal.SIGINT)
    assert took < EXIT_WITHIN, f"the run took {took:.1f} s to end after the signal"
    assert proc.returncode == 130, err
    assert "interrupted: run the same command again to resume" in err, err
    _assert_no_worker_left(workers)
    with StudyDB(db) as study:
        ((sid, _),) = study.studies()
        first = [(r.seed, r.status, r.nodes) for r in study.rows(sid)]
    assert [seed for seed, _, _ in first] == [QUICK[0]], first  # the hard deal was stopped, not recorded
    again = start()
    try:
        _, err = again.communicate(timeout=60)
    finally:
        if again.poll() is None:
            os.killpg(again.pid, signal.SIGKILL)
            again.wait()
    assert again.returncode == 0, err
    assert f"1 already done, {len(order) - 1} to solve" in err, err
    with StudyDB(db) as study:
        ((sid2, _),) = study.studies()
        after = {r.seed: (r.seed, r.status, r.nodes) for r in study.rows(sid2)}
    assert sid2 == sid and sorted(after) == sorted(order)  # one study, every deal once
    assert after[QUICK[0]] == first[0]  # the kept row untouched
    assert after[HARD][1] == "unknown"


def test_an_interrupted_honest_run_ends_at_once(tmp_path: Path) -> None:
    """The honest player's game of deal 1 takes minutes of searches with this budget: Ctrl-C stops it in
    the middle."""
    db = tmp_path / "s.sqlite3"
    proc = _start(db, "1", "--workers", "1", "--player", "honest", "--budget", HONEST_BUDGET)
    _wait_for(proc, lambda: python_children(proc.pid), "a worker started")
    time.sleep(1.5)  # the game is under way
    took, err, workers = _interrupt(proc, signal.SIGINT)
    assert took < EXIT_WITHIN, f"the run took {took:.1f} s to end after the signal"
    assert proc.returncode == 130 and "interrupted" in err, err
    assert committed(db) == 0
    _assert_no_worker_left(workers)


@pytest.mark.slow  # a Dask cluster
def test_an_interrupted_dask_run_stops_the_workers_searches(tmp_path: Path) -> None:
    """Cancelling a Dask future leaves a started task running: the run also stops its deals on the workers,
    so that the one worker thread is free for other work at once, not after the 30 s limit."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with distributed.Client(cluster) as client:
            db = tmp_path / "s.sqlite3"
            proc = _start(db, str(HARD), "--scheduler", cluster.scheduler_address)

            def solving() -> bool:
                return any(client.processing().values())

            _wait_for(proc, solving, "the cluster was solving")
            time.sleep(0.5)
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            assert time.monotonic() - sent < EXIT_WITHIN
            assert proc.returncode == 130
            started = time.monotonic()
            assert client.submit(sum, [1, 2], pure=False).result(timeout=30) == 3
            assert time.monotonic() - started < EXIT_WITHIN, "the worker was still busy with the stopped deal"
            assert committed(db) == 0
    finally:
        cluster.close()
