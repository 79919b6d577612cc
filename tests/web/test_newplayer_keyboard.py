"""What a new player playing by keyboard met in a real browser (round web5), each fixed with its test here.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_player_table import LOSING_LINE, game_after, open_game
from test_web_browser import open_page, settle
from test_web_table import deal

from yukon import Game
from yukon.rules import rules_for

pytestmark = pytest.mark.browser

#: what has the focus: the tag, its id, and whether it is a card or a slot of the table
FOCUSED = ("(() => { const a = document.activeElement;"
           " return a ? `${a.tagName}#${a.id}${a.closest && a.closest('#table') ? ' on the table' : ''}` : ''; })()")


def watching(page: Any) -> None:
    """The computer plays the page's fresh deal (T: no question, the player has not moved yet)."""
    page.keyboard.press("t")
    page.wait_for_selector("#demo-bar:not([hidden])")


@pytest.mark.parametrize("how", ["Stop button", "Esc on the bar"])
def test_stopping_the_computer_from_its_bar_leaves_the_focus_on_the_table(browser: Any, server: Server,
                                                                          how: str) -> None:
    """The bar's buttons vanish when the computer stops: a keyboard user who stopped it with its Stop button (or
    Esc on Pause) was left with the focus on the page itself, and had to Tab from the top to get back to the
    cards to "play on from here"."""
    page = open_page(browser, server)
    settle(page)
    watching(page)
    if how == "Stop button":
        page.focus("#demo-stop")
        page.keyboard.press("Enter")
    else:
        page.focus("#demo-pause")
        page.keyboard.press("Enter")  # paused: the focus still on the bar
        page.wait_for_selector("#demo-bar.paused")
        page.keyboard.press("Escape")
    page.wait_for_selector("#demo-bar", state="hidden")
    assert page.evaluate(FOCUSED).endswith("on the table")
    assert page.errors == []
    page.context.close()


def test_undo_pressed_to_the_start_leaves_the_focus_on_the_table(browser: Any, server: Server) -> None:
    """Undo, pressed by keyboard until no move was left to take back, went grey with the focus on it: the
    browser dropped the focus onto the page (Tab started again from the deal number)."""
    page = open_game(browser, server, game_after(server, LOSING_LINE[:2]))
    page.focus("#btn-undo")
    for moves in (1, 0):
        page.keyboard.press("Enter")
        page.wait_for_function(f"window.yukon.state.move_count === {moves}")
    settle(page)
    assert page.is_disabled("#btn-undo")
    assert page.evaluate(FOCUSED).endswith("on the table")
    assert page.errors == []
    page.context.close()


def test_the_replay_opened_and_closed_by_keyboard_keeps_the_focus(browser: Any, server: Server) -> None:
    """The replay bar covers the header: Replay pressed by keyboard left the focus on a button made inert (the
    page, for the browser), and the bar's Close (or Play from here) left it on a button that vanished."""
    page = open_game(browser, server, game_after(server, LOSING_LINE[:2]))
    page.focus("#btn-replay")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-bar:not([hidden])")
    settle(page)
    assert page.evaluate(FOCUSED) == "INPUT#replay-slider"  # (← → step through the moves from there)
    page.focus("#replay-close")
    page.keyboard.press("Enter")
    page.wait_for_selector("#replay-bar", state="hidden")
    settle(page)
    assert page.evaluate(FOCUSED).endswith("on the table")
    assert page.errors == []
    page.context.close()


def test_the_analysis_names_the_winning_line_button_as_a_phone_labels_it(browser: Any, server: Server) -> None:
    """On a phone the button reads "Winning line" (its "Show the" left out for room), but the analysis told the
    player to press "Show the winning line", a button they could not find; then "winning line", not as it reads."""
    pos = Game.from_text("russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C")
    gid = httpx.post(server.url + "api/games", json={"position": pos.to_dict()}).json()["id"]
    assert httpx.post(server.url + f"api/games/{gid}/moves", json={"move": "6:JC>7"}).json()["status"] == "lost"
    for size in ({"width": 390, "height": 844}, {"width": 1280, "height": 800}):
        page = open_game(browser, server, gid, **size)
        page.keyboard.press("Escape")  # (the box at the end)
        page.keyboard.press("w")
        page.wait_for_selector("#replay-analysis:not([hidden])", timeout=30000)
        label = page.inner_text("#replay-line").strip()
        quoted = re.findall(r'"([^"]*)"', page.inner_text("#replay-analysis"))
        assert quoted == [label], (quoted, label)  # (as it reads: "winning line" beside "Winning line" on a phone)
        assert page.errors == []
        page.context.close()


def test_the_empty_stock_offers_no_redeal(browser: Any, server: Server) -> None:
    """No variant here deals the stock twice, but once Australian Patience's stock ran out its place showed a ↻
    (the sign to turn the waste over) under a hand cursor: a click on it only said "The stock is empty."."""
    gid = httpx.post(server.url + "api/games", json={"variant": "australian", "seed": 21}).json()["id"]
    for _ in range(24):
        assert httpx.post(server.url + f"api/games/{gid}/moves", json={"move": "deal"}).status_code == 200
    page = open_game(browser, server, gid)
    assert page.evaluate("window.yukon.state.stock_count") == 0
    mark, cursor = page.evaluate("(() => { const s = document.querySelector('.slot[data-pile=\"S\"]');"
                                 " return [getComputedStyle(s, '::after').content, getComputedStyle(s).cursor]; })()")
    assert "↻" not in mark and cursor != "pointer", (mark, cursor)
    assert page.errors == []
    page.context.close()


def test_the_help_speaks_of_the_stock_only_in_a_game_with_one(browser: Any, server: Server) -> None:
    """Help told a new player of Yukon, which deals every card, to "Click the stock to deal" (and that D deals
    from it): they looked for a stock that is not there."""
    page = open_page(browser, server)
    for variant, has_stock in (("yukon", False), ("australian", True), ("milligan-yukon", True)):
        deal(page, variant, 7)
        page.click("#btn-help")
        page.wait_for_selector("#dlg-help[open]")
        told = page.inner_text("#dlg-help")
        assert ("Click the stock to deal" in told) is has_stock, variant
        assert ("deal from the stock" in told) is has_stock, variant
        page.keyboard.press("Escape")
        page.wait_for_selector("#dlg-help", state="hidden")
    assert page.errors == []
    page.context.close()


def test_the_digit_keys_go_as_far_as_the_game_has_columns(browser: Any, server: Server) -> None:
    """Help listed 1…8 for Yukon's seven columns, and 8 (a card picked up or not) did nothing and said
    nothing: the picked card stayed up, as if the key had not come."""
    page = open_page(browser, server)
    for variant, columns in (("yukon", 7), ("milligan-yukon", 8)):
        deal(page, variant, 7)
        page.click("#btn-help")
        page.wait_for_selector("#dlg-help[open]")
        assert f"1…{columns}\tput the picked-up card on that column" in page.inner_text("#dlg-help"), variant
        # the rules in a player's words (it said "Yukon (empty column: kings, foundation return: off)")
        rules = rules_for(variant)
        assert page.inner_text("#help-rules") == (f"{rules.title}: {rules.about} {rules.build_in_words}"
                                                  f" {rules.options_in_words}")
        page.keyboard.press("Escape")
        page.wait_for_selector("#dlg-help", state="hidden")
        page.keyboard.press("1")  # the focus on column 1's free card
        page.keyboard.press("Enter")
        page.wait_for_selector(".card.lifted")
        page.keyboard.press(str(columns + 1))
        page.wait_for_function("document.querySelector('#message').textContent.includes('no column')")
        said = page.inner_text("#message")
        assert said == f"There is no column {columns + 1}: {page.evaluate('window.yukon.state.title')} has {columns}."
        assert page.query_selector(".card.lifted") is not None  # still picked up: a digit of a column puts it there
        page.keyboard.press("Escape")
    assert page.errors == []
    page.context.close()
