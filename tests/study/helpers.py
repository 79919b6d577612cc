"""Shared helpers of the study tests: run the CLI in-process, read a study file directly."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

from yukon.cli import main

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
