"""``yukon study export`` / ``import`` (rows as CSV, round trip), the subcommands, ``--threads``."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

import pytest

from yukon.study import DealRow, StudyDB, StudyParams
from yukon.study.transfer import COLUMNS, export_rows, import_rows, read_rows
from yukon.study.worker import DealTask, solve_deal

from .helpers import rows, run_cli, study_args

pytestmark = pytest.mark.timeout(120)

REPO = Path(__file__).resolve().parents[2]


def _filled(path: Path) -> Path:
    """A study file of two studies (one of another solver version and two threads), big seeds included."""
    with StudyDB(path) as db:
        a = db.study_id(StudyParams("yukon", "kings", False, 10.0, None, 1_500_000_000, "13", "yukon", 2))
        b = db.study_id(StudyParams("russian", "any", True, None, 5000, None, "12", "pysolfc", 1))
        assert a is not None and b is not None
        db.add(a, DealRow(1, "won", 0.125, 1118, 3, 40, "greedy probe", "13", "h1", "abc", "BgUI"))
        db.add(a, DealRow(2, "lost", 9.5, 12_000_000, 0, 464258, "", "13", "h1", "abc"))
        db.add(a, DealRow(2**64 - 1, "unknown", 10.0, 5, 0, 0, "time limit", "13", "h2", "abd"))
        db.add(b, DealRow(7, "lost", 0.001, 0, 0, 0, "stuck: KS, a comma", "12", "h3", ""))
    return path


def _everything(path: Path) -> list[tuple[StudyParams, list[DealRow]]]:
    with StudyDB(path) as db:
        return [(p, db.rows(sid)) for sid, p in db.studies()]


@pytest.mark.parametrize("name", ["rows.csv", "rows.csv.gz"])
def test_export_then_import_gives_the_same_studies_and_rows(tmp_path: Path, name: str) -> None:
    source = _filled(tmp_path / "a.sqlite3")
    out = tmp_path / name
    assert run_cli("export", "--db", str(source), "--output", str(out)) == 0
    if name.endswith(".gz"):
        assert out.read_bytes()[:2] == b"\x1f\x8b"
    target = tmp_path / "b.sqlite3"
    assert run_cli("import", str(out), "--db", str(target)) == 0
    assert _everything(target) == _everything(source)
    assert run_cli("import", str(out), "--db", str(target)) == 0  # again: nothing added, nothing changed
    assert _everything(target) == _everything(source)


def test_export_of_one_solver_version_and_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _filled(tmp_path / "a.sqlite3")
    capsys.readouterr()
    assert run_cli("export", "--db", str(source), "--solver", "12") == 0
    got = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["variant"], r["seed"], r["reason"], r["numbering"]) for r in got] == [
        ("russian", "7", "stuck: KS, a comma", "pysolfc")]


def test_the_same_rows_give_the_same_bytes(tmp_path: Path) -> None:
    source = _filled(tmp_path / "a.sqlite3")
    for name in ("x.csv.gz", "y.csv.gz"):
        assert run_cli("export", "--db", str(source), "--output", str(tmp_path / name)) == 0
    assert (tmp_path / "x.csv.gz").read_bytes() == (tmp_path / "y.csv.gz").read_bytes()


def test_the_older_layout_of_data_honest_study_is_read() -> None:
    got = read_rows(REPO / "data" / "honest-study.csv")
    assert len(got) == 2000
    params = {p for p, _ in got}
    assert {p.solver_version for p in params} == {"13", "honest-1 12x10000"}
    assert all(p.memory_limit is None and p.threads == 1 and p.numbering == "yukon" for p in params)
    first = next(r for p, r in got if p.solver_version == "13")
    assert (first.seed, first.status, first.nodes, first.line_length, first.line) == (1, "won", 1118, 94, "")


@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace("yukon,kings", "klondike,kings", 1), ["line 2", "variant"]),
    (lambda t: t.replace(",won,", ",maybe,", 1), ["line 2", "status"]),
    (lambda t: t.replace(",1118,", ",-3,", 1), ["line 2", "nodes"]),
    (lambda t: t.split("\n", 1)[1], ["not a study export"]),
])
def test_a_bad_file_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], change, words) -> None:
    source = _filled(tmp_path / "a.sqlite3")
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    with StudyDB(source) as db, open(good, "w", newline="") as f:
        export_rows(db, f)
    bad.write_text(change(good.read_text()))
    target = tmp_path / "b.sqlite3"
    assert run_cli("import", str(good), "--db", str(target)) == 0
    before = _everything(target)
    capsys.readouterr()
    assert run_cli("import", str(good), str(bad), "--db", str(target)) == 2  # the good file is not added either
    err = capsys.readouterr().err.strip()
    assert err.startswith("yukon: error:") and "\n" not in err and str(bad) in err
    for w in words:
        assert w in err
    assert _everything(target) == before


def test_an_import_of_a_bad_file_creates_no_study_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "new.sqlite3"
    (tmp_path / "bad.csv").write_text("not,a,study\n")
    for bad in (tmp_path / "missing.csv", tmp_path / "bad.csv"):
        capsys.readouterr()
        assert run_cli("import", str(bad), "--db", str(target)) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("yukon: error:") and "\n" not in err and str(bad) in err
        assert not target.exists()  # (it was created, empty, before the file was read)


def test_an_import_of_a_study_database_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``yukon study import studies.sqlite3`` (a study file where its CSV export belongs) said only "'utf-8'
    codec can't decode byte 0xf8 in position 102"; any other binary file says it is not text."""
    source = _filled(tmp_path / "a.sqlite3")
    target = tmp_path / "b.sqlite3"
    (tmp_path / "noise.csv").write_bytes(bytes(range(256)))
    for bad, words in ((source, ["SQLite database", "yukon study export --db", str(source)]),
                       (tmp_path / "noise.csv", ["not UTF-8 text", "not a study export"])):
        capsys.readouterr()
        assert run_cli("import", str(bad), "--db", str(target)) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("yukon: error:") and "\n" not in err and "codec" not in err, err
        assert all(w in err for w in words), err
        assert not target.exists()


def test_an_export_is_read_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    """A gzip-compressed export named .csv, or a plain one named .csv.gz, is read all the same."""
    source = _filled(tmp_path / "a.sqlite3")
    with StudyDB(source) as db:
        text = io.StringIO()
        export_rows(db, text, None)
    (tmp_path / "plain.csv.gz").write_text(text.getvalue(), encoding="utf-8")
    (tmp_path / "packed.csv").write_bytes(gzip.compress(text.getvalue().encode()))
    assert read_rows(tmp_path / "plain.csv.gz") == read_rows(tmp_path / "packed.csv") != []


@pytest.mark.parametrize("action", [["report"], ["export"]])
@pytest.mark.parametrize("versions", ["abc", "13,,12", "14"])
def test_solver_versions_the_file_has_not_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      action: list[str], versions: str) -> None:
    """A typo in --solver gave an empty report or export with exit status 0."""
    source = _filled(tmp_path / "a.sqlite3")
    capsys.readouterr()
    assert run_cli(*action, "--db", str(source), "--solver", versions, "--output", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("yukon: error:") and "\n" not in err, err
    assert "no study of solver version" in err and "(its versions: '12', '13')" in err, err
    assert not (tmp_path / "out").exists()
    assert run_cli(*action, "--db", str(source), "--solver", " 13, 12", "--output", str(tmp_path / "out")) == 0


def test_import_keeps_the_rows_a_study_has(tmp_path: Path) -> None:
    params = StudyParams("yukon", "kings", False, 10.0, None, 10**9, "13")
    with StudyDB(tmp_path / "a.sqlite3") as db:
        sid = db.study_id(params)
        assert sid is not None
        db.add(sid, DealRow(5, "unknown", 10.0, 9, 0, 0, "time limit", "13", "h"))
        added = import_rows(db, [(params, DealRow(5, "won", 1.0, 9, 3, 0, "", "13", "h")),
                                 (params, DealRow(6, "lost", 1.0, 9, 0, 0, "", "13", "h"))])
        assert added == (1, 0, 1)
        assert [(r.seed, r.status) for r in db.rows(sid)] == [(5, "unknown"), (6, "lost")]


def test_export_columns_are_the_documented_ones() -> None:
    text = (REPO / "docs" / "winnability.md").read_text()
    assert ",".join(COLUMNS) in text


# ------------------------------------------------------------------------------------------- subcommands

@pytest.mark.parametrize("args, option", [
    (["report", "--seeds", "1-3"], "--seeds"),
    (["export", "--threads", "2"], "--threads"),
    (["import", "x.csv", "--variant", "yukon"], "--variant"),
    (["run", "--verdicts"], "--verdicts"),
    (["--seeds", "1-3", "report"], "--seeds"),  # a run option before another action's name
    (["--variant", "russian", "report"], "--variant"),  # (these three were ignored: a report of every variant)
    (["--no-foundation-return", "export"], "--foundation-return"),
    (["-t", "5", "report"], "--time-limit"),
])
def test_an_action_refuses_the_options_it_does_not_take(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       args: list[str], option: str) -> None:
    db = tmp_path / "s.sqlite3"
    try:
        code = run_cli(*args, "--db", str(db))  # refused by the action itself (a run option before its name)
    except SystemExit as exc:  # refused by argparse
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert option in err and err.startswith("yukon: error:")
    assert not db.exists()


def test_run_without_an_action_is_run(tmp_path: Path) -> None:
    old, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    assert run_cli(*study_args(old, "1-3", "russian", "--workers", "1")) == 0
    assert run_cli("run", *study_args(new, "1-3", "russian", "--workers", "1")) == 0
    assert rows(old) == rows(new) and len(rows(new)) == 3


def test_threads_are_part_of_the_study(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    base = ["run", "--variant", "russian", "--seeds", "1-2", "--time-limit", "5", "--db", str(db)]
    assert run_cli(*base, "--workers", "1", "--threads", "2") == 0
    assert run_cli(*base, "--workers", "2") == 0  # several workers: one thread each by default
    assert run_cli(*base, "--workers", "1", "--threads", "1") == 0  # resumes the second study
    assert run_cli(*study_args(db, "1-2", "russian", "--workers", "1", "--threads", "2")) == 0  # node limit
    with StudyDB(db) as study:
        got = [(p.time_limit, p.node_limit, p.threads) for _, p in study.studies()]
    assert got == [(5.0, None, 2), (5.0, None, 1), (None, 1500, 1)]
    capsys.readouterr()
    assert run_cli(*base, "--threads", "3") == 2
    assert "--threads" in capsys.readouterr().err


def test_the_worker_runs_the_tasks_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import yukon.solver
    from yukon.solver import SolveResult, search

    seen: list[int] = []

    def spy(game: object, **limits: object) -> SolveResult:
        seen.append(search.Searcher.compiled_threads)  # what the search would run with
        return SolveResult("unknown", reason="time limit")

    monkeypatch.setattr(yukon.solver, "solve", spy)
    monkeypatch.setattr(search.Searcher, "compiled_threads", search.Searcher.compiled_threads)
    for threads in (2, 1, 2):
        assert solve_deal(DealTask("yukon", "kings", False, 2, 5.0, None, 10**8, threads=threads)).status == "unknown"
    assert seen == [2, 1, 2]


def test_a_won_row_keeps_its_line_and_it_wins() -> None:
    from yukon import Game
    from yukon.line_code import decode

    row = solve_deal(DealTask("yukon", "kings", False, 1, 5.0, None, 10**8))
    assert row.status == "won" and row.line
    game = Game.deal("yukon", seed=1)
    moves = decode(game, row.line)
    assert len(moves) == row.line_length
    for m in moves:
        game.push(m)
    assert game.is_won()


def test_gzip_import_of_a_truncated_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _filled(tmp_path / "a.sqlite3")
    out = tmp_path / "rows.csv.gz"
    assert run_cli("export", "--db", str(source), "--output", str(out)) == 0
    data = gzip.decompress(out.read_bytes())
    out.write_bytes(gzip.compress(data)[:-12])
    capsys.readouterr()
    assert run_cli("import", str(out), "--db", str(tmp_path / "b.sqlite3")) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(out) in err
