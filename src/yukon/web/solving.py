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
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import winnable_deals
from ..autoplay import is_safe_to_play_up
from ..game import Game
from ..notation import FOUNDATION, STOCK, Move

T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="yukon-solver")

#: Seconds the hint may think.
HINT_TIME = 0.8
#: Seconds to decide whether a position can still be won.
WINNABLE_TIME = 3.0
#: Seconds per deal, and in all, when looking for a winnable deal.
DEAL_TIME = winnable_deals.DEAL_TIME
DEAL_BUDGET = winnable_deals.DEAL_BUDGET
#: Seconds in all to look back for the last winnable position.
LOOKBACK_BUDGET = 8.0


def solver_available() -> bool:
    try:
        import yukon.solver  # noqa: F401
    except ImportError:
        return False
    return True


async def run_stoppable(
    fn: Callable[[threading.Event], T], limit: float, stop: threading.Event | None = None,
) -> T | None:
    """Run ``fn(stop)`` in the pool; set ``stop`` after ``limit`` seconds (plus grace) or on cancel.

    A caller may pass its own ``stop`` to end the work early from elsewhere (e.g. when a newer
    request for the same game supersedes this one).
    """
    stop = stop or threading.Event()
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(_POOL, fn, stop)
    try:
        return await asyncio.wait_for(asyncio.shield(future), limit + 2.0)
    except TimeoutError:
        stop.set()
        return None
    finally:
        stop.set()


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
            note = "" if result.source == "solver" else "a best guess: the solver ran out of time"
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
