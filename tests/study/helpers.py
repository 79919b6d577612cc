"""Shared helpers of the study tests: run the CLI in-process, read a study file directly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from yukon.cli import main

#: per-deal limit of the tests: a node limit, so that every run gives the same rows
NODES = "1500"


def run_cli(*args: str) -> int:
    return main(["study", *args])


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


def status_by_seed(db: Path) -> dict[int, tuple[str, int, int]]:
    return {r[4]: (r[5], r[6], r[7]) for r in rows(db)}
