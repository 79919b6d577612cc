"""``yukon study export --verdicts``: the package's verdicts file from a study file (docs/verdicts.md).

For each variant and option, the newest solver version's verdicts (:mod:`yukon.study.current`),
one line per deal, with the honest player's result of the same deal where an honest study has
one, and the difficulty grade of :mod:`yukon.difficulty` on the scale its rules offer (thresholds
from the won deals of the same rules in the file; no grade for rules that offer none). Written in
a fixed order with fixed formats, so the same study file gives the same bytes.
"""

from __future__ import annotations

import csv
from typing import IO

from ..cli_common import CommandError
from ..deal_data import COLUMNS
from ..difficulty import grade, scale, thresholds
from ..honest import STUDY_BUDGET
from .current import current, rules_key, version_key
from .db import StudyDB
from .players import is_honest, player_budget
from .runner import describe_seeds

PROBE_REASON = "greedy probe"


def _honest_results(db: StudyDB) -> dict[tuple[str, str, bool, str], dict[int, str]]:
    """Per set of rules: each deal's result by the newest honest player version that played it; of one version,
    by its games at the study's budget (another budget measures the budget, not the player: docs/honest.md)."""
    best: dict[tuple[str, str, bool, str], dict[int, tuple[tuple, str]]] = {}
    for sid, p in db.studies():
        if not is_honest(p):
            continue
        by_seed = best.setdefault(rules_key(p), {})
        key = _honest_rank(p.solver_version)
        for r in db.rows(sid):
            if r.seed not in by_seed or key > by_seed[r.seed][0]:
                by_seed[r.seed] = (key, r.status)
    return {k: {s: status for s, (_, status) in v.items()} for k, v in best.items()}


def _honest_rank(label: str) -> tuple[object, ...]:
    """Which honest study's row of a deal the verdicts keep: the newest player, then the study's budget."""
    player = label.split(" ", 1)[0]
    return version_key(player), player_budget(label) == STUDY_BUDGET, version_key(label)


def _fmt(x: float | int | None) -> str:
    return "" if x is None else f"{x:g}" if isinstance(x, float) else str(x)


def write_verdicts(db: StudyDB, out: IO[str]) -> str:
    """Write the verdicts file to ``out``; a one-line summary of what it holds."""
    verdicts, _ = current(db)
    if not verdicts:
        raise CommandError(f"no solver study with rows in {db.path}: nothing to export")
    conflicts = [c for c in verdicts if c.conflicts]
    if conflicts:
        c = conflicts[0]
        raise CommandError(f"solver {c.solver_version}'s studies of {c.key[0]} decide seeds "
                           f"{describe_seeds(sorted(set(c.conflicts)))} differently: resolve that first")
    honest = _honest_results(db)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    parts = []
    for cur in verdicts:
        variant, empty, ret, numbering = cur.key
        grades = scale(variant, empty, ret)  # the grades these rules' honest games validate (none: no grade)
        bounds = thresholds((r.nodes for r in cur.rows.values() if r.status == "won" and r.reason != PROBE_REASON),
                            grades)
        played = honest.get(cur.key, {})
        for seed, r in cur.rows.items():
            p = cur.source[seed]
            probe = r.status == "won" and r.reason == PROBE_REASON
            difficulty = grade(r.status, probe, r.nodes, bounds, grades) or ""
            writer.writerow((variant, empty, int(ret), numbering, seed, r.status, r.solver_version,
                             _fmt(p.time_limit), _fmt(p.node_limit), p.threads, f"{r.seconds:.4f}", r.nodes,
                             r.line_length, int(probe), played.get(seed, ""), difficulty,
                             r.line if r.status == "won" else ""))
        s = cur.summary
        parts.append(f"{variant}/{empty}/{'return' if ret else 'no return'}: {s.total:,} deals "
                     f"({s.won:,} won, {s.lost:,} lost, {s.unknown:,} unknown; solver {cur.solver_version})")
    return "; ".join(parts)


__all__ = ["write_verdicts"]
