"""Greedy probes: cheap single playouts that often find a win before any search.

Each probe plays, from the position, the best-scored legal move that leads to
a position it has not seen, until it wins or runs out of moves. It never
backtracks, so it proves nothing when it fails; the solver then searches. Two
scorings give two different playouts: the hint heuristic
(:func:`yukon.solver.heuristic.score_move`, ties broken by mobility) and a
"player" scoring that also looks one move ahead for what a rearrangement
makes possible (:func:`player_score`, which the greedy agent of ``bench/agents.py`` plays by too).
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


def player_score(
    game: Game,
    move: Move,
    *,
    safe_up: Callable[[Game, int], bool],
    kings_waiting: Callable[[Game, int], bool],
    unsafe_up: float = 5.0,
) -> float:
    """The greedy player's score of ``move``, higher is better: the probes' and ``bench/agents.py``'s.

    The two differ only in what they pass: ``safe_up(game, card)``, may ``card`` go up without risk;
    ``kings_waiting(game, column)``, would emptying ``column`` let a King move in; ``unsafe_up``, the
    score of another card up. A card safe to play up scores 1000 (300 more if that turns a card);
    turning a face-down card 300, plus 10 per card still face down there; emptying a column 100 if a
    King waits, else 20; waste to a column 50, waste up 40; minus 40 per King carried inside a group
    onto another card; a deal 1; a card back from a foundation -100.
    """
    s, d = move.src, move.dst
    if s == STOCK:
        return 1.0
    if s == FOUNDATION:
        return -100.0
    safe = d == FOUNDATION and safe_up(game, move.card)
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
        score += unsafe_up
    if rest == nd:
        if nd:
            score += 300.0 + 10.0 * nd
        else:
            score += 100.0 if kings_waiting(game, s) else 20.0
    if d < FOUNDATION and cols[d]:
        score -= 40.0 * sum(1 for c in col[rest + 1:] if RANK[c] == KING)
    return score


def _safe_up(game: Game, card: int) -> bool:
    return not game.rules.foundation_return and is_safe_foundation_card(game.rules.build_rule, card, min_heights(game))


def _king_off_the_bottom(game: Game, column: int) -> bool:
    """Is a King lying on another card in a column other than ``column`` (face down or not: the probe
    knows the position)?"""
    return any(
        RANK[c] == KING and i > 0
        for j, cc in enumerate(game.column_cards) if j != column for i, c in enumerate(cc)
    )


def _player_score(game: Game, move: Move) -> float:
    return player_score(game, move, safe_up=_safe_up, kings_waiting=_king_off_the_bottom)


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
