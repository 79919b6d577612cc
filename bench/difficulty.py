"""Validation of the difficulty grades (docs/difficulty.md): the honest player's win rate by grade, per rules.

For every set of rules (variant, empty column, foundation return) whose deals the honest player has played,
from the shipped verdicts (``yukon.verdicts``: the solver's effort and, for the deals an honest study
played, the honest player's result; the committed honest games in data/ fill in a file exported without
them): the four effort grades as shipped (thresholds from every won deal of the rules), then held out (the
thresholds fitted on the odd deal numbers grade the even ones, and the other way round; "held out, both"
pools the two). Then each candidate scale (four grades, three, two) held out, with
``yukon.difficulty.discriminates``'s word on it, and the scale the product offers (``yukon.difficulty.SCALES``).
Nothing here depends on the file's counts: a rebuilt verdicts file gives its own tables.

With ``--greedy``, the greedy agent of bench/agents.py (no peeking, one move of lookahead) also plays
every won deal of the first rules shown (its default rules only: the environment's), and its win rate by
shipped grade is printed beside: a second player, and one that never saw the thresholds.

    python bench/difficulty.py                     # every rules set with honest games
    python bench/difficulty.py --variant alaska [--empty-column any] [--foundation-return] [--greedy]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

import yukon
from yukon import env
from yukon.cli_common import run_script
from yukon.deal_data import Verdict
from yukon.difficulty import CANDIDATES, GRADES, Deal, discriminates, grade, held_out, scale, thresholds
from yukon.study.current import version_key
from yukon.study.players import player_budget
from yukon.study.stats import pct, pct_range, wilson

ROOT = Path(__file__).resolve().parent.parent
#: the committed honest games (docs/honest.md), read where the verdicts file has no honest column
HONEST_FILES = (ROOT / "data" / "honest-study.csv", ROOT / "data" / "honest-variants-study.csv.gz")

RulesKey = tuple[str, str, bool, str]


def committed_honest(paths: Sequence[Path]) -> dict[tuple[RulesKey, int], str]:
    """(rules, seed) -> the honest game's result, from study CSVs (the newest honest player version wins)."""
    best: dict[tuple[RulesKey, int], tuple[str, str]] = {}
    for path in paths:
        if not path.exists():
            continue
        with (gzip.open(path, "rt", encoding="utf-8", newline="") if path.suffix == ".gz"
              else path.open(encoding="utf-8", newline="")) as f:
            for r in csv.DictReader(f):
                if player_budget(r["solver_version"]) is None:
                    continue
                key = ((r["variant"], r["empty_column"], r["foundation_return"] == "1", r.get("numbering") or "yukon"),
                       int(r["seed"]))
                if key not in best or version_key(r["solver_version"]) > version_key(best[key][0]):
                    best[key] = (r["solver_version"], r["status"])
    return {k: status for k, (_, status) in best.items()}


def cell(won: int, n: int) -> str:
    return f"{won}/{n} = {pct(won / n)} ({pct_range(wilson(won, n))})" if n else "–"


def by_grade(deals: list[Deal], bounds: Sequence[int], grades: Sequence[str] = GRADES) -> dict[str, tuple[int, int]]:
    """grade -> (honest games won, played) among ``deals`` under ``bounds``."""
    out = {g: (0, 0) for g in grades}
    for x in deals:
        g = grade("won", x.probe, x.nodes, bounds, grades)
        if g is not None and x.honest_won is not None:
            won, n = out[g]
            out[g] = (won + x.honest_won, n + 1)
    return out


def search_nodes(deals: list[Deal]) -> list[int]:
    return [x.nodes for x in deals if not x.probe]


def report(console: Console, key: RulesKey, rows: list[Verdict], honest: dict[int, str]) -> None:
    variant, empty, ret, numbering = key
    won_rows = [v for v in rows if v.status == "won"]
    deals = [Deal(v.seed, v.probe, v.nodes, honest[v.seed] == "won" if v.seed in honest else None) for v in won_rows]
    played = sum(v.seed in honest for v in rows)
    honest_wins = sum(honest.get(v.seed) == "won" for v in rows)
    numbered = "" if numbering == "yukon" else f", {numbering} numbering"
    console.print(f"\n[bold]{variant}, empty column {empty}, foundation return {'on' if ret else 'off'}{numbered}[/]: "
                  f"{len(rows):,} deals in the verdicts, {len(won_rows):,} won (solver {rows[0].solver_version}); "
                  f"the honest player played {played:,} of them and won {honest_wins:,}; "
                  f"{sum(x.honest_won is not None for x in deals):,} of them deals the solver won")
    odd = [x for x in deals if x.seed % 2 == 1]
    even = [x for x in deals if x.seed % 2 == 0]
    table = Table("grades", "thresholds (nodes)", *GRADES,
                  title="honest player's win rate by effort grade (95% Wilson); thresholds: every won deal fitted")
    for name, fit, shown in (("as shipped (all deals)", deals, deals), ("fitted on odd, shown on even", odd, even),
                             ("fitted on even, shown on odd", even, odd)):
        bounds = thresholds(search_nodes(fit))
        table.add_row(name, " / ".join(f"{b:,}" for b in bounds), *(cell(*c) for c in by_grade(shown, bounds).values()))
    console.print(table)
    # the candidate scales, held out (both halves pooled)
    offered = scale(variant, empty, ret)
    verdicts = Table("scale", "held out, both halves", "validated?", title="candidate scales, held out")
    longest: tuple[str, ...] = ()
    for grades in CANDIDATES:
        counts = held_out(deals, grades)
        why = discriminates(counts)
        longest = longest or (grades if not why else ())
        verdicts.add_row(" / ".join(grades), "; ".join(f"{g} {cell(*c)}" for g, c in counts.items()),
                         "yes" if not why else f"no: {why}")
    console.print(verdicts)
    if longest != offered:
        console.print(f"[bold red]the longest validated scale is {' / '.join(longest) or 'none'}: "
                      f"yukon.difficulty.SCALES should say so[/]")
    shipped = {g: sum(v.difficulty == g for v in won_rows) for g in offered}
    why = discriminates(held_out(deals, offered)) if offered else ""
    console.print("the product offers (yukon.difficulty.SCALES): "
                  + (f"{' / '.join(offered)} ({'validated' if not why else 'NOT VALIDATED: ' + why}); won deals by "
                     f"grade as shipped: {', '.join(f'{g} {n:,}' for g, n in shipped.items())}" if offered
                     else "no grade"))


def greedy_by_grade(console: Console, rules: yukon.Rules, won: list[Verdict]) -> None:
    """The greedy agent's win rate by shipped grade, over every won deal (environment: default rules)."""
    defaults = yukon.VARIANTS[rules.variant]
    if (rules.empty_column, rules.foundation_return) != (defaults.empty_column, defaults.foundation_return):
        console.print("the greedy agent plays the environment's default rules only: skipped")
        return
    offered = scale(rules.variant, rules.empty_column, rules.foundation_return)
    if not offered:
        console.print("these rules offer no grade: the greedy agent skipped")
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import agents  # bench/agents.py

    env_id = next(k for k, v in env.ENV_IDS.items() if v == rules.variant)
    cells = []
    for g in offered:
        seeds = sorted(v.seed for v in won if v.difficulty == g)
        result = agents.play(env_id, agents.GreedyAgent(), seeds)  # type: ignore[arg-type]
        cells.append(cell(result.wins, result.games))
    table = Table("player", *offered, title="greedy agent's win rate by shipped grade (95% Wilson)")
    table.add_row("greedy (bench/agents.py)", *cells)
    console.print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default=None, help="only this variant (default: every rules set with honest games)")
    ap.add_argument("--empty-column", default=None)
    ap.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=None)
    ap.add_argument("--greedy", action="store_true", help="also play the won deals with the greedy agent")
    args = ap.parse_args()
    variant = yukon.rules_for(args.variant).variant if args.variant else None
    groups: dict[RulesKey, list[Verdict]] = {}
    for v in yukon.verdicts(variant, args.empty_column, args.foundation_return):
        groups.setdefault((v.variant, v.empty_column, v.foundation_return, v.numbering), []).append(v)
    committed = committed_honest(HONEST_FILES)
    console = Console() if Console().is_terminal else Console(width=200)
    without = []
    first_shown: tuple[RulesKey, list[Verdict]] | None = None
    for key, rows in groups.items():
        honest = {v.seed: v.honest for v in rows if v.honest is not None}
        for v in rows:
            honest.setdefault(v.seed, committed.get((key, v.seed)))  # type: ignore[arg-type]
        honest = {s: h for s, h in honest.items() if h is not None}
        if not honest:
            without.append(key)
            continue
        report(console, key, rows, honest)
        first_shown = first_shown or (key, rows)
    for variant_, empty, ret, numbering in without:
        offered = scale(variant_, empty, ret)
        console.print(f"{variant_}, empty column {empty}, foundation return {'on' if ret else 'off'}"
                      f"{'' if numbering == 'yukon' else ', ' + numbering}: no honest games, "
                      + (f"but the product offers {' / '.join(offered)}: NOT VALIDATED" if offered else "no grade"))
    if args.greedy and first_shown is not None:
        (v, e, r, _), rows = first_shown
        greedy_by_grade(console, yukon.rules_for(v, empty_column=e, foundation_return=r),
                        [x for x in rows if x.status == "won"])


if __name__ == "__main__":
    run_script(main)
