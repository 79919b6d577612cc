"""``yukon study report``: the studies of a database as Markdown tables, and two PNG plots if asked.

One clean table first: one row per variant and option, by the newest solver version that studied
it (its studies merged deal by deal, :mod:`yukon.study.current`). Below it, "History": every study
of an older solver version, one row each, as it was. Then the honest player beside the solver.

With ``--plots DIR``, and only then, two plots of the clean table's rows go into DIR (matplotlib, Agg
backend, no display needed): the win rate of each study with its 95% Wilson interval and the range
its unknowns leave open; and the distribution of the time the solver took to decide a deal.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..cli_common import CommandError, check_new_file
from ..rules import VARIANTS
from .current import CurrentVerdicts, current
from .db import DealRow, StudyDB, StudyParams
from .runner import describe_seeds
from .stats import Summary, pct, pct_range

RATE_PLOT = "winnability-rate.png"
TIME_PLOT = "winnability-time.png"

#: What the rule pages say (docs/rules.md, "The sources"): an experienced human player's win rate.
HUMAN_FIGURES = {"yukon": (0.80, "rule page: a good human wins about 80%"),
                 "milligan-yukon": (0.65, "rule page: about 65%")}


@dataclass
class StudyReport:
    params: StudyParams
    rows: list[DealRow]

    @property
    def summary(self) -> Summary:
        c = {"won": 0, "lost": 0, "unknown": 0}
        for r in self.rows:
            c[r.status] += 1
        return Summary(**c)

    def decide_times(self) -> list[float]:
        return sorted(r.seconds for r in self.rows if r.status != "unknown")


def _as_report(cur: CurrentVerdicts) -> StudyReport:
    """A merged row as one study for the plots (labelled by its first study's parameters)."""
    return StudyReport(cur.studies[0], list(cur.rows.values()))


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def collect(db: StudyDB) -> list[StudyReport]:
    order = {v: i for i, v in enumerate(VARIANTS)}
    reports = [StudyReport(p, db.rows(sid)) for sid, p in db.studies()]
    reports = [r for r in reports if r.rows]
    reports.sort(key=lambda r: (order.get(r.params.variant, 99), r.params.empty_column != "kings",
                                r.params.foundation_return, r.params.time_limit or 0, r.params.node_limit or 0,
                                r.params.solver_version))
    return reports


def markdown_table(reports: list[StudyReport]) -> str:
    head = ("| variant | empty column | foundation return | limit per deal | solver | seeds | deals | won | lost "
            "| unknown | win rate (decided) | 95% CI | unknowns lost … won | 95% range | median / 90% time to "
            "decide |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for rep in reports:
        p, s = rep.params, rep.summary
        t = rep.decide_times()
        times = f"{_quantile(t, 0.5):.2f} / {_quantile(t, 0.9):.2f} s" if t else "–"
        codes = {r.code for r in rep.rows if r.code}
        mark = " †" if len(codes) > 1 else ""
        lines.append(
            f"| {p.variant}{_numbers(p)}{mark} | {p.empty_column} | {'on' if p.foundation_return else 'off'} "
            f"| {p.limits()} "
            f"| {p.solver_version} | {describe_seeds([r.seed for r in rep.rows])} | {s.total:,} | {s.won:,} "
            f"| {s.lost:,} | {s.unknown:,} | {pct(s.rate)} | {pct_range(s.interval) if s.decided else '–'} "
            f"| {pct_range(s.bounds)} | {pct_range(s.bounds95)} | {times} |")
    if any(len({r.code for r in rep.rows if r.code}) > 1 for rep in reports):
        lines.append("")
        lines.append("† rows made by more than one version of the engine/solver source under one SOLVER_VERSION")
    return "\n".join(lines) + "\n"


CURRENT_HEAD = ("| variant | empty column | foundation return | limit per deal | solver | seeds | deals | won "
                "| lost | unknown | win rate (decided) | 95% CI | unknowns lost … won | 95% range | median / 90% "
                "time to decide |")


def current_table(verdicts: list[CurrentVerdicts]) -> str:
    """The clean table: one row per variant and option, the newest solver version's verdicts only."""
    lines = [CURRENT_HEAD, "|" + "---|" * (CURRENT_HEAD.count("|") - 1)]
    for cur in verdicts:
        variant, empty, ret, numbering = cur.key
        rows = list(cur.rows.values())
        s = cur.summary
        t = sorted(r.seconds for r in rows if r.status != "unknown")
        times = f"{_quantile(t, 0.5):.2f} / {_quantile(t, 0.9):.2f} s" if t else "–"
        numbers = "" if numbering == "yukon" else f" ({numbering} numbers)"
        mark = " ‡" if cur.conflicts else ""
        lines.append(
            f"| {variant}{numbers}{mark} | {empty} | {'on' if ret else 'off'} | {cur.limits()} | {cur.solver_version} "
            f"| {describe_seeds(list(cur.rows))} | {s.total:,} | {s.won:,} | {s.lost:,} | {s.unknown:,} "
            f"| {pct(s.rate)} | {pct_range(s.interval) if s.decided else '–'} | {pct_range(s.bounds)} "
            f"| {pct_range(s.bounds95)} | {times} |")
    if any(cur.conflicts for cur in verdicts):
        lines.append("")
        lines.append("‡ studies of this solver version decided a deal differently: "
                     + "; ".join(f"{c.key[0]} seeds {describe_seeds(sorted(set(c.conflicts)))}"
                                 for c in verdicts if c.conflicts))
    return "\n".join(lines) + "\n"


def _numbers(p: StudyParams) -> str:
    """`` (pysolfc numbers)`` for a study of another numbering than this program's deal numbers."""
    return "" if p.numbering == "yukon" else f" ({p.numbering} numbers)"


def _label(p: StudyParams) -> str:
    ret = "on" if p.foundation_return else "off"
    return (f"{p.variant}{_numbers(p)} · empty {p.empty_column} · return {ret} · {p.limits()} "
            f"· solver {p.solver_version}")


def _default_rules(p: StudyParams) -> bool:
    """Does the study play the variant's default options (those the rule pages' figures are about)?"""
    base = VARIANTS.get(p.variant)
    return base is not None and (base.empty_column, base.foundation_return) == (p.empty_column,
                                                                               p.foundation_return)


def plot_rates(reports: list[StudyReport], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(reports)
    fig, ax = plt.subplots(figsize=(10, 2.2 + 0.45 * n))
    ys = list(range(n))[::-1]
    for y, rep in zip(ys, reports, strict=True):
        s = rep.summary
        lo95, hi95 = s.bounds95
        ax.barh(y, hi95 - lo95, left=lo95, height=0.6, color="#dddddd",
                label="unknowns all lost … all won (95%)" if y == ys[0] else None)
        ax.barh(y, s.bounds[1] - s.bounds[0], left=s.bounds[0], height=0.6, color="#bbbbbb",
                label="unknowns all lost … all won" if y == ys[0] else None)
        if s.decided:
            lo, hi = s.interval
            xerr = [[max(0.0, s.rate - lo)], [max(0.0, hi - s.rate)]]
            ax.errorbar(s.rate, y, xerr=xerr, fmt="o", color="#1f4e9c", capsize=4,
                        label="win rate of decided deals, 95% Wilson CI" if y == ys[0] else None)
        ax.text(1.01, y, f"n={s.total:,}, ?={s.unknown:,}", va="center", fontsize=8, transform=ax.get_yaxis_transform())
    shown: set[str] = set()
    for y, rep in zip(ys, reports, strict=True):
        fig_ = HUMAN_FIGURES.get(rep.params.variant)
        if fig_ and _default_rules(rep.params):
            ax.plot([fig_[0]], [y], marker="|", markersize=16, color="#c0392b",
                    label="rule page figure (human player)" if not shown else None)
            shown.add(rep.params.variant)
    ax.set_yticks(ys, [_label(r.params) for r in reports], fontsize=8)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("deals won (solver, perfect information)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8, frameon=False)
    fig.suptitle("Winnability per variant and rule option")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_times(reports: list[StudyReport], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 5.5))
    styles = ("-", "--", ":", "-.")
    for i, rep in enumerate(reports):
        t = rep.decide_times()
        n = len(rep.rows)
        if not t:
            continue
        t = [max(x, 1e-3) for x in t]
        ax.step(t, [(j + 1) / n for j in range(len(t))], where="post", label=_label(rep.params),
                linestyle=styles[(i // 10) % len(styles)])
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("seconds (one worker; below 1 ms drawn at 1 ms)")
    ax.set_ylabel("deals decided (won or proven lost) within that time")
    ax.set_title("Time to decide a deal")
    ax.grid(alpha=0.3, which="both")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _wanted(solver: str | None, version: str) -> bool:
    return solver is None or version in {v.strip() for v in solver.split(",")}


def write_report(db: StudyDB, output: Path | None, plots: Path | None, solver: str | None = None) -> int:
    # (checked first: a bad --output once failed after the plots were written, and a missing folder above
    # --plots was made, as no other command makes one: yukon.cli_common.check_new_file)
    if output is not None and str(output) == "-":  # stdout, as for 'export --output -' (it wrote a file named -)
        output = None
    if output is not None:
        if output.is_dir():
            raise CommandError(f"{output} is a folder: give a file name for --output")
        check_new_file(output, "--output")
    if plots is not None:
        if plots.exists() and not plots.is_dir():  # (it said "File exists", after the report was written)
            raise CommandError(f"{plots} is a file: give a folder for --plots")
        check_new_file(plots, "--plots")
    reports = [r for r in collect(db) if _wanted(solver, r.params.solver_version)]
    verdicts, history = current(db, None if solver is None else {v.strip() for v in solver.split(",")})
    history_reports = [StudyReport(p, rows) for p, rows in history]
    if not reports:
        print(f"no finished deals in {db.path}" + (f" of solver version {solver}" if solver else ""),
              file=sys.stderr)
        return 0
    from .players import comparison_table, is_honest

    # The plots are the solver's (their axis says "perfect information"): an honest player's games are only
    # in their own table below, never drawn as a solver study.
    plotted = [_as_report(c) for c in verdicts] or [r for r in reports if not is_honest(r.params)]
    base = output.parent if output is not None else Path(".")
    written: list[Path] = []
    if plotted:
        table = current_table(verdicts)
        # Plots only when asked: without --plots it wrote two PNG files into the current (or --output) folder
        if plots is not None:
            plots.mkdir(exist_ok=True)  # (the folder named; the one above it exists: checked above)
            rate_png, time_png = plots / RATE_PLOT, plots / TIME_PLOT
            plot_rates(plotted, rate_png)
            plot_times(plotted, time_png)
            written = [rate_png, time_png]
            table += ("\n" +
                      f"![win rate per variant and option]({Path(os.path.relpath(rate_png, base)).as_posix()})\n\n"
                      f"![time to decide]({Path(os.path.relpath(time_png, base)).as_posix()})\n")
    else:
        table = "No solver study in this file: the honest player's games are below.\n"
    honest = comparison_table(reports)
    history_text = ("\n## History\n\nStudies of older solver versions, one row each as it was (the table above "
                    "has the newest version's verdicts only).\n\n" + markdown_table(history_reports)
                    if history_reports else "")
    text = table + history_text + ("\n" + honest if honest else "")
    if output is not None:
        output.write_text(text, encoding="utf-8")
        written.insert(0, output)
    else:
        sys.stdout.write(text)
    if written:
        print(f"wrote {', '.join(map(str, written))}", file=sys.stderr)
    return 0
