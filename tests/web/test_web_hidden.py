"""What the page is told: no face-down card, no stock order; the advice it shows comes from the server.

Also the counting rules of the statistics as the API sees them: a game becomes
the player's at their first own move (the automatic plays at the deal are not
one), and only then does its clock run.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yukon import Game
from yukon.cards import NAME
from yukon.store import Store
from yukon.web import create_app

CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")


@pytest.fixture
def app_and_client(tmp_path: Path) -> Iterator[tuple[Any, TestClient]]:
    store = Store(tmp_path / "web.sqlite3")
    app = create_app(store, hint_time=0.3, winnable_time=0.3)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield app, c
    store.close()


def hidden_and_seen(app: Any, game_id: str) -> tuple[set[str], set[str]]:
    """The names of the cards face down or in the stock now, and of every card the player has seen."""
    game: Game = app.state.registry.get(game_id).game
    hidden = {NAME[c] for down, _ in game.columns for c in down} | {NAME[c] for c in game.stock}
    seen = {NAME[c] for _, up in game.columns for c in up} | {NAME[c] for p in game.foundations for c in p}
    seen |= {NAME[c] for c in game.waste} | {str(m).split(":")[1][:2] for m in game.move_stack if ":" in str(m)}
    return hidden, seen


def check_tells_nothing_hidden(app: Any, game_id: str, text: str) -> None:
    hidden, seen = hidden_and_seen(app, game_id)
    named = set(CARD.findall(text))
    assert named <= seen, f"the answer names cards the player has not seen: {sorted(named - seen)}"
    # one deck: a face-down card's name is never in an answer (two decks: its twin may be face up)
    assert not (hidden - seen) & named


@pytest.mark.parametrize("variant", ["yukon", "australian", "milligan-yukon"])
def test_no_answer_names_a_face_down_card(app_and_client: tuple[Any, TestClient], variant: str) -> None:
    app, client = app_and_client
    rng = random.Random(5)
    r = client.post("/api/games", json={"variant": variant, "seed": 9, "autoplay": True})
    state = r.json()
    gid = state["id"]
    hidden, _ = hidden_and_seen(app, gid)
    assert hidden  # there is something to hide
    check_tells_nothing_hidden(app, gid, r.text)
    assert "stock" not in state and state["stock_count"] == len(app.state.registry.get(gid).game.stock)
    assert sum(c["down_count"] for c in state["tableau"]) == state["face_down_count"]
    for step in range(40):
        if not state["legal_moves"]:
            break
        move = rng.choice(state["legal_moves"])
        r = client.post(f"/api/games/{gid}/moves", json={"move": move, "autoplay": True})
        assert r.status_code == 200, r.text
        check_tells_nothing_hidden(app, gid, r.text)
        state = r.json()
        if step % 7 == 3:
            for path in ("undo", "redo", "undo"):
                r = client.post(f"/api/games/{gid}/{path}")
                check_tells_nothing_hidden(app, gid, r.text)
                state = r.json()
    for path in ("hint", "winnable"):
        r = client.post(f"/api/games/{gid}/{path}")
        check_tells_nothing_hidden(app, gid, r.text)
    for url in (f"/api/games/{gid}", "/api/games/latest"):
        r = client.get(url)
        assert r.status_code == 200
        check_tells_nothing_hidden(app, gid, r.text)
    r = client.post(f"/api/games/{gid}/restart")
    check_tells_nothing_hidden(app, gid, r.text)


def test_a_refusal_says_why_and_tells_nothing_of_the_hidden_cards(app_and_client: tuple[Any, TestClient]) -> None:
    app, client = app_and_client
    state = client.post("/api/games", json={"seed": 42}).json()
    gid = state["id"]
    game: Game = app.state.registry.get(gid).game
    # a card that does not fit: the build rule in a player's words
    legal = set(state["legal_moves"])
    for i, col in enumerate(state["tableau"]):
        for j, other in enumerate(state["tableau"]):
            move = f"{i + 1}:{col['up'][-1]}>{j + 1}"
            if i != j and other["up"] and move not in legal:
                r = client.post(f"/api/games/{gid}/moves", json={"move": move})
                data = r.json()
                assert r.status_code == 409 and data["reason"] == "does-not-fit", data
                assert re.search(r"needs a (red|black) |is a King", data["explanation"]), data
                break
        else:
            continue
        break
    # asking about a face-down card gets the answer a card lying elsewhere gets: no probing
    down = NAME[game.columns[6][0][0]]
    elsewhere = state["tableau"][0]["up"][0]
    answers = [client.post(f"/api/games/{gid}/moves", json={"move": f"7:{c}>F"}).json() for c in (down, elsewhere)]
    assert [a["reason"] for a in answers] == ["not-face-up", "not-face-up"]
    def blank(text: str) -> str:
        return re.sub(r"(10|[A2-9JQK])[♠♥♦♣]|\b[A2-9TJQK][SHDC]\b", "X", text)

    assert blank(answers[0]["explanation"]) == blank(answers[1]["explanation"])
    assert blank(answers[0]["error"]) == blank(answers[1]["error"])
    # and asking /check first (as the page does) tells no more than the move's own refusal
    checks = [client.post(f"/api/games/{gid}/check", json={"move": f"7:{c}>F"}).json() for c in (down, elsewhere)]
    pairs = zip((down, elsewhere), answers, strict=True)
    assert checks == [{"move": f"7:{c}>F", "legal": False, **a} for c, a in pairs]
    assert client.get(f"/api/games/{gid}").json()["move_count"] == 0  # nothing changed


def test_the_best_place_and_the_foundation_moves_come_from_the_server(app_and_client: tuple[Any, TestClient]) -> None:
    _app, client = app_and_client
    pos = Game.from_text("yukon,kings,noreturn KS/KH/QDJD/KD/-/-/- QS/QH/TD/KC").to_dict()
    state = client.post("/api/games", json={"position": pos}).json()
    best, up = state["best_moves"], state["foundation_moves"]
    assert best["1:KS"] == "1:KS>F" and up["1:KS"] == "1:KS>F" and best["3:JD"] == "3:JD>F"  # a foundation first
    assert best["3:QD"] == "3:QD+1>1" and "3:QD" not in up  # else a column with cards on it
    assert "4:KD" not in best
    assert set(best) == {str(m).split(">")[0].split("+")[0] for m in Game.from_dict(pos).legal_moves()}


def test_the_automatic_plays_at_the_deal_are_not_a_game_played(app_and_client: tuple[Any, TestClient]) -> None:
    app, client = app_and_client
    # Australian deal 7: AH and AS play themselves at the deal
    first = client.post("/api/games", json={"variant": "australian", "seed": 7, "autoplay": True}).json()
    assert first["move_count"] >= 1 and not first["player_moved"]
    assert first["clock_running"] is False and first["elapsed"] == 0
    # the page shown again does not start the clock of a game nobody touched
    assert client.post(f"/api/games/{first['id']}/clock", json={"running": True}).json()["clock_running"] is False
    second = client.post("/api/games", json={"seed": 8, "abandon": first["id"]}).json()
    assert client.get(f"/api/games/{first['id']}").status_code == 404  # forgotten, not counted
    assert client.get("/api/stats").json()["stats"] == []
    # the player's first own move makes it a game: it runs the clock and counts when left
    move = second["legal_moves"][0]
    after = client.post(f"/api/games/{second['id']}/moves", json={"move": move}).json()
    assert after["player_moved"] and after["clock_running"]
    client.post("/api/games", json={"seed": 9, "abandon": second["id"]})
    [row] = client.get("/api/stats").json()["stats"]
    assert (row["variant"], row["played"], row["won"], row["current_streak"]) == ("yukon", 1, 0, 0)
    assert app.state.registry.get(second["id"]).result == "abandoned"
