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

from .errors import InvalidLimitError, shown
from .game import Game
from .notation import Move
from .record import GameRecord

if TYPE_CHECKING:
    from .solver import SolveResult

#: Seconds the solver may spend on one position by default.
DEFAULT_TIME_LIMIT = 2.0
#: Seconds ``yukon analyze`` may spend in all by default (the terminal and the web game have their own).
DEFAULT_TOTAL_LIMIT = 30.0
#: The search's first round gives every position this many seconds (or the whole time limit, if less):
#: enough for the solver's greedy probes (which find most wins in milliseconds) and its quick loss proofs,
#: so a hard position away from the losing move costs little before easy ones show it does not matter.
FIRST_ROUND_LIMIT = 0.25
#: Each later round gives the positions still open this many times the last round's limit.
ROUND_FACTOR = 8.0
#: A round but the last ends once this many positions came back undecided in it: hard positions cluster
#: (those just after the losing move, with most cards still in play), and the next round's larger limit
#: is better spent on the middle of what is open than the short one on every position of it.
UNDECIDED_PER_ROUND = 2
#: Seconds at most for taking the detours out of the winning continuation (:func:`yukon.solver.tidy.tidy_line`):
#: milliseconds for a line of Yukon, a fraction of a second for a long one of Milligan Yukon.
TIDY_TIME = 1.0

Solver = Callable[..., "SolveResult"]


def round_limits(time_limit: float, total_limit: float | None) -> list[float]:
    """The per-position limits of the search's rounds, smallest first.

    From :data:`FIRST_ROUND_LIMIT` up to ``time_limit`` by :data:`ROUND_FACTOR`; with a ``total_limit``
    the rounds go on beyond ``time_limit`` (each call is cut to what is left of the total), so the
    analysis spends its time on the positions that still leave the answer open.

    >>> round_limits(2.0, None)
    [0.25, 2.0]
    >>> round_limits(2.0, 30.0)
    [0.25, 2.0, 16.0, 30.0]
    >>> round_limits(5.0, 60.0)
    [0.25, 2.0, 5.0, 40.0, 60.0]
    >>> round_limits(0.05, None)
    [0.05]
    """
    limits = [min(FIRST_ROUND_LIMIT, time_limit)]
    while limits[-1] < time_limit:
        limits.append(min(limits[-1] * ROUND_FACTOR, time_limit))
    if total_limit is not None:
        while limits[-1] < total_limit:
            limits.append(min(limits[-1] * ROUND_FACTOR, total_limit))
    return limits


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
    #: (and those a winning line of the solver passed through: "won")
    verdicts: dict[int, str] = field(default_factory=dict)
    #: how the game ended: "won" (every card up), "lost" (proven), "winnable" (left while still winnable)
    #: or "unknown"
    end: str = "unknown"
    moves: int = 0
    #: calls of the solver (a position left undecided is asked again, with more time, in each later
    #: round; the search for a shorter continuation is one more)
    solver_calls: int = 0
    #: the game's positions the solver was asked about, and how many different positions the game has
    #: (a game that passes one position twice counts it once)
    positions_asked: int = 0
    positions: int = 0
    #: a game left while still winnable (``end == "winnable"``): a winning line from where it was left
    winning_line: list[Move] = field(default_factory=list)
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
    """The verdicts of one game's positions: each position solved at most once per round's limit, a
    decided one never again (by its one-line text: a game may pass one position twice)."""

    def __init__(self, record: GameRecord, total_limit: float | None, stop: threading.Event | None,
                 solver: Solver) -> None:
        self.positions = list(record.positions())
        self.keys = [g.to_text() for g in self.positions]
        self.index: dict[str, list[int]] = {}
        for k, key in enumerate(self.keys):
            self.index.setdefault(key, []).append(k)
        self.deadline = None if total_limit is None else time.perf_counter() + total_limit
        self.stop = stop
        self.solver = solver
        self.cache: dict[str, SolveResult] = {}   # decided positions
        self.tried: dict[str, float] = {}         # undecided positions: the largest limit tried
        self.verdicts: dict[int, str] = {}
        self.lines: dict[int, list[Move]] = {}
        self.found_by: dict[int, str] = {}         # how the solver found each line (its reason)
        self.calls = 0
        self.asked: set[str] = set()              # the positions given to the solver (by their text)
        self.won_at = -1                          # the last position known to be won
        self.lost_at = len(self.positions)        # the first position known to be lost (none yet: n + 1)

    def out_of_time(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def time_left(self, limit: float) -> float:
        if self.deadline is None:
            return limit
        return max(0.001, min(limit, self.deadline - time.perf_counter()))

    def decide(self, k: int, limit: float) -> str:
        game, key = self.positions[k], self.keys[k]
        if game.is_won():
            self._won(k, [], "")
            return "won"
        result = self.cache.get(key)
        if result is None:
            result = self.solver(game, time_limit=self.time_left(limit), stop=self.stop)
            self.calls += 1
            self.asked.add(key)
            if result.status == "unknown":
                self.tried[key] = max(self.tried.get(key, 0.0), limit)
            else:
                self.cache[key] = result
        for j in self.index[key]:
            self.verdicts.setdefault(j, "unknown")
            if result.status == "won":
                self._won(j, list(result.moves), result.reason)
            elif result.status == "lost":
                self.verdicts[j] = "lost"
                self.lost_at = min(self.lost_at, j)
        return result.status

    def _won(self, k: int, line: list[Move], found_by: str) -> None:
        """Position ``k`` is won by ``line``; so is every later position of the game the line passes
        through (a player who followed the solver's line for a while), with the rest of the line."""
        self.verdicts[k] = "won"
        self.lines[k] = line
        self.found_by[k] = found_by
        self.won_at = max(self.won_at, k)
        game = self.positions[k].copy()
        passed: list[tuple[int, int]] = []  # (position of the game, moves of the line played to it)
        for i, move in enumerate(line, 1):
            game.push(move)
            passed += [(j, i) for j in self.index.get(game.to_text(), ()) if j > k]
        if not game.is_won():
            return  # not a whole winning line: nothing to learn from it
        for j, i in passed:
            if j not in self.lines:
                self.verdicts[j] = "won"
                self.lines[j] = line[i:]
                self.found_by[j] = found_by
                self.won_at = max(self.won_at, j)

    def open_positions(self) -> list[int]:
        """Positions between the last won and the first lost one that no verdict decides yet."""
        return [k for k in range(self.won_at + 1, self.lost_at)
                if self.verdicts.get(k, "unknown") == "unknown"]

    def untried(self, limit: float) -> list[int]:
        """The open positions not yet given ``limit``."""
        return [k for k in self.open_positions() if self.tried.get(self.keys[k], 0.0) < limit]


def _check_limits(time_limit: object, total_limit: object, stop: object) -> tuple[float, float | None]:
    """The same :class:`~yukon.errors.InvalidLimitError` as :func:`yukon.solve`'s, before any work (a limit
    of 'x' raised TypeError deep in the rounds, 0 or -1 ran, a stop that is no event raised AttributeError).
    Returns both limits as floats (an int too large for one is infinity: no limit)."""
    from .solver import check_limits

    if time_limit is None:  # (every position gets a limit: the rounds grow up to it)
        raise InvalidLimitError("time_limit must be a positive number of seconds, not None")
    each = check_limits(time_limit, None, None, stop)
    assert each is not None
    try:
        return each, check_limits(total_limit, None, None, None)
    except InvalidLimitError:
        raise InvalidLimitError(f"total_limit must be a positive number of seconds or None, not {shown(total_limit)}") \
            from None


def _shipped_lost(record: GameRecord) -> bool:
    """Does the record start at a deal that the shipped verdicts (:mod:`yukon.deal_data`) prove lost?"""
    if record.deal is None:
        return False  # (a position set up by hand: only the solver can tell)
    from . import deal_data

    try:
        verdict = deal_data.verdict_for(record.start.rules, record.deal.number, record.deal.numbering)
    except deal_data.VerdictDataError:
        return False  # a damaged data file: the solver decides, as without data
    return verdict is not None and verdict.status == "lost"


def analyze(
    game: GameRecord | Game,
    time_limit: float = DEFAULT_TIME_LIMIT,
    total_limit: float | None = None,
    stop: threading.Event | None = None,
    solver: Solver | None = None,
) -> Analysis:
    """Find the move that lost ``game`` (a record, or a game with its history).

    ``time_limit``: seconds for the solver on each position in the search; ``total_limit``: seconds
    for the whole analysis (positions not reached in time count as undecided), of which positions
    still open after every position had ``time_limit`` get what is left (:func:`round_limits`);
    ``stop``: an event that ends the analysis early, with what is known by then. ``solver`` defaults
    to :func:`yukon.solver.solve` (and the continuation is then the shortest winning line it finds).
    A record that starts at a deal the shipped verdicts prove lost (:mod:`yukon.deal_data`) is answered at
    once, without the solver: the start was lost.
    """
    if isinstance(game, Game):
        game = GameRecord.from_game(game)
    if not isinstance(game, GameRecord):
        raise TypeError(f"analyze() needs a GameRecord or a Game, not {type(game).__name__}")
    time_limit, total_limit = _check_limits(time_limit, total_limit, stop)
    shorten: Solver | None = None
    if solver is None:
        from .solver import solve

        shorten = solve

        def solver(position: Game, **limits: Any) -> SolveResult:
            return solve(position, shorten=False, **limits)  # a verdict is all the search needs

    started = time.perf_counter()
    n = len(game.moves)
    if _shipped_lost(game):
        # (a deal the studies proved lost: every position of the game is lost, and no move lost it; the
        # search would spend its whole time limit on the hard start, as on deal 91, to say the same or less)
        return Analysis(start="lost", losing_move=None, continuation=[], unknown_moves=[], verdicts={0: "lost"},
                        end="lost", moves=n, positions=len({g.to_text() for g in game.positions()}),
                        seconds=time.perf_counter() - started)
    search = _Search(game, total_limit, stop, solver)

    # Round by round, a larger limit each time: the end first (usually a dead end, decided at once),
    # then the start, then halve what is open. The last round tries every position left open.
    limits = round_limits(time_limit, total_limit)
    for r, limit in enumerate(limits):
        undecided = 0
        while not search.out_of_time() and (undecided < UNDECIDED_PER_ROUND or r == len(limits) - 1):
            candidates = search.untried(limit)
            if not candidates:
                break
            k = n if n in candidates else 0 if 0 in candidates else candidates[len(candidates) // 2]
            undecided += search.decide(k, limit) == "unknown"
        if search.out_of_time() or not search.open_positions():
            break

    won_at, lost_at = search.won_at, search.lost_at
    if won_at >= 0:
        start = "won"
    elif lost_at == 0:
        start = "lost"
    else:
        start = "unknown"
    losing_move = lost_at if won_at >= 0 and lost_at == won_at + 1 and lost_at <= n else None
    continuation: list[Move] = []
    if losing_move is not None:
        continuation = search.lines[won_at]
        # (a greedy probe's line is the one the solver would give again: only a search's may shorten)
        if shorten is not None and continuation and search.found_by[won_at] != "greedy probe" \
                and not search.out_of_time():
            better = shorten(search.positions[won_at], time_limit=search.time_left(time_limit), stop=stop)
            search.calls += 1  # (a position already asked about: the calls go up, the positions do not)
            if better.status == "won" and len(better.moves) < len(continuation):
                continuation = list(better.moves)
        # (a person follows it: no move to and fro; at most TIDY_TIME of the analysis' time)
        from .solver.tidy import tidy_line

        deadline = time.perf_counter() + search.time_left(TIDY_TIME)
        continuation = tidy_line(search.positions[won_at], continuation, deadline, stop)
    unknown: list[int] = []
    losing_range: tuple[int, int] | None = None
    if losing_move is None and start != "lost" and won_at < n:
        unknown = list(range(won_at + 1, min(lost_at, n + 1)))
        first, last = max(won_at + 1, 1), min(lost_at, n)
        losing_range = (first, last) if first <= last else None  # (None: a game of no moves)
    if search.positions[n].is_won():
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
        continuation=continuation,
        unknown_moves=unknown,
        losing_range=losing_range,
        verdicts=dict(sorted(search.verdicts.items())),
        end=end,
        moves=n,
        solver_calls=search.calls,
        positions_asked=len(search.asked),
        positions=len(search.index),
        winning_line=list(search.lines.get(n, [])) if end == "winnable" else [],
        seconds=time.perf_counter() - started,
    )


def range_text(result: Analysis, dealt: int = 0) -> str | None:
    """What a losing range says, and no more (``None`` without one), for the terminal game and
    ``yukon analyze``: with the start undecided the deal may have been lost from the start (then no move
    lost it), with the end undecided the game may never have been lost. (The terminal game said "The game
    was lost between move 1 and move 2" when the solver could decide neither.) ``dealt``: how many moves
    of the line are the deal's automatic plays (a table counts the player's moves after them).

    >>> range_text(Analysis("won", None, [], [3, 4], losing_range=(3, 5), end="lost"))
    'The game was lost by one of moves 3 to 5 (the solver could not decide the positions in between in time)'
    """
    if result.losing_range is None:
        return None
    first, last = (max(1, n - dealt) for n in result.losing_range)
    moves = f"move {first}" if first == last else f"one of moves {first} to {last}"
    if result.start == "unknown" and result.end == "unknown":
        return ("The solver could not tell in time whether the start could be won, nor whether the game "
                f"was lost by its end: if a move lost it, it was {moves}")
    if result.start == "unknown":
        return (f"If the start could be won, the game was lost by {moves} "
                "(the solver could not decide in time whether the deal could be won at all)")
    if result.end == "unknown":
        return (f"If the game was lost at all, it was lost by {moves} "
                "(the solver could not decide in time whether its last position could still be won)")
    return f"The game was lost by {moves} (the solver could not decide the positions in between in time)"


__all__ = ["DEFAULT_TIME_LIMIT", "DEFAULT_TOTAL_LIMIT", "Analysis", "analyze", "range_text", "round_limits"]
