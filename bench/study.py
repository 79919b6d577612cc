"""Study throughput: deals per minute of the local process pool on 1 and 2 workers, and on a Dask LocalCluster.

An idle machine is needed for the speed-up to mean anything (on 2 cores,
expect close to 2x). The same deals with a node limit (the same work on every run, whatever the
machine's load does to wall time), solved through :func:`yukon.study.run_study`
with a fresh study file each time, so the figure includes the pool, the
pickling and one SQLite commit per deal.

The Dask run (a ``distributed.LocalCluster`` of 2 single-threaded worker processes, the study's
``--scheduler`` path) must give the same rows as the local pool, deal by deal (status, nodes,
winning line): the table says whether it does.

    python bench/study.py [--variant yukon] [--seeds 1-30] [--node-limit 50000] [--workers 1,2] [--no-dask]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from yukon.cli_common import run_script
from yukon.rules import rules_for
from yukon.solver import solver_version
from yukon.study import StudyDB, StudyParams, parse_seeds, run_study

Rows = dict[int, tuple[str, int, int, str]]


def deals_per_minute(params: StudyParams, seeds: list[int], workers: int,
                     client: Any = None) -> tuple[float, dict[str, int], Rows]:
    with tempfile.TemporaryDirectory() as tmp, StudyDB(Path(tmp) / "bench.sqlite3") as db:
        start = time.perf_counter()
        result = run_study(db, params, seeds, workers=workers, client=client)
        seconds = time.perf_counter() - start
        assert result.computed == len(seeds) and not result.failures
        counts = db.counts(result.study_id)
        rows = {r.seed: (r.status, r.nodes, r.line_length, r.line) for r in db.rows(result.study_id)}
    return 60.0 * len(seeds) / seconds, counts, rows


def dask_cluster(workers: int) -> Any:
    """A LocalCluster of ``workers`` single-threaded processes and a client checked like the study's."""
    from distributed import LocalCluster

    from yukon.study import connect

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return cluster, connect(cluster.scheduler_address, 30.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="yukon")
    ap.add_argument("--empty-column", default="kings")
    ap.add_argument("--seeds", default="1-30")
    ap.add_argument("--node-limit", type=int, default=50_000)
    ap.add_argument("--workers", default="1,2", help="comma list of pool sizes")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster run")
    args = ap.parse_args()
    seeds = parse_seeds(args.seeds)
    params = StudyParams(args.variant, args.empty_column, args.variant == "milligan-yukon", None, args.node_limit,
                         1_500_000_000, solver_version(rules_for(args.variant, empty_column=args.empty_column,
                                                                 foundation_return=args.variant == "milligan-yukon")))
    sizes = [int(w) for w in args.workers.split(",")]
    console = Console() if Console().is_terminal else Console(width=150)
    console.print(f"{len(seeds)} deals of {params.label()}, node limit {args.node_limit:,}, "
                  f"{os.cpu_count()} cores, load average before: {os.getloadavg()[0]:.2f}")
    table = Table("workers", "deals/min", "speed-up vs 1", "won / lost / unknown", "same rows as 1 local worker",
                  "load avg after")
    base: float | None = None
    first: Rows | None = None
    runs: list[tuple[str, int, Any]] = [("local", w, None) for w in sizes]
    if not args.no_dask and importlib.util.find_spec("distributed") is not None:
        runs.append(("dask", 2, None))
    for kind, w, _ in runs:
        cluster = client = None
        if kind == "dask":
            cluster, client = dask_cluster(w)
        try:
            rate, counts, rows = deals_per_minute(params, seeds, w, client)
        finally:
            if client is not None:
                client.close()
                cluster.close()
        first = first or rows
        base = base or (rate if w == 1 else None)
        same = "yes" if rows == first else f"NO: seeds {sorted(s for s in rows if rows[s] != first.get(s))[:10]}"
        table.add_row(f"{w}" + (" (Dask LocalCluster)" if kind == "dask" else ""), f"{rate:,.1f}",
                      f"{rate / base:.2f}x" if base else "–",
                      f"{counts['won']} / {counts['lost']} / {counts['unknown']}", same, f"{os.getloadavg()[0]:.2f}")
    console.print(table)
    if os.getloadavg()[0] > (os.cpu_count() or 1) - 0.5:
        console.print("[yellow]the machine is busy (load average near or above the core count): the speed-up "
                      "shows the share of the CPU the pool got, not what the pool can do on idle cores[/]")


if __name__ == "__main__":
    run_script(main)
