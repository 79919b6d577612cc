"""The game's clock counts no time while no page is open: a browser killed (or crashed) sends no pause as a closed
tab does, and its game's clock ran on until the page came back (1:31 became 1:55 after a 20 s kill). The page
beats while the clock runs (clock.js); after a silence longer than PAGE_GONE_SECONDS the time since the last sign of
life is not counted. Times are exact: the fake clock of tests/fake_clock.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_client import app_client, new_game

from fake_clock import FakeClock
from yukon.store import Store
from yukon.web.session import HEARTBEAT_SECONDS, PAGE_GONE_SECONDS


@pytest.fixture
def client(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    store = Store(tmp_path / "web.sqlite3")
    with app_client(store, game_clock=clock) as c:
        yield c
    store.close()


def _started(client: TestClient) -> str:
    """A game whose clock runs (from the player's first own move), at the fake clock's now."""
    s = new_game(client, seed=5)
    played = client.post(f"/api/games/{s['id']}/moves", json={"move": s["legal_moves"][0]})
    assert played.status_code == 200 and played.json()["clock_running"], played.text
    return str(s["id"])


def _elapsed(client: TestClient, gid: str) -> float:
    return float(client.get(f"/api/games/{gid}").json()["elapsed"])


def test_the_clock_counts_nothing_after_the_page_went_silent(client: TestClient, clock: FakeClock) -> None:
    gid = _started(client)
    clock.now += 4
    assert _elapsed(client, gid) == 4  # (a request: a sign of life at 4 s)
    clock.now += 20  # the browser killed for 20 s, then the page opened again
    assert _elapsed(client, gid) == 4  # nothing of the 20 s; and the clock runs on from the page's return
    clock.now += 3
    r = client.post(f"/api/games/{gid}/clock", json={"running": True})
    assert r.json() == {"elapsed": 7, "clock_running": True}


def test_a_beating_page_loses_no_time(client: TestClient, clock: FakeClock) -> None:
    gid = _started(client)
    for _ in range(10):  # a player thinking for 50 s, the page beating every 5 s
        clock.now += HEARTBEAT_SECONDS
        assert client.post(f"/api/games/{gid}/clock", json={"running": True}).json()["clock_running"]
    clock.now += PAGE_GONE_SECONDS  # a beat late (a busy machine), not yet gone
    assert _elapsed(client, gid) == 10 * HEARTBEAT_SECONDS + PAGE_GONE_SECONDS


def test_the_time_saved_after_a_silence_ends_at_the_last_sign_of_life(client: TestClient, clock: FakeClock,
                                                                     tmp_path: Path) -> None:
    # the pause sent when the page comes back and is hidden at once: the 600 s without a page are not saved
    gid = _started(client)
    clock.now += 2
    assert _elapsed(client, gid) == 2
    clock.now += 600
    client.post(f"/api/games/{gid}/clock", json={"running": False})
    assert Store(tmp_path / "web.sqlite3").load_game(gid).elapsed == 2


@pytest.mark.browser
def test_the_page_beats_while_its_clock_runs(browser: Any, server: Any) -> None:
    """The page's side: while the clock runs it tells the server it is open, within a beat (else the server
    would take a player thinking for a minute for a page gone)."""
    from test_web_browser import open_page, settle, start_deal, state

    page = open_page(browser, server)
    s = start_deal(page, 5)
    page.evaluate(f"window.yukon.sendMove({json.dumps(s['legal_moves'][0])})")
    page.wait_for_function("window.yukon.state.clock_running === true")
    settle(page)
    with page.expect_request(lambda r: r.url.endswith(f"/api/games/{s['id']}/clock"),
                             timeout=(HEARTBEAT_SECONDS + 3) * 1000) as beat:
        pass
    assert beat.value.post_data_json == {"running": True}
    assert state(page)["clock_running"]
    assert page.errors == []
    page.context.close()
