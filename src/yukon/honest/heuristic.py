"""The honest player's move preferences among the moves its samples cannot tell apart.

The strategy advice of docs/rules.md as scores (after the greedy agent of
bench/agents.py, which wins 38.8% of Yukon deals on it alone), computed from a
view: a safe card up 1000; a move that turns a face-down card 300, plus 10 per
card still face down in that column; emptying a column 100 when a King lies on
other cards (it can move in), else 20; the waste to a column 50; another card
up 5; minus 40 per King carried inside a group onto another card (it buries
that column); a card back from a foundation -100; a deal from the stock 1. A
rearrangement that turns nothing also scores half the best new score it makes
possible at once (its view after is known: it reveals nothing).
"""

from __future__ import annotations

from ..autoplay import is_safe_to_play_up
from ..cards import KING, RANK
from ..game import Game
from ..notation import FOUNDATION, STOCK, WASTE, Move
from ..visible import VisiblePosition


def _kings_waiting(view: VisiblePosition) -> bool:
    return any(RANK[c] == KING and (down or i > 0) for down, up in view.columns for i, c in enumerate(up))


def _own_score(view: VisiblePosition, game: Game, move: Move, kings_waiting: bool) -> float:
    s, d = move.src, move.dst
    if s == STOCK:
        return 1.0
    if s == FOUNDATION:
        return -100.0
    if s == WASTE:
        if d == FOUNDATION:
            return 1000.0 if is_safe_to_play_up(game, move.card) else 40.0
        return 50.0
    down, up = view.columns[s]
    score = 0.0
    if d == FOUNDATION:
        if is_safe_to_play_up(game, move.card):
            return 1000.0 + (300.0 if down and len(up) == 1 else 0.0)
        score += 5.0
    if move.count == len(up):
        if down:
            score += 300.0 + 10.0 * down
        else:
            score += 100.0 if kings_waiting else 20.0
    if d != FOUNDATION and view.columns[d][1]:
        carried = up[len(up) - move.count + 1:]
        score -= 40.0 * sum(1 for c in carried if RANK[c] == KING)
    return score


def preference(view: VisiblePosition, move: Move) -> float:
    """How much the advice likes ``move`` here (higher is better); reads only the view."""
    game = view.canonical
    score = _own_score(view, game, move, _kings_waiting(view))
    if move.src < FOUNDATION and move.dst < FOUNDATION:
        after = view.after(move)
        if after is not None:
            before = set(view.legal_moves())
            kings = _kings_waiting(after)
            gains = [
                _own_score(after, after.canonical, m, kings) for m in after.legal_moves()
                if m not in before and m.src not in (STOCK, FOUNDATION)
            ]
            score += 0.5 * max(0.0, max(gains, default=0.0))
    return score


__all__ = ["preference"]
