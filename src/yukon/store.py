"""The embedded store: saved games and per-variant statistics, in one SQLite file.

Shared by the web game and the terminal game, so a statistic is defined
once. Every write is one transaction in WAL mode with ``synchronous=FULL``:
a crash loses nothing that a write returned for, and leaves the file valid.

>>> store = Store(":memory:")
>>> store.create_game("g1", "yukon", {"empty_column": "kings", "foundation_return": False}, 7, {}, "web")
>>> store.update_game("g1", ["2:7H>5"], [], 12.5)
>>> store.load_game("g1").moves
['2:7H>5']
>>> store.finish_game("g1", "won")
>>> store.stats()[0].won
1
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
APPLICATION_ID = 0x59554B4E  # "YUKN": marks the file as ours

RESULTS = ("won", "lost", "abandoned")


class StoreError(Exception):
    """The store cannot be used: not an SQLite file, another program's file, or a newer schema."""


def default_path() -> Path:
    """``yukon.sqlite3`` in the user's data directory (created if needed)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("yukon", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "yukon.sqlite3"


def options_key(options: dict[str, Any]) -> str:
    """A canonical text for a set of rule options (the statistics group games by it)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


@dataclass
class GameRecord:
    id: str
    variant: str
    options: dict[str, Any]
    seed: int | None
    start: dict[str, Any]
    client: str
    moves: list[str]
    redo: list[str]
    elapsed: float
    result: str | None
    created: float
    updated: float
    extra: dict[str, Any]

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass
class StatsRow:
    variant: str
    options: dict[str, Any]
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_time: float | None
    fewest_moves: int | None

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "options": self.options, "played": self.played,
            "won": self.won, "win_rate": self.win_rate, "current_streak": self.current_streak,
            "best_streak": self.best_streak, "best_time": self.best_time,
            "fewest_moves": self.fewest_moves,
        }


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    start TEXT NOT NULL,
    client TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]',
    redo TEXT NOT NULL DEFAULT '[]',
    elapsed REAL NOT NULL DEFAULT 0,
    result TEXT CHECK (result IS NULL OR result IN ('won', 'lost', 'abandoned')),
    move_count INTEGER,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished REAL,
    extra TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (client, result, updated);
CREATE INDEX IF NOT EXISTS games_finished ON games (variant, options, finished);
"""


class Store:
    """Saved games and statistics. Thread-safe; one connection guarded by a lock."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = default_path() if path is None else path
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        try:
            self._check_and_migrate()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{self.path}: not a usable yukon store ({exc})") from None
        except StoreError:
            self._db.close()
            raise

    def _check_and_migrate(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and not tables:
            pass  # a new, empty file: ours to set up
        elif app_id != APPLICATION_ID:
            raise StoreError(f"{self.path}: this SQLite file belongs to another program; not touching it")
        elif version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer yukon (schema {version}, this one knows {SCHEMA_VERSION})"
            )
        if tables:
            problem = db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise StoreError(f"{self.path}: the file is damaged ({problem}); not touching it")
        if str(self.path) != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=5000")
        with self._transaction():
            for statement in _SCHEMA.strip().split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ games

    def create_game(
        self, game_id: str, variant: str, options: dict[str, Any], seed: int | None,
        start: dict[str, Any], client: str, extra: dict[str, Any] | None = None,
    ) -> None:
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, variant, options, seed, start, client, created, updated, extra)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, variant, options_key(options), seed, json.dumps(start), client, now, now,
                 json.dumps(extra or {})),
            )

    def update_game(
        self, game_id: str, moves: list[str], redo: list[str], elapsed: float,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """Save the move list (committed before returning)."""
        with self._transaction() as db:
            if extra is None:
                cur = db.execute(
                    "UPDATE games SET moves=?, redo=?, elapsed=?, updated=? WHERE id=?",
                    (json.dumps(moves), json.dumps(redo), elapsed, time.time(), game_id),
                )
            else:
                cur = db.execute(
                    "UPDATE games SET moves=?, redo=?, elapsed=?, updated=?, extra=? WHERE id=?",
                    (json.dumps(moves), json.dumps(redo), elapsed, time.time(), json.dumps(extra), game_id),
                )
            if cur.rowcount != 1:
                raise KeyError(game_id)

    def finish_game(
        self, game_id: str, result: str, move_count: int | None = None, elapsed: float | None = None,
    ) -> None:
        """Record the result of a game once; later calls for the same game change nothing."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        with self._transaction() as db:
            row = db.execute("SELECT result, moves, elapsed FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(game_id)
            if row[0] is not None:
                return
            count = move_count if move_count is not None else len(json.loads(row[1]))
            db.execute(
                "UPDATE games SET result=?, move_count=?, elapsed=?, finished=?, updated=? WHERE id=?",
                (result, count, elapsed if elapsed is not None else row[2], time.time(), time.time(),
                 game_id),
            )

    def delete_game(self, game_id: str) -> bool:
        """Forget an unfinished game (e.g. a deal replaced before any move); True if it was deleted.

        A finished game is part of the statistics and is kept: False, as for an unknown id.
        """
        with self._transaction() as db:
            cur = db.execute("DELETE FROM games WHERE id=? AND result IS NULL", (game_id,))
            return cur.rowcount == 1

    def load_game(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, variant, options, seed, start, client, moves, redo, elapsed, result,"
                " created, updated, extra FROM games WHERE id=?", (game_id,),
            ).fetchone()
        return _record(row) if row else None

    def latest_unfinished(self, client: str | None = None) -> GameRecord | None:
        query = (
            "SELECT id, variant, options, seed, start, client, moves, redo, elapsed, result,"
            " created, updated, extra FROM games WHERE result IS NULL"
        )
        params: tuple[Any, ...] = ()
        if client is not None:
            query += " AND client=?"
            params = (client,)
        query += " ORDER BY updated DESC LIMIT 1"
        with self._lock:
            row = self._db.execute(query, params).fetchone()
        return _record(row) if row else None

    # ------------------------------------------------------------------ statistics

    def stats(self, variant: str | None = None) -> list[StatsRow]:
        """One row per variant and options, from the finished games."""
        query = "SELECT variant, options, result, elapsed, move_count FROM games WHERE result IS NOT NULL"
        params: tuple[Any, ...] = ()
        if variant is not None:
            query += " AND variant=?"
            params = (variant,)
        query += " ORDER BY finished, rowid"
        with self._lock:
            rows = self._db.execute(query, params).fetchall()
        groups: dict[tuple[str, str], StatsRow] = {}
        for v, opts, result, elapsed, count in rows:
            row = groups.get((v, opts))
            if row is None:
                row = groups[(v, opts)] = StatsRow(v, json.loads(opts), 0, 0, 0, 0, None, None)
            row.played += 1
            if result == "won":
                row.won += 1
                row.current_streak += 1
                row.best_streak = max(row.best_streak, row.current_streak)
                if elapsed is not None and (row.best_time is None or elapsed < row.best_time):
                    row.best_time = elapsed
                if count is not None and (row.fewest_moves is None or count < row.fewest_moves):
                    row.fewest_moves = count
            else:
                row.current_streak = 0
        return sorted(groups.values(), key=lambda r: (r.variant, options_key(r.options)))


def _record(row: tuple[Any, ...]) -> GameRecord:
    (gid, variant, options, seed, start, client, moves, redo, elapsed, result, created, updated,
     extra) = row
    return GameRecord(
        gid, variant, json.loads(options), seed, json.loads(start), client, json.loads(moves),
        json.loads(redo), elapsed, result, created, updated, json.loads(extra),
    )
