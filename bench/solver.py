"""Solver benchmark: decide a range of deals, verify every winning line, report speed and memory.

    python bench/solver.py --variant yukon --seeds 1-200 --time-limit 30
    python bench/solver.py --variant milligan-yukon --seeds 1-50 --time-limit 10 --workers 2
    python bench/solver.py --seeds 1-10 --time-limit 2 --empty-column any --foundation-return

Each deal is solved with ``yukon.solve`` under the time limit; a "won" line is
replayed through the engine (``push`` every move, then ``is_won()``) before it
counts. Prints won / lost / unknown counts, median / p90 / max seconds per
deal, nodes per second (all nodes over all solving time), the largest
transposition table, and the peak memory: ``ru_maxrss`` of the process that
solved the deals (one worker process per deal in flight with ``--workers N``;
the figure is the largest of them). ``--json FILE`` also writes every deal's
figures.

Exit status 0; 1 if a winning line failed to replay (a solver bug).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from rich.console import Console
from rich.table import Table

from yukon import Game, deal, rules_for
from yukon.cli_common import run_script
from yukon.solver import solve


def parse_seeds(text: str) -> list[int]:
    """``1-200``, ``7``, ``1-10,42,100-110`` (:func:`yukon.deal.parse_seeds`, as every command reads them)."""
    return deal.parse_seeds(text)


def seeds_arg(text: str) -> list[int]:
    try:
        return parse_seeds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"bad seed list {text!r}: {exc}") from None


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports ru_maxrss in KB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 1024 if sys.platform != "darwin" else rss / (1024 * 1024)


def solve_deal(job: dict[str, Any]) -> dict[str, Any]:
    """Solve one deal and verify its line (runs in a worker process, or in this one)."""
    options = {"empty_column": job["empty_column"], "foundation_return": job["foundation_return"]}
    game = Game.deal(job["variant"], seed=job["seed"], **options)
    start = time.perf_counter()
    result = solve(game, time_limit=job["time_limit"], node_limit=job["node_limit"],
                   memory_limit=job["memory_limit"])
    wall = time.perf_counter() - start
    verified: bool | None = None
    error = ""
    if result.status == "won":
        replay = game.copy()
        try:
            for move in result.moves:
                replay.push(move)
            verified = replay.is_won()
            if not verified:
                error = "line ends without a win"
        except ValueError as exc:
            verified = False
            error = f"illegal move in line: {exc}"
    return {
        "seed": job["seed"],
        "status": result.status,
        "reason": result.reason,
        "seconds": wall,
        "nodes": result.nodes,
        "peak_table": result.peak_table,
        "moves": len(result.moves),
        "verified": verified,
        "error": error,
        "rss_mb": peak_rss_mb(),
        "pid": os.getpid(),
    }


def run_jobs(jobs: list[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    """Results as deals finish; at most one deal in flight per worker process."""
    if workers <= 1:
        for job in jobs:
            yield solve_deal(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        queue = iter(jobs)
        for job in queue:
            pending.add(pool.submit(solve_deal, job))
            if len(pending) >= workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(pool.submit(solve_deal, nxt))


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(-(-q * len(ordered) // 100)) - 1))
    return ordered[k]


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {s: sum(r["status"] == s for r in results) for s in ("won", "lost", "unknown")}
    secs = [r["seconds"] for r in results]
    nodes = sum(r["nodes"] for r in results)
    total_secs = sum(secs)
    return {
        "deals": len(results),
        **counts,
        "decided_pct": 100.0 * (counts["won"] + counts["lost"]) / len(results),
        "median_s": statistics.median(secs),
        "p90_s": percentile(secs, 90),
        "max_s": max(secs),
        "nodes": nodes,
        "nodes_per_s": nodes / total_secs if total_secs > 0 else 0.0,
        "peak_table": max(r["peak_table"] for r in results),
        "peak_rss_mb": max(r["rss_mb"] for r in results),
        "verified": sum(r["verified"] is True for r in results),
        "bad_lines": [r["seed"] for r in results if r["verified"] is False],
        "unknown_seeds": sorted(r["seed"] for r in results if r["status"] == "unknown"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--seeds", type=seeds_arg, default=parse_seeds("1-200"), help="e.g. 1-200 or 1-10,42")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per deal (default 30)")
    parser.add_argument("--node-limit", type=int, default=None, help="positions per deal (default: none)")
    parser.add_argument("--memory-limit", type=float, default=1.8, help="GB for the position table (default 1.8)")
    parser.add_argument("--empty-column", choices=("kings", "any"), default=None)
    parser.add_argument("--foundation-return", action=argparse.BooleanOptionalAction, default=None)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1: solve in this one)")
    parser.add_argument("--json", metavar="FILE", help="write every deal's figures and the summary as JSON")
    parser.add_argument("--verbose", "-v", action="store_true", help="a line per deal as it finishes")
    args = parser.parse_args(argv)

    options: dict[str, Any] = {}
    if args.empty_column is not None:
        options["empty_column"] = args.empty_column
    if args.foundation_return is not None:
        options["foundation_return"] = args.foundation_return
    try:
        rules = rules_for(args.variant, **options)
    except ValueError as exc:
        print(f"bench/solver.py: error: {exc}", file=sys.stderr)
        return 2
    jobs = [
        {
            "variant": rules.variant, "seed": seed, "empty_column": rules.empty_column,
            "foundation_return": rules.foundation_return, "time_limit": args.time_limit,
            "node_limit": args.node_limit, "memory_limit": int(args.memory_limit * 1e9),
        }
        for seed in args.seeds
    ]
    console = Console()
    err = Console(stderr=True)
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    for r in run_jobs(jobs, args.workers):
        results.append(r)
        if args.verbose:
            mark = {True: " verified", False: f" BAD LINE: {r['error']}", None: ""}[r["verified"]]
            err.print(f"seed {r['seed']:>6}: {r['status']:<7} {r['seconds']:8.3f} s {r['nodes']:>10,} nodes"
                      f"{' (' + r['reason'] + ')' if r['reason'] else ''}{mark}")
    elapsed = time.perf_counter() - started
    results.sort(key=lambda r: r["seed"])
    s = summary(results)

    title = (f"{rules.describe()}: seeds {args.seeds[0]}-{args.seeds[-1]} ({len(args.seeds)} deals), "
             f"{args.time_limit:g} s per deal, {args.workers} worker(s)")
    table = Table(title=title, show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in (
        ("won / lost / unknown", f"{s['won']} / {s['lost']} / {s['unknown']}"),
        ("decided", f"{s['decided_pct']:.1f}%"),
        ("median s per deal", f"{s['median_s']:.3f}"),
        ("p90 s per deal", f"{s['p90_s']:.3f}"),
        ("max s per deal", f"{s['max_s']:.3f}"),
        ("nodes per second", f"{s['nodes_per_s']:,.0f}"),
        ("peak table (positions)", f"{s['peak_table']:,}"),
        ("peak memory (ru_maxrss)", f"{s['peak_rss_mb']:,.0f} MB"),
        ("winning lines verified", f"{s['verified']} / {s['won']}"),
    ):
        table.add_row(name, value)
    console.print(table)
    if s["unknown_seeds"]:
        console.print(f"undecided seeds: {', '.join(map(str, s['unknown_seeds']))}")
    if s["bad_lines"]:
        console.print(f"[bold red]winning lines that do not replay to a win: seeds {s['bad_lines']}[/]")
    console.print(f"wall time {elapsed:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"variant": rules.variant, "options": rules.options(), "time_limit": args.time_limit,
                       "workers": args.workers, "summary": s, "deals": results}, fh, indent=1)
    return 1 if s["bad_lines"] else 0


if __name__ == "__main__":
    run_script(main)
