"""A move heuristic that uses only what a player sees (face-up cards).

Used for hints when the solver finds no winning line in time (or none
exists), and by computer players. It follows the strategy advice of the rule
pages: play Aces and safe cards up, turn face-down cards, empty columns for
Kings, free needed ranks; avoid sending cards up that lower cards still need,
and avoid pointless shuffles.

Score of a move (higher is better):

- +100 a safe card to its foundation (nothing still in play could go on it)
- +70  turns a face-down card
- +40  another card to its foundation
- +30  empties a column (+15 more when a King waits to fill it)
- +20  uncovers a card that can go to the foundation
- +10  a card from the waste
- -5 per card that the move buries under a King it carries to a non-empty column
- -30 a card back from a foundation; -10 the stock (it is always there later)

Ties go to the move that leaves the most legal moves.
"""

from __future__ import annotations

from ..cards import RANK
from ..game import Game
from ..notation import FOUNDATION, STOCK, WASTE, Move
from .search import Limits, is_safe_foundation_card, min_heights


def score_move(game: Game, move: Move) -> int:
    cols = game.column_cards
    down = game.down_counts
    s, d = move.src, move.dst
    score = 0
    if d == FOUNDATION:
        safe = not game.rules.foundation_return and is_safe_foundation_card(
            game.rules.build_rule, move.card, min_heights(game))
        score += 100 if safe or RANK[move.card] == 1 else 40
    if s == STOCK:
        return score - 10
    if s == FOUNDATION:
        return score - 30
    if s == WASTE:
        score += 10
    if s < FOUNDATION:
        col = cols[s]
        rest = len(col) - move.count
        if rest == down[s]:
            if rest:
                score += 70
            else:
                score += 30
                if any(RANK[c] == 13 for i, cc in enumerate(cols) if i != s for c in cc[max(down[i], 1):]):
                    score += 15
        elif game.foundation_accepts[col[rest - 1]]:
            score += 20
        if d < FOUNDATION and cols[d]:
            group = col[rest:]
            kings = [i for i, c in enumerate(group) if RANK[c] == 13 and i > 0]
            if kings:
                score -= 5 * (len(group) - kings[0])
    return score


def best_heuristic_move(game: Game, limits: Limits | None = None) -> Move | None:
    """The legal move with the best score (ties: most legal moves afterwards), or None.

    ``limits``: once their time is up or their stop event is set, the tie-break ends and the best
    move found so far is the answer (scoring every move takes well under a millisecond)."""
    moves = game.legal_moves()
    if not moves:
        return None
    scores = [score_move(game, m) for m in moves]
    top = max(scores)
    tied = [m for m, score in zip(moves, scores, strict=True) if score == top]
    choice = tied[0]
    if len(tied) == 1:
        return choice
    expired = limits.expired if limits is not None else None
    best = -1
    for m in tied:
        if expired is not None and expired():
            break
        game.push_unchecked(m)
        mobility = len(game.legal_moves())
        game.pop()
        if mobility > best:
            best, choice = mobility, m
    return choice
