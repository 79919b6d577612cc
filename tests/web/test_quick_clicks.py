"""Quick clicks on the table, in a real browser: each click on a card does what a click does, in order.

A single click whose best move is not to a foundation waits for the double-click time; a click on another
card used to cancel that wait, and the first click did nothing at all. The set-up: the fixtures of
conftest.py, the page helpers of test_web_browser.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_player_table import game_after, open_game
from test_web_browser import state

pytestmark = pytest.mark.browser


def click_card(page: Any, name: str) -> None:
    """A real mouse click on the visible top of card ``name``, wherever it lies now."""
    r = page.evaluate("(n) => { const r = document.querySelector(`.card[data-name='${n}']`).getBoundingClientRect();"
                      " return {x: r.x + r.width / 2, y: r.y + 6}; }", name)
    page.mouse.click(r["x"], r["y"])


def expected_moves(srv: Server, seed: int, cards: list[str]) -> list[str]:
    """What the clicks on ``cards`` play, one after the other: each card's best move in the game the clicks
    before it left (the server's best_moves, as the page reads them), played through the API."""
    gid = game_after(srv, [], seed)
    played: list[str] = []
    for card in cards:
        s = httpx.get(srv.url + f"api/games/{gid}").json()
        column = next(i for i, col in enumerate(s["tableau"]) if card in col["up"])
        best = s["best_moves"].get(f"{column + 1}:{card}")
        if best is None:
            continue
        r = httpx.post(srv.url + f"api/games/{gid}/moves", json={"move": best})
        assert r.status_code == 200, r.text
        played.append(best)
    return played


@pytest.mark.parametrize(("cards", "gap_ms"), [(["QC", "8C"], 150), (["QC", "8C", "7H", "JH", "QS", "TS"], 30)])
def test_every_quick_click_on_a_card_plays_its_move(browser: Any, server: Server, cards: list[str],
                                                    gap_ms: int) -> None:
    want = expected_moves(server, 7, cards)
    assert len(want) >= 2  # (the deal still offers these clicks something to do)
    page = open_game(browser, server, game_after(server, [], 7))
    for k, card in enumerate(cards):
        if k:
            page.wait_for_timeout(gap_ms)
        click_card(page, card)
    page.wait_for_function(f"window.yukon.state.move_count === {len(want)}")
    page.wait_for_timeout(600)  # (a click dropped or played twice would show by now: no more moves come)
    page.evaluate("window.yukon.queue()")
    assert state(page)["moves"] == want
    assert page.errors == []
    page.context.close()
