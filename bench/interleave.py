"""One thread: the first search alone against the two searches taking turns (docs/solver-design.md, "Two
searches on one core"), deal by deal under a node limit (deterministic: the same figures on a loaded
machine, only slower).

    python bench/interleave.py --seeds 20,51,52,57 --node-limit 100000000
    python bench/interleave.py --variant yukon --seeds 1-100 --node-limit 20000000 --only interleaved

The compiled depth-first search alone (no probes, no best-first phase), one thread, the default memory
budget. Prints, per deal and for each setting, the verdict and the nodes, then how many deals each
decided (the seconds are CPU seconds); exit status 0.
"""

from __future__ import annotations

import argparse
import resource

from yukon import Game, deal
from yukon.cli_common import run_script
from yukon.solver.search import Limits, Searcher

SETTINGS = {"alone": False, "interleaved": True}


def cpu_seconds() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--seeds", type=deal.parse_seeds, required=True)
    parser.add_argument("--node-limit", type=int, default=100_000_000)
    parser.add_argument("--memory-limit", type=float, default=1.8, help="GB for the table (default 1.8)")
    parser.add_argument("--only", choices=sorted(SETTINGS), help="run one setting only")
    args = parser.parse_args()
    names = [args.only] if args.only else list(SETTINGS)
    decided = dict.fromkeys(names, 0)
    Searcher.compiled_threads = 1
    print("seed " + " ".join(f"{n:>28}" for n in names))
    for seed in args.seeds:
        cells = []
        for name in names:
            Searcher.compiled_interleave = SETTINGS[name]
            game = Game.deal(args.variant, seed=seed)
            limits = Limits(node_limit=args.node_limit, memory_limit=int(args.memory_limit * 1e9))
            cpu = cpu_seconds()
            out = Searcher(game, limits).run()
            decided[name] += out.status != "unknown"
            cells.append(f"{out.status:>7} {out.stats.nodes:>12,} {cpu_seconds() - cpu:5.1f}s")
        print(f"{seed:>4} " + " ".join(f"{c:>28}" for c in cells), flush=True)
    n = len(args.seeds)
    for name in names:
        print(f"{name}: {decided[name]} of {n} decided within {args.node_limit:,} nodes")


if __name__ == "__main__":
    run_script(main)
