"""What runs on a worker (a local process or a Dask worker): solve one deal.

Only plain, importable functions and picklable values here, so that both
``concurrent.futures.ProcessPoolExecutor`` and ``dask.distributed`` can ship
them: a Dask worker needs ``pip install yukon[cluster]`` and nothing else.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import sys
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from .. import solver as _solver  # imported now, so that the fingerprint below describes the code in use
from .db import DealRow

#: the engine and solver modules whose code decides a row
_CODE_FILES = ("cards.py", "deal.py", "errors.py", "game.py", "notation.py", "position.py", "rules.py")


def _fingerprint() -> str:
    """A short hash of the engine and solver source: rows of one study made by different code (say, an edit
    without a new SOLVER_VERSION) can then be told apart."""
    root = Path(_solver.__file__).resolve().parent.parent
    files = sorted((root / "solver").glob("*.py")) + [root / name for name in _CODE_FILES]
    h = hashlib.sha256()
    for f in files:
        if f.exists():
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:12]


#: fingerprint of the engine and solver code this process runs
CODE = _fingerprint()


@dataclass(frozen=True)
class DealTask:
    """One deal to solve; the rule options and limits of its study."""

    variant: str
    empty_column: str
    foundation_return: bool
    seed: int
    time_limit: float | None
    node_limit: int | None
    memory_limit: int | None
    numbering: str = "yukon"
    #: "solver", or an honest player's label (yukon.study.players): then the deal is played, not solved
    player: str = "solver"
    #: the compiled search's threads for this deal (it runs one under a node limit whatever this says)
    threads: int = 1


class DealStopped(Exception):
    """The run was interrupted before this deal was decided: it gets no row (the next run redoes it)."""


def solve_deal(task: DealTask, stop: threading.Event | None = None) -> DealRow:
    """Deal ``task.seed`` and solve it; the row records the solver version that did it. A set ``stop``
    ends the search within milliseconds and raises :class:`DealStopped`."""
    if task.player != "solver":
        from .players import play_deal

        return play_deal(task, stop)
    from .. import Game
    from ..line_code import encode
    from ..solver import solve
    from ..solver.search import Searcher

    # the study's choice, not the machine's: a study with a worker per core gives each one thread
    Searcher.compiled_threads = task.threads

    game = Game.deal(task.variant, seed=task.seed, numbering=task.numbering, empty_column=task.empty_column,
                     foundation_return=task.foundation_return)
    result = solve(game, time_limit=task.time_limit, node_limit=task.node_limit, memory_limit=task.memory_limit,
                   stop=stop)
    if result.reason == "stopped":
        raise DealStopped(f"seed {task.seed}")
    line, code = 0, ""
    if result.status == "won":  # a won row is a checked win: the engine replays the line
        code = encode(game, result.moves)
        for move in result.moves:
            game.push(move)
        if not game.is_won():
            raise RuntimeError(f"the solver's winning line for seed {task.seed} does not win")
        line = len(result.moves)
    return DealRow(task.seed, result.status, float(result.seconds), int(result.nodes), line,
                   int(result.peak_table), result.reason or "", result.solver_version, socket.gethostname(), CODE,
                   code)


def solver_version() -> str:
    """The solver version this process would use (asked of every Dask worker before a run)."""
    from ..solver import SOLVER_VERSION

    return SOLVER_VERSION


#: run id -> the stop event of that run's deals in this (Dask worker) process, while any of them runs
_RUN_STOPS: weakref.WeakValueDictionary[str, threading.Event] = weakref.WeakValueDictionary()
#: the runs stopped lately, so that a deal of one that starts after its stop stops too
_STOPPED_RUNS: deque[str] = deque(maxlen=1024)
_RUN_STOPS_LOCK = threading.Lock()


def _run_stop(run: str) -> threading.Event:
    with _RUN_STOPS_LOCK:
        event = _RUN_STOPS.get(run)
        if event is None:
            event = _RUN_STOPS[run] = threading.Event()
            if run in _STOPPED_RUNS:
                event.set()
        return event


def solve_deal_in_run(task: DealTask, run: str) -> DealRow:
    """:func:`solve_deal` on a Dask worker, stopped by :func:`stop_run` of the same ``run``.

    Cancelling a Dask future does not interrupt a task that has started, so an interrupted study also calls
    :func:`stop_run` on every worker: the searches of its deals end at once instead of at their time limit.
    """
    stop = _run_stop(run)  # held while the deal runs, so that the registry keeps it
    if stop.is_set():
        raise DealStopped(f"seed {task.seed}")
    return solve_deal(task, stop)


def stop_run(run: str) -> None:
    """Stop the deals of ``run`` that run in this process (called on every Dask worker by ``Client.run``)."""
    with _RUN_STOPS_LOCK:
        _STOPPED_RUNS.append(run)
        event = _RUN_STOPS.get(run)
    if event is not None:
        event.set()


def leave_signals_to_parent() -> None:
    """Ctrl-C is the parent's to handle (it stops the workers itself). SIGTERM, the parent's way to stop a
    worker, gets its default action back: the handler inherited from a forked parent would raise only when
    the compiled search returns to Python, at the end of its time limit, and a worker has nothing to save."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: prctl(2) option: the signal the kernel sends this process when its parent dies
_PR_SET_PDEATHSIG = 1
#: seconds between the watchdog's looks at the parent
WATCH_EVERY = 0.5


def die_with_parent(parent_pid: int) -> None:
    """Make this process end when ``parent_pid`` does, however the parent ends (``kill -9`` too).

    On Linux the kernel sends SIGKILL at the parent's death (``prctl(PR_SET_PDEATHSIG)``); everywhere,
    a daemon thread also looks every :data:`WATCH_EVERY` seconds whether the parent is still ours
    (an orphan is adopted by another process) and ends this one if not.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog alone
            pass
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH_EVERY)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="yukon-parent-watchdog", daemon=True).start()


def init_worker(parent_pid: int) -> None:
    """Initializer of a local pool's worker: leaves Ctrl-C to the parent and dies with it."""
    leave_signals_to_parent()
    die_with_parent(parent_pid)
