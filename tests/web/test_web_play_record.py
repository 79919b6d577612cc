"""``yukon play --record FILE``: the record's game is the one the browser opens."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

from web_client import start_play, wait_up

from yukon import Game
from yukon.cli import main
from yukon.record import GameRecord


def test_play_opens_the_record_as_the_game(tmp_path: Path) -> None:
    played = Game.deal("yukon", seed=21)
    for _ in range(4):
        played.push(played.legal_moves()[0])
    record = tmp_path / "game.json"
    GameRecord.from_game(played).write(record)
    proc, address = start_play(["--db", str(tmp_path / "g.sqlite3"), "--record", str(record)])
    try:
        match = re.fullmatch(r"(http://127\.0\.0\.1:\d+/)\?game=([\w-]+)", address)
        assert match, address
        url, game_id = match.groups()
        r = wait_up(f"{url}api/games/{game_id}")
        assert r.status_code == 200, r.text
        assert r.json()["moves"] == [str(m) for m in played.move_stack] and r.json()["seed"] == 21
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
    assert proc.returncode == 0


def test_play_refuses_a_bad_record_before_starting(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "bad.json"
    data = GameRecord.from_game(Game.deal("yukon", seed=21)).to_dict()
    data["moves"] = ["1:KS>F"]
    record.write_text(json.dumps(data))
    assert main(["play", "--no-browser", "--port", "0", "--db", str(tmp_path / "g.sqlite3"),
                 "--record", str(record)]) == 2
    err = capsys.readouterr().err
    assert "--record" in err and "move 1 ('1:KS>F')" in err
    assert main(["play", "--no-browser", "--port", "0", "--record", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
