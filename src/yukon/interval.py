"""The Wilson score interval: a win rate's 95% error bars, for the studies and the deal data alike.

>>> lo, hi = wilson(80, 100)
>>> round(lo, 4), round(hi, 4)
(0.7112, 0.8666)
"""

from __future__ import annotations

import math

#: z for a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials; ``(0, 1)`` when ``n == 0``."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, not k={k}, n={n}")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return min(lo, p), max(hi, p)  # exact at the ends, and never on the wrong side of p by rounding


__all__ = ["Z95", "wilson"]
