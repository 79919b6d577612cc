"""Win rates with honest error bars (the interval itself is :mod:`yukon.interval`'s).

>>> lo, hi = wilson(80, 100)
>>> round(lo, 4), round(hi, 4)
(0.7112, 0.8666)
>>> s = Summary(won=70, lost=20, unknown=10)
>>> s.total, round(s.rate, 4)
(100, 0.7778)
>>> s.bounds   # unknowns all lost .. all won
(0.7, 0.8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..interval import wilson


@dataclass(frozen=True)
class Summary:
    """Counts of one study (or part of one)."""

    won: int
    lost: int
    unknown: int

    @property
    def total(self) -> int:
        """Every deal: won, lost and unknown."""
        return self.won + self.lost + self.unknown

    @property
    def decided(self) -> int:
        """The deals won or lost."""
        return self.won + self.lost

    @property
    def rate(self) -> float:
        """Win rate among the decided deals (nan if none is decided)."""
        return self.won / self.decided if self.decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`rate`."""
        return wilson(self.won, self.decided)

    @property
    def bounds(self) -> tuple[float, float]:
        """The range the unknowns leave open: all of them lost .. all of them won."""
        if not self.total:
            return 0.0, 1.0
        return self.won / self.total, (self.won + self.unknown) / self.total

    @property
    def bounds95(self) -> tuple[float, float]:
        """:attr:`bounds` widened by sampling error: Wilson low of all-lost .. Wilson high of all-won."""
        return wilson(self.won, self.total)[0], wilson(self.won + self.unknown, self.total)[1]


def pct(x: float, digits: int = 1) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def pct_range(r: tuple[float, float], digits: int = 1) -> str:
    return f"{100 * r[0]:.{digits}f}–{100 * r[1]:.{digits}f}%"


__all__ = ["Summary", "pct", "pct_range", "wilson"]
