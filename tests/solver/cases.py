"""Test cases shared by the solver tests: generated positions with their reference verdicts (cached).

Every case is a position small enough that the plain exhaustive search of
reference.py decides it within ``CAP`` positions; candidates it cannot decide
are skipped (they are counted, and the tests demand enough cases per option).

Building the cases takes a minute or more (the plain search of every candidate). Under pytest-xdist each worker
would build them all again: :func:`shared` has the first worker that needs an option's cases build and store
them, and the others load them (the same seeded generator, so the same cases; see tests/solver/conftest.py).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from once_per_run import once_per_run
from yukon import Game, Move
from yukon.notation import FOUNDATION
from yukon.solver import search, solve

from .positions import ALL_OPTIONS, VARIANTS, late_position, option_id, small_position
from .reference import ReferenceResult, reference_solve

Case = tuple[Game, ReferenceResult]
T = TypeVar("T")

#: a directory the xdist workers of one pytest run share (set by tests/solver/conftest.py); None: no sharing
SHARED_DIR: Path | None = None


def shared(build: Callable[[tuple[str, str, bool]], T]) -> Callable[[tuple[str, str, bool]], T]:
    """``build(opt)`` once per test run and process (cached), and once per run across xdist workers: under a
    lock per option, the first worker builds the value and pickles it into ``SHARED_DIR``, the others load it."""

    @cache
    @functools.wraps(build)
    def once(opt: tuple[str, str, bool]) -> T:
        if SHARED_DIR is None:
            return build(opt)
        return once_per_run(SHARED_DIR / f"{build.__name__}-{option_id(opt)}.pickle", lambda: build(opt))

    return once


#: positions the plain search may visit for a case
CAP = 2000

#: generator settings per (empty_column, foundation_return), and cases wanted / candidates tried per option.
#: With foundation return, or any card into empty columns, the reachable set grows fast (every foundation
#: top may come back, every column order is another position for the plain search): those get fewer cards.
PROFILES: dict[tuple[str, bool], tuple[int, int, list[dict[str, object]]]] = {
    ("kings", False): (16, 24, [dict(remaining=(5, 12)), dict(remaining=(5, 10), used=(1, 3), down_chance=0.9)]),
    ("any", False): (12, 20, [dict(remaining=(3, 7), used=(3, 8)), dict(remaining=(6, 10), used=(7, 8))]),
    ("kings", True): (8, 14, [dict(remaining=(2, 5), used=(2, 8)), dict(remaining=(3, 6), used=(1, 2))]),
    ("any", True): (6, 12, [dict(remaining=(2, 4), used=(2, 8)), dict(remaining=(6, 9), used=(7, 8))]),
}


def with_options(game: Game, empty_column: str, foundation_return: bool) -> Game:
    """The same position under other rule options."""
    data = game.to_dict()
    data["rules"] = {"empty_column": empty_column, "foundation_return": foundation_return}
    return Game.from_dict(data)


@shared
def small_cases(opt: tuple[str, str, bool]) -> tuple[tuple[Case, ...], int]:
    """Decided small positions of one variant and option, and how many candidates were too big."""
    variant, empty, ret = opt
    rng = random.Random(f"small-{option_id(opt)}")
    want, tries, profiles = PROFILES[(empty, ret)]
    cases: list[Case] = []
    skipped = 0
    for i in range(tries):
        if len(cases) >= want:
            break
        g = small_position(rng, variant, empty, ret, **profiles[i % len(profiles)])  # type: ignore[arg-type]
        ref = reference_solve(g, max_states=CAP)
        if ref is None:
            skipped += 1
        else:
            cases.append((g, ref))
    return tuple(cases), skipped


@cache
def winning_lines(variant: str) -> tuple[tuple[Game, tuple[Move, ...]], ...]:
    """A few real deals of ``variant`` (kings, no return) with the solver's winning line, found under a
    node limit (deterministic). The lines stay legal under every option: options only add moves."""
    out = []
    for seed in range(1, 30):
        g = Game.deal(variant, seed=seed, empty_column="kings", foundation_return=False)
        r = solve(g, time_limit=None, node_limit=15_000)
        if r.status == "won":
            out.append((g, tuple(r.moves)))
            if len(out) == 3:
                break
    return tuple(out)


@shared
def late_cases(opt: tuple[str, str, bool]) -> tuple[tuple[Case, ...], int]:
    """Positions near the end of real deals (the solver's line cut short, then a few random moves)."""
    variant, empty, ret = opt
    rng = random.Random(f"late-{option_id(opt)}")
    cases: list[Case] = []
    skipped = 0
    deals = winning_lines(variant)
    small = empty == "any" or ret
    for i in range(4 if ret else 8):
        if not deals:
            break
        game, line = deals[i % len(deals)]
        start = late_position(rng, with_options(game, empty, ret), list(line),
                              left=rng.randint(3, 5) if ret else rng.randint(4, 8) if small else rng.randint(7, 14),
                              random_moves=rng.randint(0, 4))
        ref = reference_solve(start, max_states=CAP)
        if ref is None:
            skipped += 1
        else:
            cases.append((start, ref))
    return tuple(cases), skipped


# ------------------------------------------------------------------ the solver's rules, one at a time


def solver_children(game: Game) -> list[Move]:
    """The moves the solver tries at ``game``: ``Searcher.children()`` with every pruning rule."""
    s = search.Searcher(game, search.Limits())
    s.game = game
    return s.children()


def safe_rule_only(game: Game) -> list[Move]:
    """Only rule (a): where the solver forces a card up (``children()`` is that one foundation move), that is
    the only move; everywhere else every legal move. (Read from ``children()`` so that it follows the rule as
    the solver has it: ``is_safe_foundation_card`` plus any extra condition, off with foundation return.)"""
    moves = game.legal_moves()
    if len(moves) > 1:
        children = solver_children(game)
        if len(children) == 1 and children[0].dst == FOUNDATION and children[0].src != FOUNDATION:
            return children
    return moves


def first_empty_only(game: Game) -> list[Move]:
    """Only rule (c): of several empty columns, moves go into the first one only. Not while a Milligan Yukon
    stock lasts: a deal gives its cards to the columns in order, so there the columns are not alike."""
    if game.stock and game.rules.stock == "rows":
        return game.legal_moves()
    cols = game.column_cards
    first = next((i for i, c in enumerate(cols) if not c), -1)
    return [m for m in game.legal_moves() if not (m.dst < FOUNDATION and not cols[m.dst] and m.dst != first)]


def safe_rule_fires(game: Game) -> bool:
    moves = game.legal_moves()
    return len(moves) > 1 and len(safe_rule_only(game)) == 1


def first_empty_fires(game: Game) -> bool:
    return len(first_empty_only(game)) < len(game.legal_moves())


__all__ = [
    "ALL_OPTIONS", "CAP", "VARIANTS", "Case", "first_empty_fires", "first_empty_only", "late_cases",
    "safe_rule_fires", "safe_rule_only", "small_cases", "solver_children", "winning_lines", "with_options",
]
