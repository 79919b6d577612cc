"""Honest continuations: in each sampled deal, a greedy playout that decides only by what a player sees.

The searches of :mod:`.evaluator` value a move by what a clairvoyant player could do after it
(strategy fusion, docs/honest.md). A playout of a fixed policy that reads only the face-up cards has no
such bias: in each sample it plays on as the player's advice would, turning the sample's hidden cards
as it goes, and wins or gets stuck. Its share of wins is what that honest continuation achieves; among
moves the searches cannot tell apart, the move whose playouts win most often is the better one (a
rollout of a policy improves on the policy).

The policy is the greedy agent's (:func:`yukon.solver.probe.player_score`, played by
:func:`yukon.solver.probe.greedy_probe`, which never goes back to a position it has seen), with what a
player sees: a card goes up when :func:`yukon.autoplay.is_safe_to_play_up`, a King waits for an empty
column only when it lies face up on other cards, and a rearrangement scores half the best new move it
makes possible (the position after it is in sight: it turns nothing).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from ..autoplay import is_safe_to_play_up
from ..cards import KING, RANK
from ..game import Game
from ..notation import FOUNDATION, STOCK, Move
from ..solver.probe import greedy_probe, player_score
from ..solver.search import Limits
from ..visible import VisiblePosition
from .sampler import iter_games

if TYPE_CHECKING:
    from .evaluator import Budget
    from .player import Method


def _king_waits(game: Game, column: int) -> bool:
    """A face-up King lying on other cards in another column (it could move into ``column`` emptied)."""
    downs = game.down_counts
    return any(
        RANK[c] == KING and i > 0
        for j, cards in enumerate(game.column_cards) if j != column
        for i, c in enumerate(cards) if i >= downs[j]
    )


def _own_score(game: Game, move: Move) -> float:
    return player_score(game, move, safe_up=is_safe_to_play_up, kings_waiting=_king_waits)


def visible_score(game: Game, move: Move) -> float:
    """The playout's score of ``move``: the greedy agent's, reading only what a player sees (the position
    after a rearrangement, which turns nothing, is in sight too)."""
    score = _own_score(game, move)
    if move.src < FOUNDATION and move.dst < FOUNDATION:
        down = game.down_counts[move.src]
        if len(game.column_cards[move.src]) - move.count != down or not down:
            before = set(game.legal_moves())
            game.push_unchecked(move)
            gain = max((_own_score(game, m) for m in game.legal_moves()
                        if m not in before and m.src != STOCK and m.src != FOUNDATION), default=0.0)
            game.pop()
            score += 0.5 * max(0.0, gain)
    return score


def playout_shares(
    view: VisiblePosition,
    moves: list[Move],
    count: int,
    seed: int,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> list[float] | None:
    """For each of ``moves`` (legal moves of ``view``), the share of ``count`` sampled deals (drawn by
    ``seed``: the searches' first samples) in which the greedy playout after it wins; None when the time
    ran out or ``stop`` was set first (a share of some samples only would favour the moves played first)."""
    limits = Limits(time_limit, None, None, stop)
    wins = [0] * len(moves)
    done = 0
    for game in iter_games(view, count, seed):
        for i, move in enumerate(moves):
            game.push(move)
            line, _ = greedy_probe(game, visible_score, limits)
            game.pop()
            if limits.expired():
                return None
            wins[i] += line is not None
        done += 1
    return [w / done for w in wins]


def honest_rollouts(
    view: VisiblePosition,
    moves: list[Move],
    count: int,
    seed: int,
    budget: Budget,
    method: Method,
    deadline: float | None = None,
    stop: threading.Event | None = None,
    max_moves: int = 400,
) -> list[int] | None:
    """For each of ``moves``, in how many of ``count`` sampled deals (drawn by ``seed``: the searches' first
    samples; one when nothing is hidden) the honest player itself (``method`` at ``budget``) wins after it:
    sample ``j`` is played out with seed ``seed * 31 + j``, deciding from the views of that deal only, so
    the continuation is one a player could play and has no strategy fusion (a rollout longer than
    ``max_moves`` counts as lost). None when ``deadline`` (a
    ``time.perf_counter()`` instant) passed or ``stop`` was set first: a count of some rollouts only would
    favour the moves played first."""
    from .player import play_honest  # the player calls this module: play_honest is looked up when needed

    wins = [0] * len(moves)
    for j, game in enumerate(iter_games(view, count, seed)):
        for i, move in enumerate(moves):
            left = None if deadline is None else deadline - time.perf_counter()
            if (left is not None and left <= 0) or (stop is not None and stop.is_set()):
                return None
            played_out = game.copy()
            played_out.push(move)
            result = play_honest(played_out, budget, seed=seed * 31 + j, max_moves=max_moves, stop=stop, method=method,
                                 time_limit=left)
            if result.reason == "stopped":
                return None
            wins[i] += result.won
    return wins


__all__ = ["honest_rollouts", "playout_shares", "visible_score"]
