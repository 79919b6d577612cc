"""``yukon study``: solve a range of deals of one variant and record one row per deal; ``yukon study report``.

    yukon study --variant yukon --seeds 1-10000 --time-limit 30 [--empty-column any]
                [--foundation-return/--no-foundation-return] [--workers N] [--db FILE]
                [--scheduler tcp://HOST:8786]
    yukon study report [--db FILE] [--output FILE.md] [--plots DIR]
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..cli_common import (
    CommandError,
    add_numbering_option,
    add_rules_options,
    positive_int,
    positive_number,
    rules_from_args,
)
from .db import DealRow, StudyDB, StudyDBError, StudyParams, default_path
from .runner import RunResult, StudyError, connect, describe_seeds, parse_seeds, run_study
from .stats import Summary, pct, pct_range


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "study", help="win rates: solve a range of deals and record each (or: study report)",
        description="Solve every deal of a seed range with the solver and record one row per deal in an SQLite "
        "file; running the same command again resumes. 'yukon study report' renders the results as a Markdown "
        "table and PNG plots.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  yukon study --variant yukon --seeds 1-1000 --time-limit 5\n"
        "  yukon study --variant milligan-yukon --seeds 1-1000 --scheduler tcp://10.0.0.1:8786\n"
        "  yukon study report --output winnability.md --plots .",
    )
    p.add_argument("action", nargs="?", choices=("run", "report"), default="run",
                   help="run (the default) or report")
    add_rules_options(p)
    p.add_argument("--seeds", metavar="RANGE", help="deal numbers: FIRST-LAST, N, or a comma list (e.g. 1-10000)")
    add_numbering_option(p)
    p.add_argument("--time-limit", "-t", default="30", metavar="SECONDS",
                   help="per deal, seconds of wall time, or 'none' (default 30)")
    p.add_argument("--node-limit", default=None, metavar="N", help="per deal, positions examined at most")
    p.add_argument("--memory-limit", default="1.5", metavar="GB",
                   help="per worker, GB for the solver's position table (default 1.5)")
    p.add_argument("--workers", "-j", default=None, metavar="N",
                   help="local worker processes (default: all cores)")
    p.add_argument("--db", type=Path, default=None, metavar="FILE",
                   help=f"the study file (default: {_default_db_text()})")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster: the scheduler's address, e.g. tcp://10.0.0.1:8786")
    p.add_argument("--connect-timeout", default="10", metavar="SECONDS",
                   help="seconds to wait for the scheduler and its first worker (default 10)")
    p.add_argument("--log-every", default="30", metavar="SECONDS",
                   help="when the output is not a terminal: seconds between progress lines (default 30)")
    p.add_argument("--output", "-o", type=Path, default=None, metavar="FILE",
                   help="report: write the Markdown here (default: stdout)")
    p.add_argument("--solver", default=None, metavar="VERSION",
                   help="report: only the studies of these solver versions, e.g. 4 or 2,4 (default: all)")
    p.add_argument("--plots", type=Path, default=None, metavar="DIR",
                   help="report: folder for the PNG plots (default: the --output folder, else the current one)")
    p.add_argument("--player", choices=("solver", "honest"), default="solver",
                   help="solver: decide each deal with perfect information (default); honest: play it out by "
                   "honest hints, which see only what a player sees (docs/honest.md)")
    p.add_argument("--budget", default=None, metavar="SAMPLESxNODES",
                   help="honest player: samples per decision x nodes per search (default 12x10000)")
    p.set_defaults(func=run)


def _default_db_text() -> str:
    return str(default_path(create=False))


def _open_db(path: Path | None, must_exist: bool = False) -> StudyDB:
    if path is None:
        path = default_path()
    if must_exist and not path.exists():
        raise CommandError(f"no study database at {path} (run 'yukon study --seeds ...' first)")
    try:
        return StudyDB(path)
    except StudyDBError as exc:
        raise CommandError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    if args.action == "report":
        used = [o for o, v in (("--seeds", args.seeds), ("--scheduler", args.scheduler),
                               ("--numbering", args.numbering),
                               ("--workers", args.workers), ("--node-limit", args.node_limit)) if v is not None]
        if used:
            raise CommandError(f"'study report' takes --db, --solver, --output and --plots, not {', '.join(used)}")
        from .report import write_report

        with _open_db(args.db, must_exist=True) as db:
            return write_report(db, args.output, args.plots, solver=args.solver)
    if args.solver is not None or args.output is not None or args.plots is not None:
        raise CommandError("--solver, --output and --plots belong to 'yukon study report'")
    return _run_study(args)


def _params(args: argparse.Namespace) -> tuple[StudyParams, list[int]]:
    rules = rules_from_args(args)  # unknown variant or option: YukonError, one line
    if args.seeds is None:
        raise CommandError("give the deals to solve with --seeds, e.g. --seeds 1-1000")
    try:
        seeds = parse_seeds(args.seeds)
    except StudyError as exc:
        raise CommandError(str(exc)) from None
    text = str(args.time_limit).strip().lower()
    time_limit = None if text in ("none", "off") else positive_number(args.time_limit, "--time-limit")
    args.node_limit = None if args.node_limit is None else positive_int(args.node_limit, "--node-limit")
    if time_limit is None and args.node_limit is None:
        raise CommandError("give a --time-limit or a --node-limit: a deal may take very long to decide")
    args.memory_limit = positive_number(args.memory_limit, "--memory-limit")
    args.workers = None if args.workers is None else positive_int(args.workers, "--workers")
    args.connect_timeout = positive_number(args.connect_timeout, "--connect-timeout")
    args.log_every = positive_number(args.log_every, "--log-every")
    if args.scheduler is not None and args.workers is not None:
        raise CommandError("--workers is for local runs; a Dask cluster has the workers you started")
    numbering = args.numbering or "yukon"
    if numbering != "yukon":
        from ..pysolfc import check_game_number

        for seed in (min(seeds), max(seeds)):
            check_game_number(rules, seed)  # NumberingError: one line, before anything is written
    from ..solver import SOLVER_VERSION

    params = StudyParams(rules.variant, rules.empty_column, rules.foundation_return, time_limit, args.node_limit,
                         int(args.memory_limit * 1e9), SOLVER_VERSION, numbering)
    if args.player == "honest" or args.budget is not None:
        from .players import honest_study

        try:
            params = honest_study(params, args.player, args.budget)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    return params, seeds


class _Display:
    """The Rich progress bar on a terminal, a plain line every ``log_every`` seconds otherwise."""

    def __init__(self, params: StudyParams, seeds: list[int], log_every: float) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        if not self.console.is_terminal:  # a log file: one line per message
            self.console = Console(stderr=True, width=200)
        self.params = params
        self.seeds = set(seeds)
        self.total = len(seeds)
        self.counts = {"won": 0, "lost": 0, "unknown": 0}
        self.log_every = log_every
        self.progress: Any = None
        self.task: Any = None
        self.started = time.monotonic()
        self.last_log = self.started
        self.computed = 0

    def start(self, db: StudyDB, result: RunResult) -> None:
        for row in db.rows(result.study_id):
            if row.seed in self.seeds:
                self.counts[row.status] += 1
        todo = self.total - result.already
        self.console.print(
            f"[bold]{self.params.label()}[/], limit {self.params.limits()}, solver {self.params.solver_version}: "
            f"{self.total:,} deals ({describe_seeds(sorted(self.seeds))}), {result.already:,} already done, "
            f"{todo:,} to solve", highlight=False)
        if self.console.is_terminal and todo:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                TextColumn("{task.fields[wins]}"), console=self.console, refresh_per_second=4,
            )
            self.task = self.progress.add_task(self.params.variant, total=self.total, completed=result.already,
                                               rate="", wins=self._wins())
            self.progress.start()
        self.started = self.last_log = time.monotonic()

    def _wins(self) -> str:
        s = Summary(**self.counts)
        return f"won {pct(s.rate)} of decided, {s.unknown:,} unknown"

    def _rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return 60.0 * self.computed / elapsed if elapsed > 0 else 0.0

    def row(self, row: DealRow) -> None:
        self.counts[row.status] += 1
        self.computed += 1
        if self.progress is not None:
            self.progress.update(self.task, advance=1, rate=f"{self._rate():,.1f} deals/min", wins=self._wins())
        elif time.monotonic() - self.last_log >= self.log_every:
            self.last_log = time.monotonic()
            self._line()

    def _line(self) -> None:
        done = sum(self.counts.values())
        rate = self._rate()
        eta = (self.total - done) / rate * 60 if rate > 0 else math.inf
        eta_text = time.strftime("%H:%M:%S", time.gmtime(eta)) if math.isfinite(eta) and eta < 86400 * 30 else "?"
        stamp = time.strftime("%H:%M:%S")
        print(f"{stamp} {self.params.variant}: {done:,}/{self.total:,} deals, {rate:,.1f} deals/min, "
              f"ETA {eta_text}, {self._wins()}", file=sys.stderr, flush=True)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
        elif self.computed:
            self._line()


def summary_table(title: str, counts: dict[str, int], extra: dict[str, str] | None = None) -> Any:
    """Won / lost / unknown, the win rate of the decided deals with its 95% Wilson interval, and the range the
    unknowns leave open (all lost … all won; in brackets widened to 95% confidence)."""
    from rich.table import Table

    s = Summary(**counts)
    table = Table(title=title, title_justify="left")
    for col in ("deals", "won", "lost", "unknown", "win rate (decided)", "95% CI",
                "unknowns lost … won", "95% range", *(extra or {})):
        table.add_column(col, justify="right")
    table.add_row(f"{s.total:,}", f"{s.won:,}", f"{s.lost:,}", f"{s.unknown:,}", pct(s.rate),
                  pct_range(s.interval) if s.decided else "–", pct_range(s.bounds), pct_range(s.bounds95),
                  *(extra or {}).values())
    return table


def _run_study(args: argparse.Namespace) -> int:
    params, seeds = _params(args)
    client = None
    with _open_db(args.db) as db:
        if args.scheduler:
            try:
                client = connect(args.scheduler, args.connect_timeout)
            except StudyError as exc:
                raise CommandError(str(exc)) from None
        display = _Display(params, seeds, args.log_every)
        previous = _stop_on_sigterm()
        try:
            result = run_study(db, params, seeds, workers=args.workers, client=client,
                               on_start=lambda r: display.start(db, r), on_row=display.row)
        except StudyError as exc:
            raise CommandError(str(exc)) from None
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            display.stop()
            if client is not None:
                client.close()
        rows = [r for r in db.rows(result.study_id) if r.seed in display.seeds]
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for r in rows:
        counts[r.status] += 1
    decided = [r.seconds for r in rows if r.status != "unknown"]
    extra = {"median decide": f"{statistics.median(decided):.2f} s" if decided else "–"}
    where = args.scheduler or f"{args.workers or os.cpu_count()} local workers"
    from rich.console import Console

    out = Console()
    if not out.is_terminal:
        out = Console(width=160)
    out.print(summary_table(f"{params.label()}, limit {params.limits()}, solver "
                                        f"{params.solver_version}, seeds {describe_seeds(seeds)}", counts, extra))
    rate = 60 * result.computed / result.seconds if result.seconds > 0 else 0.0
    print(f"{result.computed:,} deals solved in this run ({rate:,.1f} deals/min on {where}), "
          f"{result.already:,} were already done; database {db.path}", file=sys.stderr)
    codes = sorted({r.code for r in rows if r.code})
    if len(codes) > 1:
        print(f"yukon: warning: this study's rows were made by {len(codes)} different engine/solver sources "
              f"({', '.join(codes)}) under one SOLVER_VERSION", file=sys.stderr)
    for seed, error in result.failures[:5]:
        print(f"yukon: seed {seed} failed: {error}", file=sys.stderr)
    if result.interrupted:
        print("interrupted: run the same command again to resume", file=sys.stderr)
        return 130
    if result.failures:
        print(f"yukon: error: {len(result.failures)} deals failed; run again to retry them", file=sys.stderr)
        return 1
    return 0


def _stop_on_sigterm() -> Any:
    """``kill PID`` stops a run like Ctrl-C (workers stopped, summary printed); returns the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, handler)
