"""Validation of the difficulty grades (docs/difficulty.md): the honest player's win rate by grade.

From the shipped verdicts alone (``yukon.verdicts``: the solver's effort and, for the deals an
honest study played, the honest player's result): the grades as shipped (thresholds from every
won deal of the rules), then held out: the thresholds fitted on the odd deal numbers grade the
even ones, and the other way round. The win rate should fall from easy to expert.

    python bench/difficulty.py [--variant yukon] [--empty-column kings] [--no-foundation-return]
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

import yukon
from yukon.deal_data import Verdict
from yukon.difficulty import GRADES, grade, thresholds
from yukon.study.stats import pct, pct_range, wilson


def by_grade(rows: list[Verdict], bounds: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """grade -> (honest games won, honest games played) among the won deals of ``rows``."""
    out = {g: (0, 0) for g in GRADES}
    for v in rows:
        g = grade(v.status, v.probe, v.nodes, bounds)
        if g is not None and v.honest is not None:
            won, n = out[g]
            out[g] = (won + (v.honest == "won"), n + 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="yukon")
    ap.add_argument("--empty-column", default=None)
    ap.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=None)
    args = ap.parse_args()
    rules = yukon.rules_for(args.variant, **{k: v for k, v in (("empty_column", args.empty_column),
                                                                  ("foundation_return", args.foundation_return))
                                             if v is not None})
    rows = list(yukon.verdicts(rules.variant, rules.empty_column, rules.foundation_return))
    console = Console() if Console().is_terminal else Console(width=170)
    played = [v for v in rows if v.honest is not None]
    won = [v for v in rows if v.status == "won"]
    version = rows[0].solver_version if rows else "?"
    console.print(f"{rules.variant}, empty column {rules.empty_column}, foundation return "
                  f"{'on' if rules.foundation_return else 'off'}: {len(rows):,} deals in the verdicts, {len(won):,} "
                  f"won, {len(played):,} played by the honest player (solver {version})")
    if not played:
        console.print("no honest games of these rules in the data: nothing to validate against")
        return

    def search_nodes(vs: list[Verdict]) -> list[int]:
        return [v.nodes for v in vs if v.status == "won" and not v.probe]

    table = Table("grades", "thresholds (nodes)", *GRADES, title="honest player's win rate by grade (95% Wilson)")
    halves = {"odd": [v for v in rows if v.seed % 2 == 1], "even": [v for v in rows if v.seed % 2 == 0]}
    cases = [("as shipped (all deals)", rows, rows)]
    cases += [(f"fitted on {a}, shown on {b}", halves[a], halves[b]) for a, b in (("odd", "even"), ("even", "odd"))]
    for name, fit, shown in cases:
        bounds = thresholds(search_nodes(fit))
        cells = []
        for k, n in by_grade(shown, bounds).values():
            cells.append(f"{k}/{n} = {pct(k / n)} ({pct_range(wilson(k, n))})" if n else "–")
        table.add_row(name, f"{bounds[0]:,} / {bounds[1]:,}", *cells)
    console.print(table)
    share = {g: sum(v.difficulty == g for v in won) for g in GRADES}
    console.print("won deals by grade (as shipped): " + ", ".join(f"{g} {n:,}" for g, n in share.items()))


if __name__ == "__main__":
    main()
