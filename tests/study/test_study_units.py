"""Seeds, statistics and the study file, without the solver's time."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from yukon.interval import Z95
from yukon.store import Store
from yukon.study import DealRow, StudyDB, StudyDBError, StudyError, StudyParams, Summary, parse_seeds, wilson
from yukon.study.db import APPLICATION_ID
from yukon.study.runner import describe_seeds

from .helpers import write_old_study


def test_parse_seeds_forms() -> None:
    assert parse_seeds("1-5") == [1, 2, 3, 4, 5]
    assert parse_seeds("7") == [7]
    assert parse_seeds(" 3-4, 1 ,4-6") == [1, 3, 4, 5, 6]
    assert describe_seeds(parse_seeds("1-3,7,9-10")) == "1-3,7,9-10"


@pytest.mark.parametrize("text, words", [("", "empty"), ("  ", "empty"), ("10-1", "reversed"), ("a-b", "bad"),
                                         ("1-", "bad"), ("-5", "bad"), ("1-2,,4", "empty item"),
                                         ("1-99999999", "more than")])
def test_parse_seeds_rejects(text: str, words: str) -> None:
    with pytest.raises(StudyError, match=words):
        parse_seeds(text)


@pytest.mark.parametrize("k, n", [(0, 10), (1, 10), (80, 100), (650, 1000), (1000, 1000), (3, 7)])
def test_wilson_bounds_solve_the_score_equation(k: int, n: int) -> None:
    """Each bound p0 of the Wilson interval satisfies |k/n - p0| = z * sqrt(p0 (1 - p0) / n)."""
    p = k / n
    lo, hi = wilson(k, n)
    assert 0 <= lo <= p <= hi <= 1
    for p0 in (lo, hi):
        if p0 in (0.0, 1.0) and p0 == p:
            continue
        assert math.isclose(abs(p - p0), Z95 * math.sqrt(p0 * (1 - p0) / n), rel_tol=1e-9, abs_tol=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0


@pytest.mark.parametrize("statuses", [["won"] * 7, ["lost"] * 3, ["unknown"] * 4, ["won", "lost", "unknown"]])
def test_plots_of_extreme_studies(tmp_path: Path, statuses: list[str]) -> None:
    """All won, all lost, all unknown: the plots are still drawn (error bars of zero length at 0% or 100%)."""
    from yukon.study.report import StudyReport, plot_rates, plot_times

    rep = StudyReport(_params(), [_row(i, s) for i, s in enumerate(statuses)])
    plot_rates([rep, StudyReport(_params(variant="milligan-yukon"), [_row(1, "won")])], tmp_path / "r.png")
    plot_times([rep], tmp_path / "t.png")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / "t.png").stat().st_size > 0


def test_summary_ranges() -> None:
    s = Summary(won=60, lost=30, unknown=10)
    assert s.rate == pytest.approx(60 / 90)
    assert s.bounds == (0.6, 0.7)
    lo, hi = s.bounds95
    assert lo < 0.6 and hi > 0.7
    assert s.interval == wilson(60, 90)
    assert math.isnan(Summary(0, 0, 5).rate)


def _params(**changes: object) -> StudyParams:
    base = {"variant": "yukon", "empty_column": "kings", "foundation_return": False, "time_limit": 5.0,
            "node_limit": None, "memory_limit": 10**9, "solver_version": "1"}
    base.update(changes)
    return StudyParams(**base)  # type: ignore[arg-type]


def _row(seed: int, status: str = "won", version: str = "1") -> DealRow:
    return DealRow(seed, status, 0.25, 100, 30 if status == "won" else 0, 10, "", version, "h")


def test_other_parameters_make_another_study(tmp_path: Path) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        ids = {db.study_id(_params()), db.study_id(_params(time_limit=6.0)), db.study_id(_params(node_limit=10)),
               db.study_id(_params(solver_version="2")), db.study_id(_params(empty_column="any")),
               db.study_id(_params(foundation_return=True)), db.study_id(_params(variant="alaska"))}
        assert len(ids) == 7
        a, b = db.study_id(_params()), db.study_id(_params(solver_version="2"))
        assert a is not None and b is not None
        assert db.add(a, _row(1)) and db.add(a, _row(2, "lost"))
        assert not db.add(a, _row(1, "lost"))  # one row per seed and study
        assert db.add(b, _row(1, "unknown", "2"))
        assert db.counts(a) == {"won": 1, "lost": 1, "unknown": 0}
        assert db.counts(b) == {"won": 0, "lost": 0, "unknown": 1}
        assert db.study_id(_params(), create=False) == a
    with StudyDB(tmp_path / "s.sqlite3") as db:  # reopened: the same studies, the same rows
        assert len(db.studies()) == 7
        assert [r.seed for r in db.rows(a)] == [1, 2]


def test_file_is_marked_and_in_wal_mode(tmp_path: Path) -> None:
    StudyDB(tmp_path / "s.sqlite3").close()
    con = sqlite3.connect(tmp_path / "s.sqlite3")
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def _foreign(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE deals (x)")
    con.execute("INSERT INTO deals VALUES (1)")
    con.commit()
    con.close()


@pytest.mark.parametrize("kind", ["garbage", "foreign", "game-store", "truncated-study", "directory"])
def test_unusable_files_are_refused_and_untouched(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.sqlite3"
    if kind == "garbage":
        path.write_bytes(b"this is not an SQLite file\n" * 100)
    elif kind == "foreign":
        _foreign(path)
    elif kind == "game-store":
        Store(path).close()
    elif kind == "truncated-study":
        with StudyDB(path) as db:
            sid = db.study_id(_params())
            assert sid is not None
            for s in range(300):
                db.add(sid, _row(s))
        con = sqlite3.connect(path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        data = path.read_bytes()
        path.write_bytes(data[:100] + b"\xff" * 4000 + data[4100:])
    else:
        path.mkdir()
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(StudyDBError) as info:
        StudyDB(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)
    if before is not None:
        assert path.read_bytes() == before


def test_schema_1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    write_old_study(path, 1, """
INSERT INTO studies VALUES (1, 'yukon', 'kings', 0, 5.0, NULL, 1000000000, '1', 0);
INSERT INTO deals VALUES (1, 7, 'won', 0.5, 100, 80, 90, '', '1', 'h', 0);
""")
    with StudyDB(path) as db:
        sid = db.study_id(_params())
        assert sid == 1
        assert db.rows(1) == [DealRow(7, "won", 0.5, 100, 80, 90, "", "1", "h", "")]
        assert db.add(1, DealRow(8, "lost", 0.1, 5, 0, 3, "", "1", "h", "abc123"))
        assert db.conn.execute("SELECT seed, code FROM results ORDER BY seed").fetchall() == [(7, ""), (8, "abc123")]


def test_rows_carry_the_code_fingerprint() -> None:
    from yukon.study.worker import CODE, DealTask, solve_deal

    row = solve_deal(DealTask("russian", "kings", False, 1, None, 1000, 10**8))
    assert row.code == CODE and len(CODE) == 12 and int(CODE, 16) >= 0


def test_rows_carry_the_version_of_the_search_their_rules_get() -> None:
    """Solver 16 changed only one deck with foundation return: those rows say 16, the others still 15 (and so
    continue solver 15's studies)."""
    from yukon.rules import rules_for
    from yukon.solver import SOLVER_VERSION, solver_version
    from yukon.study.worker import DealTask, solve_deal

    for variant, ret in (("yukon", True), ("russian", True), ("yukon", False), ("russian", False)):
        row = solve_deal(DealTask(variant, "kings", ret, 1, None, 100_000, 10**8))
        assert row.solver_version == solver_version(rules_for(variant, foundation_return=ret))
        assert row.solver_version == (SOLVER_VERSION if ret else "15")


BIG_SEEDS = [0, 5, 2**63 - 1, 2**63, 2**63 + 7, 2**64 - 1]


def test_every_deal_number_is_stored_exactly_and_in_order() -> None:
    """Seeds from 2**63 up do not fit SQLite's signed integers as they are: they round-trip, sort after the
    smaller ones, and range counts see them where they belong."""
    with StudyDB(":memory:") as db:
        sid = db.study_id(StudyParams("yukon", "kings", False, None, 100, 10**9, "1"))
        assert sid is not None
        statuses = ["won", "lost", "unknown", "won", "lost", "unknown"]
        for seed, status in zip(reversed(BIG_SEEDS), reversed(statuses), strict=True):
            assert db.add(sid, DealRow(seed, status, 0.1, 10, 0, 5, "", "1", "host"))
        assert not db.add(sid, DealRow(2**64 - 1, "won", 0.1, 10, 0, 5, "", "1", "host"))  # one row per seed
        assert [r.seed for r in db.rows(sid)] == BIG_SEEDS
        assert [r.status for r in db.rows(sid)] == statuses
        assert db.done_seeds(sid) == set(BIG_SEEDS)
        assert db.done_seeds(sid, [2**63, 3]) == {2**63}
        assert db.counts(sid, range(0, 2**64)) == {"won": 2, "lost": 2, "unknown": 2}
        assert db.counts(sid, range(2**63, 2**64)) == {"won": 1, "lost": 1, "unknown": 1}
        assert db.counts(sid, range(6, 2**63 + 1)) == {"won": 1, "lost": 0, "unknown": 1}
        assert db.counts(sid, range(2**63 + 1, 2**64 - 1)) == {"won": 0, "lost": 1, "unknown": 0}
        assert db.counts(sid, range(7, 7)) == {"won": 0, "lost": 0, "unknown": 0}


def test_parse_seeds_takes_every_deal_number_and_only_those() -> None:
    assert parse_seeds(f"{2**64 - 2}-{2**64 - 1}") == [2**64 - 2, 2**64 - 1]
    assert parse_seeds(str(2**63)) == [2**63]
    for text in (str(2**64), f"1-{2**64}", "１２", "١٢", "+3", "1_000", "0x10", "-1"):
        with pytest.raises(StudyError, match="bad seed range"):
            parse_seeds(text)


def test_an_interrupt_just_after_a_commit_still_counts_that_row(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C or SIGTERM lands most often during a row's commit (synchronous=FULL: the fsync): the row was in
    the file, and the run said '12 deals solved in this run' of 13 (the resume then found 13 already done)."""
    from yukon.study import run_study, runner

    params = _params(solver_version="1")
    monkeypatch.setattr(runner, "_local", lambda tasks, workers: iter([(t, _row(t.seed)) for t in tasks]))
    with StudyDB(tmp_path / "s.sqlite3") as db:
        add = db.add

        def add_then_interrupt(study_id: int, row: DealRow) -> bool:
            added = add(study_id, row)
            if row.seed == 3:  # (committed, then the signal's KeyboardInterrupt, before the count)
                raise KeyboardInterrupt
            return added

        monkeypatch.setattr(db, "add", add_then_interrupt)
        result = run_study(db, params, range(1, 7))
        assert result.interrupted
        study_id = db.study_id(params)
        assert study_id is not None
        assert db.done_seeds(study_id) == {1, 2, 3}
        assert result.computed == 3
