"""``yukon study --numbering pysolfc``: PySolFC's deals, a study of their own, and schema 2 files upgraded."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from yukon import Game
from yukon.solver import solve
from yukon.study.db import SCHEMA_VERSION, DealRow, StudyDB, StudyParams
from yukon.study.worker import DealTask, solve_deal

from .helpers import rows, run_cli, study_args, write_old_study

pytest.importorskip("pysol_cards")


def test_the_worker_deals_pysolfc_numbers() -> None:
    # (Yukon, any card into empty columns, with return: a search is needed, where rule 4 proves many
    # Russian deals lost in 0 nodes, with foundation return too)
    row = solve_deal(DealTask("yukon", "any", True, 123456, None, 200_000, 10**8, "pysolfc"))
    expected = solve(Game.deal("yukon", seed=123456, numbering="pysolfc", empty_column="any",
                               foundation_return=True), time_limit=None, node_limit=200_000, memory_limit=10**8)
    assert (row.status, row.nodes) == (expected.status, expected.nodes)
    assert row.nodes > 0
    ours = solve_deal(DealTask("yukon", "any", True, 123456, None, 200_000, 10**8))
    assert ours.nodes != row.nodes  # another deal


def test_a_pysolfc_study_is_a_study_of_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    assert run_cli(*study_args(db, "1-3", "russian", "--workers", "1")) == 0
    assert run_cli(*study_args(db, "1-3", "russian", "--workers", "1", "--numbering", "pysolfc")) == 0
    with StudyDB(db) as study:
        numberings = [p.numbering for _, p in study.studies()]
        assert numberings == ["yukon", "pysolfc"]
        assert [p.label() for _, p in study.studies()][1] == "russian, empty: kings, return: off, pysolfc numbers"
    assert len(rows(db)) == 6
    con = sqlite3.connect(db)
    assert con.execute("SELECT DISTINCT numbering FROM results ORDER BY numbering").fetchall() == [
        ("pysolfc",), ("yukon",)]
    con.close()
    assert run_cli("report", "--db", str(db), "--plots", str(tmp_path)) == 0
    assert "russian (pysolfc numbers)" in capsys.readouterr().out


@pytest.mark.parametrize("extra, words", [
    (("--seeds", "0-3"), ("PySolFC game number", "0")),
    (("--seeds", "1-3", "--variant", "milligan-yukon"), ("not available for Milligan Yukon",)),
])
def test_bad_pysolfc_studies_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          extra: tuple[str, ...], words: tuple[str, ...]) -> None:
    db = tmp_path / "s.sqlite3"
    assert run_cli("--numbering", "pysolfc", "--time-limit", "none", "--node-limit", "100", "--db", str(db),
                   *extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("yukon: error: ") and len(err.strip().splitlines()) == 1
    for word in words:
        assert word in err
    assert not db.exists()


def test_report_takes_no_numbering(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """argparse refuses it: 'report' has no such option (exit status 2, the option named)."""
    with pytest.raises(SystemExit) as info:
        run_cli("report", "--db", str(tmp_path / "s.sqlite3"), "--numbering", "pysolfc")
    assert info.value.code == 2
    assert "--numbering" in capsys.readouterr().err
    assert not (tmp_path / "s.sqlite3").exists()


def test_schema_2_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    write_old_study(path, 2, """
INSERT INTO studies VALUES (3, 'yukon', 'kings', 0, 5.0, NULL, 1000000000, '1', 0);
INSERT INTO studies VALUES (5, 'russian', 'any', 1, NULL, 100, 1000000000, '1', 0);
INSERT INTO deals VALUES (3, 7, 'won', 0.5, 100, 80, 90, '', '1', 'h', 0, 'abc');
INSERT INTO deals VALUES (5, 8, 'lost', 0.5, 100, 0, 90, '', '1', 'h', 0, 'abc');
""")
    old = StudyParams("yukon", "kings", False, 5.0, None, 1_000_000_000, "1")
    with StudyDB(path) as db:
        assert [(i, p.numbering) for i, p in db.studies()] == [(3, "yukon"), (5, "yukon")]
        assert db.study_id(old) == 3
        assert db.rows(3) == [DealRow(7, "won", 0.5, 100, 80, 90, "", "1", "h", "abc")]
        assert db.conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        sid = db.study_id(StudyParams("yukon", "kings", False, 5.0, None, 1_000_000_000, "1", "pysolfc"))
        assert sid not in (3, 5)
        assert db.add(sid, DealRow(7, "lost", 0.1, 5, 0, 3, "", "1", "h", "abc"))
        # (schema 4's tables: with no seed past 2**64 - 1 the file stays readable by the yukon of schema 4)
        assert db.conn.execute("SELECT meta.value FROM meta WHERE key = 'schema'").fetchone()[0] == "4"
        with pytest.raises(sqlite3.IntegrityError):  # the deals still reference real studies
            db.conn.execute("INSERT INTO deals (study_id, seed, status, seconds, nodes, line_length, peak_table, "
                            "reason, solver_version, host, finished) "
                            "VALUES (99, 1, 'won', 0, 0, 0, 0, '', '1', 'h', 0)")


#: PySolFC's game numbers past this program's deal numbers (they run to 10**20 - 1), around 2**64
WIDE = [2**64 - 2, 2**64 - 1, 2**64, 2**64 + 1, 10**20 - 1]


def test_pysolfc_numbers_past_2_to_the_64_run_resume_report_export_and_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`--seed` deals them one at a time; `--seeds` refused them ('too large: they run from 0 to 2**64 - 1'),
    and SQLite's integers could not hold them: they are stored as BLOBs, in order."""
    db, seeds = tmp_path / "s.sqlite3", f"{2**64 - 2}-{2**64 + 1},{10**20 - 1}"
    args = study_args(db, seeds, "russian", "--workers", "1", "--numbering", "pysolfc")
    assert run_cli(*args) == 0
    with StudyDB(db) as study:
        ((sid, _),) = study.studies()
        made = study.rows(sid)
        assert [r.seed for r in made] == WIDE
        assert study.done_seeds(sid) == set(WIDE)
        assert sum(study.counts(sid, range(2**64, 10**20)).values()) == 3
        assert sum(study.counts(sid, range(2**63, 2**64 + 1)).values()) == 3
    for row, seed in zip(made, WIDE, strict=True):  # each row is its own deal's
        expected = solve(Game.deal("russian", seed=seed, numbering="pysolfc"), time_limit=None, node_limit=1500)
        assert (row.status, row.nodes) == (expected.status, expected.nodes), seed
    capsys.readouterr()
    assert run_cli(*args) == 0  # resumes: nothing left to do
    assert "0 deals solved in this run" in capsys.readouterr().err
    assert run_cli("report", "--db", str(db), "--plots", str(tmp_path)) == 0
    assert f"{2**64 - 2}-{2**64 + 1},{10**20 - 1}" in capsys.readouterr().out
    export, copy = tmp_path / "s.csv", tmp_path / "copy.sqlite3"
    assert run_cli("export", "--db", str(db), "--output", str(export)) == 0
    assert run_cli("import", "--db", str(copy), str(export)) == 0
    with StudyDB(copy) as study:
        ((sid, _),) = study.studies()
        assert study.rows(sid) == made
    assert run_cli(*study_args(db, str(10**20), "russian", "--numbering", "pysolfc")) == 2
    assert "too large" in capsys.readouterr().err


def test_an_honest_study_plays_pysolfc_numbers_past_2_to_the_64() -> None:
    from yukon.study.players import play_deal

    row = play_deal(DealTask("russian", "kings", False, 2**64 + 5, None, None, None, "pysolfc",
                             player="honest-2s 1x100"))
    assert row.seed == 2**64 + 5 and row.status in ("won", "lost")


def _schema(path: Path) -> str:
    con = sqlite3.connect(path)
    try:
        return str(con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0])
    finally:
        con.close()


def _schema_4_yukon_opens(path: Path) -> bool:
    """What the yukon before schema 5 asked of a study file (its StudyDB._check): a schema it knows, 4 at most."""
    return int(_schema(path)) <= 4


def test_a_file_without_pysolfc_numbers_past_2_to_the_64_stays_readable_by_an_older_yukon(tmp_path: Path) -> None:
    """A researcher who opens a study with this yukon (run, report, export, import) can still open it with the
    yukon before schema 5, as long as no row needs a BLOB seed: the file says schema 4 until one does."""
    path = tmp_path / "s.sqlite3"
    assert run_cli(*study_args(path, f"1-2,{2**64 - 1}", "russian", "--workers", "1", "--numbering", "pysolfc")) == 0
    assert run_cli("report", "--db", str(path), "--output", str(tmp_path / "r.md")) == 0
    export = tmp_path / "s.csv"
    assert run_cli("export", "--db", str(path), "--output", str(export)) == 0
    copy = tmp_path / "copy.sqlite3"
    assert run_cli("import", "--db", str(copy), str(export)) == 0
    for made in (path, copy):
        assert _schema(made) == "4" and _schema_4_yukon_opens(made), made
    with StudyDB(path) as db:  # ... and this yukon reads it as its own
        ((sid, _),) = db.studies()
        assert [r.seed for r in db.rows(sid)] == [1, 2, 2**64 - 1]
        assert db.add(sid, DealRow(2**64, "lost", 0.5, 100, 0, 90, "", "1", "h", "abc"))
        assert _schema(path) == "5"  # the row's seed is a BLOB: the older yukon would misread it
    assert not _schema_4_yukon_opens(path)
    with StudyDB(path) as db:  # opening again keeps the mark the rows need
        assert [r.seed for r in db.rows(sid)] == [1, 2, 2**64 - 1, 2**64]
    assert _schema(path) == "5"
    assert run_cli("import", "--db", str(copy), str(export)) == 0
    assert _schema(copy) == "4"
    assert run_cli("export", "--db", str(path), "--output", str(tmp_path / "wide.csv")) == 0
    assert run_cli("import", "--db", str(copy), str(tmp_path / "wide.csv")) == 0
    assert _schema(copy) == "5"


def test_a_failed_import_of_a_wide_seed_leaves_the_schema_as_it_was(tmp_path: Path) -> None:
    from yukon.study.transfer import import_rows

    path = tmp_path / "s.sqlite3"
    params = StudyParams("russian", "kings", False, None, 1500, 10**9, "1", "pysolfc")
    wide = DealRow(2**64 + 3, "won", 0.5, 100, 80, 90, "", "1", "h", "abc")
    with StudyDB(path) as db:
        with pytest.raises(ValueError, match="bad status"):  # the second row fails: the import is undone
            import_rows(db, [(params, wide), (params, DealRow(5, "?", 0.5, 1, 0, 1, "", "1", "h"))])
        assert _schema(path) == "4"
        ((sid, _),) = db.studies() or [(None, None)]
        assert sid is None or db.rows(sid) == []
        assert import_rows(db, [(params, wide)]) == (1, 0, 0)  # and a later one marks it
        assert _schema(path) == "5"


def test_a_file_marked_5_by_the_yukon_that_marked_every_file_is_marked_4_again(tmp_path: Path) -> None:
    # the yukon of schema 5's first form marked every file it opened 5, wide seeds or none: an older yukon
    # then refused it ("has study schema 5; this yukon knows 4 (upgrade yukon)")
    path = tmp_path / "old.sqlite3"
    with StudyDB(path) as db:
        sid = db.study_id(StudyParams("yukon", "kings", False, 5.0, None, 10**9, "1", "pysolfc"))
        assert sid is not None
        for seed in (2**64 - 1, 3):
            assert db.add(sid, DealRow(seed, "won", 0.5, 100, 80, 90, "", "1", "h", "abc"))
        db.conn.execute("UPDATE meta SET value = '5' WHERE key = 'schema'")
    with StudyDB(path) as db:
        assert [r.seed for r in db.rows(sid)] == [3, 2**64 - 1]
    assert _schema(path) == "4" and _schema_4_yukon_opens(path)
    assert SCHEMA_VERSION == 5  # (the newest this yukon reads)
