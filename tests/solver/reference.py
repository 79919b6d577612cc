"""A plain, obviously correct exhaustive search: the yardstick for the solver.

Breadth-first over ``legal_moves()``, ``push`` and ``pop`` (each new position kept as a copy), with an exact key
(every column in its place, every foundation pile in its place, the stock
and the waste: what ``Game.to_text()`` holds), no pruning of any kind, and ``is_won()`` as the
goal. Every position reachable from the start is visited once, so the verdict
is the truth of the engine's rules. Only meant for small positions: it gives
up (returns ``None``) past ``max_states``.

The search can be handed another move generator or key, so that each of the
solver's pruning rules and its transposition key can be checked *alone*
against the plain search (see test_verdicts.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from yukon import Game, Move

MovesFn = Callable[[Game], list[Move]]
KeyFn = Callable[[Game], Hashable]


def exact_key(game: Game) -> Hashable:
    """Two positions share this key only when they are identical: every column in its place
    (cards, bottom first, and how many are face down), every foundation pile in its place,
    the stock and the waste. (The same information as ``to_text()``, built faster.)"""
    return (
        tuple(map(tuple, game.column_cards)),
        tuple(game.down_counts),
        tuple(map(tuple, game.foundation_piles)),
        tuple(game.stock_cards),
        tuple(game.waste_cards),
    )


def all_moves(game: Game) -> list[Move]:
    return game.legal_moves()


@dataclass
class ReferenceResult:
    status: str  # "won" | "lost"
    states: int
    line: list[Move] = field(default_factory=list)  # a shortest winning line when won


def reference_solve(
    game: Game,
    max_states: int = 50_000,
    moves: MovesFn = all_moves,
    key: KeyFn = exact_key,
) -> ReferenceResult | None:
    """Exhaustive breadth-first search from ``game`` (not modified).

    Returns ``None`` when more than ``max_states`` distinct positions are reachable.
    """
    start = game.copy()
    if start.is_won():
        return ReferenceResult("won", 1)
    parent: dict[Hashable, tuple[Hashable, Move] | None] = {key(start): None}
    queue: deque[tuple[Hashable, Game]] = deque([(key(start), start)])
    while queue:
        k, g = queue.popleft()
        for m in moves(g):
            g.push(m)  # checks legality, as for any caller
            ck = key(g)
            if ck not in parent:
                parent[ck] = (k, m)
                if g.is_won():
                    line: list[Move] = []
                    node: Hashable = ck
                    while (p := parent[node]) is not None:
                        node, mv = p
                        line.append(mv)
                    line.reverse()
                    return ReferenceResult("won", len(parent), line)
                if len(parent) > max_states:
                    return None
                queue.append((ck, g.copy()))
            g.pop()
    return ReferenceResult("lost", len(parent))


def replays_to_win(game: Game, line: list[Move]) -> bool:
    """Push every move of ``line`` on a copy of ``game`` (each must be legal); True if it ends won."""
    g = game.copy()
    for m in line:
        g.push(m)  # raises IllegalMoveError for an illegal move
    return g.is_won()
