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

from yukon.cli import main

COMMAND = [sys.executable, "-m", "yukon.cli", "play", "--no-browser"]


def test_play_serves_the_table_and_api(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc = subprocess.Popen([*COMMAND, "--port", "0", "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        url = match.group(0)
        for _ in range(200):
            try:
                r = httpx.get(url + "api/variants", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.05)
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
