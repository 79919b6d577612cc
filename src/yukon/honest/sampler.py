"""Deals of the unseen cards into the hidden places, consistent with everything the player sees.

Every arrangement of the unseen cards is equally likely given the view: the
deal was uniform, and what was seen since (face-up cards, the count of hidden
ones) says nothing about which unseen card lies where. So a uniform shuffle of
:attr:`~yukon.visible.VisiblePosition.unseen` is an exact sample of the
player's belief. The shuffle is the engine's (SplitMix64 and Fisher-Yates,
:mod:`yukon.deal`), so a seed gives the same samples on every machine.

>>> from yukon import Game
>>> from yukon.visible import VisiblePosition
>>> view = VisiblePosition.of(Game.deal("yukon", seed=3))
>>> a, b = sample_fills(view, 2, seed=7)
>>> sorted(a) == sorted(b) == list(view.unseen), a != b
(True, True)
"""

from __future__ import annotations

from ..deal import SplitMix64, check_seed
from ..game import Game
from ..visible import VisiblePosition


def sample_fills(view: VisiblePosition, count: int, seed: int) -> list[list[int]]:
    """``count`` arrangements of the unseen cards (for :meth:`VisiblePosition.fill`), drawn by ``seed``."""
    if count < 1:
        raise ValueError(f"sample count must be at least 1, not {count!r}")
    rng = SplitMix64(check_seed(seed))
    fills = []
    for _ in range(count):
        cards = list(view.unseen)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        fills.append(cards)
    return fills


def sample_games(view: VisiblePosition, count: int, seed: int) -> list[Game]:
    """``count`` games consistent with ``view``; only one when nothing is hidden (they would all agree)."""
    if view.hidden_places <= 1:
        return [view.fill(view.unseen)]
    return [view.fill(cards) for cards in sample_fills(view, count, seed)]


__all__ = ["sample_fills", "sample_games"]
