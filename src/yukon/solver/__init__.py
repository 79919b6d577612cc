"""The solver: can this position still be won, and how.

It plays with perfect information (it sees face-down cards and the stock),
like the "thoughtful" game. ``lost`` is a proof: the search exhausted every
position reachable from here (up to the safe pruning rules of docs/solver-design.md).
``unknown`` only when a limit stopped it.

Limits are kept everywhere: every loop under :func:`solve` and :func:`hint` (the
greedy probes, the best-first search, the Python depth-first search, the
heuristic's tie-break) asks :meth:`Limits.expired` after each step of at most a
few milliseconds, and the compiled search polls the clock and the stop event
itself. The greedy probes take at most half of a time limit (on some positions
with foundation returns a probe runs for many seconds, where the search decides
in milliseconds). ``bench/limits.py`` measures the overshoot over a fuzz set.

>>> import yukon
>>> game = yukon.Game.from_text("yukon,kings,noreturn KS/QS/-/-/-/-/- JS/KH/KD/KC")
>>> result = yukon.solve(game, time_limit=5)
>>> result.status, [str(m) for m in result.moves]
('won', ['2:QS>F', '1:KS>F'])
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..cards import NAME
from ..errors import InvalidLimitError, shown
from ..game import Game
from ..notation import Move
from ..rules import Rules
from .heuristic import best_heuristic_move
from .probe import SCORERS, greedy_probe
from .relaxation import never_up
from .search import Limits, Searcher, SearchOutcome, best_first, compiled_two_deck, stuck_cards

#: the greedy probes run first when the time limit allows (each takes milliseconds)
PROBE_MIN_TIME = 0.2
PROBE_MIN_NODES = 50_000
#: ...and may take at most this share of it, together
PROBE_SHARE = 0.5
#: positions the best-first phase may store before the depth-first search takes over
BEST_FIRST_POSITIONS = 4_000
#: ...and, when the depth-first search wins, to look for a shorter line than its (docs/solver-design.md)
BEST_FIRST_LINE_POSITIONS = 20_000
#: with foundation return in one deck, the share of the limits that a search without returns gets first:
#: a line that wins without returns wins with them, and without returns every shortcut of the design holds
NO_RETURN_SHARE = 0.25
#: the compiled two-deck search's first, short depth-first run, before the greedy probes (about 0.2 s)
TWO_DECK_FIRST_NODES = 300_000
#: ...and the most the greedy probes may take there, together, without a node limit (with any card into
#: empty columns and foundation returns a failing probe ran 15 s, where the compiled search wins in 1 s)
TWO_DECK_PROBE_SECONDS = 2.0

#: the newest solver's version; what a study row records is :func:`solver_version` of its rules
SOLVER_VERSION = "16"
#: the position table's budget in a hint (what solve() defaults to)
HINT_MEMORY_LIMIT = 1_800_000_000


@dataclass
class SolveResult:
    """What :func:`solve` found."""

    status: str  # "won" | "lost" | "unknown"
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    peak_table: int = 0
    reason: str = ""
    #: the version of the search that gave the result (:func:`solver_version` of the game's rules)
    solver_version: str = SOLVER_VERSION

    @property
    def decided(self) -> bool:
        """Won or lost (a proof), not stopped by a limit."""
        return self.status != "unknown"

    def to_dict(self) -> dict[str, object]:
        """The result as JSON data, moves in notation (``yukon solve --json`` prints it with the position)."""
        return {
            "status": self.status,
            "moves": [str(m) for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "peak_table": self.peak_table,
            "reason": self.reason,
            "solver_version": self.solver_version,
        }


@dataclass
class HintResult:
    """What :func:`hint` suggests: ``source`` is ``solver`` (first move of a winning line),
    ``heuristic`` (no win found in time, or none exists: the heuristic's choice) or ``none``
    (no legal move). ``kind`` says whose hint it is: ``solver`` (it sees the face-down cards) or
    ``honest`` (:mod:`yukon.honest`, from what a player sees)."""

    move: Move | None
    source: str
    status: str
    line: list[Move] = field(default_factory=list)
    kind: str = "solver"

    def to_dict(self) -> dict[str, object]:
        """The hint as JSON data, moves in notation."""
        return {
            "move": str(self.move) if self.move is not None else None,
            "source": self.source,
            "status": self.status,
            "line": [str(m) for m in self.line],
            "kind": self.kind,
        }


def solver_version(rules: Rules) -> str:
    """The version of the search that :func:`solve` runs on these rules: the newest solver version that
    changed it. Solver 16 changed the search only with foundation return in one deck (the search without
    returns first, rule 4 with returns: docs/solver-changelog.md); on every other set of rules it searches
    exactly as solver 15 did, so a study's rows of those rules keep the number 15 and stay one study.

    >>> from yukon.rules import rules_for
    >>> solver_version(rules_for("yukon")), solver_version(rules_for("yukon", foundation_return=True))
    ('15', '16')
    """
    return SOLVER_VERSION if rules.decks == 1 and rules.foundation_return else "15"


class _Interrupt(threading.Event):
    """Set by Ctrl-C during a search, and set too whenever the caller's own stop event is."""

    def __init__(self, other: threading.Event | None) -> None:
        super().__init__()
        self.other = other
        self.interrupted = False

    def is_set(self) -> bool:
        return super().is_set() or (self.other is not None and self.other.is_set())


@contextmanager
def _interruptible(stop: threading.Event | None) -> Iterator[threading.Event | None]:
    """The stop event a search should poll. The compiled search runs without the GIL, so Python sees a Ctrl-C
    only when the search returns, at its time limit (never, with none): in the main thread, with Python's own
    SIGINT handler in place, a Ctrl-C here sets the event the search polls instead, and the call then raises
    ``KeyboardInterrupt`` as any Python code would. Elsewhere (threads, the study's workers that leave signals
    to their parent, a program's own handler) ``stop`` is returned as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield stop
        return
    event = _Interrupt(stop)

    def on_sigint(signum: int, frame: object) -> None:
        event.interrupted = True
        event.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield event
    finally:
        signal.signal(signal.SIGINT, previous)
    if event.interrupted:
        raise KeyboardInterrupt


def solve(
    game: Game,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    memory_limit: int | None = 1_800_000_000,
    stop: threading.Event | None = None,
    shorten: bool = True,
) -> SolveResult:
    """Decide ``game`` (unchanged by the call).

    ``time_limit`` in seconds, ``node_limit`` in positions, ``memory_limit`` in
    bytes for the transposition table (the search ends with ``unknown``,
    reason "memory limit", rather than pass it); ``stop``, an event another
    thread may set to end the search early with ``unknown``. ``shorten=False``
    returns the first winning line found, without looking for a shorter one
    (a caller that wants only the verdict saves what is left of the time limit).
    Raises :class:`yukon.errors.InvalidLimitError` for a bad limit, ``TypeError`` for what is not a game,
    and ``KeyboardInterrupt`` at a Ctrl-C in the main thread, within milliseconds, compiled search too.
    """
    if not isinstance(game, Game):
        raise TypeError(f"solve() needs a yukon.Game, not {type(game).__name__}")
    time_limit = check_limits(time_limit, node_limit, memory_limit, stop)
    started = time.perf_counter()
    with _interruptible(stop) as polled:
        result = _solve(game, Limits(time_limit, node_limit, memory_limit, polled), time_limit, started, shorten)
    result.solver_version = solver_version(game.rules)
    return result


def _solve(game: Game, limits: Limits, time_limit: float | None, started: float,
           shorten: bool = True) -> SolveResult:
    if game.rules.foundation_return and game.rules.decks == 1:
        return _solve_with_returns(game, limits, time_limit, started, shorten)
    return _solve_one(game, limits, time_limit, started, shorten)


def _solve_with_returns(game: Game, limits: Limits, time_limit: float | None, started: float,
                        shorten: bool) -> SolveResult:
    """One deck with foundation return: first the game without returns, on :data:`NO_RETURN_SHARE` of the
    limits (its moves are all legal with returns, so its win is a win; its loss proves nothing here), then
    the search with returns on what is left."""
    plain = Game(game.rules.with_options(foundation_return=False), game.columns, game.foundations,
                 game.stock, game.waste, seed=game.seed, numbering=game.numbering)
    part = Limits(None, None if limits.node_limit is None else max(1, int(limits.node_limit * NO_RETURN_SHARE)),
                  None, limits.stop)
    part.table_limit = limits.table_limit
    part_time = None
    if limits.deadline is not None:
        part_time = NO_RETURN_SHARE * max(0.0, limits.deadline - time.perf_counter())
        part.deadline = time.perf_counter() + part_time
    first = _solve_one(plain, part, part_time, started, shorten)
    if first.status == "won":
        if first.reason != "greedy probe":  # (a probe's win stays one: the easy deals, docs/difficulty.md)
            first.reason = "won without foundation returns"
        return first
    if limits.node_limit is not None:
        limits.node_limit = max(1, limits.node_limit - first.nodes)
    rest = _solve_one(game, limits, time_limit, started, shorten)
    rest.nodes += first.nodes
    rest.peak_table = max(rest.peak_table, first.peak_table)
    return rest


def _solve_one(game: Game, limits: Limits, time_limit: float | None, started: float,
               shorten: bool = True) -> SolveResult:
    node_limit = limits.node_limit
    probe_allowed = time_limit is None or time_limit >= PROBE_MIN_TIME
    stuck = stuck_cards(game)  # (rule 3: proves a loss before any move is tried)
    if stuck:
        reason = "stuck: " + " ".join(NAME[c] for c in stuck)
        return SolveResult("lost", [], 0, time.perf_counter() - started, 0, reason)
    never = never_up(game)  # (rule 4: a relaxation of the rules proves these cards never go up)
    if never:
        reason = "never up: " + " ".join(NAME[c] for c in never)
        return SolveResult("lost", [], 0, time.perf_counter() - started, 0, reason)
    if compiled_two_deck(game):
        return _solve_two_deck(game, limits, probe_allowed, started)
    probed = 0
    if probe_allowed and (node_limit is None or node_limit >= PROBE_MIN_NODES):
        # a probe takes milliseconds on most deals, but tens of seconds where foundation returns and
        # empty columns for any card give it many moves to score at every step: it must leave the
        # search its share of a time limit (the search may decide such a position in milliseconds)
        probe_limits = limits if time_limit is None else limits.narrowed(PROBE_SHARE * time_limit)
        for scorer in SCORERS:
            line, looked = greedy_probe(game, scorer, probe_limits)
            probed += looked
            if line is not None:
                return SolveResult("won", line, probed, time.perf_counter() - started, 0, "greedy probe")
    first = best_first(game, limits, BEST_FIRST_POSITIONS)
    first.stats.nodes += probed
    if first.status != "unknown" or first.reason in ("time limit", "stopped", "node limit"):
        s = first.stats
        return SolveResult(
            first.status, first.moves, s.nodes, time.perf_counter() - started, s.peak_table, first.reason
        )
    if node_limit is not None:
        limits.node_limit = max(1, node_limit - first.stats.nodes)
    outcome = Searcher(game, limits).run()
    s = outcome.stats
    moves, nodes = outcome.moves, s.nodes + first.stats.nodes
    if outcome.status == "won" and node_limit is None and shorten:
        # a depth-first line wanders (it walks swap classes to and fro); a longer best-first run,
        # within what is left of the time limit, usually finds one a third as long
        shorter = best_first(game, limits, BEST_FIRST_LINE_POSITIONS)
        nodes += shorter.stats.nodes
        if shorter.status == "won" and len(shorter.moves) < len(moves):
            moves = shorter.moves
    return SolveResult(
        outcome.status, moves, nodes, time.perf_counter() - started,
        max(s.peak_table, first.stats.peak_table), outcome.reason,
    )


def _solve_two_deck(game: Game, limits: Limits, probe_allowed: bool, started: float) -> SolveResult:
    """Milligan Yukon on the compiled two-deck search: the best-first phase (milliseconds; it wins most
    deals), a short depth-first run (most of the others), the greedy probes (Python, a tenth of a second
    or more each: they win a few deals the depth-first search wanders past), then the depth-first search
    to the end. The same phases as for one deck, in the order that suits their costs here."""
    node_limit = limits.node_limit
    nodes = peak = 0

    def result(outcome: SearchOutcome, moves: list[Move] | None = None) -> SolveResult:
        return SolveResult(outcome.status, outcome.moves if moves is None else moves, nodes,
                           time.perf_counter() - started, peak, outcome.reason)

    def searched(outcome: SearchOutcome) -> SearchOutcome:
        nonlocal nodes, peak
        nodes += outcome.stats.nodes
        peak = max(peak, outcome.stats.peak_table)
        return outcome

    def with_nodes(most: int | None) -> Limits:
        narrow = Limits(None, most, None, limits.stop)
        narrow.deadline = limits.deadline
        narrow.table_limit = limits.table_limit
        return narrow

    def left() -> int | None:
        return None if node_limit is None else max(1, node_limit - nodes)

    def finished(outcome: SearchOutcome) -> SolveResult:
        moves = outcome.moves
        if outcome.status == "won" and node_limit is None:  # (as in _solve: a shorter line than the search's)
            shorter = searched(best_first(game, limits, BEST_FIRST_LINE_POSITIONS))
            if shorter.status == "won" and len(shorter.moves) < len(moves):
                moves = shorter.moves
        return result(outcome, moves)

    first = searched(best_first(game, limits, BEST_FIRST_POSITIONS))
    if first.status != "unknown" or first.reason in ("time limit", "stopped", "node limit"):
        return result(first)
    most = left()
    short = most is None or most > TWO_DECK_FIRST_NODES
    outcome = searched(Searcher(game, with_nodes(TWO_DECK_FIRST_NODES if short else most)).run())
    if outcome.status != "unknown" or not short or outcome.reason != "node limit":
        return finished(outcome)
    most = left()
    if probe_allowed and (most is None or most >= PROBE_MIN_NODES):
        deadline = limits.deadline
        probe_limits = with_nodes(most)
        now = time.perf_counter()
        if node_limit is None:  # (with a node limit the answer must not depend on the clock)
            probe_limits.deadline = now + TWO_DECK_PROBE_SECONDS
        if deadline is not None:  # (at most their share of what is left)
            share = now + PROBE_SHARE * max(0.0, deadline - now)
            probe_limits.deadline = share if probe_limits.deadline is None else min(probe_limits.deadline, share)
        for scorer in SCORERS:
            line, looked = greedy_probe(game, scorer, probe_limits)
            nodes += looked
            if line is not None:
                return SolveResult("won", line, nodes, time.perf_counter() - started, peak, "greedy probe")
    return finished(searched(Searcher(game, with_nodes(left())).run()))


def hint(game: Game, time_limit: float | None = 1.0, stop: threading.Event | None = None) -> HintResult:
    """The next move: the first of a winning line when the solver finds one in time,
    otherwise the heuristic's best move (see :func:`yukon.solver.heuristic.best_heuristic_move`).

    The whole call keeps ``time_limit`` and ``stop``: the heuristic's move is chosen first (a few
    milliseconds), the solver gets the rest of the time. Raises as :func:`solve` does."""
    if not isinstance(game, Game):
        raise TypeError(f"hint() needs a yukon.Game, not {type(game).__name__}")
    time_limit = check_limits(time_limit, None, None, stop)
    with _interruptible(stop) as polled:
        return _hint(game, Limits(time_limit, None, HINT_MEMORY_LIMIT, polled), time_limit)


def _hint(game: Game, limits: Limits, time_limit: float | None) -> HintResult:
    if not game.legal_moves():
        return HintResult(None, "none", "won" if game.is_won() else "lost")
    fallback = best_heuristic_move(game, limits)
    if limits.expired():
        return HintResult(fallback, "heuristic", "unknown")
    result = _solve(game, limits, time_limit, time.perf_counter())
    if result.status == "won" and result.moves:
        return HintResult(result.moves[0], "solver", "won", result.moves)
    return HintResult(fallback, "heuristic", result.status)


def check_limits(
    time_limit: object, node_limit: object, memory_limit: object, stop: object
) -> float | None:
    """Raise :class:`yukon.errors.InvalidLimitError` naming the first limit that is not a positive number
    (or None, no limit), or a ``stop`` that is not an event. Returns the time limit as a float (an int
    too large for one is infinity: no limit)."""
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
        or time_limit != time_limit or time_limit <= 0  # (x != x: NaN, without float() of a huge int)
    ):
        raise InvalidLimitError(f"time_limit must be a positive number of seconds or None, not {shown(time_limit)}")
    for name, value, unit in (("node_limit", node_limit, "positions"), ("memory_limit", memory_limit, "bytes")):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise InvalidLimitError(f"{name} must be a positive whole number of {unit} or None, not {shown(value)}")
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise InvalidLimitError(f"stop must be a threading.Event (or None), not {type(stop).__name__}")
    if time_limit is None:
        return None
    return math.inf if time_limit > 1e300 else float(time_limit)


def release_memory() -> None:
    """Give back the transposition table's memory that the compiled search keeps for the next search.

    The last search's table stays mapped so that the next one with the same ``memory_limit``
    finds its pages ready (new pages cost the kernel about 2 ms per MB here; docs/solver-design.md,
    "Memory"). A long-lived process that has finished searching can call this to shrink.
    """
    from . import search

    if search._core is not None:
        search._core.release_memory()


__all__ = ["SOLVER_VERSION", "HintResult", "SolveResult", "hint", "release_memory", "solve", "solver_version"]
