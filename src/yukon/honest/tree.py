"""An information-set tree search: one plan for every sampled deal, several moves deep (round ten of docs/honest.md).

The first player values a move by the share of sampled deals a clairvoyant search still wins after it: in
each sample the search plays on knowing the cards, so every later decision is made per sample ("strategy
fusion"). Here the decisions inside the tree are made per **view** instead: a node is a view (what the
player sees), its statistics are shared by every sampled deal that reaches it, and the move chosen at it is
the same whatever the sample. Each iteration draws a new sample of the unseen cards, walks the tree from the
root choosing at each view the move with the best upper confidence bound (UCB1; a move not yet tried first, in
the advice's order), plays the safe cards up after each move as the player would, and at the first view not
yet in the tree adds it and asks the compiled search (node-limited, in that sample) whether the position can
still be won: 1, 0, or 1/2 undecided. A move that turns a card leads to a different view in each sample (the
card turned is that sample's), so the tree branches on what a player would learn, where the player learns it.
Below the tree the search still sees the cards: the fusion is pushed as deep as the tree grows, not undone.

The root move with the most visits is chosen (or, with a margin, the advice's favourite among the moves whose
mean is within the margin of the best).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..autoplay import safe_moves
from ..game import Game
from ..notation import Move
from ..solver.search import Limits
from ..visible import VisiblePosition
from .evaluator import LOST, WON, search_status
from .sampler import iter_fills

#: a walk down the tree longer than this many moves ends there (valued by the search)
MAX_DEPTH = 80


@dataclass
class _Node:
    """A view in the tree: its moves (the advice's favourite first) and, per move, visits and value won."""

    moves: list[Move]
    #: the view, until its moves are put in the advice's order (when the walk first chooses at it: most views
    #: added are never walked through, and the order costs as much as the search that values them)
    unordered: VisiblePosition | None = None
    visits: int = 0
    counts: list[int] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.counts = [0] * len(self.moves)
        self.totals = [0.0] * len(self.moves)

    def select(self, exploration: float) -> int:
        for i, n in enumerate(self.counts):
            if not n:
                return i
        log = math.log(self.visits)
        return max(range(len(self.moves)),
                   key=lambda i: self.totals[i] / self.counts[i] + exploration * math.sqrt(log / self.counts[i]))


@dataclass
class TreeResult:
    """Per root move: visits and mean value; the iterations run and the search nodes spent."""

    moves: list[Move]
    visits: list[int]
    means: list[float]
    iterations: int
    nodes: int
    views: int  # views in the tree


def tree_search(
    view: VisiblePosition,
    seen: frozenset[VisiblePosition],
    candidates: list[Move],
    ordered: Callable[[VisiblePosition, list[Move]], list[Move]],
    candidates_of: Callable[[VisiblePosition, frozenset[VisiblePosition]], list[Move]],
    iterations: int,
    leaf_nodes: int,
    seed: int,
    exploration: float,
    deadline: float | None = None,
    stop: threading.Event | None = None,
) -> TreeResult:
    """Run the iterations from ``view``: fewer when the ``deadline`` (a ``time.perf_counter()`` time) passes or
    ``stop`` is set; an iteration they cut short counts for nothing.

    ``candidates``: the root's moves; ``candidates_of(view, seen)``: the moves worth trying at a view (no
    return to a view passed); ``ordered(view, moves)``: those moves, the advice's favourite first.
    """
    root = _Node(ordered(view, candidates))
    tree: dict[VisiblePosition, _Node] = {view: root}
    nodes = 0
    done = 0
    single = view.hidden_places <= 1
    fills = iter_fills(view, 1, seed) if single else iter_fills(view, iterations, seed)
    first_fill = next(fills) if single else None

    def leaf(game: Game) -> float:
        nonlocal nodes
        remaining = None if deadline is None else max(deadline - time.perf_counter(), 1e-4)
        status, spent, reason = search_status(game, Limits(remaining, leaf_nodes, None, stop))
        nodes += spent
        if reason in ("time limit", "stopped") and status not in (WON, LOST):
            raise _OutOfTime
        return 1.0 if status == WON else 0.0 if status == LOST else 0.5

    for k in range(iterations):
        if k and ((stop is not None and stop.is_set()) or (deadline is not None and time.perf_counter() >= deadline)):
            break
        cards = first_fill if single else next(fills)
        assert cards is not None
        try:  # (an iteration the deadline or the stop cuts short counts for nothing)
            path, value = _walk(view.fill(cards), view, root, tree, seen, ordered, candidates_of, exploration, leaf)
        except _OutOfTime:
            break
        for n, i in path:
            n.visits += 1
            n.counts[i] += 1
            n.totals[i] += value
        done += 1
    means = [t / c if c else 0.0 for t, c in zip(root.totals, root.counts, strict=True)]
    return TreeResult(root.moves, list(root.counts), means, done, nodes, len(tree))


class _OutOfTime(Exception):
    pass


def _walk(
    game: Game, view: VisiblePosition, root: _Node, tree: dict[VisiblePosition, _Node],
    seen: frozenset[VisiblePosition], ordered: Callable[[VisiblePosition, list[Move]], list[Move]],
    candidates_of: Callable[[VisiblePosition, frozenset[VisiblePosition]], list[Move]], exploration: float,
    leaf: Callable[[Game], float],
) -> tuple[list[tuple[_Node, int]], float]:
    """One iteration in the sampled deal ``game``: down the tree to a view not in it (added, and valued by
    ``leaf``), a win, a dead end or a circle; the path's (node, move) pairs and the value found."""
    path: list[tuple[_Node, int]] = []
    on_path = {view}
    node = root
    for _ in range(MAX_DEPTH):
        if node.unordered is not None:
            node.moves = ordered(node.unordered, node.moves)
            node.unordered = None
        i = node.select(exploration)
        path.append((node, i))
        game.push_unchecked(node.moves[i])
        _play_safe(game)
        if game.is_won():
            return path, 1.0
        after = VisiblePosition.of(game)
        if after in on_path:  # round in a circle: worth nothing
            return path, 0.0
        child = tree.get(after)
        if child is None:
            moves = candidates_of(after, seen | on_path)
            value = leaf(game) if moves else 0.0
            tree[after] = _Node(moves, after)
            return path, value
        if not child.moves:
            return path, 0.0
        on_path.add(after)
        node = child
    return path, leaf(game)


def _play_safe(game: Game) -> None:
    """Play the safe cards up, as the player does without thinking."""
    while True:
        safe = safe_moves(game)
        if not safe:
            return
        game.push_unchecked(safe[0])


def tree_choice(result: TreeResult, margin: float, preference: Callable[[Move], float]) -> Move:
    """The most visited root move; with a ``margin``, the advice's favourite among the visited moves whose mean
    is within it of the best mean (of those visited at least a tenth as often as the most visited)."""
    most = max(result.visits)
    if margin <= 0:
        return result.moves[max(range(len(result.moves)), key=lambda i: (result.visits[i], result.means[i]))]
    trusted = [i for i in range(len(result.moves)) if result.visits[i] * 10 >= most]
    best = max(result.means[i] for i in trusted)
    close = [i for i in trusted if result.means[i] >= best - margin]
    return result.moves[max(close, key=lambda i: (preference(result.moves[i]), result.means[i]))]


__all__ = ["TreeResult", "tree_choice", "tree_search"]
