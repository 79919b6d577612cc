"""Shared helpers of the study tests: run the CLI in-process, read a study file directly."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

from yukon.cli import main
from yukon.study.db import APPLICATION_ID

#: per-deal limit of the tests: a node limit, so that every run gives the same rows
NODES = "1500"


def run_cli(*args: str) -> int:
    return main(["study", *args])


def study_command(*args: str) -> list[str]:
    """The command line of ``yukon study ARGS`` in a process of its own, with this tree's yukon."""
    return [sys.executable, "-c", "import sys; from yukon.cli import main; sys.exit(main(sys.argv[1:]))",
            "study", *args]


def study_args(db: Path, seeds: str = "1-12", variant: str = "yukon", *extra: str) -> list[str]:
    return ["--variant", variant, "--seeds", seeds, "--time-limit", "none", "--node-limit", NODES,
            "--db", str(db), *extra]


def rows(db: Path) -> list[tuple[str, str, int, int, str, int, int]]:
    """(variant, empty_column, foundation_return, node_limit, ...) rows of the results view, by study and seed."""
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "SELECT variant, empty_column, foundation_return, node_limit, seed, status, nodes, line_length "
            "FROM results ORDER BY variant, empty_column, foundation_return, node_limit, seed").fetchall()
    finally:
        con.close()


def committed(db: Path) -> int:
    """The rows a running study has committed to ``db`` so far (read-only; 0 before the schema is there)."""
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return int(con.execute("SELECT COUNT(*) FROM deals").fetchone()[0])
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def status_by_seed(db: Path) -> dict[int, tuple[str, int, int]]:
    return {r[4]: (r[5], r[6], r[7]) for r in rows(db)}


def python_children(pid: int) -> set[int]:
    """The Python processes whose parent is ``pid`` (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found.update(int(x) for x in (task / "children").read_text().split())
    return {p for p in found if b"python" in _cmdline(p).lower()}


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper that never comes, as in some containers, has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def write_old_study(path: Path, schema: int, rows_sql: str) -> None:
    """A study file as schema 1 (rows without the code fingerprint) or 2 (studies without the numbering)
    wrote it, holding the studies and deals that ``rows_sql`` inserts."""
    code = ", code TEXT NOT NULL DEFAULT ''" if schema >= 2 else ""
    con = sqlite3.connect(path)
    con.executescript(f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE studies (id INTEGER PRIMARY KEY, variant TEXT NOT NULL, empty_column TEXT NOT NULL,
    foundation_return INTEGER NOT NULL, time_limit REAL, node_limit INTEGER, memory_limit INTEGER,
    solver_version TEXT NOT NULL, created REAL NOT NULL,
    UNIQUE (variant, empty_column, foundation_return, time_limit, node_limit, memory_limit, solver_version));
CREATE TABLE deals (study_id INTEGER NOT NULL REFERENCES studies(id), seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('won', 'lost', 'unknown')), seconds REAL NOT NULL, nodes INTEGER NOT NULL,
    line_length INTEGER NOT NULL, peak_table INTEGER NOT NULL, reason TEXT NOT NULL, solver_version TEXT NOT NULL,
    host TEXT NOT NULL, finished REAL NOT NULL{code}, PRIMARY KEY (study_id, seed));
CREATE VIEW results AS SELECT s.variant, d.seed, d.status FROM deals d JOIN studies s ON s.id = d.study_id;
INSERT INTO meta VALUES ('schema', '{schema}');
{rows_sql}
PRAGMA application_id = {APPLICATION_ID};
""")
    con.close()
