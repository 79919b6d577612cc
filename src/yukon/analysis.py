"""Where did it go wrong? The move that threw a winnable game away, and what would have won.

Along one game winnability can only be lost, never regained: every position
reachable from a lost one is lost. So the verdicts of the game's positions
(position ``k`` is the one after move ``k``, position 0 the start) read
won, ..., won, lost, ..., lost, and the losing move ``N`` is the one from the
last won position ``N - 1`` to the first lost position ``N``. A binary search
finds it with a handful of solver calls, and the solver's line from position
``N - 1`` is a winning continuation.

A position the solver cannot decide within its time limit is never guessed
at: the search goes round it, and when undecided positions are all that is
left between the last won and the first lost one, the answer is a range
(:attr:`Analysis.losing_range`) with the undecided positions listed in
:attr:`Analysis.unknown_moves`.

>>> from yukon import Game
>>> from yukon.record import GameRecord
>>> game = Game.from_text("yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C")
>>> game.push_text("2:6H>F")   # 5C can no longer leave the 4C it covers
Move.from_text('2:6H>F')
>>> result = analyze(GameRecord.from_game(game), time_limit=5)
>>> result.start, result.losing_move, [str(m) for m in result.continuation[:3]]
('won', 1, ['1:5C>2', '1:4C>F', '2:5C>F'])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .game import Game
from .notation import Move
from .record import GameRecord

if TYPE_CHECKING:
    from .solver import SolveResult

#: Seconds the solver may spend on one position by default.
DEFAULT_TIME_LIMIT = 2.0

Solver = Callable[..., "SolveResult"]


@dataclass
class Analysis:
    """What :func:`analyze` found about one game.

    ``start``: ``"won"``, ``"lost"`` or ``"unknown"`` (could the start be won).
    ``losing_move``: the number ``N`` (from 1) of the move after which the game could no longer be
    won, or ``None`` (the game was won or never lost, the start was already lost, or undecided
    positions leave it open: then see ``losing_range``). ``continuation``: a winning line from the
    position before move ``N``. ``unknown_moves``: the positions (numbered by the move that led to
    them, 0 for the start) left undecided between the last won and the first lost position.
    """

    start: str
    losing_move: int | None
    continuation: list[Move]
    unknown_moves: list[int]
    #: the first and last move that may have lost the game, when undecided positions leave it open
    losing_range: tuple[int, int] | None = None
    #: position index -> "won" / "lost" / "unknown", for the positions the solver was asked about
    verdicts: dict[int, str] = field(default_factory=dict)
    #: how the game ended: "won" (every card up), "lost" (proven), "winnable" (left while still winnable)
    #: or "unknown"
    end: str = "unknown"
    moves: int = 0
    solver_calls: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer of ``yukon analyze --json``."""
        return {
            "start": self.start,
            "losing_move": self.losing_move,
            "continuation": [str(m) for m in self.continuation],
            "unknown_moves": list(self.unknown_moves),
        }


class _Search:
    """The verdicts of one game's positions, each position solved at most once."""

    def __init__(self, positions: list[Game], time_limit: float, total_limit: float | None,
                 stop: threading.Event | None, solver: Solver) -> None:
        self.positions = positions
        self.time_limit = time_limit
        self.deadline = None if total_limit is None else time.perf_counter() + total_limit
        self.stop = stop
        self.solver = solver
        self.cache: dict[str, SolveResult] = {}  # by one-line position: a game may pass one twice
        self.verdicts: dict[int, str] = {}
        self.lines: dict[int, list[Move]] = {}
        self.calls = 0
        self.won_at = -1                       # the last position known to be won
        self.lost_at = len(positions)          # the first position known to be lost (len: none yet)

    def out_of_time(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def decide(self, k: int) -> str:
        game = self.positions[k]
        if game.is_won():
            status, line = "won", []
        else:
            key = game.to_text()
            result = self.cache.get(key)
            if result is None:
                limit = self.time_limit
                if self.deadline is not None:
                    limit = max(0.001, min(limit, self.deadline - time.perf_counter()))
                result = self.solver(game, time_limit=limit, stop=self.stop)
                self.calls += 1
                self.cache[key] = result
            status, line = result.status, list(result.moves)
        self.verdicts[k] = status
        if status == "won":
            self.lines[k] = line
            self.won_at = max(self.won_at, k)
        elif status == "lost":
            self.lost_at = min(self.lost_at, k)
        return status

    def open_positions(self) -> list[int]:
        """Positions between the last won and the first lost one that no verdict covers yet."""
        return [k for k in range(self.won_at + 1, self.lost_at) if k not in self.verdicts]


def analyze(
    game: GameRecord | Game,
    time_limit: float = DEFAULT_TIME_LIMIT,
    total_limit: float | None = None,
    stop: threading.Event | None = None,
    solver: Solver | None = None,
) -> Analysis:
    """Find the move that lost ``game`` (a record, or a game with its history).

    ``time_limit``: seconds for the solver on each position; ``total_limit``: seconds for the whole
    analysis (positions not reached in time count as undecided); ``stop``: an event that ends the
    analysis early, with what is known by then. ``solver`` defaults to :func:`yukon.solver.solve`.
    """
    if isinstance(game, Game):
        game = GameRecord.from_game(game)
    if not isinstance(game, GameRecord):
        raise TypeError(f"analyze() needs a GameRecord or a Game, not {type(game).__name__}")
    if solver is None:
        from .solver import solve

        solver = solve
    started = time.perf_counter()
    positions = list(game.positions())
    n = len(game.moves)
    search = _Search(positions, time_limit, total_limit, stop, solver)

    # The end first (usually a dead end, decided at once), then the start, then halve what is open.
    search.decide(n)
    if search.won_at < n and not search.out_of_time() and n > 0:
        search.decide(0)
    while not search.out_of_time():
        candidates = search.open_positions()
        if not candidates:
            break
        search.decide(candidates[len(candidates) // 2])

    won_at, lost_at = search.won_at, search.lost_at
    if won_at >= 0:
        start = "won"
    elif lost_at == 0:
        start = "lost"
    else:
        start = "unknown"
    losing_move = lost_at if won_at >= 0 and lost_at == won_at + 1 and lost_at <= n else None
    unknown: list[int] = []
    losing_range: tuple[int, int] | None = None
    if losing_move is None and start != "lost" and won_at < n:
        unknown = list(range(won_at + 1, min(lost_at, n + 1)))
        first, last = max(won_at + 1, 1), min(lost_at, n)
        losing_range = (first, last) if first <= last else None  # (None: a game of no moves)
    if positions[n].is_won():
        end = "won"
    elif won_at == n:
        end = "winnable"
    elif lost_at <= n:
        end = "lost"
    else:
        end = "unknown"
    return Analysis(
        start=start,
        losing_move=losing_move,
        continuation=search.lines.get(won_at, []) if losing_move is not None else [],
        unknown_moves=unknown,
        losing_range=losing_range,
        verdicts=dict(sorted(search.verdicts.items())),
        end=end,
        moves=n,
        solver_calls=search.calls,
        seconds=time.perf_counter() - started,
    )


__all__ = ["DEFAULT_TIME_LIMIT", "Analysis", "analyze"]
