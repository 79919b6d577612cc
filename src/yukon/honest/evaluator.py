"""Valuing the candidate moves of a visible position by determinized sampling (docs/honest.md).

For each sampled deal of the unseen cards, the compiled search (under a node
limit, so the answer is the same on every machine) decides whether the
position after each candidate can still be won. A candidate's value is its
share of samples won (an undecided search counts half). Every candidate is
searched on the same samples, so two candidates are compared sample by sample.
One search from the sample's current position comes first: a loss there is a
loss after every candidate, and the sample needs no more work.

No candidate gets a result it did not search for (the first move of the
current position's winning line, or a reversible move inheriting the current
position's result): those favour what the perfect-information search likes to
try first (docs/honest.md, "What was tried and dropped").

Only whole samples count, so a deadline that ends the work mid-sample does not
favour the candidates searched first.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..game import Game
from ..notation import Move
from ..solver.search import Limits, Searcher, compiled_supports
from ..visible import VisiblePosition
from .sampler import iter_games

WON, LOST, UNKNOWN = "won", "lost", "unknown"


@dataclass(frozen=True)
class Budget:
    """How much thinking one honest decision may do: counted in samples and search nodes (not seconds),
    so that a seed fixes the answer.

    ``python_samples`` and ``python_nodes`` apply where the compiled search cannot take the position
    (the extension not built, or switched off for two decks), whose pure-Python search is about fifty
    times slower.
    """

    samples: int = 24
    nodes: int = 20_000
    python_samples: int = 6
    python_nodes: int = 400

    def __post_init__(self) -> None:
        for name in ("samples", "nodes", "python_samples", "python_nodes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"budget {name} must be a positive int, not {value!r}")

    def for_rules(self, view: VisiblePosition) -> tuple[int, int]:
        """``(samples, nodes)`` for this view's variant."""
        if compiled_supports(view.canonical):
            return self.samples, self.nodes
        return self.python_samples, self.python_nodes

    def describe(self) -> str:
        return f"{self.samples}x{self.nodes}"


#: the web's default (an honest hint mid-game within about 2 s at the 90th percentile; bench/honest.py)
WEB_BUDGET = Budget(samples=24, nodes=20_000, python_samples=4, python_nodes=300)
#: the study's default (a whole game of Yukon in about 20 s median; bench/honest.py)
STUDY_BUDGET = Budget(samples=12, nodes=10_000)


@dataclass
class MoveValue:
    """How a candidate fared over the samples."""

    move: Move
    won: int = 0
    lost: int = 0
    unknown: int = 0

    @property
    def samples(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def share(self) -> float:
        """Share of samples won, undecided ones counted half (0.0 before any sample)."""
        n = self.samples
        return (self.won + 0.5 * self.unknown) / n if n else 0.0

    def merged(self, other: MoveValue) -> MoveValue:
        """The counts of both (of the same move, over other samples)."""
        return MoveValue(self.move, self.won + other.won, self.lost + other.lost, self.unknown + other.unknown)

    def add(self, status: str) -> None:
        if status == WON:
            self.won += 1
        elif status == LOST:
            self.lost += 1
        else:
            self.unknown += 1


@dataclass
class Evaluation:
    values: list[MoveValue]
    samples: int  # whole samples evaluated
    nodes: int


class _Clock:
    """Node-limited searches that also keep to an optional deadline and stop event."""

    def __init__(self, time_limit: float | None, stop: threading.Event | None) -> None:
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.stop = stop
        self.nodes = 0

    def expired(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def search(self, game: Game, nodes: int) -> str:
        remaining = None if self.deadline is None else max(self.deadline - time.perf_counter(), 1e-4)
        outcome = Searcher(game, Limits(remaining, nodes, None, self.stop)).run()
        self.nodes += outcome.stats.nodes
        if outcome.status == UNKNOWN and outcome.reason in ("time limit", "stopped"):
            raise _OutOfTime
        return outcome.status


class _OutOfTime(Exception):
    pass


def evaluate(
    view: VisiblePosition,
    candidates: list[Move],
    budget: Budget,
    seed: int,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    *,
    first: int = 0,
    count: int | None = None,
) -> Evaluation:
    """Value each of ``candidates`` (legal moves of ``view``) over sampled deals of its unseen cards:
    the budget's samples, or ``count`` samples from the ``first`` (0-based) of the seed's sequence."""
    samples, nodes = budget.for_rules(view)
    if count is None:
        count = samples
    values = [MoveValue(m) for m in candidates]
    clock = _Clock(time_limit, stop)
    done = 0
    for game in iter_games(view, count, seed, first):
        if done and clock.expired():
            break
        try:
            statuses = _one_sample(game, candidates, nodes, clock)
        except _OutOfTime:
            break
        for value, status in zip(values, statuses, strict=True):
            value.add(status)
        done += 1
    return Evaluation(values, done, clock.nodes)


def _one_sample(game: Game, candidates: list[Move], nodes: int, clock: _Clock) -> list[str]:
    root = clock.search(game, nodes)
    if root == LOST:
        return [LOST] * len(candidates)
    statuses = []
    for m in candidates:
        game.push(m)
        statuses.append(clock.search(game, nodes))
        game.pop()
    return statuses


__all__ = ["STUDY_BUDGET", "WEB_BUDGET", "Budget", "Evaluation", "MoveValue", "evaluate"]
