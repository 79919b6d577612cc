"""Where the server's searches run: worker processes under a bounded queue, time-limited, stoppable.

The questions and their answers (hints of either kind, "still winnable?", the last winnable
position) are the :class:`yukon.advisor.Advisor`'s, shared with the terminal game; the server only
chooses where its searches run: :class:`QueueRunner` puts each one in the :class:`SolverQueue`, so
the server keeps answering and moves never wait for the solver. A search that does not answer in
time gets the advisor's honest fallback (``source: "heuristic"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

import anyio

from .. import winnable_deals
from ..advisor import MIN_SEARCH, Deadline, SearchUnavailable, Verdict
from ..game import Game

T = TypeVar("T")

#: Seconds per deal, and in all, when looking for a winnable deal.
DEAL_TIME = winnable_deals.DEAL_TIME
DEAL_BUDGET = winnable_deals.DEAL_BUDGET


#: Solver workers (one for hints, the rest for long jobs), and how many solver jobs may wait or run at once.
WORKERS = 2
MAX_PENDING = 6
#: How many of those places one game's searches may hold at once (its hint, "winnable?", the computer's move,
#: the analysis: a question asked again replaces its older search, so a game asks at most four at once).
SHARE = 2
#: Seconds an answer may come after its limit (the thread hand-over and the answer itself).
GRACE = 0.15


class SolverBusyError(SearchUnavailable):
    """Every solver worker is taken and the queue is full: the caller answers without the solver."""


class ClientGone:
    """Set when the client that asked has gone away (its tab closed, the page reloaded): the solver jobs
    it waits for are stopped at once, so that no worker goes on searching for an answer nobody will read
    (a long job would keep one of the few long-job workers for seconds, and "busy" everyone else)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._gone = False
        self._stops: list[Any] = []

    def is_set(self) -> bool:
        return self._gone

    def set(self) -> None:
        with self._lock:
            self._gone = True
            stops, self._stops = self._stops, []
        for stop in stops:
            stop.set()

    def stop_with(self, stop: Any) -> None:
        """Set ``stop`` (a job's stop event) when the client goes: at once if it has gone already."""
        with self._lock:
            if not self._gone:
                self._stops.append(stop)
                return
        stop.set()


@contextlib.asynccontextmanager
async def watch_client(receive: Callable[[], Any]) -> AsyncIterator[ClientGone]:
    """A :class:`ClientGone` set if the client of the request whose ASGI ``receive`` this is goes away
    while the block runs. Only for a request whose body has been read (or that has none to read): the
    watch reads on from ``receive`` until the server says the connection closed."""
    gone = ClientGone()

    async def watch() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass  # the rest of a body nobody reads
        gone.set()

    watcher = asyncio.ensure_future(watch())
    try:
        yield gone
    finally:
        watcher.cancel()


class _SharedStop:
    """A stop event shared with a worker process: one byte of shared memory per job slot.

    In the server it is set like a ``threading.Event``; in the worker the solver polls ``is_set``.
    """

    def __init__(self, flags: Any, slot: int) -> None:
        self._flags = flags
        self.slot = slot

    def set(self) -> None:
        self._flags[self.slot] = 1

    def is_set(self) -> bool:
        return bool(self._flags[self.slot])

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.is_set():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True


class _Job:
    """A search in the queue: whose it is (a game), its stop event, its lane, and its future once submitted."""

    __slots__ = ("future", "long", "owner", "stop")

    def __init__(self, owner: Hashable, stop: Any, long: bool) -> None:
        self.owner = owner
        self.stop = stop
        self.long = long
        self.future: Any = None


class _GiveWay:
    """``set()`` makes a job give way (as a stop event does, and a job not started leaves the queue)."""

    def __init__(self, queue: SolverQueue, job: _Job) -> None:
        self.queue = queue
        self.job = job

    def set(self) -> None:
        with self.queue._lock:
            self.queue._give_way(self.job)


_WORKER_FLAGS: Any = None  # in a worker process: the stop flags of every slot


def _start_worker(flags: Any) -> None:
    global _WORKER_FLAGS
    _WORKER_FLAGS = flags
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # the server's own requests come first on a busy machine
    parent = os.getppid()

    def watch_parent() -> None:  # a worker never outlives its server, even one killed with SIGKILL
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(0)

    threading.Thread(target=watch_parent, name="yukon-parent-watch", daemon=True).start()


def _ready() -> bool:
    return True


def _in_worker(fn: Callable[[Any, float], T], slot: int, deadline: float) -> T | None:
    stop = _SharedStop(_WORKER_FLAGS, slot)
    left = deadline - time.time()
    if stop.is_set() or left <= 0:
        return None  # superseded or out of time while it waited
    return fn(stop, left)


class SolverQueue:
    """The solver's workers and their bounded queue.

    The workers are processes by default (``processes=False``: threads, for tests that replace the
    solver), started on first use: the solver's pure-Python parts then never hold the server's GIL,
    and the workers run at a lower priority, so moves never wait for a hint. At most ``max_pending``
    jobs wait or run in all, and one per key (a game and a kind of question): a newer job for a key
    stops the older one, whose caller then answers with what it has. A job is given the time left
    until its deadline (counted from the request, so the time spent waiting in the queue counts),
    and its caller stops waiting at the deadline. A job is a picklable callable ``fn(stop, seconds_left)``
    (a module-level function, or a :func:`functools.partial` of one).

    **A fair share.** One game (the first item of a tuple ``key``, else the key) holds at most ``share``
    places at once, so that a flood of one game's searches (a held key, a script) never makes every other
    game's hint "busy": a game at its share that asks again has its oldest search (in the same lane, if
    any) give way to the newest (a player who presses Hint twice wants the newest answer). A search that
    gives way before it has started leaves its place at once (its caller answers without the solver); one
    under way is stopped, and holds its worker only until it notices.

    **Two lanes.** Long jobs (``long=True``: "winnable?" with its look-back, the winnable-deal search,
    the analysis; seconds each) run in workers of their own, ``workers - 1`` of them, and at most half of
    ``max_pending`` of them wait or run at once; hints have the other worker and the other places. A
    hint therefore never queues behind a look-back of several seconds (with a single worker both kinds
    share it).
    """

    def __init__(self, workers: int = WORKERS, max_pending: int = MAX_PENDING, *, processes: bool = True,
                 share: int = SHARE) -> None:
        self.workers = workers
        self.max_pending = max_pending
        self.max_long = max(1, max_pending // 2)
        self.share = max(1, min(share, max_pending))
        self.processes = processes
        # re-entrant: cancelling a job that has not started runs its end (which takes the lock) at once
        self._lock = threading.RLock()
        self._pending = 0
        self._pending_long = 0
        self._latest: dict[Hashable, _Job] = {}
        self._live: dict[Hashable, list[_Job]] = {}  # each game's searches not superseded, oldest first
        self._free = list(range(max_pending))
        self._pools: dict[bool, Executor] = {}
        self._flags: Any = None

    @property
    def pending(self) -> int:
        """Jobs waiting or running now (a stopped job counts until it has ended)."""
        with self._lock:
            return self._pending

    def _lane(self, long: bool) -> tuple[bool, int]:
        """The pool a job goes to (``True``: the long jobs'), and its number of workers."""
        if self.workers < 2:
            return False, self.workers
        return long, (self.workers - 1 if long else 1)

    def _executor(self, long: bool) -> Executor:
        lane, size = self._lane(long)
        pool = self._pools.get(lane)
        if pool is None:
            if self.processes:
                context = multiprocessing.get_context("spawn")  # no fork of a threaded server
                if self._flags is None:
                    self._flags = context.RawArray("b", self.max_pending)
                pool = ProcessPoolExecutor(size, mp_context=context, initializer=_start_worker,
                                           initargs=(self._flags,))
            else:
                pool = ThreadPoolExecutor(size, thread_name_prefix="yukon-solver")
            self._pools[lane] = pool
        return pool

    def _give_way(self, job: _Job) -> None:
        """Stop ``job`` (a newer one replaces it); one not started yet leaves the queue now. Under the lock."""
        job.stop.set()
        live = self._live.get(job.owner)
        if live is not None and job in live:
            live.remove(job)
            if not live:
                del self._live[job.owner]
        if job.future is not None:
            job.future.cancel()  # runs its end at once when it had not started

    def _drop(self, long: bool, pool: Executor) -> None:
        """Forget a broken pool (a fresh one starts with the next job)."""
        lane, _ = self._lane(long)
        if self._pools.get(lane) is pool:
            del self._pools[lane]

    async def run(
        self, key: Hashable, fn: Callable[[Any, float], T], limit: float, *, grace: float = GRACE,
        long: bool = False, gone: ClientGone | None = None,
    ) -> T | None:
        """``fn(stop, seconds_left)`` in a worker; None when it is not done within ``limit`` (plus ``grace``)
        seconds, or was superseded before it started. Raises :class:`SolverBusyError` when the queue (or,
        for a ``long`` job, the long jobs' share of it) is full. ``gone``: the asking client's; the job is
        stopped when it goes away (its answer, if any, is still returned).
        """
        deadline = time.time() + limit
        owner = key[0] if isinstance(key, tuple) and key else key
        with self._lock:
            older = self._latest.get(key)
            if older is not None:
                self._give_way(older)
            mine = self._live.get(owner, [])
            while len(mine) >= self.share:  # the game's oldest search gives way to its newest: one in the
                # same lane first, which the newest would otherwise wait behind
                self._give_way(next((j for j in mine if j.long == long), mine[0]))
            if self._pending >= self.max_pending or (long and self._pending_long >= self.max_long):
                raise SolverBusyError("the solver is busy with other requests")
            pool = self._executor(long)
            slot = self._free.pop()
            if self.processes:
                self._flags[slot] = 0
                stop: Any = _SharedStop(self._flags, slot)
            else:
                stop = threading.Event()
            job = _Job(owner, stop, long)
            self._pending += 1
            self._pending_long += long
            self._latest[key] = job
            self._live.setdefault(owner, []).append(job)

            def ended(_: Any = None) -> None:
                with self._lock:
                    self._pending -= 1
                    self._pending_long -= long
                    self._free.append(slot)
                    if self._latest.get(key) is job:
                        del self._latest[key]
                    live = self._live.get(owner)
                    if live is not None and job in live:
                        live.remove(job)
                        if not live:
                            del self._live[owner]

            try:
                if self.processes:
                    future = pool.submit(_in_worker, fn, slot, deadline)
                else:
                    future = pool.submit(_in_thread, fn, stop, deadline)
            except Exception:  # a broken or shut-down pool: start a fresh one next time
                ended()
                self._drop(long, pool)
                raise SolverBusyError("the solver's workers are restarting") from None
            job.future = future
            future.add_done_callback(ended)
        if gone is not None:  # its client gone, the search stops; one not started yet leaves the queue at once
            gone.stop_with(_GiveWay(self, job))
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                          max(0.0, deadline - time.time()) + grace)
        except TimeoutError:
            return None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and (task is None or not task.cancelling()):
                return None  # it gave way to a newer search before it started
            raise
        except BrokenExecutor:  # a worker died (e.g. killed): answer without it, and start afresh
            with self._lock:
                self._drop(long, pool)
            return None
        finally:
            stop.set()

    def start(self) -> None:
        """Start the worker processes now (they take a moment to import the solver), not at the first hint."""
        if self.processes:
            for long in (False, True):
                with self._lock:
                    pool = self._executor(long)
                for _ in range(self._lane(long)[1]):
                    pool.submit(_ready)

    def stop(self, key: Hashable) -> bool:
        """Stop the job of ``key`` if one waits or runs (its caller answers with what it has); True if one did."""
        with self._lock:
            job = self._latest.get(key)
            if job is not None:
                self._give_way(job)
        return job is not None

    def stop_all(self) -> None:
        """Stop every job (the server stops)."""
        with self._lock:
            for job in list(self._latest.values()):
                self._give_way(job)

    def shutdown(self) -> None:
        """Stop every job and end the workers (they start again on the next job)."""
        self.stop_all()
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)


def _in_thread(fn: Callable[[Any, float], T], stop: threading.Event, deadline: float) -> T | None:
    left = deadline - time.time()
    if stop.is_set() or left <= 0:
        return None
    return fn(stop, left)


# ---------------------------------------------------------------------- the server's searches


class QueueRunner:
    """The advisor's :data:`~yukon.advisor.Runner` on the server: each search of one game runs in the
    solver's queue (worker processes, bounded; a newer search of the game for the same question stops
    the older). Called from a worker thread of the server (it waits for the event loop's answer)."""

    def __init__(self, queue: SolverQueue, game_id: str) -> None:
        self.queue = queue
        self.game_id = game_id

    def __call__(self, question: str, job: Callable[[Any, float], T], limit: float, stop: Any = None) -> T | None:
        # a request's Deadline bounds the search: it gets the time left, less the queue's grace for its answer
        if isinstance(stop, Deadline):
            limit = min(limit, stop.left() - GRACE)
            if limit < MIN_SEARCH:
                return None
        gone = stop if isinstance(stop, ClientGone) else None  # the search stops when its client goes away
        return anyio.from_thread.run(partial(self.queue.run, (self.game_id, question), job, limit,
                                             long=question != "hint", gone=gone))


def winnable_deal_job(variant: str, options: dict[str, Any], stop: Any, left: float) -> tuple[int, Verdict]:
    """A random deal of these rules that the solver proves winnable, within the time left."""
    from ..rules import rules_for

    rules = rules_for(variant, **options)
    return find_winnable_deal(lambda s: Game.deal(rules, seed=s), stop, budget=max(0.2, left - DEAL_TIME))


def find_winnable_deal(
    make: Callable[[int], Game], stop: threading.Event, *, per_deal: float = DEAL_TIME, budget: float = DEAL_BUDGET,
) -> tuple[int, Verdict]:
    """A random deal number whose deal the solver proves winnable, or the last one tried (honestly marked).

    The search is :func:`yukon.winnable_deals.find_winnable_deal`, shared with the terminal game."""
    found = winnable_deals.find_winnable_deal(make, stop, per_deal=per_deal, budget=budget)
    return found.seed, Verdict(found.status, "solver", found.seconds, found.note)
