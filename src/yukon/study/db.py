"""The study database: one SQLite file, one row per solved deal.

A *study* is one set of parameters (variant, rule options, limits, solver
version); its rows never mix with another study's. Every finished deal is
committed at once (WAL, ``synchronous=FULL``), so killing a run loses nothing
that was reported, and running the same study again computes only the seeds
that have no row yet.

Deal numbers run to 2**64 - 1, SQLite integers to 2**63 - 1: a seed from 2**63 up is stored as
``seed - 2**64`` (:mod:`yukon.sqlite_ints`), and PySolFC's game numbers from 2**64 up (they run to
10**20 - 1) as 16-byte BLOBs; the methods here read and write true seeds, and list rows in the order of
the true seeds.

A file says the oldest schema that reads it: 4 while it holds no BLOB seed (the tables are schema 4's,
so the yukon before schema 5 reads it, rows and all), 5 from the first BLOB seed on (that yukon, which
would misread one, asks for an upgrade). So opening a study, or adding this program's deal numbers to it,
never locks an older yukon out of it.

The file is checked before anything is written to it: a file that is not
SQLite, or an SQLite file of another program (another ``application_id``, or
tables that are not ours), raises :class:`StudyDBError` and stays untouched.

>>> db = StudyDB(":memory:")
>>> p = StudyParams("yukon", "kings", False, time_limit=2.0, node_limit=None, memory_limit=10**9,
...                 solver_version="1")
>>> sid = db.study_id(p)
>>> db.add(sid, DealRow(7, "won", 0.5, 1234, 80, 99, "", "1", "host"))
True
>>> db.add(sid, DealRow(7, "lost", 0.5, 1234, 0, 99, "", "1", "host"))  # a seed has one row only
False
>>> sorted(db.done_seeds(sid))
[7]
>>> db.counts(sid)
{'won': 1, 'lost': 0, 'unknown': 0}
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..deal import MAX_SEED
from ..sqlite_ints import WIDEST, to_sql, wide_from_sql, wide_to_sql
from ..sqlite_schema import KINDS, STUDY_ID

_HALF = 1 << 63

#: ``PRAGMA application_id`` of a study file: "YUKS" (the game store uses "YUKN").
APPLICATION_ID = STUDY_ID
#: The newest study schema this yukon reads. Schema 5 has schema 4's tables and a seed past 2**64 - 1 in
#: some row (a BLOB), which the yukon of schema 4 would misread: a file is marked 5 only once it holds one.
SCHEMA_VERSION = 5
#: The schema of a file without a BLOB seed (what :data:`SCHEMA_VERSION` 4 wrote, and reads).
NARROW_SCHEMA = 4
STATUSES = ("won", "lost", "unknown")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS studies (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    empty_column TEXT NOT NULL,
    foundation_return INTEGER NOT NULL,
    time_limit REAL,
    node_limit INTEGER,
    memory_limit INTEGER,
    solver_version TEXT NOT NULL,
    created REAL NOT NULL,
    numbering TEXT NOT NULL DEFAULT 'yukon',
    threads INTEGER NOT NULL DEFAULT 1,
    UNIQUE (variant, empty_column, foundation_return, time_limit, node_limit, memory_limit, solver_version,
            numbering, threads)
);
CREATE TABLE IF NOT EXISTS deals (
    study_id INTEGER NOT NULL REFERENCES studies(id),
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('won', 'lost', 'unknown')),
    seconds REAL NOT NULL,
    nodes INTEGER NOT NULL,
    line_length INTEGER NOT NULL,
    peak_table INTEGER NOT NULL,
    reason TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    host TEXT NOT NULL,
    finished REAL NOT NULL,
    code TEXT NOT NULL DEFAULT '',
    line TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (study_id, seed)
);
CREATE VIEW IF NOT EXISTS results AS
    SELECT s.variant, s.empty_column, s.foundation_return, s.time_limit, s.node_limit, s.memory_limit,
           s.numbering, s.threads, d.seed, d.status, d.seconds, d.nodes, d.line_length, d.peak_table, d.reason,
           d.solver_version, d.host, d.finished, d.code, d.line
    FROM deals d JOIN studies s ON s.id = d.study_id;
"""
_OUR_OBJECTS = {"meta", "studies", "deals", "results"}
#: The schema a file's rows need (:data:`SCHEMA_VERSION`, :data:`NARROW_SCHEMA`), as SQL. A BLOB sorts
#: after every number, so ``seed >= X''`` finds one through the key's index, study by study (CROSS JOIN
#: keeps the studies the outer loop: a file of a million rows opens without reading them).
_SCHEMA_NEEDED = (f"CASE WHEN EXISTS (SELECT 1 FROM studies s CROSS JOIN deals d "
                  f"WHERE d.study_id = s.id AND d.seed >= X'') THEN '{SCHEMA_VERSION}' ELSE '{NARROW_SCHEMA}' END")


class StudyDBError(Exception):
    """The file cannot be used as a study database (it is left as it was)."""


#: The study file's name in the user's data directory (see :func:`yukon.store.default_path`).
DEFAULT_NAME = "studies.sqlite3"


def default_path(*, create: bool = True) -> Path:
    """``studies.sqlite3`` in the user's data directory (the folder is created if ``create``)."""
    from ..store import default_path as data_file

    return data_file(DEFAULT_NAME, create=create)


@dataclass(frozen=True)
class StudyParams:
    """Everything that makes two runs the same study. ``memory_limit`` in bytes."""

    variant: str
    empty_column: str
    foundation_return: bool
    time_limit: float | None
    node_limit: int | None
    memory_limit: int | None
    solver_version: str
    #: whose deal numbers the seeds are: ``yukon`` (this program's) or ``pysolfc`` (yukon.pysolfc)
    numbering: str = "yukon"
    #: the compiled search's threads per deal (1 under a node limit, where the search runs one thread)
    threads: int = 1

    def options(self) -> dict[str, Any]:
        """The rule options, as ``Game.deal`` takes them."""
        return {"empty_column": self.empty_column, "foundation_return": self.foundation_return}

    def label(self) -> str:
        """``'yukon, empty: kings, return: off'``: the rule part, for tables and plots."""
        ret = "on" if self.foundation_return else "off"
        numbers = "" if self.numbering == "yukon" else f", {self.numbering} numbers"
        return f"{self.variant}, empty: {self.empty_column}, return: {ret}{numbers}"

    def limits(self) -> str:
        """The limits per deal as the report writes them: ``'30 s / 150,000 nodes'``, ``'none'``."""
        parts = []
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s")
        if self.node_limit is not None:
            parts.append(f"{self.node_limit:,} nodes")
        text = " / ".join(parts) or "none"
        return text if self.threads == 1 else f"{text}, {self.threads} threads"


@dataclass(frozen=True)
class DealRow:
    """One solved deal, as a worker reports it."""

    seed: int
    status: str
    seconds: float
    nodes: int
    line_length: int
    peak_table: int
    reason: str
    solver_version: str
    host: str
    #: fingerprint of the engine and solver source that made the row ('' in rows of schema 1)
    code: str = ""
    #: a won row's winning line in the compact code of :mod:`yukon.line_code` ('' before schema 4)
    line: str = ""


def _describe(path: str) -> str:
    return path if path == ":memory:" else str(Path(path))


class StudyDB:
    """A study file, opened after checking that it is ours (or new)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            p = Path(self.path)
            if p.is_dir():
                raise StudyDBError(f"{self.path} is a directory, not a study database")
            if not p.parent.is_dir():  # (made here, never the folders above: yukon.cli_common.check_new_file)
                raise StudyDBError(f"cannot create {self.path}: folder {p.parent} does not exist")
        try:
            self.conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise StudyDBError(f"cannot open {self.path}: {exc}") from None
        try:
            self._check()
            self._init()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StudyDBError(f"{_describe(self.path)} is not a usable study database ({exc})") from None
        except StudyDBError:
            self.conn.close()
            raise

    # -- opening -----------------------------------------------------------------------------
    def _check(self) -> None:
        """Reads only: is this an empty file, or a study file of a schema we know?"""
        app_id = self.conn.execute("PRAGMA application_id").fetchone()[0]
        names = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
        if app_id == 0 and not names:
            return  # a new (or empty) file
        if app_id in KINDS and app_id != APPLICATION_ID:
            raise StudyDBError(f"{self.path} is {KINDS[app_id]}, not a study database")
        if app_id != APPLICATION_ID or not names <= _OUR_OBJECTS or "deals" not in names:
            what = f"application_id {app_id:#x}" if app_id else f"tables {', '.join(sorted(names)) or 'none'}"
            raise StudyDBError(f"{self.path} is an SQLite file of another program ({what}), not a study database")
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or int(row[0]) > SCHEMA_VERSION:
            raise StudyDBError(f"{self.path} has study schema {row[0] if row else '?'}; this yukon knows "
                               f"{SCHEMA_VERSION} (upgrade yukon)")
        check = self.conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StudyDBError(f"{self.path} is damaged (quick_check: {check})")

    def _init(self) -> None:
        c = self.conn
        if self.path != ":memory:":
            c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = FULL")
        c.execute("PRAGMA foreign_keys = ON")
        names = {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
        if "studies" in names:
            columns = [r[1] for r in c.execute("PRAGMA table_info(studies)")]
            if "numbering" not in columns or "threads" not in columns:
                self._rebuild_studies(columns)
        if "deals" in names:
            columns = [r[1] for r in c.execute("PRAGMA table_info(deals)")]
            for column in ("code", "line"):  # schema 1 -> 2: the code fingerprint; 3 -> 4: the winning line
                if column not in columns:
                    c.executescript(
                        f"BEGIN IMMEDIATE; ALTER TABLE deals ADD COLUMN {column} TEXT NOT NULL DEFAULT ''; "
                        "DROP VIEW IF EXISTS results; COMMIT;")
        c.executescript(
            "BEGIN IMMEDIATE;" + _SCHEMA
            + f"INSERT OR REPLACE INTO meta SELECT 'schema', {_SCHEMA_NEEDED};"
            + f"PRAGMA application_id = {APPLICATION_ID}; COMMIT;"
        )

    def _rebuild_studies(self, columns: list[str]) -> None:
        """Schema 2 -> 3 (a study's deal numbering) and 3 -> 4 (its search threads): new parts of what makes
        one study, so of its UNIQUE key, which SQLite changes only by rebuilding the table. Ids are kept, so
        the deals' references hold; the new columns take their defaults."""
        c = self.conn
        c.execute("PRAGMA foreign_keys = OFF")  # dropping the old table must not touch the deals
        start = _SCHEMA.index("CREATE TABLE IF NOT EXISTS studies")
        new_table = _SCHEMA[start:_SCHEMA.index(");", start) + 2].replace("IF NOT EXISTS studies", "studies_new")
        kept = ", ".join(columns)
        c.executescript(
            f"BEGIN IMMEDIATE; DROP VIEW IF EXISTS results; {new_table} "
            f"INSERT INTO studies_new ({kept}) SELECT {kept} FROM studies; DROP TABLE studies; "
            "ALTER TABLE studies_new RENAME TO studies; COMMIT;")
        c.execute("PRAGMA foreign_keys = ON")

    def close(self) -> None:
        """Close the file (every finished deal is committed already)."""
        self.conn.close()

    def __enter__(self) -> StudyDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- studies -----------------------------------------------------------------------------
    def study_id(self, p: StudyParams, create: bool = True) -> int | None:
        """The id of the study of parameters ``p``, made if it is new (None if not there and not ``create``)."""
        key = (p.variant, p.empty_column, int(p.foundation_return), p.time_limit, p.node_limit, p.memory_limit,
               p.solver_version, p.numbering, p.threads)
        where = ("variant = ? AND empty_column = ? AND foundation_return = ? AND time_limit IS ? "
                 "AND node_limit IS ? AND memory_limit IS ? AND solver_version = ? AND numbering = ? AND threads = ?")
        row = self.conn.execute(f"SELECT id FROM studies WHERE {where}", key).fetchone()
        if row is not None:
            return int(row[0])
        if not create:
            return None
        self.conn.execute(
            "INSERT OR IGNORE INTO studies (variant, empty_column, foundation_return, time_limit, node_limit, "
            "memory_limit, solver_version, numbering, threads, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, time.time()))
        row = self.conn.execute(f"SELECT id FROM studies WHERE {where}", key).fetchone()
        return int(row[0])

    def studies(self) -> list[tuple[int, StudyParams]]:
        """Every study of the file as ``(id, parameters)``, oldest first."""
        rows = self.conn.execute(
            "SELECT id, variant, empty_column, foundation_return, time_limit, node_limit, memory_limit, "
            "solver_version, numbering, threads FROM studies ORDER BY id").fetchall()
        return [(r[0], StudyParams(r[1], r[2], bool(r[3]), r[4], r[5], r[6], r[7], r[8], r[9])) for r in rows]

    # -- deals -------------------------------------------------------------------------------
    def done_seeds(self, study_id: int, seeds: Iterable[int] | None = None) -> set[int]:
        """The seeds of ``study_id`` that have a row (among ``seeds``, if given)."""
        stored = self.conn.execute("SELECT seed FROM deals WHERE study_id = ?", (study_id,))
        done = {wide_from_sql(r[0]) for r in stored}
        return done if seeds is None else done & set(seeds)

    def add(self, study_id: int, row: DealRow) -> bool:
        """Commit one finished deal at once. False (and nothing written) if the seed already has a row."""
        if row.status not in STATUSES:
            raise ValueError(f"bad status {row.status!r}")
        seed = wide_to_sql(row.seed)
        wide = isinstance(seed, bytes)
        if wide:  # the file becomes schema 5 with its first BLOB seed, in the row's own transaction
            self.conn.execute("SAVEPOINT wide_seed")
        try:
            if wide:
                self.conn.execute(f"UPDATE meta SET value = '{SCHEMA_VERSION}' WHERE key = 'schema'")
            cur = self.conn.execute(
                "INSERT INTO deals (study_id, seed, status, seconds, nodes, line_length, peak_table, reason, "
                "solver_version, host, finished, code, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (study_id, seed) DO NOTHING",
                (study_id, seed, row.status, row.seconds, row.nodes, row.line_length, row.peak_table,
                 row.reason, row.solver_version, row.host, time.time(), row.code, row.line))
        except BaseException:
            if wide:
                self.conn.execute("ROLLBACK TO wide_seed")
                self.conn.execute("RELEASE wide_seed")
            raise
        if wide:
            self.conn.execute("RELEASE wide_seed")
        return cur.rowcount == 1

    def counts(self, study_id: int, seeds: range | None = None) -> dict[str, int]:
        """Rows of ``study_id`` per status (every status a key), of the ``seeds`` only if given."""
        sql = "SELECT status, COUNT(*) FROM deals WHERE study_id = ?"
        args: tuple[Any, ...] = (study_id,)
        if seeds is not None:
            where, bounds = _seed_span(seeds.start, seeds.stop)
            sql += f" AND ({where})"
            args += bounds
        counts = dict.fromkeys(STATUSES, 0)
        for status, n in self.conn.execute(sql + " GROUP BY status", args):
            counts[status] = n
        return counts

    def rows(self, study_id: int) -> list[DealRow]:
        """The rows of ``study_id`` by seed (the stored seeds of 2**63 and up are negative: they sort after the
        others, and the BLOBs of 2**64 and up last)."""
        return [DealRow(wide_from_sql(r[0]), *r[1:]) for r in self.conn.execute(
            "SELECT seed, status, seconds, nodes, line_length, peak_table, reason, solver_version, host, code, line "
            "FROM deals WHERE study_id = ? ORDER BY typeof(seed) = 'blob', seed < 0, seed", (study_id,))]


def _seed_span(start: int, stop: int) -> tuple[str, tuple[int | bytes, ...]]:
    """An SQL condition (and its parameters) for the seeds ``start <= seed < stop`` as stored: seeds from
    2**63 up are stored as ``seed - 2**64`` and from 2**64 up as BLOBs (:mod:`yukon.sqlite_ints`), so the
    range may fall in three parts."""
    parts: list[str] = []
    bounds: list[int | bytes] = []
    low_stop = min(stop, _HALF)
    if start < low_stop:
        parts.append("(seed >= ? AND seed <= ?)")
        bounds += [max(start, 0), low_stop - 1]
    high_start, high_stop = max(start, _HALF), min(stop, MAX_SEED + 1)
    if high_start < high_stop:
        parts.append("(seed >= ? AND seed <= ?)")
        bounds += [to_sql(high_start), to_sql(high_stop - 1)]
    wide_start, wide_stop = max(start, MAX_SEED + 1), min(stop, WIDEST + 1)
    if wide_start < wide_stop:  # (a BLOB is above every number, and compares with BLOBs byte by byte)
        parts.append("(typeof(seed) = 'blob' AND seed >= ? AND seed <= ?)")
        bounds += [wide_to_sql(wide_start), wide_to_sql(wide_stop - 1)]
    return " OR ".join(parts) or "0", tuple(bounds)


def row_dict(row: DealRow) -> dict[str, Any]:
    return asdict(row)
