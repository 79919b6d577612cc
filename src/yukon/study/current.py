"""The current verdicts of a study file: per variant and option, the newest solver version's rows only.

A study file keeps every study ever run: older solver versions, other limits, other thread counts.
The report's main table and the package's verdicts file want one answer per deal: for each set of
rules (variant, empty column, foundation return, numbering), the solver studies of the newest
solver version that has rows for those rules, merged deal by deal. A decided verdict (won, lost)
is a proof whatever the limit that allowed it, so it beats ``unknown``; among decided rows a won
row with its winning line beats one without (rows imported from the older CSV layout carry none);
two studies that decide one deal differently are a contradiction, kept in ``conflicts``.
Everything else (older versions) is history.

>>> version_key("9") < version_key("13") < version_key("13b")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..rules import VARIANTS
from .db import DealRow, StudyDB, StudyParams
from .stats import Summary

#: (variant, empty_column, foundation_return, numbering)
RulesKey = tuple[str, str, bool, str]


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """Solver versions in natural order: ``'9' < '13' < '13b'`` (numbers compare as numbers)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|\D+", version))


def rules_key(p: StudyParams) -> RulesKey:
    return p.variant, p.empty_column, p.foundation_return, p.numbering


def _rules_order(key: RulesKey) -> tuple[int, bool, bool, str]:
    order = {v: i for i, v in enumerate(VARIANTS)}
    variant, empty, ret, numbering = key
    return order.get(variant, 99), empty != "kings", ret, numbering


@dataclass
class CurrentVerdicts:
    """The merged rows of one set of rules by its newest solver version."""

    key: RulesKey
    solver_version: str
    studies: list[StudyParams]
    rows: dict[int, DealRow] = field(default_factory=dict)
    #: seeds that two studies decided differently (won in one, lost in another)
    conflicts: list[int] = field(default_factory=list)
    #: the study each kept row comes from
    source: dict[int, StudyParams] = field(default_factory=dict)

    @property
    def summary(self) -> Summary:
        counts = {"won": 0, "lost": 0, "unknown": 0}
        for r in self.rows.values():
            counts[r.status] += 1
        return Summary(**counts)

    def limits(self) -> str:
        """The limits of the merged studies, each once, ``'; '``-separated."""
        return "; ".join(dict.fromkeys(p.limits() for p in self.studies))


def _better(new: DealRow, old: DealRow) -> bool:
    """Does ``new`` give more than ``old`` about the same deal (a verdict, then a winning line)?"""
    rank = {"unknown": 0, "lost": 1, "won": 1}
    if rank[new.status] != rank[old.status]:
        return rank[new.status] > rank[old.status]
    return new.status == "won" and bool(new.line) and not old.line


def current(db: StudyDB, versions: set[str] | None = None
            ) -> tuple[list[CurrentVerdicts], list[tuple[StudyParams, list[DealRow]]]]:
    """(the current verdicts of each set of rules, the other solver studies with rows: the history), of the
    studies of ``versions`` only if given.

    Honest-player studies (:mod:`yukon.study.players`) are neither: they are games, not verdicts."""
    from .players import is_honest

    studies = [(p, db.rows(sid)) for sid, p in db.studies()
               if not is_honest(p) and (versions is None or p.solver_version in versions)]
    studies = [(p, rows) for p, rows in studies if rows]
    newest: dict[RulesKey, str] = {}
    for p, _ in studies:
        key = rules_key(p)
        if key not in newest or version_key(p.solver_version) > version_key(newest[key]):
            newest[key] = p.solver_version
    merged: dict[RulesKey, CurrentVerdicts] = {}
    history: list[tuple[StudyParams, list[DealRow]]] = []
    for p, rows in studies:
        key = rules_key(p)
        if p.solver_version != newest[key]:
            history.append((p, rows))
            continue
        cur = merged.setdefault(key, CurrentVerdicts(key, p.solver_version, []))
        cur.studies.append(p)
        for row in rows:
            old = cur.rows.get(row.seed)
            if old is None or _better(row, old):
                if old is not None and {old.status, row.status} == {"won", "lost"}:
                    cur.conflicts.append(row.seed)
                cur.rows[row.seed] = row
                cur.source[row.seed] = p
            elif {old.status, row.status} == {"won", "lost"}:
                cur.conflicts.append(row.seed)
    for cur in merged.values():
        cur.rows = dict(sorted(cur.rows.items()))
    ordered = sorted(merged.values(), key=lambda c: _rules_order(c.key))
    history.sort(key=lambda s: (_rules_order(rules_key(s[0])), version_key(s[0].solver_version),
                                s[0].time_limit or 0, s[0].node_limit or 0))
    return ordered, history


__all__ = ["CurrentVerdicts", "current", "rules_key", "version_key"]
