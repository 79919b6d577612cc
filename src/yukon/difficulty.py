"""The difficulty of a winnable deal, from the solver's effort: easy, medium, hard, expert.

docs/difficulty.md gives the definition, how it was validated against the honest player's
games, and the command that reproduces the figures. In short, for one set of rules (variant,
empty column, foundation return; and numbering, as deal numbers of another program are other deals),
with the grades the rules' :data:`SCALES` entry offers:

- the first grade (**easy**): the solver's greedy probe won it (a greedy player who sees every card
  walks straight through: a few hundred positions);
- the other won deals by the positions (``nodes``) the search needed to find its win, split in equal
  parts among the remaining grades (four grades: thirds, **medium**, **hard**, **expert**; three: halves,
  **medium** and **hard**; two: every such deal is **hard**).

Rules offer only the grades their honest games validate (:func:`discriminates`); rules without an
entry have no grade at all, and lost and undecided deals never have one. The thresholds come from
the data (:func:`thresholds`), so a grade is reproducible from the shipped verdicts alone
(:mod:`yukon.deal_data`).

>>> t = thresholds([100, 200, 300, 400, 500, 600])
>>> t
(300, 500)
>>> [grade("won", False, n, t) for n in (300, 301, 500, 501)]
['medium', 'hard', 'hard', 'expert']
>>> grade("won", True, 10**9, t), grade("lost", False, 5, t)
('easy', None)
>>> thresholds([100, 200, 300, 400], EASY_MEDIUM_HARD), thresholds([100, 200], EASY_OR_HARD)
((300,), ())
>>> grade("won", False, 10**9, (), EASY_OR_HARD), grade("won", True, 5, (), ())
('hard', None)
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .interval import wilson

GRADES = ("easy", "medium", "hard", "expert")
#: the shorter scales: the probe's deals, then the others in halves, or all together
EASY_MEDIUM_HARD = ("easy", "medium", "hard")
EASY_OR_HARD = ("easy", "hard")
#: the scales a set of rules may offer, most grades first
CANDIDATES = (GRADES, EASY_MEDIUM_HARD, EASY_OR_HARD)

#: The grades each set of rules (variant, empty column, foundation return) offers: the longest of
#: :data:`CANDIDATES` that its honest games validate (:func:`discriminates`; docs/difficulty.md has the
#: figures, ``python bench/difficulty.py`` makes them). Rules not here have no grade: no honest games
#: (Milligan Yukon with Kings only and no return, or with any card), or too few won deals, or won games,
#: among them to tell any two grades apart (Russian Solitaire, Kings only: 6% of deals winnable; Australian
#: Patience with any card and Milligan Yukon with its own options: the honest player wins nearly all).
SCALES: dict[tuple[str, str, bool], tuple[str, ...]] = {
    ("yukon", "kings", False): GRADES,
    ("yukon", "kings", True): GRADES,
    ("yukon", "any", False): EASY_MEDIUM_HARD,
    ("yukon", "any", True): EASY_OR_HARD,
    ("russian", "any", False): EASY_OR_HARD,
    ("alaska", "kings", False): EASY_MEDIUM_HARD,
    ("alaska", "any", False): GRADES,
    ("australian", "kings", False): EASY_OR_HARD,
}

#: a scale is validated on at least this many honest games of won deals in each of its grades
MIN_GAMES = 10


def scale(variant: str, empty_column: str, foundation_return: bool) -> tuple[str, ...]:
    """The grades these rules offer, easiest first; ``()`` where none is validated."""
    return SCALES.get((variant, empty_column, foundation_return), ())


def thresholds(search_nodes: Iterable[int], grades: Sequence[str] = GRADES) -> tuple[int, ...]:
    """The node counts that separate the grades after the first (four grades: medium / hard / expert): the
    values at the equal parts (thirds for four grades, halves for three) of the sorted nodes of the won deals
    the greedy probe did not win. One fewer than those grades (zeros without any such deal): ``()`` for two."""
    xs = sorted(search_nodes)
    parts = len(grades) - 1
    if not xs:
        return (0,) * max(0, parts - 1)
    return tuple(xs[min(len(xs) - 1, len(xs) * k // parts)] for k in range(1, parts))


def grade(status: str, probe: bool, nodes: int, bounds: Sequence[int], grades: Sequence[str] = GRADES) -> str | None:
    """The grade of one deal on the scale ``grades`` (None unless won, or with no grades), given its rules'
    :func:`thresholds`: a deal of exactly a threshold's nodes takes the easier grade."""
    if status != "won" or not grades:
        return None
    if probe:
        return grades[0]
    return grades[1 + bisect_left(bounds, nodes)]


# ------------------------------------------------------------------------------------------ validation

@dataclass(frozen=True)
class Deal:
    """One won deal: its number, the solver's effort on it, and the honest player's game of it (None: not
    played)."""

    seed: int
    probe: bool
    nodes: int
    honest_won: bool | None = None


def held_out(deals: Sequence[Deal], grades: Sequence[str] = GRADES) -> dict[str, tuple[int, int]]:
    """grade -> (honest games won, played) among ``deals`` (the won deals of one set of rules), each deal
    graded by thresholds fitted on the other half of the deal numbers (odd / even) only: a grade judged on
    deals that did not place it."""
    out = {g: (0, 0) for g in grades}
    for parity in (0, 1):
        bounds = thresholds((x.nodes for x in deals if x.seed % 2 != parity and not x.probe), grades)
        for x in deals:
            if x.seed % 2 == parity and x.honest_won is not None:
                g = grade("won", x.probe, x.nodes, bounds, grades)
                assert g is not None  # (a won deal, and a scale of at least one grade)
                won, n = out[g]
                out[g] = (won + x.honest_won, n + 1)
    return out


def discriminates(counts: dict[str, tuple[int, int]]) -> str:
    """'' when the held-out counts validate their scale, else why not: each grade has :data:`MIN_GAMES`
    games, the honest win rate falls from each grade to the next, and the first grade's 95% Wilson interval
    lies above the last's."""
    cells = list(counts.items())
    if len(cells) < 2:
        return "a scale needs two grades"
    few = [g for g, (_, n) in cells if n < MIN_GAMES]
    if few:
        return f"fewer than {MIN_GAMES} honest games of {', '.join(few)} deals"
    rates = [(g, won / n) for g, (won, n) in cells]
    rises = [f"{a} {ra:.0%} < {b} {rb:.0%}" for (a, ra), (b, rb) in itertools.pairwise(rates) if rb > ra]
    if rises:
        return "the win rate rises: " + ", ".join(rises)
    (first, (k1, n1)), (last, (k2, n2)) = cells[0], cells[-1]
    if wilson(k1, n1)[0] <= wilson(k2, n2)[1]:
        return f"the 95% intervals of {first} and {last} overlap"
    return ""


__all__ = ["CANDIDATES", "EASY_MEDIUM_HARD", "EASY_OR_HARD", "GRADES", "MIN_GAMES", "SCALES", "Deal", "discriminates",
           "grade", "held_out", "scale", "thresholds"]
