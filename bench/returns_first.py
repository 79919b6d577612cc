"""The search without returns first (solver 16, docs/solver-design.md "The game without returns first"):
deals with foundation return decided by ``solve()`` at a node limit, with and without that phase,
alternating deal by deal in one run (node limits: the figures do not depend on the load).

    python bench/returns_first.py --seeds 1-368 --node-limit 20000000
    python bench/returns_first.py --seeds 1-368 --node-limit 20000000 --study data/verdict-study.csv.gz

"without" is solver 15's pipeline (probes, best-first phase, the search with returns), "with" runs the
game without returns first on a quarter of the budget. Prints a line per deal where the two differ, then
the deals decided by each and the nodes both spent on the deals both decide. Every won line is replayed
through the engine with the deal's rules (returns on). A verdict that differs between the two, or from a
decided verdict of ``--study`` (a study file such as data/verdict-study.csv.gz), is a bug: exit status 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from returns import study_verdicts  # (bench/returns.py, beside this script)

from yukon import Game
from yukon.cli_common import run_script
from yukon.deal import parse_seeds
from yukon.solver import _solve_one, solve
from yukon.solver.search import Limits


def without_phase(game: Game, node_limit: int) -> tuple[str, int, list]:
    result = _solve_one(game, Limits(None, node_limit, 1_800_000_000, None), None, time.perf_counter())
    return result.status, result.nodes, result.moves


def with_phase(game: Game, node_limit: int) -> tuple[str, int, list]:
    result = solve(game, time_limit=None, node_limit=node_limit)
    return result.status, result.nodes, result.moves


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="yukon")
    ap.add_argument("--empty-column", default="kings")
    ap.add_argument("--seeds", default="1-100")
    ap.add_argument("--node-limit", type=int, default=2_000_000)
    ap.add_argument("--study", help="a study file whose decided verdicts the runs must agree with")
    args = ap.parse_args()
    known = study_verdicts(args.study, args.variant, args.empty_column) if args.study else {}
    runs = {"without": without_phase, "with": with_phase}
    got: dict[str, dict[int, tuple[str, int]]] = {name: {} for name in runs}
    bad = 0
    for i, seed in enumerate(parse_seeds(args.seeds)):
        order = list(runs) if i % 2 == 0 else list(reversed(runs))
        for name in order:
            game = Game.deal(args.variant, seed=seed, empty_column=args.empty_column, foundation_return=True)
            status, nodes, moves = runs[name](game, args.node_limit)
            if status == "won":
                game.replay(moves)
                if not game.is_won():
                    print(f"deal {seed}: {name}'s winning line does not win", file=sys.stderr)
                    bad += 1
            if status != "unknown" and known.get(seed, status) != status:
                print(f"deal {seed}: {name} says {status}, the study says {known[seed]}", file=sys.stderr)
                bad += 1
            got[name][seed] = (status, nodes)
        a, b = got["without"][seed], got["with"][seed]
        if a[0] != b[0]:
            print(f"deal {seed}: without {a[0]} ({a[1]:,} nodes), with {b[0]} ({b[1]:,} nodes)", flush=True)
            if "unknown" not in (a[0], b[0]):
                bad += 1
    seeds = list(got["without"])
    both = [s for s in seeds if got["without"][s][0] != "unknown" and got["with"][s][0] != "unknown"]
    print(f"\n{args.variant}, {args.empty_column}, foundation return, {len(seeds)} deals, "
          f"node limit {args.node_limit:,}")
    print("| search | decided | won | lost | median nodes (both decide) | total nodes (both decide) |")
    print("|---|---|---|---|---|---|")
    for name in runs:
        rows = got[name]
        decided = sum(1 for s in seeds if rows[s][0] != "unknown")
        won = sum(1 for s in seeds if rows[s][0] == "won")
        nodes = [rows[s][1] for s in both]
        print(f"| {name} the phase | {decided} | {won} | {decided - won} | "
              f"{statistics.median(nodes) if nodes else 0:,.0f} | {sum(nodes):,} |")
    print(f"({len(both)} decided by both; {bad} verdicts wrong or differing)")
    return 1 if bad else 0


if __name__ == "__main__":
    run_script(main)
