"""The store: saved games, statistics, and what happens to bad files and killed processes."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from yukon.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    DamagedGameError,
    Store,
    StoreError,
    default_path,
    options_key,
)

KINGS = {"empty_column": "kings", "foundation_return": False}
ANY = {"empty_column": "any", "foundation_return": False}


def play(store: Store, gid: str, result: str | None, *, variant: str = "yukon", options: dict | None = None,
         moves: int = 3, elapsed: float = 10.0, client: str = "web") -> None:
    store.create_game(gid, variant, options or KINGS, 7, {"variant": variant}, client)
    store.update_game(gid, [f"m{i}" for i in range(moves)], [], elapsed)
    if result is not None:
        store.finish_game(gid, result)


# ---------------------------------------------------------------- games


def test_create_update_load(store: Store) -> None:
    start = {"variant": "yukon", "tableau": []}
    store.create_game("g1", "yukon", KINGS, 42, start, "tui", extra={"hints": 0})
    rec = store.load_game("g1")
    assert rec is not None
    assert (rec.id, rec.variant, rec.options, rec.seed) == ("g1", "yukon", KINGS, 42)
    assert (rec.start, rec.client) == (start, "tui")
    assert (rec.moves, rec.redo, rec.elapsed, rec.result, rec.extra) == ([], [], 0.0, None, {"hints": 0})
    assert not rec.finished and rec.created <= rec.updated
    store.update_game("g1", ["2:7H>5", "3:QC>F"], ["1:KS>4"], 12.5)
    rec = store.load_game("g1")
    assert rec is not None
    assert (rec.moves, rec.redo, rec.elapsed, rec.extra) == (["2:7H>5", "3:QC>F"], ["1:KS>4"], 12.5, {"hints": 0})
    store.update_game("g1", ["2:7H>5"], [], 13.0, extra={"hints": 1})
    rec = store.load_game("g1")
    assert rec is not None and rec.moves == ["2:7H>5"] and rec.extra == {"hints": 1}


def test_unknown_games(store: Store) -> None:
    assert store.load_game("nope") is None
    with pytest.raises(KeyError):
        store.update_game("nope", [], [], 0.0)
    with pytest.raises(KeyError):
        store.finish_game("nope", "won")


def test_game_ids_are_unique(store: Store) -> None:
    store.create_game("g1", "yukon", KINGS, 1, {}, "web")
    with pytest.raises(sqlite3.IntegrityError):
        store.create_game("g1", "yukon", KINGS, 1, {}, "web")


def test_finish_records_the_result_once(store: Store) -> None:
    play(store, "g1", None, moves=5, elapsed=20.0)
    store.finish_game("g1", "won")
    rec = store.load_game("g1")
    assert rec is not None and rec.result == "won" and rec.finished and rec.elapsed == 20.0
    store.finish_game("g1", "lost")  # changes nothing
    assert store.load_game("g1").result == "won"  # type: ignore[union-attr]
    assert store.stats()[0].fewest_moves == 5  # the move count defaults to the moves saved


def test_finish_with_explicit_count_and_time(store: Store) -> None:
    play(store, "g1", None, moves=5, elapsed=20.0)
    store.finish_game("g1", "won", move_count=3, elapsed=8.5)
    row = store.stats()[0]
    assert (row.fewest_moves, row.best_time) == (3, 8.5)


def test_bad_result(store: Store) -> None:
    play(store, "g1", None)
    with pytest.raises(ValueError, match="result must be one of"):
        store.finish_game("g1", "draw")
    assert store.load_game("g1").result is None  # type: ignore[union-attr]


def test_latest_unfinished(store: Store) -> None:
    assert store.latest_unfinished() is None
    play(store, "a", None, client="web")
    play(store, "b", None, client="tui")
    play(store, "c", "won", client="web")
    assert store.latest_unfinished().id == "b"  # type: ignore[union-attr]
    assert store.latest_unfinished("web").id == "a"  # type: ignore[union-attr]
    store.update_game("a", ["x"], [], 1.0)
    assert store.latest_unfinished().id == "a"  # type: ignore[union-attr]
    store.finish_game("a", "abandoned")
    assert store.latest_unfinished("web") is None


def test_delete_an_unfinished_game_but_never_a_result(store: Store) -> None:
    play(store, "fresh", None, moves=0)
    play(store, "done", "won")
    assert store.delete_game("fresh") and store.load_game("fresh") is None
    assert not store.delete_game("fresh") and not store.delete_game("nope")
    assert store.latest_unfinished() is None
    assert not store.delete_game("done")  # a finished game is part of the statistics
    assert store.load_game("done") is not None and store.stats()[0].played == 1


# ---------------------------------------------------------------- statistics


def test_statistics(store: Store) -> None:
    results = ["won", "won", "lost", "won", "won", "won", "abandoned", "won"]
    for i, r in enumerate(results):
        play(store, f"g{i}", r, moves=100 - i * 7, elapsed=300.0 - i * 10)
    play(store, "open", None)  # unfinished: not counted
    (row,) = store.stats()
    assert (row.variant, row.options) == ("yukon", KINGS)
    assert (row.played, row.won) == (8, 6)
    assert row.win_rate == pytest.approx(6 / 8)
    assert (row.current_streak, row.best_streak) == (1, 3)
    # the best time and fewest moves count won games only (g6, abandoned, had fewer moves)
    assert row.best_time == 300.0 - 7 * 10
    assert row.fewest_moves == 100 - 7 * 7
    assert row.to_dict()["win_rate"] == pytest.approx(0.75)


def test_statistics_are_grouped_by_variant_and_options(store: Store) -> None:
    play(store, "a", "won", variant="yukon", options=KINGS)
    play(store, "b", "lost", variant="yukon", options=ANY)
    play(store, "c", "won", variant="russian", options=KINGS)
    play(store, "d", "won", variant="yukon", options={"foundation_return": False, "empty_column": "kings"})
    rows = store.stats()
    assert [(r.variant, r.options, r.played, r.won) for r in rows] == [
        ("russian", KINGS, 1, 1),
        ("yukon", ANY, 1, 0),
        ("yukon", KINGS, 2, 2),  # the same options in another key order are the same group
    ]
    assert [r.variant for r in store.stats("yukon")] == ["yukon", "yukon"]
    assert store.stats("alaska") == []


def test_statistics_keep_pysolfc_deals_apart_from_this_programs(store: Store) -> None:
    # PySolFC's deal 7 and this program's deal 7 are different deals: one group each
    play(store, "ours", "won")
    store.create_game("theirs", "yukon", KINGS, 7, {"variant": "yukon"}, "web", {"numbering": "pysolfc"})
    store.finish_game("theirs", "lost")
    store.create_game("theirs too", "yukon", KINGS, 8, {"variant": "yukon"}, "tui", {"numbering": "pysolfc"})
    store.finish_game("theirs too", "lost")
    rows = store.stats()
    assert [(r.numbering, r.played, r.won) for r in rows] == [("yukon", 1, 1), ("pysolfc", 2, 0)]
    assert [r.to_dict()["numbering"] for r in store.stats("yukon")] == ["yukon", "pysolfc"]
    assert rows[0].current_streak == 1  # PySolFC's losses do not end the streak of this program's deals


def test_a_game_whose_notes_do_not_read_back_is_out_of_the_statistics(store: Store) -> None:
    play(store, "good", "won")
    play(store, "bad", "won")
    store._db.execute("UPDATE games SET extra='[1]' WHERE id='bad'")
    assert [(r.played, r.won) for r in store.stats()] == [(1, 1)]
    assert dict(store.damaged_games())["bad"].startswith("its extra does not read back")


def test_no_games_no_statistics(store: Store) -> None:
    assert store.stats() == []


def test_current_streak_ends_with_a_loss(store: Store) -> None:
    for i, r in enumerate(["won", "won", "lost"]):
        play(store, f"g{i}", r)
    row = store.stats()[0]
    assert (row.current_streak, row.best_streak, row.won, row.played) == (0, 2, 2, 3)
    assert row.best_time is not None


def test_no_win_no_best(store: Store) -> None:
    play(store, "g", "lost")
    row = store.stats()[0]
    assert (row.best_time, row.fewest_moves, row.win_rate) == (None, None, 0.0)


def test_options_key_is_canonical() -> None:
    assert options_key({"b": 1, "a": True}) == options_key({"a": True, "b": 1}) == '{"a":true,"b":1}'


# ---------------------------------------------------------------- the file


def test_data_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    s = Store(path)
    play(s, "g1", "won")
    s.close()
    s = Store(path)
    assert s.load_game("g1").result == "won"  # type: ignore[union-attr]
    assert s.stats()[0].won == 1
    s.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_in_memory_store() -> None:
    s = Store(":memory:")
    play(s, "g", "won")
    assert s.stats()[0].won == 1
    s.close()


def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.write_bytes(b"")
    s = Store(path)
    play(s, "g", None)
    s.close()
    db = sqlite3.connect(path)  # the file itself is now a store of this schema, not a refused or temporary one
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    s = Store(path)
    rec = s.load_game("g")
    assert rec is not None and rec.moves == ["m0", "m1", "m2"] and rec.result is None
    s.close()


def test_default_path_is_in_the_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    path = default_path()
    assert path.name == "yukon.sqlite3" and path.parent.is_dir()
    assert str(path).startswith(str(tmp_path))
    s = Store()
    assert Path(s.path) == path
    s.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _good_store_bytes(tmp_path: Path) -> bytes:
    path = tmp_path / "good" / "s.sqlite3"
    path.parent.mkdir()
    s = Store(path)
    for i in range(60):
        play(s, f"g{i}", "won" if i % 2 else None, moves=40)
    s.close()
    return path.read_bytes()


# A file whose SQLite header is intact but whose pages are damaged must be caught by the integrity
# check before anything is written (no WAL/SHM files, no bare sqlite3.DatabaseError).


@pytest.mark.parametrize(
    "damage",
    [
        "garbage",
        "truncated",
        "zeroed",
        "flipped",
        "header only",
    ],
)
def test_a_damaged_file_raises_store_error_and_is_left_alone(tmp_path: Path, damage: str) -> None:
    data = _good_store_bytes(tmp_path)
    assert len(data) > 3 * 4096
    broken = {
        "garbage": b"this is not a database, just some text\n" * 100,
        "truncated": data[: len(data) // 2],
        "zeroed": data[:4096] + bytes(len(data) - 4096),
        "flipped": data[:4096] + bytes(b ^ 0xFF for b in data[4096:8192]) + data[8192:],
        "header only": data[:100],
    }[damage]
    folder = tmp_path / "bad"
    folder.mkdir()
    path = folder / "s.sqlite3"
    path.write_bytes(broken)
    before = _digest(path)
    with pytest.raises(StoreError, match=r"s\.sqlite3"):
        Store(path)
    assert _digest(path) == before
    assert _files(folder) == ["s.sqlite3"]  # no journal or WAL files left behind either


def test_a_foreign_sqlite_file_raises_store_error_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    db.execute("INSERT INTO contacts VALUES ('Ada', '555')")
    db.commit()
    db.close()
    before = _digest(path)
    with pytest.raises(StoreError, match="belongs to another program"):
        Store(path)
    assert _digest(path) == before
    assert _files(tmp_path) == ["other.sqlite3"]


def test_a_store_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    before = _digest(path)
    with pytest.raises(StoreError, match="newer yukon"):
        Store(path)
    assert _digest(path) == before


_CHILD = """
import sys
from yukon.store import Store
s = Store(sys.argv[1])
s.create_game("g1", "yukon", {"empty_column": "kings", "foundation_return": False}, 7, {}, "web")
for i in range(1, 31):
    s.update_game("g1", ["2:7H>5"] * i, [], float(i))
s.create_game("g2", "yukon", {"empty_column": "kings", "foundation_return": False}, 8, {}, "web")
s.finish_game("g2", "won")
print("committed", flush=True)
sys.stdin.read()  # wait here until killed
"""


def test_committed_data_survives_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "committed"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
        if child.stdin:
            child.stdin.close()
        if child.stdout:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    s = Store(path)
    rec = s.load_game("g1")
    assert rec is not None and len(rec.moves) == 30 and rec.elapsed == 30.0
    assert s.stats()[0].won == 1
    assert s._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    s.close()


def test_threads_share_one_store(store: Store) -> None:
    for t in range(4):
        store.create_game(f"g{t}", "yukon", KINGS, t, {}, "web")

    def work(t: int) -> None:
        for i in range(25):
            store.update_game(f"g{t}", ["x"] * i, [], float(i))
            store.load_game(f"g{(t + 1) % 4}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all(len(store.load_game(f"g{t}").moves) == 24 for t in range(4))  # type: ignore[union-attr]


# ---------------------------------------------------------------- deal numbers, schema versions, damaged records


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_every_deal_number_is_stored_exactly(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "s.sqlite3"
    s = Store(path)
    s.create_game("g", "yukon", KINGS, seed, {}, "web")
    s.close()
    s = Store(path)
    assert s.load_game("g").seed == seed  # type: ignore[union-attr]
    assert s.latest_unfinished("web").seed == seed  # type: ignore[union-attr]
    s.close()


_SCHEMA_1 = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT NOT NULL, seed INTEGER, start TEXT NOT NULL,
    client TEXT NOT NULL, moves TEXT NOT NULL DEFAULT '[]', redo TEXT NOT NULL DEFAULT '[]',
    elapsed REAL NOT NULL DEFAULT 0,
    result TEXT CHECK (result IS NULL OR result IN ('won', 'lost', 'abandoned')), move_count INTEGER,
    created REAL NOT NULL, updated REAL NOT NULL, finished REAL, extra TEXT NOT NULL DEFAULT '{}');
CREATE INDEX games_unfinished ON games (client, result, updated);
CREATE INDEX games_finished ON games (variant, options, finished);
"""


def test_a_store_of_schema_1_is_upgraded_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    raw = sqlite3.connect(path)
    raw.executescript(_SCHEMA_1)
    raw.execute(f"PRAGMA application_id={APPLICATION_ID}")
    raw.execute("PRAGMA user_version=1")
    raw.execute("INSERT INTO games (id, variant, options, seed, start, client, moves, created, updated, result,"
                " move_count, finished) VALUES ('old', 'yukon', ?, ?, '{}', 'web', '[\"2:7H>5\"]', 1, 2, 'won', 1, 3)",
                (options_key(KINGS), 2**63 - 1))
    raw.commit()
    raw.close()
    s = Store(path)
    assert s._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    rec = s.load_game("old")
    assert rec is not None and rec.seed == 2**63 - 1 and rec.moves == ["2:7H>5"] and rec.damaged is None
    assert s.stats()[0].won == 1
    s.create_game("new", "yukon", KINGS, 2**64 - 1, {}, "web")
    assert s.load_game("new").seed == 2**64 - 1  # type: ignore[union-attr]
    s.close()


def test_unfinished_games_of_one_browser(store: Store) -> None:
    """A web game records the browser that started it (schema 3); an older game has none."""
    store.create_game("old", "yukon", KINGS, 1, {}, "web")
    store.create_game("a1", "yukon", KINGS, 2, {}, "web", browser="alice")
    store.create_game("b1", "yukon", KINGS, 3, {}, "web", browser="bob")
    assert [r.id for r in store.unfinished("web", browser="alice")] == ["a1"]
    assert [r.id for r in store.unfinished("web", browser="carol")] == []
    assert {r.id for r in store.unfinished("web")} == {"old", "a1", "b1"}


def test_schema_steps_run_once_each_in_order() -> None:
    from yukon.sqlite_schema import SchemaTooNewError, migrate

    db = sqlite3.connect(":memory:", isolation_level=None)
    calls: list[int] = []
    steps = ["CREATE TABLE t (a)", lambda c: calls.append(2), "ALTER TABLE t ADD COLUMN b"]
    assert migrate(db, steps) == (0, 3) and calls == [2]
    assert migrate(db, steps) == (3, 3) and calls == [2]
    with pytest.raises(SchemaTooNewError):
        migrate(db, steps[:2])

    def broken(c: sqlite3.Connection) -> None:
        c.execute("CREATE TABLE u (x)")
        raise RuntimeError("half done")

    with pytest.raises(RuntimeError):
        migrate(db, [*steps, broken])
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert "u" not in tables and db.execute("PRAGMA user_version").fetchone()[0] == 3  # all or nothing


def test_a_game_and_its_result_are_written_together(store: Store) -> None:
    store.create_game("w", "yukon", KINGS, 1, {}, "web", moves=["a", "b"], elapsed=4.0, result="won")
    rec = store.load_game("w")
    assert rec is not None and rec.result == "won" and rec.moves == ["a", "b"]
    store.create_game("g", "yukon", KINGS, 1, {}, "web")
    store.update_game("g", ["a"], [], 2.0, result="abandoned")
    store.update_game("g", ["a", "b"], [], 3.0, result="won")  # a result is recorded once
    assert store.load_game("g").result == "abandoned"  # type: ignore[union-attr]
    assert [(r.played, r.won, r.fewest_moves) for r in store.stats()] == [(2, 1, 2)]


@pytest.mark.parametrize(("column", "value"), [("moves", "[not json"), ("moves", "{}"), ("start", "[1]"),
                                                ("options", "nope"), ("extra", "[]"), ("redo", "[1, 2]")])
def test_a_damaged_record_is_set_aside_and_the_rest_loads(store: Store, column: str, value: str,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    play(store, "old", None)
    play(store, "won", "won")
    play(store, "bad", None)
    store._db.execute(f"UPDATE games SET {column}=?, updated=updated+100 WHERE id='bad'", (value,))
    assert store.latest_unfinished("web").id == "old"  # type: ignore[union-attr]
    assert [gid for gid, _ in store.damaged_games()] == ["bad"] and "'bad'" in caplog.text
    with pytest.raises(DamagedGameError, match="bad"):
        store.load_game("bad")
    assert [(r.played, r.won) for r in store.stats()] == [(1, 1)]  # the damaged game is not counted


def test_a_finished_damaged_record_is_out_of_the_statistics(store: Store) -> None:
    play(store, "w1", "won")
    play(store, "l1", "lost")
    store._db.execute("UPDATE games SET options='{oops' WHERE id='l1'")
    assert [(r.played, r.won) for r in store.stats()] == [(1, 1)]
    assert [gid for gid, _ in store.damaged_games()] == ["l1"]


def test_a_game_set_aside_is_not_resumed_and_not_counted(store: Store) -> None:
    play(store, "g", None)
    store.set_aside("g", "it no longer replays")
    rec = store.load_game("g")
    assert rec is not None and rec.damaged == "it no longer replays" and rec.result == "abandoned"
    assert store.latest_unfinished() is None and store.stats() == []


def test_unusable_paths_raise_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "no" / "such" / "dir" / "x.sqlite3")
    with pytest.raises(StoreError, match="directory"):
        Store(tmp_path)


def test_a_locked_file_raises_store_error(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")  # not even readers may share it
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked"):
            Store(path, busy_timeout=0.2)
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_write_waits_for_a_lock_at_most_its_busy_timeout(tmp_path: Path) -> None:
    import time

    path = tmp_path / "s.sqlite3"
    s = Store(path, busy_timeout=0.3)
    s.create_game("g", "yukon", KINGS, 1, {}, "web")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    t0 = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        s.update_game("g", ["a"], [], 1.0)
    assert time.monotonic() - t0 < 5
    other.execute("ROLLBACK")
    other.close()
    assert s.load_game("g").moves == []  # type: ignore[union-attr]
    s.close()


def writes_behind_a_slow_commit(store: Store, writers: list[threading.Thread]) -> None:
    """Run ``writers`` while a commit of ``store`` is slow: each queues its write behind it; then let the
    commit end and wait for them all."""
    import time

    inside, release = threading.Event(), threading.Event()

    def slow(db: sqlite3.Connection) -> None:
        inside.set()
        release.wait(10)  # the writers queue up meanwhile

    first = threading.Thread(target=store._write, args=(slow,))
    first.start()
    inside.wait(10)
    for w in writers:
        w.start()
    while len(store._queue) < len(writers):
        time.sleep(0.01)
    release.set()
    for th in (first, *writers):
        th.join(10)


def test_writes_that_wait_for_a_commit_share_the_next_one_and_fail_alone(store: Store) -> None:
    for t in range(6):
        store.create_game(f"g{t}", "yukon", KINGS, t, {}, "web")
    batches: list[int] = []
    real_commit = store._commit_queued

    def counting() -> None:
        batches.append(len(store._queue))
        real_commit()

    store._commit_queued = counting  # type: ignore[method-assign]
    errors: list[BaseException] = []

    def write(t: int) -> None:
        try:
            store.update_game(f"g{t}" if t else "missing", ["m"] * t, [], float(t))
        except KeyError as exc:
            errors.append(exc)

    writes_behind_a_slow_commit(store, [threading.Thread(target=write, args=(t,)) for t in range(6)])
    assert batches == [1, 6]  # the six waiting writes went into one commit
    assert len(errors) == 1  # the write to a missing game failed, and it alone
    assert [len(store.load_game(f"g{t}").moves) for t in range(1, 6)] == [1, 2, 3, 4, 5]  # type: ignore[union-attr]


def test_the_writes_of_a_batch_return_without_each_taking_the_store_lock(store: Store) -> None:
    """Only the thread that commits a batch takes the store's lock: the others wake when it is done.
    (Each taking the lock in turn just to see its write done made the batch return one lock hand-over,
    and one wait for the GIL, after the other: a convoy that cost moves tens of milliseconds under load.)"""
    for t in range(4):
        store.create_game(f"g{t}", "yukon", KINGS, t, {}, "web")

    class CountingLock:
        def __init__(self, inner: Any) -> None:
            self.inner, self.taken = inner, 0

        def __enter__(self) -> None:
            self.inner.acquire()
            self.taken += 1

        def __exit__(self, *exc: object) -> None:
            self.inner.release()

    lock = CountingLock(store._lock)
    store._lock = lock  # type: ignore[assignment]
    writes_behind_a_slow_commit(store, [threading.Thread(target=store.update_game,
                                                         args=(f"g{t}", ["m"] * (t + 1), [], 1.0)) for t in range(4)])
    assert [len(store.load_game(f"g{t}").moves) for t in range(4)] == [1, 2, 3, 4]  # type: ignore[union-attr]
    assert lock.taken == 2 + 4  # the two commits, and the four reads just above; before: 1 + 4 writes + 4 reads
