"""The difficulty of a winnable deal, from the solver's effort: easy, medium, hard, expert.

docs/difficulty.md gives the definition, how it was validated against the honest player's
games, and the command that reproduces the figures. In short, for one set of rules
(variant, empty column, foundation return, numbering):

- **easy**: the solver's greedy probe won it (a greedy player who sees every card walks straight
  through: a few hundred positions);
- the other won deals by the positions (``nodes``) the search needed to find its win, split at
  the thirds of those deals of the same rules: **medium** up to the first third's bound,
  **hard** up to the second's, **expert** above it.

Lost and undecided deals have no grade. The thresholds come from the data (:func:`thresholds`),
so a grade is reproducible from the shipped verdicts alone (:mod:`yukon.deal_data`).

>>> t = thresholds([100, 200, 300, 400, 500, 600])
>>> t
(300, 500)
>>> [grade("won", False, n, t) for n in (300, 301, 500, 501)]
['medium', 'hard', 'hard', 'expert']
>>> grade("won", True, 10**9, t), grade("lost", False, 5, t)
('easy', None)
"""

from __future__ import annotations

from collections.abc import Iterable

GRADES = ("easy", "medium", "hard", "expert")
#: the quantiles (numerator, denominator) of the searched deals' nodes that separate medium, hard and expert
SPLITS = ((1, 3), (2, 3))


def thresholds(search_nodes: Iterable[int]) -> tuple[int, int]:
    """The node counts that separate medium / hard / expert: the values at :data:`SPLITS` of the sorted
    nodes of the won deals that the greedy probe did not win. ``(0, 0)`` without any such deal."""
    xs = sorted(search_nodes)
    if not xs:
        return 0, 0
    low, high = (xs[min(len(xs) - 1, len(xs) * num // den)] for num, den in SPLITS)
    return low, high


def grade(status: str, probe: bool, nodes: int, bounds: tuple[int, int]) -> str | None:
    """The grade of one deal (None unless won), given its rules' :func:`thresholds`."""
    if status != "won":
        return None
    if probe:
        return "easy"
    low, high = bounds
    return "medium" if nodes <= low else "hard" if nodes <= high else "expert"


__all__ = ["GRADES", "SPLITS", "grade", "thresholds"]
