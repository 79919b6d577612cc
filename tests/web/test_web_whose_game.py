"""Whose game "resume" gives: every browser has an id of its own (a cookie), each game records the browser
that started it, and on a server shared beyond loopback ``GET /api/games/latest`` answers only with the
asking browser's game, as several players there share one token. On loopback it stays the local player's."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_client import LOCAL, error_of, new_game

from yukon import Game
from yukon.record import GameRecord
from yukon.store import Store
from yukon.web import create_app

TOKEN = "shared-token"
HOST = "http://192.168.7.2:8123"
BROWSER_COOKIE = "yukon-browser-8123"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "whose.sqlite3")
    yield s
    s.close()


@contextmanager
def shared_clients(store: Store, count: int) -> Iterator[list[TestClient]]:
    """``count`` browsers of one server served beyond loopback, each with the token (in a header)."""
    app = create_app(store, hosts=["127.0.0.1", "192.168.7.2"], port=8123, token=TOKEN)
    clients = [TestClient(app, base_url=HOST, headers={"authorization": f"token {TOKEN}"}) for _ in range(count)]
    with clients[0]:
        yield clients


def browser_cookie(response: object) -> str:
    cookies = [v for k, v in response.headers.multi_items() if k == "set-cookie"]  # type: ignore[attr-defined]
    mine = [c for c in cookies if c.startswith("yukon-browser-")]
    assert len(mine) == 1, cookies
    return mine[0]


def test_on_a_shared_server_each_browser_resumes_only_its_own_game(store: Store) -> None:
    with shared_clients(store, 3) as (alice, bob, newcomer):
        a = new_game(alice, seed=1)
        b = new_game(bob, seed=2)  # Bob's game is the latest one on the server
        assert alice.get("/api/games/latest").json()["id"] == a["id"]  # before: Bob's game, without its id
        assert bob.get("/api/games/latest").json()["id"] == b["id"]
        assert "no unfinished game" in error_of(newcomer.get("/api/games/latest"), 404)
        assert newcomer.get("/api/games/latest", params={"missing_ok": "true"}).status_code == 204
        # an id is still how a game is reached (a link shared on purpose)
        assert newcomer.get(f"/api/games/{a['id']}").json()["id"] == a["id"]
        # a browser's newer game, played or imported, is its latest; the other browser's stays its own
        a2 = new_game(alice, seed=3)
        assert alice.get("/api/games/latest").json()["id"] == a2["id"]
        assert bob.get("/api/games/latest").json()["id"] == b["id"]
        record = GameRecord.from_game(Game.deal("yukon", seed=4)).to_dict()
        imported = bob.post("/api/games/import", json={"record": record})
        assert imported.status_code == 201, imported.text
        assert bob.get("/api/games/latest").json()["id"] == imported.json()["id"]
        assert alice.get("/api/games/latest").json()["id"] == a2["id"]


def test_a_browser_resumes_its_game_after_the_server_restarts(store: Store) -> None:
    with shared_clients(store, 2) as (alice, bob):
        a = new_game(alice, seed=1)
        new_game(bob, seed=2)
        cookie = alice.cookies[BROWSER_COOKIE]
    with shared_clients(store, 1) as (alice_again,):
        assert alice_again.get("/api/games/latest").status_code == 404  # a browser never seen
        alice_again.cookies.clear()
        alice_again.cookies.set(BROWSER_COOKIE, cookie)
        assert alice_again.get("/api/games/latest").json()["id"] == a["id"]


def test_on_loopback_the_latest_game_is_the_local_players_whatever_the_browser(store: Store) -> None:
    app = create_app(store)
    with TestClient(app, base_url=LOCAL) as firefox, TestClient(app, base_url=LOCAL) as terminal_browser:
        first = new_game(firefox, seed=1)
        assert terminal_browser.get("/api/games/latest").json()["id"] == first["id"]
        second = new_game(terminal_browser, seed=2)
        assert firefox.get("/api/games/latest").json()["id"] == second["id"]


def test_the_browser_cookie_is_set_once_unguessable_and_out_of_scripts_reach(store: Store) -> None:
    with shared_clients(store, 2) as (alice, bob):
        first = alice.get("/")
        cookie = browser_cookie(first)
        assert cookie.startswith(f"{BROWSER_COOKIE}=")
        for attribute in ("HttpOnly", "SameSite=Strict", "Path=/"):
            assert attribute in cookie
        assert "yukon-browser-" not in " ".join(v for k, v in alice.get("/api/variants").headers.multi_items()
                                                if k == "set-cookie")  # kept, not set again
        assert bob.get("/").status_code == 200
        ids = {alice.cookies[BROWSER_COOKIE], bob.cookies[BROWSER_COOKIE]}
        assert len(ids) == 2 and all(len(i) >= 22 for i in ids)
        # a made-up value is no browser id: the server gives one of its own
        new_game(alice, seed=1)
        alice.cookies.clear()
        alice.cookies.set(BROWSER_COOKIE, "a")
        r = alice.get("/api/games/latest")
        assert r.status_code == 404 and browser_cookie(r) != cookie


def test_the_browser_cookie_comes_with_the_token_cookie(store: Store) -> None:
    app = create_app(store, hosts=["192.168.7.2"], port=8123, token=TOKEN)
    with TestClient(app, base_url=HOST, follow_redirects=False) as c:
        r = c.get("/", params={"token": TOKEN})
        assert r.status_code == 303
        assert browser_cookie(r).startswith(f"{BROWSER_COOKIE}=")


def test_no_browser_cookie_is_given_to_a_request_the_guard_refuses(store: Store) -> None:
    with shared_clients(store, 1) as (alice,):
        r = alice.get("/api/variants", headers={"authorization": "token wrong"})
        assert r.status_code == 403
        assert not [v for k, v in r.headers.multi_items() if k == "set-cookie"]


def test_games_of_an_older_store_are_no_browsers_on_a_shared_server(tmp_path: Path) -> None:
    """A store of schema 2 (before browsers were recorded) opens, upgraded; its unfinished game is the
    local player's latest on loopback, and no browser's on a shared server."""
    path = tmp_path / "old.sqlite3"
    store = Store(path)
    with TestClient(create_app(store), base_url=LOCAL) as local:
        gid = new_game(local, seed=5)["id"]
    store.close()
    raw = sqlite3.connect(path)  # the file as schema 2 left it
    raw.execute("DROP INDEX games_browser")
    raw.execute("ALTER TABLE games DROP COLUMN browser")
    raw.execute("PRAGMA user_version=2")
    raw.commit()
    raw.close()
    store = Store(path)
    try:
        with TestClient(create_app(store), base_url=LOCAL) as local:
            assert local.get("/api/games/latest").json()["id"] == gid
        with shared_clients(store, 1) as (remote,):
            assert remote.get("/api/games/latest").status_code == 404
            assert remote.get(f"/api/games/{gid}").status_code == 200
    finally:
        store.close()


def test_a_navigation_from_another_site_does_not_replace_the_browsers_cookie(store: Store) -> None:
    """SameSite=Strict: a link followed from another site comes without the cookie the browser has; the
    page's own requests bring it, so that answer must not replace it (the player would lose "resume")."""
    with shared_clients(store, 1) as (alice,):
        a = new_game(alice, seed=1)
        cookie = alice.cookies[BROWSER_COOKIE]
        alice.cookies.clear()
        r = alice.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
        assert r.status_code == 200 and not [v for k, v in r.headers.multi_items() if k == "set-cookie"]
        alice.cookies.set(BROWSER_COOKIE, cookie)  # the page's own requests bring it
        assert alice.get("/api/games/latest").json()["id"] == a["id"]
        alice.cookies.clear()
        r = alice.get("/", headers={"sec-fetch-site": "none"})  # typed in the address bar: a first visit
        assert browser_cookie(r)


def test_on_a_shared_server_each_browser_sees_only_its_own_statistics(store: Store) -> None:
    """Players who share a server's token keep their own record: a win of Bob's is not in Alice's
    statistics (before: every browser saw every player's games), and a newcomer starts with none."""
    won_soon = Game.from_text("yukon,kings,noreturn KS/-/-/-/-/-/- QS/KH/KD/KC").to_dict()
    with shared_clients(store, 3) as (alice, bob, newcomer):
        b = new_game(bob, position=won_soon)
        assert bob.post(f"/api/games/{b['id']}/moves", json={"move": "1:KS>F"}).json()["result"] == "won"
        a = new_game(alice, seed=5)
        assert alice.post(f"/api/games/{a['id']}/resign").status_code == 200
        assert [(r["played"], r["won"]) for r in bob.get("/api/stats").json()["stats"]] == [(1, 1)]
        assert [(r["played"], r["won"]) for r in alice.get("/api/stats").json()["stats"]] == [(1, 0)]
        assert newcomer.get("/api/stats").json()["stats"] == []
        assert sum(r.played for r in store.stats()) == 2  # (the store keeps everyone's)


def test_on_loopback_the_statistics_are_the_local_players_whatever_the_browser(store: Store) -> None:
    """One player's machine: the browser's statistics count the terminal game's games and every browser's."""
    store.create_game("tui-game", "yukon", {}, None, Game.deal("yukon", seed=1).to_dict(), "tui",
                      result="lost")
    app = create_app(store)
    with TestClient(app, base_url=LOCAL) as one, TestClient(app, base_url=LOCAL) as other:
        g = new_game(one, seed=2)
        assert one.post(f"/api/games/{g['id']}/resign").status_code == 200
        assert sum(r["played"] for r in other.get("/api/stats").json()["stats"]) == 2
