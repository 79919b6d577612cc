"""``yukon study`` end to end: bad input, resume after a kill, mixing, the report."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from yukon.solver import SOLVER_VERSION
from yukon.study import StudyDB, StudyError, StudyParams, run_study

from .helpers import NODES, alive, committed, python_children, rows, run_cli, status_by_seed, study_args, study_command

pytestmark = pytest.mark.timeout(120)


def _one_line_error(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    err = capsys.readouterr().err.strip()
    assert err.startswith("yukon: error:") and "\n" not in err, err
    for w in words:
        assert w in err, err


@pytest.fixture(scope="module")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("template") / "s.sqlite3"
    assert run_cli(*study_args(db, "1-4", "yukon", "--workers", "1")) == 0
    return db


@pytest.fixture
def existing(_template: Path, tmp_path: Path) -> Path:
    """A study file with the results of seeds 1-4 (a copy of one real run)."""
    db = tmp_path / "s.sqlite3"
    shutil.copyfile(_template, db)
    assert len(rows(db)) == 4
    return db


@pytest.mark.parametrize("args, words", [
    (["--variant", "klondike", "--seeds", "1-3"], ["unknown variant", "klondike"]),
    (["--seeds", ""], ["empty seed range"]),
    (["--seeds", "9-3"], ["reversed seed range"]),
    (["--seeds", "1-x"], ["bad seed range"]),
    ([], ["--seeds"]),
    (["--seeds", "1-3", "--time-limit", "-2"], ["--time-limit"]),
    (["--seeds", "1-3", "--time-limit", "none"], ["--node-limit"]),
    (["--seeds", "1-3", "--workers", "0"], ["--workers"]),
])
def test_bad_input_one_line_and_results_intact(
    existing: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: list[str]
) -> None:
    before = rows(existing)
    capsys.readouterr()
    assert run_cli(*args, "--db", str(existing)) == 2
    _one_line_error(capsys, *words)
    assert rows(existing) == before


@pytest.mark.parametrize("address, words", [
    ("", ["--scheduler is empty"]),  # ('--scheduler "$SCHED"' with SCHED unset ran the study on this machine)
    ("  ", ["--scheduler is empty"]),
    ("localhost:abc", ["bad --scheduler address 'localhost:abc'"]),  # (it said "cannot reach ... within 10 s")
    ("foo://h:1", ["bad --scheduler address 'foo://h:1'", "unknown address scheme"]),
])
def test_a_scheduler_address_that_is_no_address(existing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                address: str, words: list[str]) -> None:
    before = rows(existing)
    capsys.readouterr()
    for db in (existing, tmp_path / "new.sqlite3"):
        assert run_cli(*study_args(db, "1-3", "russian"), "--scheduler", address, "--connect-timeout", "5") == 2
        _one_line_error(capsys, *words)
    assert rows(existing) == before and not (tmp_path / "new.sqlite3").exists()


def test_silent_scheduler(existing: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A port that accepts connections but never speaks: a one-line error after the connect timeout."""
    before = rows(existing)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        capsys.readouterr()
        start = time.monotonic()
        code = run_cli(*study_args(existing, "1-8"), "--scheduler", address, "--connect-timeout", "1")
        assert time.monotonic() - start < 20
    assert code == 2
    _one_line_error(capsys, "cannot reach the Dask scheduler", address)
    assert rows(existing) == before


@pytest.mark.parametrize("failure", [StudyError("cannot reach the Dask scheduler at tcp://x:1"), KeyboardInterrupt()])
def test_a_scheduler_out_of_reach_leaves_no_new_file(existing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     failure: BaseException) -> None:
    """It left a new, empty study file behind (the file was made before the scheduler was asked); an
    existing one keeps no new study either."""
    import yukon.study.cli as study_cli

    def unreachable(address: str, timeout: float) -> None:
        raise failure

    monkeypatch.setattr(study_cli, "connect", unreachable)
    new = tmp_path / "new.sqlite3"
    before = rows(existing)
    studies = sqlite3.connect(existing).execute("SELECT count(*) FROM studies").fetchone()
    for db, seeds in ((new, "1-3"), (existing, "1-8")):
        code = run_cli(*study_args(db, seeds), "--scheduler", "tcp://x:1", "--connect-timeout", "1")
        assert code == (130 if isinstance(failure, KeyboardInterrupt) else 2)
        if isinstance(failure, StudyError):
            _one_line_error(capsys, "cannot reach the Dask scheduler")
    assert not new.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite3"]
    assert rows(existing) == before
    assert sqlite3.connect(existing).execute("SELECT count(*) FROM studies").fetchone() == studies


def test_no_command_makes_the_folders_above_its_file(existing: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """'run --db' and 'export --output' refused a missing folder, but 'report --output' made it (with the plots
    in it): one rule now, the file or folder named is made, never the folders above it (a typo, or a disk not
    mounted, would otherwise take hours of results where nobody looks); one line, nothing written."""
    missing = tmp_path / "no" / "such"
    csv = tmp_path / "rows.csv"
    assert run_cli("export", "--db", str(existing), "--output", str(csv)) == 0
    capsys.readouterr()
    for args, option in (
        (study_args(missing / "s.sqlite3", "1-3"), "--db"),
        (["import", str(csv), "--db", str(missing / "s.sqlite3")], "--db"),
        (["report", "--db", str(existing), "--output", str(missing / "r.md")], "--output"),
        (["report", "--db", str(existing), "--output", str(tmp_path / "r.md"), "--plots", str(missing)], "--plots"),
        (["export", "--db", str(existing), "--output", str(missing / "r.csv")], "--output"),
    ):
        assert run_cli(*args) == 2, args
        _one_line_error(capsys, "cannot create", option, f"folder {missing.parent if option == '--plots' else missing}"
                        " does not exist")
        assert not (tmp_path / "no").exists() and not (tmp_path / "r.md").exists(), args
    assert run_cli("report", "--db", str(existing), "--output", str(tmp_path / "r.md"),
                   "--plots", str(tmp_path / "plots")) == 0  # the folder named is made
    assert (tmp_path / "plots" / "winnability-rate.png").exists() and (tmp_path / "r.md").exists()


def test_report_plots_into_a_file_is_refused_first(existing: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """'--plots report.md' (a file for the plots' folder) said "File exists '...'" after writing the report."""
    taken = tmp_path / "notes.md"
    taken.write_text("mine\n")
    capsys.readouterr()
    assert run_cli("report", "--db", str(existing), "--output", str(tmp_path / "r.md"), "--plots", str(taken)) == 2
    _one_line_error(capsys, str(taken), "is a file", "--plots")
    assert taken.read_text() == "mine\n" and not (tmp_path / "r.md").exists()


@pytest.mark.parametrize("output", ["r.md", "-", None])
def test_report_without_plots_writes_no_png(existing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], output: str | None) -> None:
    """Without --plots it wrote winnability-rate.png and winnability-time.png into the current folder (or the
    --output one) unasked; now the plots are made only with --plots, and the Markdown links no image."""
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    args = ["report", "--db", str(existing)] + (["--output", output] if output else [])
    assert run_cli(*args) == 0
    captured = capsys.readouterr()
    text = (tmp_path / output).read_text() if output == "r.md" else captured.out
    assert "| yukon" in text and "![" not in text and ".png" not in text
    assert sorted(p.name for p in tmp_path.iterdir() if p != existing) == (["r.md"] if output == "r.md" else [])
    assert ".png" not in captured.err


def test_report_to_stdout_with_a_dash_as_export_does(existing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """'report --output -' wrote a file named '-' ('export --output -' is stdout)."""
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert run_cli("report", "--db", str(existing), "--output", "-", "--plots", str(tmp_path / "plots")) == 0
    assert "| yukon" in capsys.readouterr().out and not (tmp_path / "-").exists()


@pytest.mark.parametrize("action", ["report", "export"])
def test_an_option_before_the_action_name_counts(existing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str], action: str) -> None:
    """'yukon study --db FILE report' read the default study file: the action's own default overwrote it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nowhere"))  # (the default file does not exist)
    capsys.readouterr()
    assert run_cli("--db", str(existing), action) == 0
    out = capsys.readouterr().out
    assert ("| yukon" in out) if action == "report" else (len(out.splitlines()) == 1 + 4)


def test_a_run_option_before_run_counts(existing: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("--db", str(existing), "--seeds", "1-5", "run", "--time-limit", "none", "--node-limit", NODES,
                   "--workers", "1") == 0
    assert sorted(status_by_seed(existing)) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("kind", ["garbage", "foreign"])
def test_unusable_file_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    path = tmp_path / "x.sqlite3"
    if kind == "garbage":
        path.write_bytes(os.urandom(8192))
    else:
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE games (id TEXT)")
        con.commit()
        con.close()
    before = path.read_bytes()
    for args in (study_args(path, "1-3"), ["report", "--db", str(path)]):
        assert run_cli(*args) == 2
        _one_line_error(capsys, str(path))
        assert path.read_bytes() == before


def test_report_of_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("report", "--db", str(tmp_path / "none.sqlite3")) == 2
    _one_line_error(capsys, "no study database")
    assert not (tmp_path / "none.sqlite3").exists()


def test_studies_never_mix(existing: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Other options, limits or aliases of the same rules: each set of parameters is its own study."""
    assert run_cli(*study_args(existing, "1-6", "yukon", "--workers", "1")) == 0  # resumes: 2 more
    assert "2 deals solved in this run" in capsys.readouterr().err
    assert run_cli(*study_args(existing, "1-3", "classic", "--empty-column", "any", "--workers", "1")) == 0
    assert run_cli(*study_args(existing, "1-3", "yukon", "--workers", "1")[:-2], "--node-limit", "700") == 0
    got = rows(existing)
    keys = {(r[0], r[1], r[3]) for r in got}
    assert keys == {("yukon", "kings", int(NODES)), ("yukon", "any", int(NODES)), ("yukon", "kings", 700)}
    assert sorted(r[4] for r in got if r[1] == "kings" and r[3] == int(NODES)) == [1, 2, 3, 4, 5, 6]


def test_rows_of_another_solver_version_are_refused(tmp_path: Path) -> None:
    """The worker reports the solver version it ran; a study of another version takes none of its rows."""
    params = StudyParams("yukon", "kings", False, None, 500, 10**9, SOLVER_VERSION + "-other")
    with StudyDB(tmp_path / "s.sqlite3") as db:
        with pytest.raises(StudyError, match="not mixing"):
            run_study(db, params, [1, 2], workers=1)
        sid = db.study_id(params, create=False)
        assert sid is not None and db.rows(sid) == []


@pytest.mark.slow  # a study killed and resumed
def test_kill_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Kill a run (SIGKILL, whole process group) after some rows are committed; the rerun completes the study
    with every seed exactly once, keeps the committed rows and computes only the missing ones."""
    db = tmp_path / "s.sqlite3"
    seeds, n = "1-400", 400
    cmd = study_command(*study_args(db, seeds, "yukon", "--workers", "1"))
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    try:
        while True:
            assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()!r}"
            if committed(db) >= 5:
                break
            assert time.monotonic() < deadline, "no rows committed within 60 s"
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    before = rows(db)
    assert 5 <= len(before) < n, len(before)
    capsys.readouterr()
    assert run_cli(*study_args(db, seeds, "yukon", "--workers", "2")) == 0
    err = capsys.readouterr().err
    assert f"{n - len(before)} deals solved in this run" in err and f"{len(before)} were already done" in err
    after = rows(db)
    assert sorted(r[4] for r in after) == list(range(1, n + 1))  # none missing, none twice
    assert set(before) <= set(after)
    # and the same rows as one uninterrupted run
    fresh = tmp_path / "fresh.sqlite3"
    assert run_cli(*study_args(fresh, seeds, "yukon", "--workers", "2")) == 0
    assert status_by_seed(fresh) == status_by_seed(db)


def test_report(existing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(*study_args(existing, "1-5", "alaska", "--workers", "1")) == 0
    out = tmp_path / "out" / "report.md"
    out.parent.mkdir()
    capsys.readouterr()
    assert run_cli("report", "--db", str(existing), "--output", str(out), "--plots", str(out.parent)) == 0
    text = out.read_text()
    table = [line for line in text.splitlines() if line.startswith("| yukon") or line.startswith("| alaska")]
    assert len(table) == 2
    for line, variant, n in ((table[0], "yukon", 4), (table[1], "alaska", 5)):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == variant and cells[6] == str(n)
        assert sum(int(c) for c in cells[7:10]) == n
    by_status = {s: sum(1 for r in rows(existing) if r[0] == "yukon" and r[5] == s) for s in ("won", "lost")}
    cells = [c.strip() for c in table[0].strip("|").split("|")]
    assert (int(cells[7]), int(cells[8])) == (by_status["won"], by_status["lost"])
    capsys.readouterr()
    assert run_cli("report", "--db", str(existing), "--output", str(out), "--solver", "no-such-version") == 2
    _one_line_error(capsys, "no study of solver version 'no-such-version'")  # (it was an empty report, exit 0)
    for png in ("winnability-rate.png", "winnability-time.png"):
        data = (out.parent / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
        assert f"]({png})" in text


def test_seeds_of_2_to_the_63_and_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine deals every number to 2**64 - 1: a study solves and records them (no traceback), and
    refuses the next one in one line."""
    db = tmp_path / "big.sqlite3"
    seeds = f"{2**63 - 1}-{2**63},{2**64 - 1}"
    assert run_cli(*study_args(db, seeds, "yukon", "--workers", "1")) == 0
    with StudyDB(db) as study:
        ((sid, _),) = study.studies()
        assert [r.seed for r in study.rows(sid)] == [2**63 - 1, 2**63, 2**64 - 1]
    capsys.readouterr()
    assert run_cli(*study_args(db, seeds, "yukon", "--workers", "1")) == 0  # resumes: nothing left to do
    assert "0 deals solved in this run" in capsys.readouterr().err
    assert run_cli(*study_args(db, str(2**64), "yukon")) == 2
    _one_line_error(capsys, "too large", str(2**64 - 1))


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_killed_study_leaves_no_worker(tmp_path: Path) -> None:
    """SIGKILL to the study process alone (not its group): its pool workers end within seconds."""
    db = tmp_path / "s.sqlite3"
    cmd = study_command("run", "--variant", "yukon", "--seeds", "1-500", "--time-limit", "60", "--workers", "2",
                        "--db", str(db))
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2:
            assert proc.poll() is None, "the study ended before its workers started"
            assert time.monotonic() < deadline, "no two workers within 60 s"
            workers = python_children(proc.pid)
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 10
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = sorted(p for p in workers if alive(p))
        assert not left, f"workers {left} still run after their study was killed"
    finally:
        for p in workers:  # never leave them behind, even when the test fails
            if alive(p):
                os.kill(p, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_game_store_and_a_study_file_name_each_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--db`` names both files: a study run on the game store said "an SQLite file of another program
    (application_id 0x59554b4e)", and ``yukon tui`` on a study file "belongs to another program"."""
    from yukon.cli import main
    from yukon.store import Store

    games, study = tmp_path / "yukon.sqlite3", tmp_path / "studies.sqlite3"
    Store(games).close()
    assert run_cli(*study_args(study, "1-1", "russian", "--workers", "1")) == 0
    before = games.read_bytes(), study.read_bytes()
    capsys.readouterr()
    for action in (["report"], ["export"], study_args(games, "1-2", "russian", "--workers", "1")):
        assert run_cli(*action, "--db", str(games)) == 2
        _one_line_error(capsys, str(games), "yukon's game store", "not a study database")
    assert main(["tui", "--db", str(study), "--seed", "1"]) == 2
    _one_line_error(capsys, str(study), "a yukon study database", "not a game store")
    assert (games.read_bytes(), study.read_bytes()) == before


@pytest.mark.parametrize("option", ["--plots", "--output", "--db"])
def test_report_empty_path_is_refused(existing: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str], option: str) -> None:
    """'--plots ""' (an unset shell variable) wrote the plots into the current folder without a word."""
    monkeypatch.chdir(tmp_path)
    given = {"--db": str(existing), "--output": str(tmp_path / "r.md"), "--plots": str(tmp_path / "plots")}
    given[option] = ""
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        run_cli("report", *[part for pair in given.items() for part in pair])
    assert stop.value.code == 2
    _one_line_error(capsys, f"argument {option}", "empty path")
    assert not list(tmp_path.glob("*.png")) and not (tmp_path / "r.md").exists()


@pytest.mark.parametrize("seeds, said", [("4-5", "1 deal solved in this run ("),
                                         ("4-5", "on 1 local worker), 1 was already done;"),
                                         ("3-6", "2 deals solved in this run ("),
                                         ("3-6", "on 1 local worker), 2 were already done;")])
def test_run_summary_counts_one_in_the_singular(existing: Path, capsys: pytest.CaptureFixture[str],
                                                seeds: str, said: str) -> None:
    """The summary said "1 were already done" (and "1 deals solved", "1 local workers")."""
    capsys.readouterr()
    assert run_cli(*study_args(existing, seeds, "yukon", "--workers", "1")) == 0
    assert said in " ".join(capsys.readouterr().err.split())
