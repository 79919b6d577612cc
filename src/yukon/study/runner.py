"""Running a study: the seeds still missing, on a local process pool or a Dask cluster.

Workers only solve; this process alone writes to the database, one commit per
finished deal, so a killed run loses nothing that was committed, and the next
run with the same parameters computes only the seeds without a row.

>>> parse_seeds("1-5,9")
[1, 2, 3, 4, 5, 9]
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from .. import deal
from ..errors import InvalidSeedError
from .db import DealRow, StudyDB, StudyParams
from .worker import DealStopped, DealTask, init_worker, solve_deal, solve_deal_in_run, solver_version, stop_run

#: seeds one run may take (a study grows by running again with the next range)
MAX_SEEDS = 10_000_000
#: seconds a terminated worker process may take to end before it is killed
TERMINATE_GRACE = 0.5


class StudyError(Exception):
    """A study cannot run (bad seeds, unreachable scheduler, wrong solver on a worker, ...)."""


def parse_seeds(text: str, numbering: str = "yukon") -> list[int]:
    """``'1-10000'``, ``'42'`` or a comma list of both: the sorted seeds, each once (at most
    :data:`MAX_SEEDS`); :class:`StudyError` naming the fault otherwise (see :func:`yukon.deal.parse_seeds`).
    PySolFC's game numbers (``numbering="pysolfc"``) run past this program's deal numbers, to 10**20 - 1."""
    from ..pysolfc import parse_game_number

    try:
        return deal.parse_seeds(text, MAX_SEEDS, parse_game_number if numbering == "pysolfc" else deal.parse_seed)
    except InvalidSeedError as exc:
        raise StudyError(str(exc)) from None


def describe_seeds(seeds: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``'1-3,7'``."""
    parts: list[str] = []
    i = 0
    while i < len(seeds):
        j = i
        while j + 1 < len(seeds) and seeds[j + 1] == seeds[j] + 1:
            j += 1
        parts.append(str(seeds[i]) if i == j else f"{seeds[i]}-{seeds[j]}")
        i = j + 1
    return ",".join(parts)


@dataclass
class RunResult:
    study_id: int
    seeds: list[int]
    already: int  # rows found at the start
    computed: int = 0  # rows committed by this run
    failures: list[tuple[int, str]] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0


#: Called after each committed row.
RowCallback = Callable[[DealRow], None]


def _tasks(params: StudyParams, seeds: list[int]) -> list[DealTask]:
    from .players import is_honest

    player = params.solver_version if is_honest(params) else "solver"
    return [DealTask(params.variant, params.empty_column, params.foundation_return, s, params.time_limit,
                     params.node_limit, params.memory_limit, params.numbering, player, params.threads) for s in seeds]


def _local(tasks: list[DealTask], workers: int) -> Iterator[tuple[DealTask, DealRow | BaseException]]:
    """Results as they finish, from a local process pool; at most 2 tasks per worker queued ahead."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=init_worker, initargs=(os.getpid(),))
    pending: dict[Future[DealRow], DealTask] = {}
    queue = iter(tasks)
    clean = False
    try:
        def refill() -> None:
            while len(pending) < 2 * workers:
                task = next(queue, None)
                if task is None:
                    return
                pending[pool.submit(solve_deal, task)] = task

        refill()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: pending[f].seed):
                task = pending.pop(fut)
                exc = fut.exception()
                if exc is not None and type(exc).__name__ == "BrokenProcessPool":
                    raise StudyError(f"a worker process died while solving seed {task.seed} ({exc})")
                yield task, (exc if exc is not None else fut.result())
            refill()
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        else:  # interrupted or failed: stop the workers now, not after their current deal
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            _end_processes(procs)


def _end_processes(procs: list[Any]) -> None:
    """Terminate the worker processes ``procs`` and wait for them (the pool's exit handler joins them too):
    SIGTERM ends a worker at once (:func:`~yukon.study.worker.init_worker`), SIGKILL one that lingers."""
    for proc in procs:
        proc.terminate()
    deadline = time.monotonic() + TERMINATE_GRACE
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
    for proc in procs:
        if proc.is_alive():
            proc.kill()
            proc.join()


def _probe(address: str, timeout: float) -> None:
    """Open one Dask comm to ``address`` and complete its handshake within ``timeout`` seconds.

    ``Client(address, timeout=...)`` waits forever for the handshake of a port that accepts connections but
    never answers (distributed's ``comm.connect`` reads the handshake without a timeout); this bounds it.
    """
    import asyncio

    from distributed.comm import connect as comm_connect

    async def probe() -> None:
        comm = await asyncio.wait_for(comm_connect(address, timeout=timeout), timeout)
        await comm.close()

    try:
        asyncio.run(probe())
    except TimeoutError:
        raise OSError(f"no answer within {timeout:g} s") from None


def connect(address: str, timeout: float) -> Any:
    """A ``dask.distributed.Client`` on the scheduler at ``address``, with at least one worker that runs
    this solver version; :class:`StudyError` (one line) otherwise."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise StudyError("--scheduler needs Dask: pip install 'yukon[cluster]'") from None
    import logging

    for name in ("distributed", "distributed.client", "distributed.comm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)  # our error says it in one line
    try:
        _probe(address, timeout)
        client = Client(address, timeout=timeout, set_as_default=False)
    except ValueError as exc:  # (distributed's parse of the address: found at once, nothing was tried)
        raise StudyError(f"bad --scheduler address {address!r}: {str(exc).splitlines()[0]} (write e.g. "
                         "tcp://10.0.0.1:8786)") from None
    except Exception as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StudyError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({reason})") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except Exception:
            raise StudyError(f"the Dask scheduler at {address} has no worker (start one: "
                             f"dask worker {address})") from None
        try:
            versions = client.run(solver_version)
        except Exception as exc:
            raise StudyError(f"a Dask worker cannot run the solver ({type(exc).__name__}: {exc}); "
                             f"pip install 'yukon[cluster]' on every worker") from None
        from ..solver import SOLVER_VERSION

        wrong = {w: v for w, v in versions.items() if v != SOLVER_VERSION}
        if wrong:
            w, v = next(iter(wrong.items()))
            raise StudyError(f"Dask worker {w} has solver version {v}, this yukon has {SOLVER_VERSION}: "
                             f"install the same yukon on every machine")
    except BaseException:
        client.close()
        raise
    return client


def _dask(tasks: list[DealTask], client: Any) -> Iterator[tuple[DealTask, DealRow | BaseException]]:
    from dask.distributed import as_completed

    run = uuid.uuid4().hex
    futures = client.map(solve_deal_in_run, tasks, run=run, pure=False)
    owner = {f.key: t for f, t in zip(futures, tasks, strict=True)}
    try:
        for fut in as_completed(futures, loop=client.loop):
            task = owner[fut.key]
            try:
                row: DealRow | BaseException = fut.result()
            except Exception as exc:
                row = exc
            fut.release()
            yield task, row
    finally:
        unfinished = [f for f in futures if not f.done()]
        if unfinished:
            client.cancel(unfinished)  # the deals not started; the running ones go on unless stopped
            client.run(stop_run, run, on_error="ignore")


def run_study(
    db: StudyDB,
    params: StudyParams,
    seeds: list[int],
    *,
    workers: int | None = None,
    client: Any = None,
    on_start: Callable[[RunResult], None] | None = None,
    on_row: RowCallback | None = None,
) -> RunResult:
    """Solve every seed of ``seeds`` that has no row in this study yet and commit each row at once.

    ``client``: a ``dask.distributed.Client`` (see :func:`connect`); otherwise a local pool of ``workers``
    processes (default: all cores). A ``KeyboardInterrupt`` stops the run (``interrupted`` is set).
    """
    if not seeds:
        raise StudyError("empty seed range")
    study_id = db.study_id(params)
    assert study_id is not None
    done = db.done_seeds(study_id, seeds)
    todo = [s for s in seeds if s not in done]
    result = RunResult(study_id, seeds, already=len(done))
    if on_start:
        on_start(result)
    start = time.monotonic()
    if not todo:
        return result
    tasks = _tasks(params, todo)
    stream = _dask(tasks, client) if client is not None else _local(tasks, workers or os.cpu_count() or 1)
    try:
        for task, row in stream:
            if isinstance(row, DealStopped):  # stopped by this run's interruption: no row
                result.interrupted = True
                continue
            if isinstance(row, BaseException):
                result.failures.append((task.seed, f"{type(row).__name__}: {row}"))
                continue
            if row.solver_version != params.solver_version or row.seed != task.seed:
                raise StudyError(f"seed {task.seed} was solved by solver version {row.solver_version} on "
                                 f"{row.host}; this study is version {params.solver_version}: not mixing them")
            if db.add(study_id, row):
                result.computed += 1
                if on_row:
                    on_row(row)
    except KeyboardInterrupt:
        result.interrupted = True
        # (the signal lands most often during a row's commit, the fsync: that row is in the file, and was not
        # counted; every seed of todo had no row when the run began)
        result.computed = len(db.done_seeds(study_id, todo))
    finally:
        close = getattr(stream, "close", None)
        if close:
            close()
        result.seconds = time.monotonic() - start
    return result
