"""``yukon play``: starts the server on loopback, prints the address, stops cleanly."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from web_client import start_play, wait_up

from yukon.cli import main


def test_play_serves_the_table_and_api(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc, url = start_play(["--db", str(db)])
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url
        r = wait_up(url + "api/variants")
        assert r.status_code == 200 and r.json()["variants"][0]["name"] == "yukon"
        assert "Yukon" in httpx.get(url).text
        game = httpx.post(url + "api/games", json={"seed": 3}).json()
        assert game["seed"] == 3
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
    assert proc.returncode == 0
    assert db.exists()


def test_play_reports_a_busy_port(capsys) -> None:  # type: ignore[no-untyped-def]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["play", "--no-browser", "--port", str(port)]) == 2
    assert "cannot listen" in capsys.readouterr().err


def test_play_refuses_a_foreign_database(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE x (y)")
    assert main(["play", "--no-browser", "--port", "0", "--db", str(other)]) == 2
    assert "another program" in capsys.readouterr().err


def test_play_help() -> None:
    out = subprocess.run([sys.executable, "-m", "yukon.cli", "play", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for option in ("--host", "--port", "--no-browser", "--db"):
        assert option in out.stdout


def test_play_rejects_a_bad_port(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--no-browser", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_browser_only_with_a_display(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from yukon.web import cli

    monkeypatch.setattr(sys, "platform", "linux")
    for key in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(key, raising=False)
    assert not cli.can_open_browser()
    monkeypatch.setenv("DISPLAY", ":0")
    assert cli.can_open_browser()


def test_sigterm_stops_the_server_and_closes_the_store(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc, url = start_play(["--db", str(db)])
    try:
        wait_up(url + "api/variants")
        s = httpx.post(url + "api/games", json={"seed": 3}).json()
        httpx.post(url + f"api/games/{s['id']}/moves", json={"move": s["legal_moves"][0]})
        assert (tmp_path / "games.sqlite3-wal").exists()  # the store is open, in WAL mode
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert proc.returncode == 0
    assert not (tmp_path / "games.sqlite3-wal").exists()  # closed cleanly: the WAL was checkpointed away
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM games").fetchone()[0] == 1


def test_listening_beyond_loopback_warns_shows_the_address_and_asks_for_the_token(tmp_path: Path) -> None:
    proc, url = start_play(["--host", "0.0.0.0", "--db", str(tmp_path / "g.sqlite3")])
    try:
        assert "127.0.0.1" not in url and "0.0.0.0" not in url
        match = re.search(r"http://([^/]+)/\?token=([\w-]+)$", url)
        assert match, url
        port = match.group(1).rsplit(":", 1)[1]
        local = f"http://127.0.0.1:{port}/"
        r = wait_up(local + "api/variants")
        assert r.status_code == 403 and "token" in r.json()["error"]
        with httpx.Client(follow_redirects=True) as browser:
            assert browser.get(local + "?token=" + match.group(2)).status_code == 200  # sets the cookie
            assert browser.get(local + "api/variants").status_code == 200
            assert browser.post(local + "api/games", json={"seed": 1}).status_code == 201
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert "Warning" in err and "token" in err


def test_loopback_needs_no_token_and_gives_no_warning(tmp_path: Path) -> None:
    proc, url = start_play(["--db", str(tmp_path / "g.sqlite3")])
    try:
        assert "token" not in url
        assert wait_up(url + "api/variants").status_code == 200
        r = httpx.get(url + "api/variants", headers={"host": "evil.example"})
        assert r.status_code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert "Warning" not in err


@pytest.mark.parametrize("command", ["play", "tui"])
def test_an_unusable_store_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    locked = tmp_path / "locked.sqlite3"
    with sqlite3.connect(locked) as raw:
        raw.execute("PRAGMA user_version=0")
    from yukon.store import Store

    Store(locked).close()
    holder = sqlite3.connect(locked, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    extra = ["--no-browser", "--port", "0"] if command == "play" else []
    # ``python -m yukon.cli``, with the store's wait for a lock cut from 5 s to 0.2 s: the locked store is refused
    # only once that wait is over, and how long it waits is not what this test is about (tests/test_store.py)
    cli = ("import sys, yukon.store; yukon.store.Store.__init__.__kwdefaults__['busy_timeout'] = 0.2;"
           " from yukon.cli import main; sys.exit(main(sys.argv[1:]))")
    try:
        for db, words in ((tmp_path / "no" / "dir" / "x", "does not exist"), (tmp_path, "directory"),
                          (locked, "locked")):
            out = subprocess.run([sys.executable, "-c", cli, command, *extra, "--db", str(db)],
                                 capture_output=True, text=True, timeout=60)
            assert out.returncode == 2, out.stderr
            assert words in out.stderr and "Traceback" not in out.stderr
            assert len(out.stderr.strip().splitlines()) == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_damaged_saved_games_are_named_atstart_play(tmp_path: Path) -> None:
    from yukon.store import Store

    db = tmp_path / "g.sqlite3"
    store = Store(db)
    store.create_game("broken-one", "yukon", {"empty_column": "kings", "foundation_return": False}, 1, {}, "web")
    store._db.execute("UPDATE games SET moves='[oops' WHERE id='broken-one'")
    assert store.latest_unfinished("web") is None  # read once: set aside
    store.close()
    proc, url = start_play(["--db", str(db)])
    try:
        r = wait_up(url + "api/games/latest")
        assert r.status_code == 404
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert "Damaged saved game broken-one is skipped" in err and "Traceback" not in err


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_the_solver_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    proc, url = start_play(["--db", str(tmp_path / "g.sqlite3")])
    try:
        wait_up(url + "api/variants")
        game = httpx.post(url + "api/games", json={"seed": 1}).json()
        assert httpx.post(url + f"api/games/{game['id']}/hint", timeout=30).status_code == 200
        children = _children(proc.pid)
        assert children  # the solver's worker processes
    finally:
        proc.kill()
        proc.wait(15)
    deadline = time.monotonic() + 10
    while any(_alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(c) for c in children)
