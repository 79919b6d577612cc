"""What runs on a worker (a local process or a Dask worker): solve one deal.

Only plain, importable functions and picklable values here, so that both
``concurrent.futures.ProcessPoolExecutor`` and ``dask.distributed`` can ship
them: a Dask worker needs ``pip install yukon[cluster]`` and nothing else.
"""

from __future__ import annotations

import signal
import socket
from dataclasses import dataclass

from .db import DealRow


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


def solve_deal(task: DealTask) -> DealRow:
    """Deal ``task.seed`` and solve it; the row records the solver version that did it."""
    from .. import Game
    from ..solver import SOLVER_VERSION, solve

    game = Game.deal(task.variant, seed=task.seed, empty_column=task.empty_column,
                     foundation_return=task.foundation_return)
    result = solve(game, time_limit=task.time_limit, node_limit=task.node_limit, memory_limit=task.memory_limit)
    line = 0
    if result.status == "won":  # a won row is a checked win: the engine replays the line
        for move in result.moves:
            game.push(move)
        if not game.is_won():
            raise RuntimeError(f"the solver's winning line for seed {task.seed} does not win")
        line = len(result.moves)
    return DealRow(task.seed, result.status, float(result.seconds), int(result.nodes), line,
                   int(result.peak_table), result.reason or "", SOLVER_VERSION, socket.gethostname())


def solver_version() -> str:
    """The solver version this process would use (asked of every Dask worker before a run)."""
    from ..solver import SOLVER_VERSION

    return SOLVER_VERSION


def ignore_sigint() -> None:
    """Pool initializer: Ctrl-C is the parent's to handle (it stops the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
