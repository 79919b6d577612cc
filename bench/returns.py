"""Return blocks (docs/solver-design.md, "Return blocks"), or rule 4 with returns (``--compare relax``): deals
with foundation return decided at a node limit, with the rule on and off, alternating deal by deal in one run
(node limits: load-independent).

    python bench/returns.py --seeds 1-200 --node-limit 2000000
    python bench/returns.py --seeds 20,51,52 --node-limit 20000000 --variant yukon
    python bench/returns.py --compare relax --seeds 1-368 --node-limit 2000000 --study data/verdict-study.csv.gz

For each deal and each setting, the compiled depth-first search alone (``Searcher.run_compiled``, one
thread, no probes or best-first phase) runs to the node limit: "without" is solver 14's search, "with"
has return blocks (``Searcher.return_blocks``). With ``--compare relax`` both have return blocks, and "with"
has rule 4 (``Searcher.compiled_relax``: the relaxation before the search and at every class it enters),
"without" has it off (solver 15's search with returns, where the relaxation did not apply).
Prints a line per deal (verdict and nodes with and without the rule), then deals decided by each, nodes
to decide the deals both decide (median and total), and any verdict that differs between the two (a bug:
exit status 1). Every won line is replayed through the engine by ``run_compiled`` itself. ``--study FILE``
(a study's rows, as ``data/verdict-study.csv.gz``) also checks every verdict against the study's decided
verdicts of the same deals (variant, empty column rule, foundation return): any won against lost fails.

    python bench/returns.py --seeds 1-368 --node-limit 1000000 --study data/verdict-study.csv.gz
"""

from __future__ import annotations

import argparse
import csv
import gzip
import statistics
import time

from yukon import Game
from yukon.cli_common import run_script
from yukon.deal import parse_seeds
from yukon.solver.search import Limits, Searcher

#: what ``--compare`` turns on and off: the Searcher attribute
COMPARED = {"blocks": "return_blocks", "relax": "compiled_relax"}


def run(game: Game, node_limit: int, compare: str, on: bool) -> tuple[str, int, float]:
    searcher = Searcher(game, Limits(node_limit=node_limit))
    setattr(searcher, COMPARED[compare], on)
    started = time.process_time()
    outcome = searcher.run_compiled()
    return outcome.status, outcome.stats.nodes, time.process_time() - started


def study_verdicts(path: str, variant: str, empty_column: str) -> dict[int, str]:
    """The decided verdicts (won or lost) of a study file's rows of this variant with foundation return."""
    found: dict[int, str] = {}
    with gzip.open(path, "rt", encoding="utf-8", newline="") as rows:
        for row in csv.DictReader(rows):
            if (row["variant"], row["empty_column"], row["foundation_return"]) == (variant, empty_column, "1") \
                    and row["status"] in ("won", "lost"):
                found[int(row["seed"])] = row["status"]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds("1-50"))
    parser.add_argument("--node-limit", type=int, default=2_000_000)
    parser.add_argument("--empty-column", choices=("kings", "any"), default="kings")
    parser.add_argument("--study", metavar="FILE", help="check against a study's verdicts (CSV, gzipped)")
    parser.add_argument("--compare", choices=sorted(COMPARED), default="blocks",
                        help="the rule turned on and off: return blocks, or rule 4 (relax)")
    args = parser.parse_args(argv)
    known = study_verdicts(args.study, args.variant, args.empty_column) if args.study else {}
    wrong: list[int] = []
    decided = {True: 0, False: 0}
    both_nodes: dict[bool, list[int]] = {True: [], False: []}
    cpu = {True: 0.0, False: 0.0}
    differ = []
    print(f"{args.variant}, {args.empty_column} into empty columns, foundation return, node limit {args.node_limit:,}, "
          f"{'return blocks' if args.compare == 'blocks' else 'rule 4'} off and on")
    print(f"{'seed':>6} {'without':>9} {'nodes':>12} {'with':>9} {'nodes':>12}")
    for seed in args.seeds:
        game = Game.deal(args.variant, seed=seed, empty_column=args.empty_column, foundation_return=True)
        results = {}
        for blocks in (False, True) if seed % 2 else (True, False):
            results[blocks] = run(game, args.node_limit, args.compare, blocks)
            cpu[blocks] += results[blocks][2]
        (s0, n0, _), (s1, n1, _) = results[False], results[True]
        print(f"{seed:>6} {s0:>9} {n0:>12,} {s1:>9} {n1:>12,}", flush=True)
        for blocks, (status, _nodes, _) in results.items():
            if status != "unknown":
                decided[blocks] += 1
                if seed in known and known[seed] != status:
                    wrong.append(seed)
        if s0 != "unknown" and s1 != "unknown":
            if s0 != s1:
                differ.append(seed)
            both_nodes[False].append(n0)
            both_nodes[True].append(n1)
    n = len(args.seeds)
    rule = "return blocks" if args.compare == "blocks" else "rule 4"
    for blocks, name in ((False, f"without {rule}"), (True, f"with {rule}")):
        nodes = both_nodes[blocks]
        median = statistics.median(nodes) if nodes else 0
        print(f"{name}: {decided[blocks]} of {n} decided; on the {len(nodes)} both decide: median {median:,.0f} "
              f"nodes, total {sum(nodes):,}; CPU {cpu[blocks]:.1f} s")
    if args.study:
        checked = sum(seed in known for seed in args.seeds)
        print(f"against the study: {checked} of the deals decided there, {len(wrong)} verdicts differ")
    if differ or wrong:
        print("VERDICTS DIFFER on seeds", ",".join(map(str, sorted({*differ, *wrong}))))
        return 1
    return 0


if __name__ == "__main__":
    run_script(main)
