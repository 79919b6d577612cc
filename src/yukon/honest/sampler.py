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

from collections.abc import Iterator

from ..deal import SplitMix64
from ..errors import InvalidSeedError, shown
from ..game import Game
from ..visible import VisiblePosition


def iter_fills(view: VisiblePosition, count: int, seed: int, first: int = 0) -> Iterator[list[int]]:
    """``count`` arrangements of the unseen cards (for :meth:`VisiblePosition.fill`), drawn by ``seed``,
    one at a time (a deadline may stop the caller after any of them); ``first`` skips that many of the
    seed's sequence (the samples of a second look follow those of the first)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"sample count must be an int of at least 1, not {count!r}")
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise ValueError(f"the first sample must be an int of at least 0, not {first!r}")
    # Any int from 0: the seeds a game derives (``seed * 1009 + ply``, ``seed * 31 + j``) pass 2^64 when the
    # deal number is large, and SplitMix64 takes them modulo 2^64 (below 2^64 nothing changes).
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidSeedError(f"a sampling seed is an int from 0, not {shown(seed)}")
    rng = SplitMix64(seed)
    for k in range(first + count):
        cards = list(view.unseen)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        if k >= first:
            yield cards


def sample_fills(view: VisiblePosition, count: int, seed: int) -> list[list[int]]:
    """:func:`iter_fills` as a list."""
    return list(iter_fills(view, count, seed))


def iter_games(view: VisiblePosition, count: int, seed: int, first: int = 0) -> Iterator[Game]:
    """``count`` games consistent with ``view`` (from the ``first`` of the seed's sequence); only one
    when at most one card is hidden (they would all be the same game), none after it."""
    if view.hidden_places <= 1:
        if not first:
            yield view.fill(view.unseen)
        return
    for cards in iter_fills(view, count, seed, first):
        yield view.fill(cards)


def sample_games(view: VisiblePosition, count: int, seed: int) -> list[Game]:
    """:func:`iter_games` as a list."""
    return list(iter_games(view, count, seed))


__all__ = ["iter_fills", "iter_games", "sample_fills", "sample_games"]
