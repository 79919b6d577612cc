"""The compiled two-deck search against the Python one, in the same run (Milligan Yukon).

    python bench/two_deck.py                          # deals 1-50, 200,000 nodes, 30 s per deal
    python bench/two_deck.py --seeds 1-20 --nodes 100000 --time-limit 10 --empty-column any

Two measures, old (the Python searches: ``yukon.solver.search.COMPILED_TWO_DECK = False``) and new (the
compiled ``solver/core/two_deck.c``) alternating deal by deal, so that the machine's drift hits both:

- *positions per second* of the depth-first search alone (``Searcher.run_python`` and the compiled
  search, the same node limit from each deal; they visit the same positions, and the script checks that
  the verdicts and node counts agree where neither hit the limit);
- *seconds per deal* of ``yukon.solve`` (probes, best-first and depth-first phases), every won line
  replayed through the engine.

Prints the figures and the ratios, exit 0 (1 if a line failed to replay or the two searches disagreed).
"""

from __future__ import annotations

import argparse
import statistics
import time

from yukon import Game
from yukon.cli_common import run_script
from yukon.deal import parse_seeds
from yukon.solver import search, solve
from yukon.solver.search import Limits, Searcher


def replays(game: Game, moves: list) -> bool:
    replay = game.copy()
    for m in moves:
        replay.push(m)
    return replay.is_won()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="1-50")
    parser.add_argument("--nodes", type=int, default=200_000, help="node limit of the depth-first comparison")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--empty-column", default="kings", choices=("kings", "any"))
    parser.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    if search._core is None or not hasattr(search._core, "search_two_deck"):
        print("the compiled core is not built (python setup.py build_ext --inplace)")
        return 0
    seeds = parse_seeds(args.seeds)
    options = {"empty_column": args.empty_column, "foundation_return": args.foundation_return}
    rate = {"python": [0, 0.0], "compiled": [0, 0.0]}
    per_deal: dict[str, list[float]] = {"python": [], "compiled": []}
    decided = {"python": 0, "compiled": 0}
    bad = 0
    for seed in seeds:
        game = Game.deal("milligan-yukon", seed=seed, **options)
        outcomes = {}
        for name, compiled in (("python", False), ("compiled", True)):
            search.COMPILED_TWO_DECK = compiled
            try:
                started = time.perf_counter()
                searcher = Searcher(game, Limits(node_limit=args.nodes))
                out = searcher.run() if compiled else searcher.run_python()
                rate[name][0] += out.stats.nodes
                rate[name][1] += time.perf_counter() - started
                outcomes[name] = out
                started = time.perf_counter()
                result = solve(game, time_limit=args.time_limit)
                per_deal[name].append(time.perf_counter() - started)
                decided[name] += result.decided
                if result.status == "won" and not replays(game, result.moves):
                    print(f"deal {seed}: the {name} line does not win")
                    bad += 1
            finally:
                search.COMPILED_TWO_DECK = True
        p, c = outcomes["python"], outcomes["compiled"]
        if "unknown" not in (p.status, c.status) and (p.status, p.stats.nodes) != (c.status, c.stats.nodes):
            print(f"deal {seed}: python {p.status} in {p.stats.nodes} nodes, compiled {c.status} in {c.stats.nodes}")
            bad += 1
    print(f"Milligan Yukon {options}, deals {args.seeds} ({len(seeds)})")
    print(f"{'':10} {'positions/s':>12} {'decided':>8} {'median s':>9} {'p90 s':>7} {'max s':>7} {'total s':>8}")
    for name in ("python", "compiled"):
        nodes, seconds = rate[name]
        times = sorted(per_deal[name])
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"{name:10} {nodes / seconds:12,.0f} {decided[name]:8} {statistics.median(times):9.4f} {p90:7.3f} "
              f"{times[-1]:7.3f} {sum(times):8.2f}")
    (pn, ps), (cn, cs) = rate["python"], rate["compiled"]
    print(f"ratio: positions/s {cn / cs / (pn / ps):.1f}x, median s per deal "
          f"{statistics.median(per_deal['python']) / statistics.median(per_deal['compiled']):.1f}x, "
          f"total s {sum(per_deal['python']) / sum(per_deal['compiled']):.1f}x")
    return 1 if bad else 0


if __name__ == "__main__":
    run_script(main)
