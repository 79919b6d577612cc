"""Game records over the web API: export a finished game, import a record to continue it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from yukon import Game
from yukon.record import GameRecord

NEARLY_WON = "yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC"


def test_export_only_once_the_game_is_over(client: TestClient) -> None:
    game = client.post("/api/games", json={"position": Game.from_text(NEARLY_WON).to_dict()}).json()
    r = client.get(f"/api/games/{game['id']}/record")
    assert r.status_code == 409 and "face-down cards" in r.json()["error"]
    client.post(f"/api/games/{game['id']}/moves", json={"move": "1:KS>F"})
    client.post(f"/api/games/{game['id']}/moves", json={"move": "2:KH>F"})
    r = client.get(f"/api/games/{game['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = GameRecord.from_dict(r.json())
    assert [str(m) for m in record.moves] == ["1:KS>F", "2:KH>F"] and record.result == "won"
    assert record.start == Game.from_text(NEARLY_WON) and record.deal is None


def test_import_continues_the_game(client: TestClient) -> None:
    played = Game.deal("yukon", seed=12)
    for _ in range(3):
        played.push(played.legal_moves()[0])
    r = client.post("/api/games/import", json={"record": GameRecord.from_game(played, time=30.0).to_dict()})
    assert r.status_code == 201, r.text
    state = r.json()
    assert state["moves"] == [str(m) for m in played.move_stack] and state["seed"] == 12
    assert state["can_undo"] and state["elapsed"] == 30.0
    undone = client.post(f"/api/games/{state['id']}/undo").json()
    assert undone["move_count"] == 2
    assert client.get(f"/api/games/{state['id']}").json()["move_count"] == 2


def test_import_of_a_bad_record_names_the_move_and_changes_nothing(client: TestClient) -> None:
    data = GameRecord.from_game(Game.deal("yukon", seed=12)).to_dict()
    data["moves"] = ["1:KS>F"]
    r = client.post("/api/games/import", json={"record": data})
    assert r.status_code == 400 and "move 1 ('1:KS>F')" in r.json()["error"]
    assert client.get("/api/games/latest").status_code == 404
    assert client.post("/api/games/import", json={"record": {"format": "x"}}).status_code == 400
    assert client.post("/api/games/import", json={"record": "text"}).status_code == 422
    assert client.get("/api/games/nope/record").status_code == 404


def test_import_abandons_the_game_it_replaces(client: TestClient) -> None:
    old = client.post("/api/games", json={"seed": 5}).json()
    client.post(f"/api/games/{old['id']}/moves", json={"move": old["legal_moves"][0]})
    record = GameRecord.from_game(Game.deal("yukon", seed=6)).to_dict()
    assert client.post("/api/games/import", json={"record": record, "abandon": old["id"]}).status_code == 201
    assert client.get(f"/api/games/{old['id']}").json()["result"] == "abandoned"


TRAP = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"


def test_analysis_of_a_finished_game(client: TestClient) -> None:
    game = client.post("/api/games", json={"position": Game.from_text(TRAP).to_dict()}).json()
    r = client.post(f"/api/games/{game['id']}/analysis")
    assert r.status_code == 409 and "once it is over" in r.json()["error"]
    client.post(f"/api/games/{game['id']}/moves", json={"move": "4:6C>3"})
    state = client.post(f"/api/games/{game['id']}/moves", json={"move": "2:6H>F"}).json()
    assert state["legal_moves"] == []
    client.post("/api/games", json={"seed": 1, "abandon": game["id"]})  # leaving it records the loss
    r = client.post(f"/api/games/{game['id']}/analysis")
    assert r.status_code == 200, r.text
    answer = r.json()
    assert (answer["start"], answer["losing_move"], answer["unknown_moves"], answer["end"]) == ("won", 2, [], "lost")
    replay = Game.from_text(TRAP)
    replay.push_text("4:6C>3")
    replay.replay(answer["continuation"])
    assert replay.is_won()
