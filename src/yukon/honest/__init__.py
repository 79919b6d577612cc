"""The honest player: hints and a computer player that never look at face-down cards.

It receives only :class:`yukon.visible.VisiblePosition` (what a player sees),
samples deals of the unseen cards consistent with it (:mod:`.sampler`), values
each candidate move by the share of samples in which the compiled search can
still win after it (:mod:`.evaluator`), and plays safe cards up without
thinking (:mod:`.player`). The method, its budgets and its known weakness
(strategy fusion) are in docs/honest.md.
"""

from __future__ import annotations

from .evaluator import STUDY_BUDGET, WEB_BUDGET, Budget, MoveValue, evaluate
from .player import (
    DEFAULT_METHOD,
    DEFAULT_SEED,
    HONEST_1,
    HonestHint,
    Method,
    PlayedGame,
    choose,
    honest_hint,
    play_honest,
)
from .sampler import sample_fills, sample_games

__all__ = [
    "DEFAULT_METHOD", "DEFAULT_SEED", "HONEST_1", "STUDY_BUDGET", "WEB_BUDGET", "Budget", "HonestHint", "Method",
    "MoveValue", "PlayedGame",
    "choose", "evaluate", "honest_hint", "play_honest", "sample_fills", "sample_games",
]
