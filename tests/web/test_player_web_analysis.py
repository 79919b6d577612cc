"""W on a game given up while it could still be won: the analysis says no move lost it, and now also gives a
winning line from where it was left, which the replay shows as it shows the line after a losing move."""

from __future__ import annotations

from fastapi.testclient import TestClient

from yukon import Game
from yukon.analysis import analyze
from yukon.record import GameRecord

#: Yukon deal 802 (easy) after four moves of a line that loses it later: still winnable here
STILL_WINNABLE = ["5:2C+2>6", "4:4C+3>7", "7:6D+7>6", "6:JD+5>4"]


def test_analyze_gives_a_winning_line_from_where_a_winnable_game_was_left() -> None:
    game = Game.deal("yukon", seed=802)
    game.replay(STILL_WINNABLE)
    result = analyze(GameRecord.from_game(game), time_limit=5.0, total_limit=30.0)
    assert result.end == "winnable" and result.losing_move is None and result.continuation == []
    assert result.winning_line
    end = game.copy()
    end.replay(result.winning_line)
    assert end.is_won()
    assert "winning_line" not in result.to_dict()  # (yukon analyze --json keeps its four keys)


def test_a_lost_game_has_no_line_from_its_end() -> None:
    game = Game.deal("yukon", seed=802)
    game.replay([*STILL_WINNABLE, "3:9H>6", "2:2H+1>3", "6:TD+9>2", "2:9D+12>6", "6:6C+4>2"])
    result = analyze(GameRecord.from_game(game), time_limit=5.0, total_limit=30.0)
    assert result.end == "lost" and result.losing_move == 9 and result.winning_line == []


def test_the_web_analysis_and_replay_of_the_line_from_the_end(client: TestClient) -> None:
    gid = client.post("/api/games", json={"variant": "yukon", "seed": 802}).json()["id"]
    for move in STILL_WINNABLE:
        assert client.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    answer = client.post(f"/api/games/{gid}/analysis").json()
    assert answer["end"] == "winnable" and answer["losing_move"] is None
    line = answer["winning_line"]
    assert line
    r = client.get(f"/api/games/{gid}/replay", params={"at": len(STILL_WINNABLE), "then": " ".join(line)})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "won"
