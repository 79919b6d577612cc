"""The server's short ways (docs/web.md, "Speed"): the fast lane for a move and a game's state gives
the same answers as the FastAPI routes, JSON encoded by orjson is the JSON the browser had, and the
session's remembered texts and legal moves give what they replace."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from starlette.responses import JSONResponse
from web_client import LOCAL

from yukon.store import Store
from yukon.web import create_app
from yukon.web.app import JSONBody, MoveBody, RequestThreads
from yukon.web.lane import move_request
from yukon.web.session import Registry

# ---------------------------------------------------------------------- the lane takes exactly what the route takes

_values = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.floats(allow_nan=False), st.text(max_size=8),
                    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=3), st.booleans(),
                                                                            max_size=2))
_counts = st.one_of(_values, st.integers(-3, 10**20), st.sampled_from([3.0, 2.0**60]))
_bodies = st.one_of(
    st.dictionaries(st.sampled_from(["move", "autoplay", "autofinish", "at", "undo", "Move"]), _values, max_size=4),
    st.fixed_dictionaries({"move": st.one_of(st.text(max_size=10), _values)},
                          optional={"autoplay": _values, "autofinish": _values, "undo": _values,
                                    "at": _counts}),
    _values,
)


def _route_takes(body: bytes) -> tuple[str, bool, bool, int | None] | None:
    """What the move route's body model makes of a JSON body (None: a 4xx)."""
    try:
        data = json.loads(body)
        model = MoveBody.model_validate(data)
    except (ValueError, ValidationError):
        return None
    return model.move, model.autoplay, model.autofinish, model.at


@settings(max_examples=400, deadline=None)
@given(_bodies)
def test_the_lane_takes_exactly_the_bodies_the_move_route_takes(value: Any) -> None:
    body = json.dumps(value).encode()
    assert move_request("application/json", body) == _route_takes(body)


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "application/jsonx"])
def test_the_lane_leaves_other_content_types_to_fastapi(content_type: str | None) -> None:
    assert move_request(content_type, b'{"move": "2:7H>5"}') is None
    assert move_request("Application/JSON; charset=utf-8", b'{"move": "2:7H>5"}') == ("2:7H>5", False, False, None)


@pytest.mark.parametrize("body", [b"", b"{", b'{"move": NaN}', b'{"move": "\\ud800"}', b"[" * 5000, b"\xff"])
def test_bodies_the_lane_cannot_read_go_to_fastapi(body: bytes) -> None:
    assert move_request("application/json", body) is None


# ---------------------------------------------------------------------- the same answers, lane or not

_ID = re.compile(r"[A-Za-z0-9_-]{22}")


def _script(client: TestClient) -> list[tuple[int, Any]]:
    """A game's requests, good and bad, and what came back (game ids left out: they are random)."""
    out: list[tuple[int, Any]] = []

    def keep(r: Any) -> Any:
        text = r.text
        data = json.loads(_ID.sub("ID", text)) if r.headers.get("content-type") == "application/json" else text
        out.append((r.status_code, data))
        return r.json()

    s = keep(client.post("/api/games", json={"seed": 42}))
    gid = s["id"]
    keep(client.get(f"/api/games/{gid}"))
    for _ in range(12):  # moves, the automatic plays after some
        s = keep(client.post(f"/api/games/{gid}/moves",
                             json={"move": s["legal_moves"][-1], "autoplay": len(s["moves"]) % 2 == 0}))
    keep(client.post(f"/api/games/{gid}/moves", json={"move": "1:KS>F"}))  # illegal: the rule and why
    keep(client.post(f"/api/games/{gid}/moves", json={"move": "up"}))  # not a move
    for bad in ('{"move": 5}', '{"move": "2:7H>5", "autoplay": 1}', '{"move": "2:7H>5", "undo": 1}', "{}", "[]",
                '{"move"', "null"):
        keep(client.post(f"/api/games/{gid}/moves", content=bad, headers={"content-type": "application/json"}))
    keep(client.post(f"/api/games/{gid}/moves", content='{"move": "2:7H>5"}', headers={"content-type": "text/plain"}))
    keep(client.post("/api/games/nosuchgame/moves", json={"move": "2:7H>5"}))
    keep(client.get("/api/games/nosuchgame"))
    keep(client.get("/api/games/latest"))
    keep(client.get("/api/games/import"))
    keep(client.post(f"/api/games/{gid}/resign"))
    keep(client.post(f"/api/games/{gid}/moves", json={"move": s["legal_moves"][0]}))  # the game is over
    keep(client.get(f"/api/games/{gid}"))
    return out


def test_the_lane_answers_as_the_routes_do(tmp_path: Path) -> None:
    answers = []
    for lane in (True, False):
        store = Store(tmp_path / f"lane-{lane}.sqlite3")
        with TestClient(create_app(store, fast_lane=lane), base_url=LOCAL) as client:
            answers.append(_script(client))
        store.close()
    with_lane, without = answers
    assert [status for status, _ in with_lane] == [status for status, _ in without]
    for (status, a), (_, b) in zip(with_lane, without, strict=True):
        if isinstance(a, dict):  # the clock runs between two requests: its reading differs
            a.pop("elapsed", None)
            b.pop("elapsed", None)
        assert a == b, status
    statuses = {status for status, _ in with_lane}
    assert {200, 201, 404, 409, 422}.issubset(statuses)


def test_the_lane_answers_well_formed_requests_itself_and_leaves_the_rest(store: Store) -> None:
    app = create_app(store)
    # without the routes, only the lane can answer a move or a game's state
    app.router.routes[:] = [r for r in app.router.routes
                            if not (isinstance(r, APIRoute) and r.path in ("/api/games/{game_id}/moves",
                                                                          "/api/games/{game_id}"))]
    with TestClient(app, base_url=LOCAL) as client:
        s = client.post("/api/games", json={"seed": 7}).json()
        played = client.post(f"/api/games/{s['id']}/moves", json={"move": s["legal_moves"][0]})
        assert played.status_code == 200 and played.json()["moves"] == [s["legal_moves"][0]]
        assert client.get(f"/api/games/{s['id']}").json()["moves"] == [s["legal_moves"][0]]
        assert client.get("/api/games/nosuch").status_code == 404  # the lane's answer, from the app's table
        assert "no game" in client.get("/api/games/nosuch").json()["error"]
        # a query (missing_ok) is the route's to read: it went on to FastAPI, which has no such route now
        assert client.get(f"/api/games/{s['id']}?missing_ok=true").status_code != 200
        # a body of another shape went on to FastAPI, which has no such route now
        assert client.post(f"/api/games/{s['id']}/moves", json={"move": 5}).status_code in (404, 405)
        # the guard still comes first
        assert client.post(f"/api/games/{s['id']}/moves", json={"move": s["legal_moves"][0]},
                           headers={"origin": "http://evil.example"}).status_code == 403
        assert client.get(f"/api/games/{s['id']}", headers={"host": "evil.example"}).status_code == 403


def test_a_well_formed_move_that_cannot_be_saved_is_a_503_and_changes_nothing(tmp_path: Path) -> None:
    import sqlite3

    store = Store(tmp_path / "locked.sqlite3", busy_timeout=0.2)
    with TestClient(create_app(store, close_store=True), base_url=LOCAL) as client:
        s = client.post("/api/games", json={"seed": 42}).json()
        other = sqlite3.connect(tmp_path / "locked.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            r = client.post(f"/api/games/{s['id']}/moves", json={"move": s["legal_moves"][0]})
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert r.status_code == 503 and set(r.json()) == {"error"}
        assert client.get(f"/api/games/{s['id']}").json()["moves"] == []


# ---------------------------------------------------------------------- JSON


def test_orjson_writes_the_json_starlette_wrote(store: Store) -> None:
    registry = Registry(store)
    session = registry.new_game("yukon", {}, seed=3)
    for _ in range(5):
        session.play(session.game.legal_moves()[0])
    for data in (session.to_state(), {"error": "7♥ needs a black 8; 9♣ is not one.", "n": 2**64 - 1},
                 {"elapsed": 12.345, "none": None, "list": [True, False, 0.5]}):
        assert JSONBody(data).body == JSONResponse(data).body


def test_what_orjson_cannot_write_still_goes_out() -> None:
    assert json.loads(JSONBody({"n": 2**70}).body) == {"n": 2**70}
    with pytest.raises(ValueError):
        JSONResponse({"n": float("nan")})  # Starlette refuses it; orjson writes null, still JSON
    assert json.loads(JSONBody({"n": float("nan")}).body) == {"n": None}


# ---------------------------------------------------------------------- what the session remembers

_actions = st.lists(st.sampled_from(["play", "play", "play", "undo", "redo", "restart"]), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), _actions, st.sampled_from(["yukon", "russian", "australian"]))
def test_the_line_s_texts_and_the_state_match_the_game(seed: int, actions: list[str], variant: str) -> None:
    from yukon.session import NothingToDoError

    registry = Registry(Store(":memory:"))
    session = registry.new_game(variant, {}, seed=seed)
    for k, action in enumerate(actions):
        try:
            if action == "play":
                legal = session.game.legal_moves()
                if not legal:
                    continue
                session.play(legal[k % len(legal)])
            else:
                getattr(session, action)()
        except NothingToDoError:
            pass
        assert session.line_texts() == [str(m) for m in session.game.move_stack]
        state = session.to_state()
        legal = session.game.legal_moves()
        assert state["status"] == session.status == session.status_of(legal)
        playing = state["status"] == "playing"
        assert state["legal_moves"] == ([str(m) for m in legal] if playing else [])
        assert state["best_moves"] == ({k: str(m) for k, m in session.best_moves().items()} if playing else {})
        assert state["foundation_moves"] == (
            {k: str(m) for k, m in session.foundation_moves().items()} if playing else {})
        assert registry.store.load_game(session.id).moves == state["moves"]  # type: ignore[union-attr]


def test_the_line_s_texts_follow_a_move_taken_back_by_a_failed_save(monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    store = Store(":memory:")
    session = Registry(store).new_game("yukon", {}, seed=11)
    first, second = session.game.legal_moves()[:2]
    real = store.update_game

    def fails_once(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(store, "update_game", real)
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "update_game", fails_once)
    with pytest.raises(sqlite3.OperationalError):
        session.play(first)  # written out, then taken back: the game is as it was
    session.play(second)
    assert session.to_state()["moves"] == [str(second)]
    assert store.load_game(session.id).moves == [str(second)]  # type: ignore[union-attr]


def test_a_lost_position_is_lost_with_or_without_the_legal_moves_given() -> None:
    from yukon import Game
    from yukon.web.session import Session

    lost = Session(Game.from_text("yukon,kings,noreturn 5S/KSQDJSTD9S8H9CKCQH/5D/3H.7C6H5C8D7S3C2DAS3S/"
                                  "ADTH4D6S.QSJHTS9D8C7HKHQCJDTC/4C8S9H.7D6C5H/JCKD4H4S6D2C.3D2S 2H/AC/-/-"))
    assert lost.game.legal_moves() == []
    assert lost.status == lost.status_of([]) == lost.status_of(None) == "lost"


# ---------------------------------------------------------------------- the request threads


def test_closing_the_request_threads_waits_for_the_work_under_way() -> None:
    import asyncio

    threads = RequestThreads(2)
    done: list[str] = []
    started = threading.Event()

    def slow() -> str:
        started.set()
        time.sleep(0.3)
        done.append("saved")
        return "ok"

    async def main() -> None:
        work = asyncio.ensure_future(threads.run(slow))
        await asyncio.get_running_loop().run_in_executor(None, started.wait)
        await asyncio.get_running_loop().run_in_executor(None, threads.close)
        assert done == ["saved"]  # close returned only once the work was done
        assert await work == "ok"
        assert await threads.run(lambda: "again") == "again"  # a new pool when needed

    asyncio.run(main())
