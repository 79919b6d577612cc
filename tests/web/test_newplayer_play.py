"""What a new player met playing whole games in a real browser (Yukon, Russian, Alaska, Australian Patience and
Milligan Yukon, at desktop and phone sizes), each fixed with its test here.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_web_table.py.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_player_table import box, open_game
from test_web_browser import SETTINGS, agree, open_page, pile_point, settle
from test_web_table import deal

from yukon import Game

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/hint_games.py, shared with the terminal game's tests

from hint_games import ROUND_IN_CIRCLES, ROUND_IN_CIRCLES_MOVE

pytestmark = pytest.mark.browser

ANIMATED = {**SETTINGS, "animate": True}
#: The ace of hearts under nothing, the rest of the hearts in one column: the ace's move sends them all up
HEARTS_TO_GO = "yukon,kings,noreturn KHQHJHTH9H8H7H6H5H4H3H2H/AH/-/-/-/-/- KS/-/KD/KC"
HEARTS = [r + "H" for r in "KQJT98765432"]


def dealt_delays(page: Any) -> list[float]:
    """Deal from the stock: the transition delays (ms) of the cards it turns up, in the order of the table."""
    before = page.evaluate("[...document.querySelectorAll('#table .card')].map((e) => e.dataset.key)")
    moves = page.evaluate("window.yukon.state.move_count")
    point = pile_point(page, "S")
    page.mouse.click(point["x"], point["y"])
    page.wait_for_function(f"window.yukon.state.move_count > {moves}")
    return page.evaluate(
        "(before) => [...document.querySelectorAll('#table .card')].filter((e) => !before.includes(e.dataset.key))"
        ".map((e) => parseFloat(e.style.transitionDelay))", before)


@pytest.mark.parametrize(("variant", "cards"), [("australian", 1), ("milligan-yukon", 8)])
def test_the_cards_dealt_from_the_stock_leave_it_at_once_one_after_another(browser: Any, server: Server,
                                                                          variant: str, cards: int) -> None:
    """A click on the stock showed nothing for 900 ms in Australian Patience (the waste's card waited by its
    place among all the cards), and a row of Milligan Yukon came unevenly, its last three at once."""
    page = open_page(browser, server, settings=ANIMATED)
    deal(page, variant, 21)
    page.wait_for_timeout(1200)  # (the new deal's own flight)
    delays = dealt_delays(page)
    assert len(delays) == cards and delays[0] == 0, delays
    steps = [b - a for a, b in itertools.pairwise(delays)]
    assert len(set(steps)) <= 1 and all(0 < s <= 60 for s in steps), delays  # evenly, and soon over
    settle(page)
    page.context.close()


def z_order(page: Any, names: list[str]) -> list[int]:
    return page.evaluate("(names) => names.map((n) => +document.querySelector(`.card[data-name='${n}']`).style.zIndex)",
                         names)


def test_a_column_going_up_card_after_card_keeps_its_order_until_each_card_flies(browser: Any,
                                                                                 server: Server) -> None:
    """The cards of a column that automatic play sends up one after another waited in their column with their
    foundation's order: reversed, each hiding the index of the card above it (King on top), for over a second."""
    position = Game.from_text(HEARTS_TO_GO).to_dict()
    gid = httpx.post(server.url + "api/games", json={"position": position, "autoplay": False}).json()["id"]
    page = open_game(browser, server, gid, settings={**ANIMATED, "autoplay": True, "autofinish": True})
    page.wait_for_timeout(1200)
    page.dblclick(".card[data-name='AH']", position={"x": 8, "y": 6})
    page.wait_for_function("window.yukon.state.result === 'won'")
    order = z_order(page, HEARTS)  # (they leave 90 ms apart, the Two first: the King a second later)
    waiting = [z for z in order if z > 900]  # over the drop zones and every card at rest
    assert len(waiting) >= 3 and order[:len(waiting)] == waiting, order  # the last to leave: the King and on
    assert waiting == sorted(waiting) and len(set(waiting)) == len(waiting), order  # in the column's order
    page.wait_for_function("(names) => names.every((n) => +document.querySelector(`.card[data-name='${n}']`)"
                           ".style.zIndex < 100)", arg=HEARTS, timeout=8000)
    landed = z_order(page, HEARTS)
    assert landed == sorted(landed, reverse=True), landed  # on the foundation: the King on top
    page.context.close()


@pytest.mark.parametrize(("variant", "clicks"), [("australian", 3), ("milligan-yukon", 2)])
def test_quick_clicks_on_the_stock_deal_each_time(browser: Any, server: Server, variant: str, clicks: int) -> None:
    """A quick second click on the stock was taken for half a double click (nothing dealt), or, while the
    cards of the last deal were still leaving the stock, for a click on one of them ("2♠ has no legal move")."""
    page = open_page(browser, server, settings=ANIMATED)
    deal(page, variant, 21)
    page.wait_for_timeout(1200)  # (the new deal's own flight)
    point = pile_point(page, "S")
    for _ in range(clicks):
        page.mouse.click(point["x"], point["y"], delay=20)  # (each one within a double click's time)
    page.wait_for_function(f"window.yukon.state.move_count === {clicks}", timeout=10000)
    settle(page)
    assert page.evaluate("window.yukon.state.moves") == ["deal"] * clicks
    assert not page.evaluate("document.querySelector('#message').classList.contains('error')"), page.inner_text(
        "#message")
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_an_honest_hint_with_every_move_going_back_says_how_to_go_on(browser: Any, server: Server, width: int,
                                                                      height: int) -> None:
    """A game going round in circles has moves, so no "No moves left" box comes: its hint said "every move leads
    back to a position seen already: undo, or ask the solver hint", with no word of where to ask it (Options)
    nor a way to where the game was lost (Where did it go wrong? is under Replay). On a phone the button the
    status line then offers must leave Watch beside it in the window (a long one pushed Watch off its edge)."""
    position = Game.from_text(ROUND_IN_CIRCLES).to_dict()
    gid = httpx.post(server.url + "api/games", json={"position": position, "autoplay": False}).json()["id"]
    httpx.post(server.url + f"api/games/{gid}/moves", json={"move": ROUND_IN_CIRCLES_MOVE}).raise_for_status()
    page = open_game(browser, server, gid, width=width, height=height)
    page.click("#btn-hint")
    page.wait_for_function("document.querySelector('#message').textContent.includes('seen already')")
    said = page.inner_text("#message")
    assert said.startswith("Hint (no peeking): every move leads back to a position seen already"), said
    assert '"Solver hint" in Options' in said and "Where did it go wrong?" in said, said
    assert page.is_visible("#status-action") and page.inner_text("#status-action") == "Where did it go wrong?"
    row = box(page, "#status-row")
    in_row = page.evaluate("document.querySelector('#btn-demo').closest('#status-row') !== null")
    assert in_row == (width < 640)  # (on a phone, Watch is in the status line)
    for button in ("#status-action", "#btn-demo") if in_row else ("#status-action",):
        b = box(page, button)
        assert b["x"] >= 0 and b["right"] <= width and b["w"] >= 40 and 24 <= b["h"] <= row["h"], (button, b)
        # its words within it, none cut off (squeezed, it took four lines where it had room for two)
        assert page.evaluate("(s) => { const e = document.querySelector(s);"
                             " return e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1; }",
                             button), button
    page.click("#status-action")  # what it names, it does: the game is given up (once agreed) and analysed
    agree(page, "End this game?")
    page.wait_for_function("!document.querySelector('#replay-analysis').hidden"
                           " && document.querySelector('#replay-analysis').textContent.length > 0", timeout=30000)
    assert page.evaluate("window.yukon.replay.live.result") is not None
    assert page.errors == []
    page.context.close()
