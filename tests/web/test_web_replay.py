"""Replay over the web API: the positions of a game's line as the player saw them, the continuation
once the game is over, resigning, and PySolFC's deal numbers in a new game."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from yukon import Game
from yukon.cards import NAME
from yukon.store import Store
from yukon.web import create_app
from yukon.web.session import Registry

TRAP = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"


def shown_cards(answer: dict) -> set[str]:
    cards = {c for col in answer["tableau"] for c in col["up"]}
    return cards | {c for pile in answer["foundations"] for c in pile} | set(answer["waste"])


def hidden_cards(game: Game) -> set[str]:
    return {NAME[c] for down, _ in game.columns for c in down} | {NAME[c] for c in game.stock}


def test_replay_shows_each_position_of_a_game_in_progress_without_a_face_down_card(client: TestClient) -> None:
    state = client.post("/api/games", json={"seed": 3}).json()
    engine = Game.deal("yukon", seed=3)
    positions = [engine.copy()]
    for _ in range(6):
        move = state["legal_moves"][0]
        state = client.post(f"/api/games/{state['id']}/moves", json={"move": move}).json()
        engine.push_text(move)
        positions.append(engine.copy())
    for at, position in enumerate(positions):
        r = client.get(f"/api/games/{state['id']}/replay", params={"at": at})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["at"] == at and answer["move_count"] == 6 and answer["moves"] == state["moves"]
        assert [c["down_count"] for c in answer["tableau"]] == [len(d) for d, _ in position.columns]
        assert shown_cards(answer) == {NAME[c] for _, up in position.columns for c in up} | {
            NAME[c] for pile in position.foundations for c in pile}
        text = json.dumps({k: answer[k] for k in ("tableau", "foundations", "waste")})
        assert not any(card in text for card in hidden_cards(position))
    # replaying changed nothing
    assert client.get(f"/api/games/{state['id']}").json()["moves"] == state["moves"]


def test_replay_refuses_a_bad_move_number_and_a_continuation_in_play(client: TestClient) -> None:
    state = client.post("/api/games", json={"seed": 3}).json()
    gid = state["id"]
    r = client.get(f"/api/games/{gid}/replay", params={"at": 1})
    assert r.status_code == 400 and "from 0 to 0" in r.json()["error"]
    assert client.get(f"/api/games/{gid}/replay", params={"at": -1}).status_code == 422
    assert client.get(f"/api/games/{gid}/replay", params={"at": "x"}).status_code == 422
    assert client.get(f"/api/games/{gid}/replay").status_code == 422
    r = client.get(f"/api/games/{gid}/replay", params={"at": 0, "then": state["legal_moves"][0]})
    assert r.status_code == 400 and "once the game is over" in r.json()["error"]
    assert client.get("/api/games/nope/replay", params={"at": 0}).status_code == 404


def test_resign_then_the_analysis_and_its_continuation_replay(client: TestClient) -> None:
    game = client.post("/api/games", json={"position": Game.from_text(TRAP).to_dict()}).json()
    gid = game["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "4:6C>3"})
    state = client.post(f"/api/games/{gid}/moves", json={"move": "2:6H>F"}).json()
    assert state["status"] == "lost" and state["result"] is None
    ended = client.post(f"/api/games/{gid}/resign")
    assert ended.status_code == 200 and ended.json()["result"] == "lost"
    assert client.post(f"/api/games/{gid}/resign").status_code == 409
    answer = client.post(f"/api/games/{gid}/analysis").json()
    assert answer["losing_move"] == 2
    # the moves the page names from it, in the terminal game's words: the losing move and the line it replays
    assert answer["words"]["2:6H>F"] == "six of hearts from column 2 to its foundation"
    assert set(answer["words"]) == {"2:6H>F", *answer["continuation"], *answer["winning_line"]}
    assert client.get(f"/api/games/{gid}/replay", params={"at": 0}).json()["words"] == {
        "4:6C>3": "six of clubs from column 4 to column 3"}  # the replay's next move of the line
    then = " ".join(answer["continuation"])
    r = client.get(f"/api/games/{gid}/replay", params={"at": 1, "then": then})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "won" and r.json()["then"] == answer["continuation"]
    r = client.get(f"/api/games/{gid}/replay", params={"at": 1, "then": "1:KS>F"})
    assert r.status_code == 400 and "continuation move 1" in r.json()["error"]


def test_resign_counts_an_imported_game_as_played(client: TestClient, store: Store) -> None:
    played = Game.deal("yukon", seed=12)
    played.push(played.legal_moves()[0])
    from yukon.record import GameRecord

    state = client.post("/api/games/import", json={"record": GameRecord.from_game(played).to_dict()}).json()
    assert client.post(f"/api/games/{state['id']}/resign").json()["result"] == "abandoned"
    assert store.stats()[0].played == 1


def test_new_game_in_pysolfc_numbering(client: TestClient, store: Store) -> None:
    variants = {v["name"]: v["numberings"] for v in client.get("/api/variants").json()["variants"]}
    assert variants["yukon"] == ["yukon", "pysolfc"] and variants["milligan-yukon"] == ["yukon"]
    r = client.post("/api/games", json={"seed": 123456, "numbering": "pysolfc"})
    assert r.status_code == 201, r.text
    state = r.json()
    expected = Game.deal("yukon", seed=123456, numbering="pysolfc")
    assert state["numbering"] == "pysolfc" and state["seed"] == 123456
    assert [c["up"] for c in state["tableau"]] == [[NAME[c] for c in up] for _, up in expected.columns]
    assert store.load_game(state["id"]).extra["numbering"] == "pysolfc"
    reloaded = create_app(store).state.registry.get(state["id"])
    assert reloaded.game.numbering == "pysolfc"


def test_statistics_count_pysolfc_deals_apart(client: TestClient) -> None:
    for numbering in ("pysolfc", "yukon", "pysolfc"):
        state = client.post("/api/games", json={"seed": 123456, "numbering": numbering}).json()
        assert client.post(f"/api/games/{state['id']}/resign").json()["result"] == "abandoned"
    rows = client.get("/api/stats?variant=yukon").json()["stats"]
    assert [(r["numbering"], r["played"]) for r in rows] == [("yukon", 1), ("pysolfc", 2)]


def test_numbering_errors_name_the_problem(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "milligan", "numbering": "pysolfc"})
    assert r.status_code == 400 and "not available" in r.json()["error"]
    r = client.post("/api/games", json={"numbering": "bogus"})
    assert r.status_code == 400 and "unknown deal numbering" in r.json()["error"]
    r = client.post("/api/games", json={"seed": 0, "numbering": "pysolfc"})
    assert r.status_code == 400 and "PySolFC game number" in r.json()["error"]
    r = client.post("/api/games", json={"numbering": "pysolfc", "winnable_only": True})
    assert r.status_code == 400
    assert client.get("/api/games/latest").status_code == 404


VISIBLE = ("tableau", "foundations", "stock_count", "waste", "cards_on_foundations", "face_down_count")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(["yukon", "russian", "australian"]),
       picks=st.lists(st.integers(0, 1_000), min_size=1, max_size=12))
def test_replay_at_n_is_what_the_player_saw_after_n_moves(seed: int, variant: str, picks: list[int]) -> None:
    """Property: the replay's position after N moves is the state the game showed after those N moves."""
    registry = Registry(Store(":memory:"))
    session = registry.new_game(variant, {}, seed=seed)
    shown = [{k: session.to_state()[k] for k in VISIBLE}]
    for pick in picks:
        legal = session.game.legal_moves()
        if not legal:
            break
        session.play(str(legal[pick % len(legal)]))
        shown.append({k: session.to_state()[k] for k in VISIBLE})
    for at, seen in enumerate(shown):
        answer = session.replay_state(at)
        assert {k: answer[k] for k in VISIBLE} == seen
    assert len(session.moves) == len(shown) - 1  # replaying changed nothing
