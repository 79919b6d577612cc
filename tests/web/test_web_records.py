"""Game records over the web API: export a finished game, import a record to continue it."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_client import error_of, new_game

from yukon import Game
from yukon.autoplay import next_safe_move
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


def test_a_record_played_on_keeps_the_deals_automatic_plays_the_deals(client: TestClient) -> None:
    """"Play on from here" of a finished game imports its record cut at a move: an Ace that went up with the deal
    stays the deal's in the new game (no move the counter counts, none to undo), as it was in the game played."""
    seed = next(s for s in range(1, 200) if next_safe_move(Game.deal("yukon", seed=s)) is not None)
    played = new_game(client, seed=seed, autoplay=True)
    assert played["dealt"] >= 1
    gid = played["id"]
    for _ in range(2):
        at = client.get(f"/api/games/{gid}").json()
        mine = next(m for m in at["legal_moves"] if m != "deal")
        assert client.post(f"/api/games/{gid}/moves", json={"move": mine, "at": at["move_count"]}).status_code == 200
    before = client.post(f"/api/games/{gid}/resign").json()
    assert before["moves_made"] == 2
    record = client.get(f"/api/games/{gid}/record").json()
    del record["result"]  # as the page does: the new game is not over
    state = client.post("/api/games/import", json={"record": record}).json()
    assert (state["dealt"], state["moves_made"], state["move_count"]) == (played["dealt"], 2, before["move_count"])
    new = state["id"]
    for left in (1, 0):
        assert client.post(f"/api/games/{new}/undo").json()["moves_made"] == left
    assert "nothing to" in error_of(client.post(f"/api/games/{new}/undo"), 409)  # the deal's Ace stays up
    assert client.get(f"/api/games/{new}").json()["moves"] == played["moves"]
