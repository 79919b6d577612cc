"""Yukon Solitaire and its family: rules engine, solver, games and studies.

>>> import yukon
>>> game = yukon.Game.deal("yukon", seed=42)
>>> move = game.legal_moves()[0]
>>> game.push(move); game.pop() == move
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import startup  # noqa: F401  (first of all: a Ctrl-C while ``python -m yukon`` loads is quiet)
from .cards import card_name, parse_card
from .deal_data import Verdict, verdicts
from .errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    UnknownVariantError,
    YukonError,
    shown,
)
from .game import Game
from .notation import FOUNDATION, STOCK, WASTE, Move
from .pysolfc import NumberingError
from .record import GameRecord, InvalidRecordError, RecordMoveError
from .rules import VARIANTS, Rules, rules_for

if TYPE_CHECKING:
    from .analysis import Analysis
    from .solver import HintResult, SolveResult

__version__ = "0.1.0"


def solve(game: Game, time_limit: float | None = 10.0, **kwargs: Any) -> SolveResult:
    """Decide whether ``game`` can be won (perfect information); see :func:`yukon.solver.solve`."""
    from .solver import solve as _solve

    return _solve(game, time_limit=time_limit, **kwargs)


def analyze(game: GameRecord | Game, time_limit: float = 2.0, **kwargs: Any) -> Analysis:
    """Which move lost ``game``, and what would have won; see :func:`yukon.analysis.analyze`."""
    from .analysis import analyze as _analyze

    return _analyze(game, time_limit=time_limit, **kwargs)


def hint(
    game: Game, time_limit: float | None = 1.0, peek: bool = True, seed: int | None = None, **kwargs: Any
) -> HintResult:
    """The next move to play.

    ``peek=True`` (the default, for compatibility): the solver's hint, which sees the face-down cards
    (:func:`yukon.solver.hint`; ``seed`` is not used). ``peek=False``: the honest hint, from what a
    player sees only (:func:`yukon.honest.honest_hint`; with ``time_limit=None`` and a ``seed`` it is
    deterministic). The result's ``kind`` is ``"solver"`` or ``"honest"``.
    """
    if not isinstance(peek, bool):  # (peek="no" is truthy: it was the solver's hint, which sees the hidden cards)
        raise TypeError(f"peek must be True or False, not {shown(peek)}")
    if not peek:
        from .honest import honest_hint

        return honest_hint(game, time_limit=time_limit, seed=seed, **kwargs)
    from .solver import hint as _hint

    return _hint(game, time_limit=time_limit, **kwargs)


__all__ = [
    "FOUNDATION", "STOCK", "VARIANTS", "WASTE",
    "Game", "GameRecord", "IllegalMoveError", "InvalidCardError", "InvalidMoveError",
    "InvalidPositionError", "InvalidRecordError", "InvalidRulesError", "Move", "NumberingError",
    "RecordMoveError", "Rules", "UnknownVariantError", "Verdict", "YukonError", "analyze", "card_name", "hint",
    "parse_card", "rules_for", "solve", "verdicts",
]
