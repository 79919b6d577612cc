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
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .sqlite_ints import from_sql, to_sql
from .sqlite_schema import GAME_STORE_ID, KINDS, SchemaTooNewError, Step, migrate

APPLICATION_ID = GAME_STORE_ID  # "YUKN": marks the file as ours

RESULTS = ("won", "lost", "abandoned")
#: The ``extra`` key counting the moves the computer chose in a game ("watch the computer play",
#: :mod:`yukon.demo`): such a game is not the player's and is left out of the statistics.
COMPUTER_MOVES = "computer_moves"

log = logging.getLogger(__name__)
T = TypeVar("T")


class StoreError(Exception):
    """The store cannot be used: not an SQLite file, another program's file, or a newer schema."""


class DamagedGameError(Exception):
    """A saved game cannot be read back (its record is damaged): it is set aside, the rest of the store works."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(f"saved game {game_id!r} is damaged and set aside: {reason}")
        self.game_id = game_id
        self.reason = reason


def default_path(name: str = "yukon.sqlite3", *, create: bool = True) -> Path:
    """The file ``name`` in the user's data directory, where every yukon store lives by default.

    ``create``: make the folder if needed.
    """
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("yukon", appauthor=False))
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    return folder / name


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
    #: Why the game was set aside as damaged (None: it is not)
    damaged: str | None = None

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
    #: whose deal numbers the games were dealt by (``yukon`` or ``pysolfc``): PySolFC's deal 42 is not
    #: this program's deal 42, so their games are counted apart
    numbering: str = "yukon"

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "options": self.options, "numbering": self.numbering, "played": self.played,
            "won": self.won, "win_rate": self.win_rate, "current_streak": self.current_streak,
            "best_streak": self.best_streak, "best_time": self.best_time,
            "fewest_moves": self.fewest_moves,
        }


_SCHEMA_1 = """
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

#: The schema, one step per version (see :mod:`yukon.sqlite_schema`). Version 2: ``damaged`` holds why a
#: record that no longer reads back was set aside; deal numbers of 2**63 and above are kept as the signed
#: integer with the same 64 bits (:mod:`yukon.sqlite_ints`), so the numbers version 1 held read the same.
#: Version 3: ``browser`` names the browser that started a web game (its cookie, :mod:`yukon.web.guard`),
#: so that a server shared by several players resumes each one's own game; the games of older files have
#: none (NULL), and no browser's "latest game" on a shared server is one of them.
_STEPS: Sequence[Step] = (
    _SCHEMA_1 + f"PRAGMA application_id={APPLICATION_ID}",
    "ALTER TABLE games ADD COLUMN damaged TEXT",
    "ALTER TABLE games ADD COLUMN browser TEXT;"
    "CREATE INDEX IF NOT EXISTS games_browser ON games (browser, result, updated)",
)
SCHEMA_VERSION = len(_STEPS)

_COLUMNS = ("id, variant, options, seed, start, client, moves, redo, elapsed, result, created, updated, extra")


class Store:
    """Saved games and statistics. Thread-safe; one connection guarded by a lock.

    ``busy_timeout``: seconds a write waits for another connection's lock before it fails
    with :class:`sqlite3.OperationalError` (changing nothing).
    """

    def __init__(self, path: str | Path | None = None, *, busy_timeout: float = 5.0) -> None:
        try:
            self.path = default_path() if path is None else path
        except OSError as exc:
            raise StoreError(f"cannot create the data folder for the store: {exc.strerror or exc}") from None
        self._lock = threading.RLock()
        self._queue_lock = threading.Lock()
        self._queue: list[_Write] = []
        self._leading = False  # a thread is committing the queued writes
        self._closed = False
        where = str(self.path)
        if where != ":memory:":
            file = Path(where)
            if file.is_dir():
                raise StoreError(f"{where}: is a directory, not a store file")
            if not file.parent.is_dir():
                raise StoreError(f"{where}: the folder {file.parent} does not exist")
        try:
            self._db = sqlite3.connect(where, check_same_thread=False, isolation_level=None,
                                       timeout=busy_timeout)
        except sqlite3.Error as exc:
            raise StoreError(f"{where}: cannot open the store ({exc})") from None
        try:
            self._check_and_migrate(busy_timeout)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            why = "it is locked by another program" if "locked" in str(exc) else "not a usable yukon store"
            raise StoreError(f"{self.path}: {why} ({exc})") from None
        except StoreError:
            self._db.close()
            raise

    def _check_and_migrate(self, busy_timeout: float) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and not tables:
            pass  # a new, empty file: ours to set up
        elif app_id in KINDS and app_id != APPLICATION_ID:
            raise StoreError(f"{self.path} is {KINDS[app_id]}, not a game store; not touching it")
        elif app_id != APPLICATION_ID:
            raise StoreError(f"{self.path}: this SQLite file belongs to another program; not touching it")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
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
        db.execute(f"PRAGMA busy_timeout={round(busy_timeout * 1000)}")
        with self._lock:
            try:
                migrate(db, _STEPS)
            except SchemaTooNewError as exc:  # pragma: no cover - another process upgraded it just now
                raise StoreError(f"{self.path}: written by a newer yukon ({exc})") from None

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(db)`` in a transaction and commit it; return its result, or raise its error.

        Group commit: writes that arrive while another commit is being made wait for it, then go
        into one transaction together (one fsync for all of them), each in a savepoint of its own,
        so one write's error undoes that write only. When the commit itself fails, every write in
        it fails (and none is kept).

        One thread at a time leads: it commits everything queued, wakes the writers whose writes
        went in, and hands the lead to the first write that came meanwhile. A waiting writer sleeps
        on its own event rather than on the store's lock, so the writes of a batch return together,
        not one lock hand-over after the other (each needing the GIL again: a convoy under load).
        """
        job = _Write(work)
        with self._queue_lock:
            self._queue.append(job)
            leads = not self._leading
            self._leading = True
        if not leads:
            job.wake.wait()  # its write is done, or it leads the next commit
        if not job.done:
            self._lead()
        if job.error is not None:
            raise job.error
        return job.result

    def _lead(self) -> None:
        try:
            with self._lock:
                self._commit_queued()
        finally:
            with self._queue_lock:
                if self._queue:
                    self._queue[0].wake.set()  # it leads the next commit (its write is not done)
                else:
                    self._leading = False

    def _commit_queued(self) -> None:
        with self._queue_lock:
            batch, self._queue = self._queue, []
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for job in batch:
                    db.execute("SAVEPOINT write")
                    try:
                        job.result = job.work(db)
                    except Exception as exc:
                        db.execute("ROLLBACK TO write")
                        job.error = exc
                    db.execute("RELEASE write")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except BaseException as exc:
            for job in batch:
                if job.error is None:
                    job.error = exc if len(batch) == 1 else _copy_error(exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            for job in batch:
                job.done = True
                job.wake.set()

    def close(self) -> None:
        """Close the file (a WAL file is checkpointed and removed). Closing twice is harmless."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    # ------------------------------------------------------------------ games

    def create_game(
        self, game_id: str, variant: str, options: dict[str, Any], seed: int | None,
        start: dict[str, Any], client: str, extra: dict[str, Any] | None = None, *,
        moves: Sequence[str] = (), redo: Sequence[str] = (), elapsed: float = 0.0,
        result: str | None = None, move_count: int | None = None, browser: str | None = None,
    ) -> None:
        """Write a new game, with its moves so far and its result if it has one, in one transaction.

        ``browser``: the browser that started it (a web game; :meth:`unfinished` can ask for its games)."""
        if result is not None and result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        now = time.time()
        count = None if result is None else (move_count if move_count is not None else len(moves))
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO games (id, variant, options, seed, start, client, moves, redo, elapsed, result,"
                " move_count, created, updated, finished, extra, browser)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, variant, options_key(options), to_sql(seed), json.dumps(start), client,
                 json.dumps(list(moves)), json.dumps(list(redo)), elapsed, result, count, now, now,
                 None if result is None else now, json.dumps(extra or {}), browser),
            )

        self._write(work)

    def update_game(
        self, game_id: str, moves: list[str], redo: list[str], elapsed: float,
        extra: dict[str, Any] | None = None, *, result: str | None = None, move_count: int | None = None,
    ) -> None:
        """Save the move list, and the result when given (committed together before returning)."""
        if result is not None and result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        def work(db: sqlite3.Connection) -> None:
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
            if result is not None:
                self._finish(db, game_id, result, move_count if move_count is not None else len(moves), elapsed)

        self._write(work)

    @staticmethod
    def _finish(db: sqlite3.Connection, game_id: str, result: str, move_count: int, elapsed: float) -> None:
        now = time.time()
        db.execute(
            "UPDATE games SET result=?, move_count=?, elapsed=?, finished=?, updated=? WHERE id=? AND result IS NULL",
            (result, move_count, elapsed, now, now, game_id),
        )

    def finish_game(
        self, game_id: str, result: str, move_count: int | None = None, elapsed: float | None = None,
    ) -> None:
        """Record the result of a game once; later calls for the same game change nothing."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        def work(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT result, moves, elapsed FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(game_id)
            if row[0] is not None:
                return
            count = move_count
            if count is None:
                try:
                    count = len(json.loads(row[1]))
                except (ValueError, TypeError):
                    count = 0
            self._finish(db, game_id, result, count, elapsed if elapsed is not None else row[2])

        self._write(work)

    def set_aside(self, game_id: str, reason: str) -> None:
        """Mark a saved game that no longer reads back as damaged (``reason``): it is never resumed again
        and left out of the statistics; an unfinished one is recorded ``abandoned``. Best effort: a store
        that cannot be written now is left as it is (the game is skipped anyway)."""
        log.warning("saved game %r is damaged and set aside: %s", game_id, reason)
        try:
            self._write(lambda db: db.execute(
                "UPDATE games SET damaged=?, result=COALESCE(result, 'abandoned') WHERE id=?", (reason, game_id)))
        except sqlite3.Error as exc:
            log.warning("could not mark saved game %r as damaged: %s", game_id, exc)

    def damaged_games(self) -> list[tuple[str, str]]:
        """``(id, reason)`` of every game set aside as damaged, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, damaged FROM games WHERE damaged IS NOT NULL ORDER BY rowid")
            return [(str(r[0]), str(r[1])) for r in rows.fetchall()]

    def delete_game(self, game_id: str) -> bool:
        """Forget an unfinished game (e.g. a deal replaced before any move); True if it was deleted.

        A finished game is part of the statistics and is kept: False, as for an unknown id.
        """
        return self._write(
            lambda db: db.execute("DELETE FROM games WHERE id=? AND result IS NULL", (game_id,)).rowcount == 1)

    def load_game(self, game_id: str) -> GameRecord | None:
        """The saved game, or None; raises :class:`DamagedGameError` for one that cannot be read back.

        A game set aside before (:meth:`set_aside`) says why in its ``damaged``."""
        with self._lock:
            row = self._db.execute(f"SELECT {_COLUMNS}, damaged FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return None
        record = self._read(row[:-1])
        record.damaged = row[-1]
        return record

    def _read(self, row: tuple[Any, ...]) -> GameRecord:
        try:
            return _record(row)
        except (ValueError, TypeError) as exc:
            reason = f"its record does not read back ({exc})"
            self.set_aside(row[0], reason)
            raise DamagedGameError(row[0], reason) from None

    def unfinished(self, client: str | None = None, *, browser: str | None = None) -> Iterator[GameRecord]:
        """The unfinished games (of ``client``; started by ``browser`` when given), the most recently played
        first; damaged ones are set aside."""
        query = f"SELECT {_COLUMNS}, rowid FROM games WHERE result IS NULL AND damaged IS NULL"
        params: tuple[Any, ...] = ()
        if client is not None:
            query += " AND client=?"
            params = (client,)
        if browser is not None:
            query += " AND browser=?"
            params = (*params, browser)
        after: tuple[Any, ...] = ()
        while True:  # one row at a time, after the last one seen: the caller may change rows meanwhile
            page = query + (" AND (updated < ? OR (updated = ? AND rowid < ?))" if after else "")
            with self._lock:
                row = self._db.execute(page + " ORDER BY updated DESC, rowid DESC LIMIT 1",
                                       (*params, *after)).fetchone()
            if row is None:
                return
            after = (row[11], row[11], row[-1])
            try:
                record = self._read(row[:-1])
            except DamagedGameError:
                continue
            yield record

    def latest_unfinished(self, client: str | None = None) -> GameRecord | None:
        """The most recently played unfinished game (of ``client``) that reads back, or None."""
        return next(self.unfinished(client), None)

    # ------------------------------------------------------------------ statistics

    def stats(self, variant: str | None = None, *, browser: str | None = None) -> list[StatsRow]:
        """One row per variant, options and deal numbering, from the finished games (not those the computer
        played in); only those ``browser`` started, when given."""
        query = ("SELECT id, variant, options, extra, result, elapsed, move_count FROM games"
                 " WHERE result IS NOT NULL AND damaged IS NULL")
        params: tuple[Any, ...] = ()
        if variant is not None:
            query += " AND variant=?"
            params = (variant,)
        if browser is not None:
            query += " AND browser=?"
            params = (*params, browser)
        query += " ORDER BY finished, rowid"
        with self._lock:
            rows = self._db.execute(query, params).fetchall()
        groups: dict[tuple[str, str, str], StatsRow] = {}
        for gid, v, opts, extra, result, elapsed, count in rows:
            if _computer_played(extra):
                continue
            try:
                numbering = _numbering(extra)
            except (ValueError, TypeError) as exc:
                self.set_aside(gid, f"its extra does not read back ({exc})")
                continue
            row = groups.get((v, opts, numbering))
            if row is None:
                try:
                    options = json.loads(opts)
                    if not isinstance(options, dict):
                        raise ValueError(f"options are {type(options).__name__}, not an object")
                except (ValueError, TypeError) as exc:
                    self.set_aside(gid, f"its options do not read back ({exc})")
                    continue
                row = groups[(v, opts, numbering)] = StatsRow(v, options, 0, 0, 0, 0, None, None, numbering)
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
        return sorted(groups.values(), key=lambda r: (r.variant, options_key(r.options), r.numbering != "yukon",
                                                      r.numbering))


def _numbering(extra: str) -> str:
    """The deal numbering a saved game's ``extra`` names (the session keeps it there; none: this program's)."""
    notes = json.loads(extra)
    if not isinstance(notes, dict):
        raise ValueError(f"extra is {type(notes).__name__}, not an object")
    numbering = notes.get("numbering", "yukon")
    if not isinstance(numbering, str):
        raise ValueError(f"its numbering is {numbering!r}, not a name")
    return numbering


def _computer_played(extra: str) -> bool:
    """Did the computer choose moves in this game (its ``extra`` counts them)? An unreadable ``extra`` says no."""
    try:
        count = json.loads(extra).get(COMPUTER_MOVES)
    except (ValueError, TypeError, AttributeError):
        return False
    return isinstance(count, int) and not isinstance(count, bool) and count > 0


class _Write:
    """One write waiting for its commit."""

    __slots__ = ("done", "error", "result", "wake", "work")

    def __init__(self, work: Callable[[sqlite3.Connection], Any]) -> None:
        self.work = work
        self.wake = threading.Event()  # set when the write is done, or when its thread is to lead
        self.done = False
        self.result: Any = None
        self.error: BaseException | None = None


def _copy_error(exc: BaseException) -> BaseException:
    """The same error for another thread to raise (each thread gets its own traceback)."""
    try:
        return type(exc)(*exc.args)
    except Exception:  # pragma: no cover - an error type with another constructor
        return exc


def _record(row: tuple[Any, ...]) -> GameRecord:
    (gid, variant, options, seed, start, client, moves, redo, elapsed, result, created, updated,
     extra) = row
    record = GameRecord(
        gid, variant, json.loads(options), from_sql(seed), json.loads(start), client, json.loads(moves),
        json.loads(redo), float(elapsed), result, created, updated, json.loads(extra),
    )
    for name, kind in (("options", dict), ("start", dict), ("moves", list), ("redo", list), ("extra", dict)):
        value = getattr(record, name)
        if not isinstance(value, kind) or (kind is list and not all(isinstance(m, str) for m in value)):
            raise ValueError(f"{name} is not a JSON {'object' if kind is dict else 'list of moves'}")
    return record
