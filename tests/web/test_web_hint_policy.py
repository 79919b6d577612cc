"""Hints through the web API follow one winning line to the win, never going back (the shared policy)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/hint_games.py, shared with the other interfaces

from hint_games import CASES, assert_never_went_back, case_id
from yukon import Game
from yukon.hinting import DEAL_LOST
from yukon.store import Store
from yukon.web import create_app

#: Seconds a search may take: generous, as the machine may be busy (a followed line takes none).
HINT_TIME = 10.0


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app for the module (its solver's worker processes started once, not for each game): every test
    plays a game of its own to its end, and nothing of one game changes another's."""
    store = Store(":memory:")  # hundreds of moves: no disk writes to wait for
    with TestClient(create_app(store, hint_time=HINT_TIME), base_url="http://127.0.0.1") as c:
        yield c
    store.close()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_following_hints_alone_wins_without_going_back(
    client: TestClient, case: tuple[str, dict[str, Any], int],
) -> None:
    variant, options, seed = case
    autoplay = CASES.index(case) % 2 == 0  # half the games with the automatic plays, half without
    state = client.post("/api/games", json={"variant": variant, "options": options, "seed": seed,
                                            "autoplay": autoplay, "autofinish": autoplay}).json()
    gid = state["id"]
    searched = 0
    for _ in range(1500):
        if state["status"] != "playing":
            break
        h = client.post(f"/api/games/{gid}/hint", json={"kind": "solver"}).json()
        assert h["status"] == "won" and h["move"] in state["legal_moves"], h
        searched += h["seconds"] > 0
        state = client.post(f"/api/games/{gid}/moves",
                            json={"move": h["move"], "autoplay": autoplay, "autofinish": autoplay}).json()
    assert state["status"] == "won"
    start = Game.deal(variant, seed=seed, **options)
    assert_never_went_back(start, state["moves"])
    assert searched <= 4  # the line found is followed: no search for the moves along it


def test_a_deal_proved_lost_says_so(client: TestClient) -> None:
    lost = Game.from_text("yukon,kings,noreturn JSKH.QS/JHKS.QH/JDKC.QD/JCKD.QC/TC/-/- TS/TH/TD/9C").to_dict()
    state = client.post("/api/games", json={"position": lost}).json()
    h = client.post(f"/api/games/{state['id']}/hint", json={"kind": "solver"}).json()
    assert h["status"] == "lost" and h["note"] == DEAL_LOST
