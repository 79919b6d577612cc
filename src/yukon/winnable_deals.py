"""Winnable deals only: a random deal number whose deal the solver proves winnable.

Shared by the web table's "winnable deals only" (:mod:`yukon.web.solving`) and the terminal
game's new-game screen, so that both look for a deal the same way: random deal numbers, each
given ``per_deal`` seconds, at most ``budget`` seconds in all; when none is proved winnable in
time, the last one tried is offered and honestly marked as not proved.

>>> import threading
>>> from yukon import Game
>>> found = find_winnable_deal(lambda seed: Game.deal("yukon", seed=seed), threading.Event(), seeds=iter([1]))
>>> found.seed, found.status, found.note
(1, 'won', 'the solver proved this deal winnable')
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .game import Game

#: Seconds the solver gets per deal, and in all.
DEAL_TIME = 2.0
DEAL_BUDGET = 8.0

PROVED = "the solver proved this deal winnable"


@dataclass(frozen=True)
class FoundDeal:
    """The deal offered: ``status`` is ``won`` when proved winnable, else ``unknown``."""

    seed: int
    status: str
    note: str
    tried: int = 0
    seconds: float = 0.0


def _random_seeds() -> Iterator[int]:
    while True:
        yield secrets.randbelow(1 << 32)


def find_winnable_deal(
    make: Callable[[int], Game],
    stop: threading.Event,
    *,
    per_deal: float = DEAL_TIME,
    budget: float = DEAL_BUDGET,
    seeds: Iterator[int] | None = None,
) -> FoundDeal:
    """Deal ``make(seed)`` for random seeds (or ``seeds``) until the solver proves one winnable.

    Honours ``stop`` (set from another thread) and ``budget`` within the solver's reaction time.
    """
    started = time.monotonic()
    deadline = started + budget
    seeds = seeds or _random_seeds()
    seed = next(seeds)
    from . import solve

    tried = 0
    while True:
        tried += 1
        game = make(seed)
        left = deadline - time.monotonic()
        if game.is_won():
            status = "won"
        elif not game.has_legal_move():
            status = "lost"
        else:
            status = solve(game, time_limit=max(0.2, min(per_deal, left)), stop=stop).status
        if status == "won":
            return FoundDeal(seed, "won", PROVED, tried, time.monotonic() - started)
        out_of_time = stop.is_set() or time.monotonic() >= deadline
        following = None if out_of_time else next(seeds, None)  # (no deal number drawn that is not tried)
        if following is None:
            within = f" within {budget:g} s" if out_of_time else ""
            note = f"no deal proven winnable{within} ({tried} tried): this one is not proven winnable"
            return FoundDeal(seed, "unknown", note, tried, time.monotonic() - started)
        seed = following


__all__ = ["DEAL_BUDGET", "DEAL_TIME", "FoundDeal", "find_winnable_deal"]
