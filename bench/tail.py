"""The hard tail of Yukon: the deals of 1-1000 that solver 14 left undecided at 30 s, under a node limit on
one thread (deterministic: the same nodes on a loaded machine), with rule 4 in the search, or without it
and with it in the same run (docs/solver-changelog.md, "Solver 15").

    python bench/tail.py --node-limit 100000000
    python bench/tail.py --seeds 20,91 --node-limit 20000000 --both

The compiled depth-first search alone (no probes, no best-first phase), both searches taking turns, as in
a study's worker. Prints per deal the verdict, the nodes and the CPU seconds; then how many were decided.
Exit status 0.
"""

from __future__ import annotations

import argparse
import resource

from yukon import Game, deal
from yukon.cli_common import run_script
from yukon.solver.search import Limits, Searcher

#: solver 14's undecided deals at 30 s, seeds 1-1000 (docs/solver.md, "Figures")
TAIL = "20,51,71,78,91,121,181,183,200,233,271,332,385,468,470,498,524,563,595,640,735,796,857,909,912,957,968"


def cpu_seconds() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default=TAIL)
    parser.add_argument("--node-limit", type=int, default=100_000_000)
    parser.add_argument("--both", action="store_true", help="each deal without rule 4 in the search, then with it")
    args = parser.parse_args(argv)
    settings = [False, True] if args.both else [True]
    Searcher.compiled_threads = 1
    decided = dict.fromkeys(settings, 0)
    seeds = deal.parse_seeds(args.seeds)
    print("seed " + " ".join(f"{'rule 4 ' + ('on' if s else 'off'):>32}" for s in settings))
    for seed in seeds:
        cells = []
        for relax in settings:
            Searcher.compiled_relax = relax
            cpu = cpu_seconds()
            out = Searcher(Game.deal("yukon", seed=seed), Limits(node_limit=args.node_limit)).run()
            decided[relax] += out.status != "unknown"
            cells.append(f"{out.status:>7} {out.stats.nodes:>14,} {cpu_seconds() - cpu:7.1f}s")
        print(f"{seed:>4} " + " ".join(f"{c:>32}" for c in cells), flush=True)
    for relax in settings:
        print(f"rule 4 {'on' if relax else 'off'}: {decided[relax]} of {len(seeds)} decided within "
              f"{args.node_limit:,} nodes")
    return 0


if __name__ == "__main__":
    run_script(main)
