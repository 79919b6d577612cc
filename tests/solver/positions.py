"""Generators of small and late positions of every variant and option, for the solver tests.

Everything is driven by a seeded :class:`random.Random`, so every test run sees
the same positions.

- :func:`small_position`: choose a height for each foundation pile so that only
  a few cards remain, deal those at random into the variant's columns (some
  face down, a face-up card on every column that has face-down ones, some
  columns empty) and, for Australian Patience and Milligan Yukon, some into
  the stock (and waste). Built through ``Game.from_dict`` (the public contract).
- :func:`late_position`: a real deal played along the solver's own winning
  line (or at random) until few cards are left, then a few random moves.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from yukon import Game, rules_for
from yukon.cards import NAME

VARIANTS = ("yukon", "russian", "alaska", "australian", "milligan-yukon")

#: every variant with every option: (variant, empty_column, foundation_return)
ALL_OPTIONS: list[tuple[str, str, bool]] = [
    (variant, empty, ret) for variant in VARIANTS for empty in ("kings", "any") for ret in (False, True)
]


def option_id(opt: tuple[str, str, bool]) -> str:
    variant, empty, ret = opt
    return f"{variant}-{empty}-{'return' if ret else 'noreturn'}"


def _split(rng: random.Random, cards: list[int], parts: int) -> list[list[int]]:
    """Cut ``cards`` into ``parts`` non-empty runs at random points."""
    cuts = sorted(rng.sample(range(1, len(cards)), parts - 1)) if parts > 1 else []
    bounds = [0, *cuts, len(cards)]
    return [cards[a:b] for a, b in itertools.pairwise(bounds)]


def small_position(
    rng: random.Random,
    variant: str,
    empty_column: str = "kings",
    foundation_return: bool = False,
    remaining: tuple[int, int] = (6, 14),
    down_chance: float = 0.7,
    stock_share: float = 0.4,
    used: tuple[int, int] = (1, 4),
    kings_out: bool = False,
) -> Game:
    """A random position of ``variant`` with only ``remaining[0]..remaining[1]`` cards off the foundations.

    ``kings_out``: no foundation pile is complete (every King is in play). With foundation return this keeps
    the reachable set small: no King can come back down into an empty column.
    """
    rules = rules_for(variant, empty_column=empty_column, foundation_return=foundation_return)
    npiles = rules.foundations
    heights = [13] * npiles
    n = rng.randint(*remaining)
    # take the cards from a few piles, so that suits have real depth left
    live = rng.sample(range(npiles), rng.randint(1, npiles))
    if kings_out:
        heights = [12] * npiles
        n -= npiles
        live = list(range(npiles))
    for _ in range(max(0, n)):
        candidates = [p for p in live if heights[p] > 0]
        if not candidates:
            candidates = [p for p in range(npiles) if heights[p] > 0]
        heights[rng.choice(candidates)] -= 1
    suit_of = [p % 4 for p in range(npiles)]
    foundations = [[(r * 4 + suit_of[p]) for r in range(heights[p])] for p in range(npiles)]
    cards = [r * 4 + suit_of[p] for p in range(npiles) for r in range(heights[p], 13)]
    rng.shuffle(cards)

    stock: list[int] = []
    waste: list[int] = []
    if rules.has_stock and rng.random() < 0.75:
        k = rng.randint(1, max(1, int(len(cards) * stock_share)))
        stock, cards = cards[:k], cards[k:]
        if rules.has_waste and len(stock) > 1:
            w = rng.randint(0, len(stock) - 1)
            waste, stock = stock[:w], stock[w:]
    columns: list[tuple[list[int], list[int]]] = [([], []) for _ in range(rules.columns)]
    if cards:
        hi = min(rules.columns, len(cards), used[1])
        used_n = rng.randint(min(used[0], hi), hi)
        slots = rng.sample(range(rules.columns), used_n)
        for slot, run in zip(slots, _split(rng, cards, used_n), strict=True):
            d = rng.randint(0, len(run) - 1) if len(run) > 1 and rng.random() < down_chance else 0
            columns[slot] = (run[:d], run[d:])
    return Game.from_dict(_as_dict(variant, rules.options(), columns, foundations, stock, waste))


def stuck_position(
    rng: random.Random,
    variant: str,
    empty_column: str = "kings",
    foundation_return: bool = False,
    remaining: tuple[int, int] = (6, 12),
    kings_out: bool = False,
) -> Game | None:
    """A small position built so that a card Y lies, in one column, on every card it could be placed on
    and on a lower card of its suit (all face down beneath it): what ``stuck_cards`` looks for.
    None when the drawn cards hold no such Y."""
    g = small_position(rng, variant, empty_column, foundation_return, remaining=remaining, kings_out=kings_out)
    if g.rules.decks != 1:
        return None
    from yukon.rules import accepted_by

    placed_on = [tuple(t for t in range(52) if y in accepted_by(g.rules.build)[t]) for y in range(52)]
    loose = [c for _, col in enumerate(g.column_cards) for c in col]
    pool = set(loose)
    ys = [y for y in loose if y < 48 and all(t in pool for t in placed_on[y])
          and any(c in pool for c in range(y % 4, y, 4))]
    if not ys:
        return None
    y = rng.choice(ys)
    lower = rng.choice([c for c in range(y % 4, y, 4) if c in pool])
    beneath = list(dict.fromkeys([*placed_on[y], lower]))
    rng.shuffle(beneath)
    rest = [c for c in loose if c != y and c not in beneath]
    rng.shuffle(rest)
    on_top = rest[:rng.randint(0, min(2, len(rest)))]
    rest = rest[len(on_top):]
    columns: list[tuple[list[int], list[int]]] = [([], []) for _ in range(g.rules.columns)]
    slots = rng.sample(range(g.rules.columns), g.rules.columns)
    columns[slots[0]] = (beneath, [y, *on_top])
    if rest:
        used_n = rng.randint(1, min(len(rest), g.rules.columns - 1, 3))
        for slot, run in zip(slots[1:], _split(rng, rest, used_n), strict=False):
            d = rng.randint(0, len(run) - 1) if len(run) > 1 and rng.random() < 0.5 else 0
            columns[slot] = (run[:d], run[d:])
    return Game.from_dict(_as_dict(variant, g.rules.options(), columns, g.foundations, g.stock, g.waste))


def _as_dict(
    variant: str,
    options: dict[str, Any],
    columns: list[tuple[list[int], list[int]]],
    foundations: list[list[int]],
    stock: list[int],
    waste: list[int],
) -> dict[str, Any]:
    names = lambda cs: [NAME[c] for c in cs]  # noqa: E731
    return {
        "variant": variant,
        "rules": options,
        "tableau": [{"down": names(d), "up": names(u)} for d, u in columns],
        "foundations": [names(p) for p in foundations],
        "stock": names(stock),
        "waste": names(waste),
    }


def off_foundations(game: Game) -> int:
    return game.rules.card_count - game.cards_on_foundations


def late_position(
    rng: random.Random,
    game: Game,
    line: list[Any] | None,
    left: int,
    random_moves: int,
) -> Game:
    """Play ``line`` (the solver's winning line, or random moves when None) from ``game`` until at most
    ``left`` cards are off the foundations, then ``random_moves`` random legal moves. A fresh game."""
    g = game.copy()
    moves = iter(line) if line is not None else None
    while off_foundations(g) > left:
        if moves is not None:
            m = next(moves, None)
            if m is None:
                break
        else:
            legal = g.legal_moves()
            if not legal:
                break
            up = [m for m in legal if m.is_foundation_move]
            m = rng.choice(up or legal)
        g.push(m)
    for _ in range(random_moves):
        legal = g.legal_moves()
        if not legal:
            break
        g.push(rng.choice(legal))
    return Game.from_text(g.to_text())


def small_positions(seed: int, opt: tuple[str, str, bool], count: int, **kw: Any) -> Iterator[Game]:
    rng = random.Random(f"{seed}-{option_id(opt)}")
    variant, empty, ret = opt
    for _ in range(count):
        yield small_position(rng, variant, empty, ret, **kw)
