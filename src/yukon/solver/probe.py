"""Greedy probes: cheap single playouts that often find a win before any search.

Each probe plays, from the position, the best-scored legal move that leads to
a position it has not seen, until it wins or runs out of moves. It never
backtracks, so it proves nothing when it fails; the solver then searches. Two
scorings give two different playouts: the hint heuristic
(:func:`yukon.solver.heuristic.score_move`, ties broken by mobility) and a
"player" scoring that also looks one move ahead for what a rearrangement
makes possible (after the baseline agent of ``bench/agents.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import KING, RANK
from ..game import Game
from ..notation import FOUNDATION, STOCK, WASTE, Move
from .heuristic import score_move
from .key import position_key
from .search import Limits, is_safe_foundation_card, min_heights

Scorer = Callable[[Game, Move], float]


def _player_score(game: Game, move: Move) -> float:
    s, d = move.src, move.dst
    if s == STOCK:
        return 1.0
    if s == FOUNDATION:
        return -100.0
    safe = move.dst == FOUNDATION and not game.rules.foundation_return and is_safe_foundation_card(
        game.rules.build, move.card, min_heights(game))
    if s == WASTE:
        if d == FOUNDATION:
            return 1000.0 if safe else 40.0
        return 50.0
    cols = game.column_cards
    col = cols[s]
    nd = game.down_counts[s]
    rest = len(col) - move.count
    score = 0.0
    if d == FOUNDATION:
        if safe:
            return 1000.0 + (300.0 if nd and rest == nd else 0.0)
        score += 5.0
    if rest == nd:
        if nd:
            score += 300.0 + 10.0 * nd
        else:
            kings_waiting = any(
                RANK[c] == KING and i > 0 for j, cc in enumerate(cols) if j != s for i, c in enumerate(cc)
            )
            score += 100.0 if kings_waiting else 20.0
    if d < FOUNDATION and cols[d]:
        score -= 40.0 * sum(1 for c in col[rest + 1:] if RANK[c] == KING)
    return score


def _with_lookahead(game: Game, move: Move) -> float:
    score = _player_score(game, move)
    if move.src < FOUNDATION and move.dst < FOUNDATION:
        col = game.column_cards[move.src]
        nd = game.down_counts[move.src]
        if len(col) - move.count != nd or not nd:
            before = set(game.legal_moves())
            game.push_unchecked(move)
            gain = max(
                (_player_score(game, m) for m in game.legal_moves()
                 if m not in before and m.src != STOCK and m.src != FOUNDATION),
                default=0.0,
            )
            game.pop()
            score += 0.5 * max(0.0, gain)
    return score


def _mobility_score(game: Game, move: Move) -> float:
    game.push_unchecked(move)
    mobility = len(game.legal_moves())
    game.pop()
    return score_move(game, move) * 1000 + mobility


SCORERS: tuple[Scorer, ...] = (_mobility_score, _with_lookahead)


def _never() -> str:
    return ""


def greedy_probe(
    game: Game, scorer: Scorer, limits: Limits | None = None, max_steps: int = 600
) -> tuple[list[Move] | None, int]:
    """A winning line found by one greedy playout (or None), and the positions it looked at.

    ``limits``: its time limit and stop event end the playout (with None) between two candidate moves;
    scoring one candidate takes well under a millisecond, a whole step up to tens of milliseconds."""
    g = game.copy()
    seen = {position_key(g)}
    line: list[Move] = []
    total = g.rules.card_count
    looked = 0
    expired = limits.expired if limits is not None else _never
    for _ in range(max_steps):
        if g.cards_on_foundations == total:
            return line, looked
        best: tuple[float, Move, bytes] | None = None
        for m in g.legal_moves():
            if expired():
                return None, looked
            g.push_unchecked(m)
            k = position_key(g)
            g.pop()
            looked += 1
            if k in seen:
                continue
            sc = scorer(g, m)
            if best is None or sc > best[0]:
                best = (sc, m, k)
        if best is None:
            return None, looked
        g.push_unchecked(best[1])
        seen.add(best[2])
        line.append(best[1])
    return (line if g.cards_on_foundations == total else None), looked
