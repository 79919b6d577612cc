"""Watch the computer play, through the API: the move is the honest player's (it depends only on what the
player sees), it is played only when saved, a stop or a newer request ends the search at once, a player's
move never waits for it, nothing hidden is told, and a game the computer played in does not count."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_hidden import check_tells_nothing_hidden

from wall_clock import LOADED
from yukon import Game
from yukon.honest import Budget
from yukon.store import Store
from yukon.visible import VisiblePosition
from yukon.web import create_app, solving
from yukon.web.demo import DemoSettings

#: Counted in nodes only: the same move on any machine.
SMALL = Budget(samples=4, nodes=3_000, python_samples=2, python_nodes=200)
#: Far more thinking than a test may wait for: only a stop (or a time limit) ends it.
ENDLESS = Budget(samples=100_000, nodes=2_000_000)
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"


@pytest.fixture
def app_and_client(tmp_path: Path) -> Iterator[tuple[Any, TestClient]]:
    store = Store(tmp_path / "web.sqlite3")
    app = create_app(store, solver=solving.SolverQueue(processes=False))
    app.state.demo = DemoSettings(SMALL, None)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield app, c
    store.close()


def demo_move(client: TestClient, game_id: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/games/{game_id}/demo-move", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def in_thread(fn: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append((fn(), time.monotonic())))
    thread.start()
    return thread, out


def wait_for_search(app: Any) -> None:
    deadline = time.monotonic() + 20
    while app.state.solver.pending == 0:
        assert time.monotonic() < deadline, "the search did not start"
        time.sleep(0.005)
    time.sleep(0.1)


def endless_demo_move(app: Any, client: TestClient) -> tuple[str, threading.Thread, list[Any]]:
    """A demo move on a new game of deal 7 with an endless budget, asked in a thread, once its search runs:
    the game's id, the thread and its answer's list (empty until it answers)."""
    app.state.demo = DemoSettings(ENDLESS, None)
    gid = client.post("/api/games", json={"seed": 7}).json()["id"]
    thread, out = in_thread(lambda: demo_move(client, gid))
    wait_for_search(app)
    return gid, thread, out


def positions(variant: str, seed: int, moves: int) -> tuple[Game, Game]:
    """A position some moves into a deal, and the same position with its unseen cards moved around."""
    rng = random.Random(seed)
    game = Game.deal(variant, seed=seed)
    for _ in range(moves):
        legal = [m for m in game.legal_moves() if not m.is_stock_move] or game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    while not game.legal_moves():  # a dead end: step back to where there is a choice
        game.pop()
    view = VisiblePosition.of(game)
    cards = list(view.unseen)
    for _ in range(10):
        rng.shuffle(cards)
        if cards != list(view.unseen):
            break
    return view.fill(view.unseen), view.fill(cards)


@pytest.mark.parametrize("variant", ["yukon", "russian", "alaska", "australian", "milligan-yukon"])
def test_the_demo_move_depends_only_on_what_the_player_sees(
    app_and_client: tuple[Any, TestClient], variant: str,
) -> None:
    _, client = app_and_client
    for seed, moves in ((3, 0), (4, 6), (5, 12)):
        one, other = positions(variant, seed, moves)
        assert one.to_text() != other.to_text() and VisiblePosition.of(one) == VisiblePosition.of(other)
        answers = []
        for game in (one, other):
            state = client.post("/api/games", json={"position": game.to_dict()}).json()
            answers.append(demo_move(client, state["id"])["demo"])
        assert answers[0]["reason"] == "move" and answers[0]["move"] in [str(m) for m in one.legal_moves()]
        assert answers[0] == answers[1] | {"seconds": answers[0]["seconds"]}
        assert answers[0]["source"] != "samples" or answers[0]["odds"].startswith("wins in "), answers[0]


def test_the_demo_plays_one_saved_turn_and_tells_nothing_hidden(app_and_client: tuple[Any, TestClient]) -> None:
    app, client = app_and_client
    for variant in ("yukon", "australian", "milligan-yukon"):
        state = client.post("/api/games", json={"variant": variant, "seed": 9, "autoplay": True}).json()
        gid = state["id"]
        for k in range(1, 6):
            r = client.post(f"/api/games/{gid}/demo-move", json={"autoplay": True})
            check_tells_nothing_hidden(app, gid, r.text)
            out = r.json()
            if out["demo"]["reason"] != "move":
                break
            assert out["played"][0] == out["demo"]["move"] and out["computer_moves"] == k
            assert out["move_count"] == state["move_count"] + len(out["played"])
            state = out
            saved = app.state.registry.store.load_game(gid)
            assert saved.moves == out["moves"] and saved.extra["computer_moves"] == k  # on disk before the answer
        assert "stock" not in state and all("down" not in c for c in state["tableau"])


def test_a_game_the_computer_played_in_does_not_count(app_and_client: tuple[Any, TestClient]) -> None:
    _, client = app_and_client
    state = client.post("/api/games", json={"seed": 7}).json()
    demo_move(client, state["id"])
    client.post("/api/games", json={"seed": 8, "abandon": state["id"]})  # left: abandoned, but not the player's
    won = client.post("/api/games", json={"position": Game.from_text(NEARLY_WON).to_dict()}).json()
    out = demo_move(client, won["id"], autoplay=True, autofinish=True)
    assert out["status"] == "won" and out["result"] == "won" and out["computer_moves"] == 1
    assert client.get("/api/stats").json()["stats"] == []
    # the same win by the player counts: the test can tell the two apart
    mine = client.post("/api/games", json={"position": Game.from_text(NEARLY_WON).to_dict()}).json()
    client.post(f"/api/games/{mine['id']}/moves", json={"move": out["played"][0], "autoplay": True,
                                                         "autofinish": True})
    (row,) = client.get("/api/stats").json()["stats"]
    assert (row["played"], row["won"]) == (1, 1)
    r = client.post(f"/api/games/{won['id']}/demo-move", json={})
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_a_stop_ends_the_search_at_once_and_plays_nothing(app_and_client: tuple[Any, TestClient]) -> None:
    app, client = app_and_client
    gid, thread, out = endless_demo_move(app, client)
    assert not out  # still thinking
    asked = time.monotonic()
    assert client.post(f"/api/games/{gid}/demo-stop").json() == {"stopped": True}
    thread.join(10)
    answer, when = out[0]
    assert when - asked < LOADED  # unstopped, the endless budget thinks on
    assert answer["demo"]["reason"] == "stopped" and answer["played"] == [] and answer["move_count"] == 0
    assert client.post(f"/api/games/{gid}/demo-stop").json() == {"stopped": False}  # nothing left to stop


def test_a_newer_request_supersedes_an_older_one(app_and_client: tuple[Any, TestClient]) -> None:
    app, client = app_and_client
    gid, older, older_out = endless_demo_move(app, client)
    newer, newer_out = in_thread(lambda: demo_move(client, gid))
    asked = time.monotonic()
    older.join(10)
    answer, when = older_out[0]
    assert when - asked < LOADED and answer["demo"]["reason"] == "stopped" and answer["played"] == []
    assert not newer_out  # the newer one thinks on
    client.post(f"/api/games/{gid}/demo-stop")
    newer.join(10)
    assert newer_out[0][0]["demo"]["reason"] == "stopped"
    assert client.get(f"/api/games/{gid}").json()["move_count"] == 0


def test_a_players_move_does_not_wait_and_the_demo_leaves_it_alone(app_and_client: tuple[Any, TestClient]) -> None:
    app, client = app_and_client
    app.state.demo = DemoSettings(ENDLESS, 6.0)  # answers after six seconds of thinking
    state = client.post("/api/games", json={"seed": 7}).json()
    gid = state["id"]
    thread, out = in_thread(lambda: demo_move(client, gid))
    wait_for_search(app)
    move = state["legal_moves"][0]
    started = time.monotonic()
    mine = client.post(f"/api/games/{gid}/moves", json={"move": move}).json()
    assert time.monotonic() - started < LOADED and not out  # back before the computer has decided
    thread.join(20)
    answer = out[0][0]
    assert answer["demo"]["reason"] == "changed" and answer["played"] == []
    assert answer["moves"] == mine["moves"] == [move] and answer["computer_moves"] == 0


def test_the_demo_routes_refuse_what_they_should(app_and_client: tuple[Any, TestClient]) -> None:
    _, client = app_and_client
    assert client.post("/api/games/nope/demo-move", json={}).status_code == 404
    assert client.post("/api/games/nope/demo-stop").status_code == 404
    gid = client.post("/api/games", json={"seed": 7}).json()["id"]
    assert client.post(f"/api/games/{gid}/demo-move", json={"speed": 3}).status_code == 422
    r = client.post(f"/api/games/{gid}/demo-move", json={}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    one_from_lost = Game.from_text("yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C")
    dead = client.post("/api/games", json={"position": one_from_lost.to_dict()}).json()
    state = client.post(f"/api/games/{dead['id']}/moves", json={"move": "5:TC>F"}).json()
    assert state["status"] == "lost"
    out = demo_move(client, dead["id"])
    assert out["demo"]["reason"] == "no move" and out["played"] == [] and out["move_count"] == 1
