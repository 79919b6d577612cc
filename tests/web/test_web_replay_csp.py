"""The replay works under the server's strict Content-Security-Policy (no eval, no inline style)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_setup import require_browser, strict_page

pytestmark = pytest.mark.browser
sync_api = require_browser()


def test_the_replay_steps_under_the_csp(strict_url: str) -> None:
    with strict_page() as page:
        page.goto(strict_url)
        page.wait_for_selector(".card", timeout=20_000)
        game: Any = page.request.get(strict_url + "api/games/latest").json()
        played: Any = page.request.post(strict_url + f"api/games/{game['id']}/moves",
                                        data={"move": game["legal_moves"][0]}).json()
        n = played["moves_made"]  # the deal may have played a card or two by itself: they are not counted
        page.reload()
        sync_api.expect(page.locator("#move-count")).to_have_text(str(n), timeout=20_000)
        page.keyboard.press("p")
        sync_api.expect(page.locator("#replay-pos")).to_have_text(f"Move {n} of {n}")
        page.keyboard.press("ArrowLeft")
        sync_api.expect(page.locator("#replay-pos")).to_have_text(f"Move {n - 1} of {n}")
        sync_api.expect(page.locator("#move-count")).to_have_text(str(n - 1))
        page.keyboard.press("Escape")
        sync_api.expect(page.locator("#replay-bar")).to_be_hidden()
        sync_api.expect(page.locator("#move-count")).to_have_text(str(n))


def test_the_winning_line_plays_under_the_csp(strict_url: str) -> None:
    from yukon import Game

    trap = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"
    with strict_page() as page:
        position = Game.from_text(trap).to_dict()
        game: Any = page.request.post(strict_url + "api/games", data={"position": position}).json()
        page.request.post(strict_url + f"api/games/{game['id']}/moves", data={"move": "2:6H>F"})
        # the line at its fastest speed (the demo's setting, which the line follows): 150 ms between two moves,
        # not 900; what runs under the CSP (the steps, their animation, the button) is the same at any speed
        page.add_init_script("localStorage.setItem('yukon.settings', JSON.stringify({demoSpeed: 'fastest'}))")
        page.goto(strict_url + f"?game={game['id']}")
        sync_api.expect(page.locator("#move-count")).to_have_text("1", timeout=20_000)
        page.keyboard.press("w")
        page.click("#ask-ok")  # (the game in play is ended first, once the player agrees)
        sync_api.expect(page.locator("#replay-pos")).to_have_text("Move 0 of 1", timeout=30_000)
        page.click("#replay-line")
        sync_api.expect(page.locator("#replay-next")).to_have_text("Won: every card is up.", timeout=60_000)
        sync_api.expect(page.locator("#replay-animate")).to_have_text("↻ Play the line again")
