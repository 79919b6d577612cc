"""``yukon study``: solve a range of deals of one variant and record one row per deal; report, export, import.

    yukon study run --variant yukon --seeds 1-10000 --time-limit 30 [--empty-column any]
                    [--foundation-return/--no-foundation-return] [--workers N] [--threads N] [--db FILE]
                    [--scheduler tcp://HOST:8786]
    yukon study report [--db FILE] [--output FILE.md] [--plots DIR] [--solver VERSIONS]
    yukon study export [--db FILE] [--output FILE.csv] [--solver VERSIONS]
    yukon study export --verdicts [--db FILE] [--output FILE.csv.gz]
    yukon study import FILE.csv [FILE.csv ...] [--db FILE]

``yukon study --variant ...`` without an action is ``yukon study run --variant ...`` (the older form).
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
    check_new_file,
    path_arg,
    positive_int,
    positive_number,
    rules_from_args,
    time_limit_option,
)
from .db import DealRow, StudyDB, StudyDBError, StudyParams, default_path
from .runner import RunResult, StudyError, connect, describe_seeds, parse_seeds, run_study
from .stats import Summary, pct, pct_range

#: the options of ``run`` (dest, option): given before another action's name, they are refused
_RUN_ONLY = (("variant", "--variant"), ("empty_column", "--empty-column"),
             ("foundation_return", "--foundation-return"), ("seeds", "--seeds"), ("numbering", "--numbering"),
             ("time_limit", "--time-limit"), ("workers", "--workers"), ("threads", "--threads"),
             ("node_limit", "--node-limit"), ("scheduler", "--scheduler"), ("budget", "--budget"))


def _add_db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=path_arg, default=None, metavar="FILE",
                   help=f"the study file (default: {_default_db_text()})")


def _add_run_options(p: argparse.ArgumentParser) -> None:
    add_rules_options(p, variant_default=None)  # (None: not given, so 'study --variant V report' is refused; Yukon)
    p.add_argument("--seeds", metavar="RANGE", help="deal numbers: FIRST-LAST, N, or a comma list (e.g. 1-10000)")
    add_numbering_option(p, "--seeds")  # (a study takes a range)
    p.add_argument("--time-limit", "-t", default=None, metavar="SECONDS",
                   help="per deal, seconds of wall time, or 'none' (default 30; the solver's: the honest "
                   "player has --budget)")
    p.add_argument("--node-limit", default=None, metavar="N", help="per deal, positions examined at most")
    p.add_argument("--memory-limit", default="1.5", metavar="GB",
                   help="per worker, GB for the solver's position table (default 1.5)")
    p.add_argument("--workers", "-j", default=None, metavar="N",
                   help="local worker processes (default: all cores)")
    p.add_argument("--threads", default=None, metavar="N",
                   help="search threads per deal, 1 or 2 (default: 2 with one local worker on a machine of two "
                   "cores or more, else 1); part of the study, since two threads decide more deals in the same "
                   "time. Under a node limit the search runs one thread whatever this says")
    _add_db_option(p)
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster: the scheduler's address, e.g. tcp://10.0.0.1:8786")
    p.add_argument("--connect-timeout", default="10", metavar="SECONDS",
                   help="seconds to wait for the scheduler and its first worker (default 10)")
    p.add_argument("--log-every", default="30", metavar="SECONDS",
                   help="when the output is not a terminal: seconds between progress lines (default 30)")
    p.add_argument("--player", choices=("solver", "honest"), default="solver",
                   help="solver: decide each deal with perfect information (default); honest: play it out by "
                   "honest hints, which see only what a player sees (docs/honest.md)")
    p.add_argument("--budget", default=None, metavar="SAMPLESxNODES",
                   help="honest player: samples per decision x nodes per search (default 12x10000)")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "study", help="win rates: solve a range of deals and record each (run, report, export, import)",
        description="Solve every deal of a seed range with the solver and record one row per deal in an SQLite "
        "file ('run'; running the same command again resumes); render the results as a Markdown table and PNG "
        "plots ('report'); write the rows as CSV, or the package's verdicts file ('export'); read such a CSV "
        "back into a study file ('import'). Without an action, 'yukon study --variant ...' is 'run'.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  yukon study run --variant yukon --seeds 1-1000 --time-limit 5\n"
        "  yukon study run --variant milligan-yukon --seeds 1-1000 --scheduler tcp://10.0.0.1:8786\n"
        "  yukon study report --output winnability.md --plots .\n"
        "  yukon study export --output data/studies/yukon.csv\n"
        "  yukon study import data/studies/*.csv --db studies.sqlite3\n"
        "  yukon study export --verdicts --output src/yukon/data/verdicts.csv.gz   (docs/verdicts.md)",
    )
    _add_run_options(p)  # the older form, without an action
    p.set_defaults(func=run, action=None)
    actions = p.add_subparsers(dest="action", metavar="ACTION")

    r = actions.add_parser("run", help="solve the deals of a seed range (resumable; the default action)",
                           description="Solve every deal of a seed range and record one row per deal; the same "
                           "command again computes only the seeds without a row.")
    _add_run_options(r)
    r.set_defaults(func=run)

    r = actions.add_parser("report", help="the studies as a Markdown table and PNG plots",
                           description="One row per variant and option, by the newest solver version in the "
                           "file; older versions' rows in a History section below.")
    _add_db_option(r)
    r.add_argument("--output", "-o", type=path_arg, default=None, metavar="FILE",
                   help="write the Markdown here (- or none: stdout)")
    r.add_argument("--solver", default=None, metavar="VERSION",
                   help="only the studies of these solver versions, e.g. 4 or 2,4 (default: all)")
    r.add_argument("--plots", type=path_arg, default=None, metavar="DIR",
                   help="draw the two PNG plots into this folder (without it: no plots, no files but --output)")
    r.set_defaults(func=run)

    r = actions.add_parser("export", help="the rows as CSV (data to commit), or the package's verdicts file",
                           description="Every row of every study (or of the --solver versions) as CSV, one line "
                           "per deal with its study's parameters: 'yukon study import' reads it back. With "
                           "--verdicts: the package's verdicts file (docs/verdicts.md).")
    _add_db_option(r)
    r.add_argument("--output", "-o", default=None, metavar="FILE",
                   help="the CSV file ('.gz' at the end: gzip-compressed; default: stdout)")
    r.add_argument("--solver", default=None, metavar="VERSION",
                   help="only the studies of these solver versions, e.g. 13 or 12,13 (default: all)")
    r.add_argument("--verdicts", action="store_true",
                   help="write the verdicts file instead: for each variant and option, the newest solver "
                   "version's verdict of every deal, with its difficulty and winning line (docs/verdicts.md)")
    r.set_defaults(func=run)

    r = actions.add_parser("import", help="read exported CSV rows into a study file (resume elsewhere)",
                           description="Add the rows of CSV files written by 'yukon study export' (or of the "
                           "older data/honest-study.csv layout) to a study file; rows a study has already are "
                           "kept. A bad file changes nothing.")
    r.add_argument("files", nargs="+", type=Path, metavar="FILE", help="CSV files ('.gz': gzip-compressed)")
    _add_db_option(r)
    r.set_defaults(func=run)
    for action_parser in actions.choices.values():
        _keep_options_given_before(p, action_parser)


def _keep_options_given_before(study: argparse.ArgumentParser, action_parser: argparse.ArgumentParser) -> None:
    """An action's options that 'yukon study' has too default to not being set at all, so that one given
    before the action's name stays: argparse lets a subcommand's defaults overwrite what the main parser
    read, and 'yukon study --db FILE report' reported the default file."""
    before = {option.dest for option in study._actions}  # (argparse has no public list of a parser's options)
    for option in action_parser._actions:
        if option.option_strings and option.dest in before and option.dest != "help":
            option.default = argparse.SUPPRESS


def _default_db_text() -> str:
    return str(default_path(create=False))


def _open_db(path: Path | None, must_exist: bool = False) -> StudyDB:
    if path is None:
        path = default_path()
    if must_exist and not path.exists():
        raise CommandError(f"no study database at {path} (run 'yukon study run --seeds ...' first)")
    if not path.exists():
        check_new_file(path, "--db")
    try:
        return StudyDB(path)
    except StudyDBError as exc:
        raise CommandError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    action = args.action or "run"
    if action != "run":
        given = [option for dest, option in _RUN_ONLY if getattr(args, dest, None) is not None]
        if given:
            raise CommandError(f"{', '.join(given)} belong{'s' if len(given) == 1 else ''} to 'yukon study run', "
                               f"not to 'yukon study {action}'")
    if action == "report":
        from .report import write_report

        with _open_db(args.db, must_exist=True) as db:
            _check_solver_versions(db, args.solver)
            return write_report(db, args.output, args.plots, solver=args.solver)
    if action == "export":
        from .transfer import export_command

        with _open_db(args.db, must_exist=True) as db:
            if not args.verdicts:  # (with --verdicts, --solver is refused on its own terms)
                _check_solver_versions(db, args.solver)
            return export_command(db, args.output, solver=args.solver, verdicts=args.verdicts)
    if action == "import":
        from .transfer import import_command, read_files

        rows = read_files(args.files)  # every file read and checked first: a bad one creates no study file
        with _open_db(args.db) as db:
            return import_command(db, rows)
    return _run_study(args)


def _check_solver_versions(db: StudyDB, solver: str | None) -> None:
    """``--solver`` names versions this file has studies of: a typo ('abc', '2,,4') would otherwise give an
    empty report or export and exit 0, as if the studies were empty."""
    if solver is None:
        return
    wanted = [v.strip() for v in solver.split(",")]
    known = sorted({p.solver_version for _, p in db.studies()}, key=lambda v: (not v.isdigit(), len(v), v))
    missing = [v for v in wanted if v not in known]
    if missing:
        have = ", ".join(repr(v) for v in known) if known else "none"
        raise CommandError(f"--solver {solver!r}: no study of solver version {', '.join(map(repr, missing))} "
                           f"in {db.path} (its versions: {have})")


def _params(args: argparse.Namespace) -> tuple[StudyParams, list[int]]:
    rules = rules_from_args(args)  # unknown variant or option: YukonError, one line
    if args.seeds is None:
        raise CommandError("give the deals to solve with --seeds, e.g. --seeds 1-1000")
    try:
        seeds = parse_seeds(args.seeds, args.numbering or "yukon")
    except StudyError as exc:
        raise CommandError(str(exc)) from None
    if args.player == "honest":  # its games have no time limit and one thread: a row is the same on any machine
        given = [o for o, v in (("--time-limit", args.time_limit), ("--threads", args.threads)) if v is not None]
        if given:
            raise CommandError(f"{' and '.join(given)} {'are' if len(given) > 1 else 'is'} the solver's: the "
                               "honest player's budget is --budget SAMPLESxNODES")
    given_limit = "30" if args.time_limit is None else args.time_limit  # (the default is None: see above)
    time_limit = time_limit_option(given_limit)
    args.node_limit = None if args.node_limit is None else positive_int(args.node_limit, "--node-limit")
    if time_limit is None and args.node_limit is None:
        raise CommandError("give a --time-limit or a --node-limit: a deal may take very long to decide")
    args.memory_limit = positive_number(args.memory_limit, "--memory-limit")
    args.workers = None if args.workers is None else positive_int(args.workers, "--workers")
    args.connect_timeout = positive_number(args.connect_timeout, "--connect-timeout")
    args.log_every = positive_number(args.log_every, "--log-every")
    if args.scheduler is not None and not args.scheduler.strip():  # ('--scheduler "$SCHED"' with it unset)
        raise CommandError("--scheduler is empty: give the scheduler's address (tcp://HOST:8786), or leave "
                           "the option out to run on this machine")
    if args.scheduler is not None and args.workers is not None:
        raise CommandError("--workers is for local runs; a Dask cluster has the workers you started")
    threads = _threads(args)
    numbering = args.numbering or "yukon"
    if numbering != "yukon":
        from ..pysolfc import check_game_number

        for seed in (min(seeds), max(seeds)):
            check_game_number(rules, seed)  # NumberingError: one line, before anything is written
    from ..solver import solver_version

    params = StudyParams(rules.variant, rules.empty_column, rules.foundation_return, time_limit, args.node_limit,
                         int(args.memory_limit * 1e9), solver_version(rules), numbering,
                         1 if args.node_limit is not None else threads)
    if args.player == "honest" or args.budget is not None:
        from .players import honest_study

        try:
            params = honest_study(params, args.player, args.budget)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    return params, seeds


def _threads(args: argparse.Namespace) -> int:
    """``--threads``, or its default: two for a lone local worker on a machine of two cores or more
    (the solver's own choice), one for each of several workers and on a cluster (a worker per core)."""
    if args.threads is not None:
        threads = positive_int(args.threads, "--threads")
        if threads > 2:
            raise CommandError(f"--threads is 1 or 2 (the compiled search runs at most two), not {threads}")
        return threads
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    return 2 if args.scheduler is None and workers == 1 and (os.cpu_count() or 1) >= 2 else 1


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
    path = args.db if args.db is not None else default_path()
    # An existing file is checked at once; a new one is made only once the scheduler has answered (one out of
    # reach left a new, empty study file behind). Its folder is checked first all the same.
    db = _open_db(path) if path.exists() else None
    if db is None:
        check_new_file(path, "--db")
    client = None
    try:
        if args.scheduler:
            try:
                client = connect(args.scheduler, args.connect_timeout)
            except StudyError as exc:
                raise CommandError(str(exc)) from None
        if db is None:
            db = _open_db(path)
    except BaseException:
        if db is not None:
            db.close()
        if client is not None:
            client.close()
        raise
    with db:
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
    workers = args.workers or os.cpu_count() or 1
    where = args.scheduler or f"{workers} local worker{'' if workers == 1 else 's'}"
    from rich.console import Console

    out = Console()
    if not out.is_terminal:
        out = Console(width=160)
    out.print(summary_table(f"{params.label()}, limit {params.limits()}, solver "
                                        f"{params.solver_version}, seeds {describe_seeds(seeds)}", counts, extra))
    rate = 60 * result.computed / result.seconds if result.seconds > 0 else 0.0
    print(f"{result.computed:,} deal{'' if result.computed == 1 else 's'} solved in this run ({rate:,.1f} deals/min "
          f"on {where}), {result.already:,} {'was' if result.already == 1 else 'were'} already done; "
          f"database {db.path}", file=sys.stderr)
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
