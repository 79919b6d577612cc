"""The solver, seen from the server: in a small thread pool, under a time limit, stoppable.

The solver (:func:`yukon.solve`, :func:`yukon.hint`) plays with perfect
information. Each call here works on a copy of the game, runs in a worker
thread so the server keeps answering, and gets a ``threading.Event`` that is
set when the time is up or the request goes away. When the solver cannot
decide, the answer says ``unknown``; when it is not installed, the hint falls
back to a simple heuristic and says so (``source: "heuristic"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import winnable_deals
from ..autoplay import is_safe_to_play_up
from ..game import Game
from ..notation import FOUNDATION, STOCK, Move

T = TypeVar("T")

#: Seconds the hint may think.
HINT_TIME = 0.8
#: Seconds to decide whether a position can still be won.
WINNABLE_TIME = 3.0
#: Seconds per deal, and in all, when looking for a winnable deal.
DEAL_TIME = winnable_deals.DEAL_TIME
DEAL_BUDGET = winnable_deals.DEAL_BUDGET
#: Seconds in all to look back for the last winnable position.
LOOKBACK_BUDGET = 8.0


#: Solver worker threads, and how many solver jobs may wait or run at once in all.
WORKERS = 2
MAX_PENDING = 6
#: Seconds an answer may come after its limit (the thread hand-over and the answer itself).
GRACE = 0.15


def solver_available() -> bool:
    try:
        import yukon.solver  # noqa: F401
    except ImportError:
        return False
    return True


class SolverBusyError(Exception):
    """Every solver worker is taken and the queue is full: the caller answers without the solver."""


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
    """

    def __init__(self, workers: int = WORKERS, max_pending: int = MAX_PENDING, *, processes: bool = True) -> None:
        self.workers = workers
        self.max_pending = max_pending
        self.processes = processes
        self._lock = threading.Lock()
        self._pending = 0
        self._latest: dict[Hashable, Any] = {}
        self._free = list(range(max_pending))
        self._pool: Executor | None = None
        self._flags: Any = None

    @property
    def pending(self) -> int:
        """Jobs waiting or running now (a stopped job counts until it has ended)."""
        with self._lock:
            return self._pending

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.processes:
                context = multiprocessing.get_context("spawn")  # no fork of a threaded server
                if self._flags is None:
                    self._flags = context.RawArray("b", self.max_pending)
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                                 initargs=(self._flags,))
            else:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="yukon-solver")
        return self._pool

    async def run(
        self, key: Hashable, fn: Callable[[Any, float], T], limit: float, *, grace: float = GRACE,
    ) -> T | None:
        """``fn(stop, seconds_left)`` in a worker; None when it is not done within ``limit`` (plus ``grace``)
        seconds, or was superseded before it started. Raises :class:`SolverBusyError` when the queue is full.
        """
        deadline = time.time() + limit
        with self._lock:
            older = self._latest.get(key)
            if older is not None:
                older.set()
            if self._pending >= self.max_pending:
                raise SolverBusyError("the solver is busy with other requests")
            pool = self._executor()
            slot = self._free.pop()
            if self.processes:
                self._flags[slot] = 0
                stop: Any = _SharedStop(self._flags, slot)
            else:
                stop = threading.Event()
            self._pending += 1
            self._latest[key] = stop

        def ended(_: Any = None) -> None:
            with self._lock:
                self._pending -= 1
                self._free.append(slot)
                if self._latest.get(key) is stop:
                    del self._latest[key]

        try:
            if self.processes:
                future = pool.submit(_in_worker, fn, slot, deadline)
            else:
                future = pool.submit(_in_thread, fn, stop, deadline)
        except Exception:  # a broken or shut-down pool: start a fresh one next time
            ended()
            self._pool = None
            raise SolverBusyError("the solver's workers are restarting") from None
        future.add_done_callback(ended)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)),
                                          max(0.0, deadline - time.time()) + grace)
        except TimeoutError:
            return None
        except BrokenExecutor:  # a worker died (e.g. killed): answer without it, and start afresh
            self._pool = None
            return None
        finally:
            stop.set()

    def start(self) -> None:
        """Start the worker processes now (they take a moment to import the solver), not at the first hint."""
        if self.processes:
            pool = self._executor()
            for _ in range(self.workers):
                pool.submit(_ready)

    def stop(self, key: Hashable) -> bool:
        """Stop the job of ``key`` if one waits or runs (its caller answers with what it has); True if one did."""
        with self._lock:
            job = self._latest.get(key)
            if job is not None:
                job.set()
        return job is not None

    def stop_all(self) -> None:
        """Stop every job (the server stops)."""
        with self._lock:
            for stop in self._latest.values():
                stop.set()

    def shutdown(self) -> None:
        """Stop every job and end the workers (they start again on the next job)."""
        self.stop_all()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _in_thread(fn: Callable[[Any, float], T], stop: threading.Event, deadline: float) -> T | None:
    left = deadline - time.time()
    if stop.is_set() or left <= 0:
        return None
    return fn(stop, left)


# ---------------------------------------------------------------------- the server's solver jobs (picklable)


def hint_job(game: Game, stop: Any, left: float) -> Hint:
    """A hint for ``game`` in the time left (a little kept back for the answer)."""
    return hint(game, stop, max(0.01, left - GRACE / 2))


def winnable_job(
    game: Game, cached: str | None, proven: dict[str, str], time_limit: float, stop: Any, left: float,
) -> tuple[Verdict, int | None, dict[str, str]]:
    """Can ``game`` (with its history) still be won; when lost, the last winnable move count.

    ``cached``: what is known of this position already; ``proven``: what is known of the others.
    Returns the verdict, the move count, and everything proven on the way (to remember)."""
    found = dict(proven)
    key = game.to_text()
    verdict = Verdict(cached, "solver") if cached else decide(game, stop, round(max(0.01, min(time_limit, left)), 2))
    if verdict.status != "unknown":
        found[key] = verdict.status
    back = last_winnable(game.copy(history=True), found, stop) if verdict.status == "lost" else None
    return verdict, back, found


def winnable_deal_job(variant: str, options: dict[str, Any], stop: Any, left: float) -> tuple[int, Verdict]:
    """A random deal of these rules that the solver proves winnable, within the time left."""
    from ..rules import rules_for

    rules = rules_for(variant, **options)
    return find_winnable_deal(lambda s: Game.deal(rules, seed=s), stop, budget=max(0.2, left - DEAL_TIME))


@dataclass
class Verdict:
    """What the solver says about a position."""

    status: str  # "won" | "lost" | "unknown"
    source: str  # "solver" | "rules" | "none"
    seconds: float = 0.0
    note: str = ""
    line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "source": self.source, "seconds": round(self.seconds, 3),
                "note": self.note}


def decide(game: Game, stop: threading.Event, time_limit: float = WINNABLE_TIME) -> Verdict:
    """Can ``game`` (a copy) still be won? ``won`` / ``lost`` / ``unknown``."""
    if game.is_won():
        return Verdict("won", "rules")
    if not game.has_legal_move():
        return Verdict("lost", "rules", note="no legal move is left")
    if not solver_available():
        return Verdict("unknown", "none", note="the solver is not installed")
    import yukon

    t0 = time.perf_counter()
    result = yukon.solve(game, time_limit=time_limit, stop=stop)
    seconds = time.perf_counter() - t0
    note = "" if result.status != "unknown" else f"the solver could not decide within {time_limit:g} s"
    return Verdict(result.status, "solver", seconds, note, [str(m) for m in result.moves or []])


def heuristic_move(game: Game) -> Move | None:
    """A reasonable next move without search: safe cards up, turn a card, empty a column, ..."""
    moves = game.legal_moves()
    if not moves:
        return None
    columns = game.columns

    def score(m: Move) -> float:
        if m.dst == FOUNDATION and m.src < FOUNDATION:
            return 100 if is_safe_to_play_up(game, m.card) else 40
        if m.src == STOCK:
            return 5
        s = 0.0
        if m.src < FOUNDATION:
            down, up = columns[m.src]
            if m.count == len(up) and down:
                s += 60 + len(down)  # turns a face-down card
            elif m.count == len(up) and not down:
                s += 20  # empties a column
            if m.dst < FOUNDATION and not columns[m.dst][1]:
                s -= 30 if not down and m.count == len(up) else 10
        elif m.dst == FOUNDATION:
            s += 40
        else:
            s += 15
        return s

    return max(moves, key=score)


@dataclass
class Hint:
    move: str | None
    source: str  # "solver" | "heuristic" | "none"
    status: str  # "won" | "lost" | "unknown"
    seconds: float
    note: str = ""
    line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "source": self.source, "status": self.status,
                "seconds": round(self.seconds, 3), "note": self.note}


def hint(game: Game, stop: threading.Event, time_limit: float = HINT_TIME) -> Hint:
    """The next move to play in ``game`` (a copy)."""
    t0 = time.perf_counter()
    if game.is_won():
        return Hint(None, "none", "won", 0.0, "the game is won")
    if not game.has_legal_move():
        return Hint(None, "none", "lost", 0.0, "no legal move is left")
    if solver_available():
        import yukon

        result = yukon.hint(game, time_limit=time_limit, stop=stop)
        seconds = time.perf_counter() - t0
        if result.move is not None:
            if result.source == "solver":
                note = ""
            elif result.status == "lost":
                note = "the solver proved this position lost: no move wins from here; undo to the last winnable one"
            else:
                note = "a best guess: the solver ran out of time"
            line = [str(m) for m in result.line or []] if result.source == "solver" else []
            return Hint(str(result.move), result.source, result.status, seconds, note, line)
        if result.status == "lost":
            return Hint(None, "solver", "lost", seconds, "no move wins from here: undo to find a better line")
    m = heuristic_move(game)
    seconds = time.perf_counter() - t0
    note = "a best guess (the solver is not installed)" if not solver_available() else "a best guess"
    return Hint(None if m is None else str(m), "heuristic" if m else "none", "unknown", seconds, note)


class Lines:
    """Winning lines the solver found for positions of one game: position text -> the rest of the line.

    A line found once serves every position along it, so hints that follow it are instant.
    """

    def __init__(self, limit: int = 2000) -> None:
        self.limit = limit
        self._lines: dict[str, list[str]] = {}

    def get(self, key: str) -> list[str] | None:
        return self._lines.get(key)

    def remember(self, game: Game, line: list[str]) -> None:
        """Store ``line`` (winning from ``game``, a copy that this plays along) for every position on it."""
        if len(self._lines) + len(line) > self.limit:
            self._lines.clear()
        g = game.copy()
        for i, text in enumerate(line):
            self._lines[g.to_text()] = line[i:]
            try:
                g.push_text(text)
            except ValueError:  # pragma: no cover - the solver's lines are legal
                return


def find_winnable_deal(
    make: Callable[[int], Game], stop: threading.Event, *, per_deal: float = DEAL_TIME, budget: float = DEAL_BUDGET,
) -> tuple[int, Verdict]:
    """A random deal number whose deal the solver proves winnable, or the last one tried (honestly marked).

    The search is :func:`yukon.winnable_deals.find_winnable_deal`, shared with the terminal game."""
    if not solver_available():
        return secrets.randbelow(1 << 32), Verdict("unknown", "none", note=winnable_deals.NO_SOLVER)
    found = winnable_deals.find_winnable_deal(make, stop, per_deal=per_deal, budget=budget)
    return found.seed, Verdict(found.status, "solver", found.seconds, found.note)


def last_winnable(
    game: Game, proven: dict[str, str], stop: threading.Event, *, budget: float = LOOKBACK_BUDGET,
) -> int | None:
    """The largest number of moves played after which the position was (proven) winnable.

    ``game`` is a copy with its history; ``proven`` caches what the solver found
    (position text -> status) and is updated.
    """
    deadline = time.monotonic() + budget
    g = game
    while g.move_stack:
        g.pop()
        key = g.to_text()
        status = proven.get(key)
        if status is None:
            left = deadline - time.monotonic()
            if left <= 0 or stop.is_set():
                return None
            status = decide(g, stop, min(2.0, left)).status
            if status != "unknown":
                proven[key] = status
        if status == "won":
            return len(g.move_stack)
    return None
