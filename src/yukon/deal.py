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

import re
from collections.abc import Callable

from .errors import InvalidSeedError, YukonError, shown

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
    """``seed`` if it is a deal number; :class:`yukon.errors.InvalidSeedError` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidSeedError(f"a deal number is an int from 0 to {MAX_SEED}, not {shown(seed)}")
    return seed


_DIGITS = re.compile(r"[0-9]+")


def parse_seed(text: str) -> int:
    """A deal number written in ASCII digits (``int`` would also take ``'١٢'``, ``'+1'`` or ``'1_0'``).

    >>> parse_seed(" 42 "), parse_seed(str(MAX_SEED)) == MAX_SEED
    (42, True)
    """
    if not isinstance(text, str):
        raise InvalidSeedError(f"a deal number is text of digits 0-9, not {shown(text)}")
    digits = text.strip()
    if not _DIGITS.fullmatch(digits):
        raise InvalidSeedError(f"not a deal number: {shown(text)} (write digits 0-9, from 0 to {MAX_SEED})")
    if len(digits) > len(str(MAX_SEED)) or int(digits) > MAX_SEED:
        raise InvalidSeedError(f"deal number {shown(digits)} is too large: they run from 0 to {MAX_SEED}")
    return int(digits)


def parse_seeds(text: str, max_count: int | None = None, parse: Callable[[str], int] = parse_seed) -> list[int]:
    """``'1-10000'``, ``'42'`` or a comma list of both: the sorted deal numbers, each once; at most
    ``max_count`` of them. Every command line that takes several deal numbers reads them here; each number
    with ``parse`` (another program's numbers: :func:`yukon.pysolfc.parse_game_number`, which run further).

    >>> parse_seeds("7-9, 3,8")
    [3, 7, 8, 9]
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidSeedError("empty seed range: give FIRST-LAST (e.g. 1-1000), N, or a comma list of both")
    spans: list[tuple[int, int]] = []
    for part in text.split(","):
        if not part.strip():  # ('1-3,,5' or a trailing comma: "bad seed range ''" named nothing)
            raise InvalidSeedError(f"empty item in the seed range {shown(text)}: write the numbers between commas")
        first, sep, last = part.strip().partition("-")
        try:
            a = parse(first)
            b = parse(last) if sep else a
        except YukonError as exc:
            raise InvalidSeedError(f"bad seed range {shown(part.strip())}: {exc}") from None
        if b < a:
            raise InvalidSeedError(f"reversed seed range {shown(part.strip())}: the first deal number must "
                                   f"not exceed the last ({b}-{a}?)")
        spans.append((a, b))
    spans.sort()
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    count = sum(b - a + 1 for a, b in merged)
    if max_count is not None and count > max_count:
        raise InvalidSeedError(f"more than {max_count:,} seeds at once ({count:,}): split the range")
    return [s for a, b in merged for s in range(a, b + 1)]


def shuffled(seed: int, n: int) -> list[int]:
    """A permutation of ``range(n)`` determined by ``seed``."""
    rng = SplitMix64(check_seed(seed))
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
