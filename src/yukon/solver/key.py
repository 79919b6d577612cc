"""The transposition key: what makes two positions the same for the solver.

Two positions are the same when they differ only in the order of the
columns (every rule treats columns alike) or in which of two foundation
piles of a suit holds which card (Milligan Yukon). The key therefore holds:

- each column as ``(face-down count, length, cards bottom first)``, the
  columns sorted (except while a Milligan Yukon stock lasts: a deal gives its
  cards to the columns in order, so there the order of columns matters), and
- the waste (its cards, bottom first) and the number of cards in the stock.

The stock's contents need not be stored: cards only ever leave it from the
top, so its length says which cards it holds. The foundations need not be
stored: every card that is not in a column, the stock or the waste is on a
foundation, and how many copies of each card are up fixes the height of every
pile of that suit up to the order of the two piles (which no rule can tell
apart). Nothing else is left out, so different positions never share a key.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game


def position_key(game: Game) -> bytes:
    """The canonical key of a position (see the module docstring).

    >>> from yukon import Game
    >>> g = Game.deal("yukon", seed=3)
    >>> text = g.to_text().split()
    >>> cols = text[1].split("/")
    >>> text[1] = "/".join(cols[1:] + cols[:1])   # the same columns, in another order
    >>> position_key(Game.from_text(" ".join(text))) == position_key(g)
    True
    """
    cols = game.column_cards
    down = game.down_counts
    keys = [bytes((down[i], len(c))) + bytes(c) for i, c in enumerate(cols)]
    if not (game.rules.stock == "rows" and game.stock_cards):
        keys.sort()
    return b"".join(keys) + extra_key(game)


def column_key(down: int, cards: Sequence[int]) -> bytes:
    """One column's part of the key."""
    return bytes((down, len(cards))) + bytes(cards)


def extra_key(game: Game) -> bytes:
    """The stock and waste part of the key (empty where both are empty)."""
    stock = game.stock_cards
    waste = game.waste_cards
    if stock or waste:
        return bytes((255, len(stock), len(waste))) + bytes(waste)
    return b""
