"""The replay works under the server's strict Content-Security-Policy (no eval, no inline style)."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_csp import ARGS, CHROMIUM, sync_api, url

pytestmark = pytest.mark.browser
__all__ = ["url"]  # the fixture used here


def test_the_replay_steps_under_the_csp(url: str) -> None:
    console: list[tuple[str, str]] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: console.append((m.type, m.text)))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            page.wait_for_selector(".card", timeout=20_000)
            game: Any = page.request.get(url + "api/games/latest").json()
            played: Any = page.request.post(url + f"api/games/{game['id']}/moves",
                                            data={"move": game["legal_moves"][0]}).json()
            n = played["move_count"]  # the deal may have played a card or two by itself
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
        finally:
            browser.close()
    assert errors == []
    violations = [text for kind, text in console if "Content Security Policy" in text]
    assert [v for v in violations if "script-src" in v or "connect-src" in v or "eval" in v] == []


def test_the_winning_line_plays_under_the_csp(url: str) -> None:
    from yukon import Game

    trap = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"
    console: list[tuple[str, str]] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: console.append((m.type, m.text)))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("dialog", lambda d: d.accept())
            game: Any = page.request.post(url + "api/games", data={"position": Game.from_text(trap).to_dict()}).json()
            page.request.post(url + f"api/games/{game['id']}/moves", data={"move": "2:6H>F"})
            page.goto(url + f"?game={game['id']}")
            sync_api.expect(page.locator("#move-count")).to_have_text("1", timeout=20_000)
            page.keyboard.press("w")
            sync_api.expect(page.locator("#replay-pos")).to_have_text("Move 0 of 1", timeout=30_000)
            page.click("#replay-line")
            sync_api.expect(page.locator("#replay-next")).to_have_text("Won: every card is up.", timeout=60_000)
            sync_api.expect(page.locator("#replay-animate")).to_have_text("↻ Play the line again")
        finally:
            browser.close()
    assert errors == []
    violations = [text for kind, text in console if "Content Security Policy" in text]
    assert [v for v in violations if "script-src" in v or "connect-src" in v or "eval" in v] == []
