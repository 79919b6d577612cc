"""The report's clean table (newest solver only, studies merged deal by deal) and its History section."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from yukon.cli_common import CommandError
from yukon.study import DealRow, StudyDB, StudyParams
from yukon.study.current import current, version_key
from yukon.study.report import write_report
from yukon.study.verdicts_build import write_verdicts


def _params(variant: str, version: str, time_limit: float = 10.0, threads: int = 1) -> StudyParams:
    return StudyParams(variant, "kings", False, time_limit, None, 10**9, version, "yukon", threads)


def _add(db: StudyDB, params: StudyParams, *rows: tuple[int, str]) -> None:
    sid = db.study_id(params)
    assert sid is not None
    for seed, status in rows:
        db.add(sid, DealRow(seed, status, 0.5, 1000 + seed, 90 if status == "won" else 0, 0, "", params.solver_version,
                            "h", "", "AAAA" if status == "won" else ""))


def _cells(text: str, start: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines() if line.startswith(start)]


@pytest.fixture
def db() -> StudyDB:
    db = StudyDB(":memory:")
    _add(db, _params("yukon", "12"), (1, "won"), (2, "lost"), (3, "won"))
    _add(db, _params("yukon", "13"), (1, "won"), (2, "unknown"), (3, "won"))
    _add(db, _params("yukon", "13", 30.0, 2), (2, "lost"), (4, "unknown"))  # a second run, larger limit
    _add(db, _params("alaska", "12"), (1, "lost"))
    return db


def test_one_row_per_rules_by_the_newest_solver_and_the_rest_in_history(db: StudyDB, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert write_report(db, None, tmp_path) == 0
    text = capsys.readouterr().out
    main, history = text.split("## History")
    yukon_rows, alaska_rows = _cells(main, "| yukon"), _cells(main, "| alaska")
    assert len(yukon_rows) == 1 and len(alaska_rows) == 1
    y = yukon_rows[0]
    assert y[3] == "10 s; 30 s, 2 threads" and y[4] == "13" and y[5] == "1-4"
    assert y[6:10] == ["4", "2", "1", "1"]  # deal 2: lost by the 30 s run beats unknown at 10 s
    assert alaska_rows[0][4] == "12" and alaska_rows[0][6:10] == ["1", "0", "1", "0"]
    old = _cells(history, "| yukon")
    assert len(old) == 1 and old[0][4] == "12" and old[0][6:10] == ["3", "2", "1", "0"]
    assert not _cells(history, "| alaska")  # alaska's only version is current


def test_a_contradiction_is_marked_and_stops_the_verdicts(db: StudyDB, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    _add(db, _params("yukon", "13", 60.0), (1, "lost"))
    assert write_report(db, None, tmp_path) == 0
    text = capsys.readouterr().out
    assert "| yukon ‡ |" in text and "yukon seeds 1" in text
    with pytest.raises(CommandError, match="decide seeds 1 differently"):
        write_verdicts(db, io.StringIO())


def test_the_solver_filter_picks_the_versions_first(db: StudyDB, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert write_report(db, None, tmp_path, solver="12") == 0
    text = capsys.readouterr().out
    assert "## History" not in text
    assert [r[4] for r in _cells(text, "| yukon")] == ["12"]


def test_verdicts_of_the_newest_version_only() -> None:
    db = StudyDB(":memory:")
    _add(db, _params("yukon", "9"), (1, "won"), (5, "won"))
    _add(db, _params("yukon", "10"), (1, "unknown"))
    out = io.StringIO()
    write_verdicts(db, out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[1].split(",")[4:7] == ["1", "unknown", "10"]
    verdicts, history = current(db)
    assert [c.solver_version for c in verdicts] == ["10"] and [p.solver_version for p, _ in history] == ["9"]
    assert version_key("10") > version_key("9")


def test_a_file_of_honest_games_only_is_not_drawn_as_a_solver_study(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The plots say "solver, perfect information": with no solver study they were drawn from the honest
    games, labelled 'solver honest-1 ...'. Now there are no plots, and the text says why."""
    db = StudyDB(":memory:")
    honest = StudyParams("yukon", "kings", False, None, None, None, "honest-1 2x500", "yukon", 1)
    _add(db, honest, (1, "won"), (2, "lost"))
    out = tmp_path / "report.md"
    assert write_report(db, out, tmp_path / "plots") == 0
    text = out.read_text()
    assert text.startswith("No solver study in this file") and "honest-1 2x500" in text and "![" not in text
    assert not (tmp_path / "plots").exists()
    assert capsys.readouterr().err.strip() == f"wrote {out}"
    _add(db, _params("yukon", "15"), (1, "won"))
    assert write_report(db, out, tmp_path / "plots") == 0
    assert "![win rate" in out.read_text() and (tmp_path / "plots" / "winnability-rate.png").exists()


def test_the_verdicts_keep_the_honest_game_at_the_study_budget() -> None:
    """A deal played by one honest player at two budgets: the verdicts' honest column is the game at the
    study's budget (12 x 10,000), though the other label sorts after it; a deal only another budget played
    still gets that game."""
    db = StudyDB(":memory:")
    _add(db, _params("yukon", "15"), (1, "won"), (2, "won"))
    for label, rows in (("honest-1 12x10000", [(1, "lost")]), ("honest-1 24x20000", [(1, "won"), (2, "won")])):
        _add(db, StudyParams("yukon", "kings", False, None, None, 10**9, label, "yukon", 1), *rows)
    out = io.StringIO()
    write_verdicts(db, out)
    honest = {row["seed"]: row["honest"] for row in csv.DictReader(io.StringIO(out.getvalue()))}
    assert honest == {"1": "lost", "2": "won"}
