"""Validation of the difficulty grades (docs/difficulty.md): the honest player's win rate by grade.

From the shipped verdicts alone (``yukon.verdicts``: the solver's effort and, for the deals an
honest study played, the honest player's result): the grades as shipped (thresholds from every
won deal of the rules), then held out: the thresholds fitted on the odd deal numbers grade the
even ones, and the other way round. The win rate should fall from easy to expert.

With ``--greedy``, the greedy agent of bench/agents.py (no peeking, one move of lookahead) also plays
every won deal of the verdicts (its default rules only: the environment's), and its win rate by grade
is printed beside: a second player, and one that never saw the thresholds.

    python bench/difficulty.py [--variant yukon] [--empty-column kings] [--no-foundation-return] [--greedy]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

import yukon
from yukon import env
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


def greedy_by_grade(console: Console, rules: yukon.Rules, won: list[Verdict]) -> None:
    """The greedy agent's win rate by shipped grade, over every won deal (environment: default rules)."""
    defaults = yukon.VARIANTS[rules.variant]
    if (rules.empty_column, rules.foundation_return) != (defaults.empty_column, defaults.foundation_return):
        console.print("the greedy agent plays the environment's default rules only: skipped")
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import agents  # bench/agents.py

    env_id = next(k for k, v in env.ENV_IDS.items() if v == rules.variant)
    cells = []
    for g in GRADES:
        seeds = sorted(v.seed for v in won if v.difficulty == g)
        result = agents.play(env_id, agents.GreedyAgent(), seeds)  # type: ignore[arg-type]
        cells.append(f"{result.wins}/{result.games} = {pct(result.wins / result.games)} "
                     f"({pct_range(wilson(result.wins, result.games))})" if result.games else "–")
    table = Table("player", *GRADES, title="greedy agent's win rate by grade (95% Wilson)")
    table.add_row("greedy (bench/agents.py)", *cells)
    console.print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="yukon")
    ap.add_argument("--empty-column", default=None)
    ap.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=None)
    ap.add_argument("--greedy", action="store_true", help="also play the won deals with the greedy agent")
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
    if args.greedy:
        greedy_by_grade(console, rules, won)
    share = {g: sum(v.difficulty == g for v in won) for g in GRADES}
    console.print("won deals by grade (as shipped): " + ", ".join(f"{g} {n:,}" for g, n in share.items()))


if __name__ == "__main__":
    main()
