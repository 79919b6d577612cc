"""Reproducible shuffles.

The shuffle is defined here, not borrowed from :mod:`random`, so that a deal
number means the same deal on every Python version forever: SplitMix64
drives an unbiased Fisher-Yates shuffle. Golden deals in the tests pin it.

>>> sorted(shuffled(7, 5)) == [0, 1, 2, 3, 4]
True
>>> shuffled(7, 5) == shuffled(7, 5) != shuffled(8, 5)
True
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
MAX_SEED = _MASK


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea, Flood 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)``, by rejection (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a deal number is an int from 0 to {MAX_SEED}, not {seed!r}")
    return seed


def shuffled(seed: int, n: int) -> list[int]:
    """A permutation of ``range(n)`` determined by ``seed``."""
    rng = SplitMix64(check_seed(seed))
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
