"""What a new player met at the table, in a real browser: the status line on a phone keeps room for the
message beside the "still winnable?" verdict, Watch does not move the table, and the winning line pauses
with Space whatever was clicked to open it.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_web_browser import SETTINGS, agree, open_page, settle, state

from yukon.difficulty import scale
from yukon.rules import VARIANTS

pytestmark = pytest.mark.browser

#: Yukon deal 802 (easy): these nine moves lose it, the ninth (6:6C+4>2) being the one that throws it away.
LOSING_LINE = ["5:2C+2>6", "4:4C+3>7", "7:6D+7>6", "6:JD+5>4", "3:9H>6", "2:2H+1>3", "6:TD+9>2", "2:9D+12>6",
               "6:6C+4>2"]
PHONE = {"width": 390, "height": 844}


def game_after(srv: Server, moves: list[str], seed: int = 802) -> str:
    """A Yukon game of ``seed`` with ``moves`` played (through the API, as the page would), by id."""
    gid = httpx.post(srv.url + "api/games", json={"variant": "yukon", "seed": seed}).json()["id"]
    for move in moves:
        r = httpx.post(srv.url + f"api/games/{gid}/moves", json={"move": move})
        assert r.status_code == 200, r.text
    return gid


def open_game(chromium: Any, srv: Server, gid: str, **kwargs: Any) -> Any:
    page = open_page(chromium, srv, **kwargs)
    page.goto(srv.url + "?game=" + gid)
    page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{gid}'")
    settle(page)
    return page


def box(page: Any, selector: str) -> dict[str, float]:
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.x, y: r.y, w: r.width, h: r.height, right: r.right}; }", selector)


@pytest.mark.parametrize("verdict", ["won", "lost"])
def test_a_phone_keeps_the_message_beside_the_winnable_verdict(browser: Any, server: Server, verdict: str) -> None:
    # the whole verdict used to take the phone's status line: a hint, or why a move was refused, was not seen
    moves = LOSING_LINE if verdict == "lost" else LOSING_LINE[:4]
    page = open_game(browser, server, game_after(server, moves), **PHONE, settings={**SETTINGS, "winnable": True})
    page.wait_for_selector(f"#winnable.{verdict}")
    if verdict == "lost":
        page.wait_for_selector("#btn-back-to-winnable:not([hidden])")
        assert page.inner_text("#btn-back-to-winnable") == "Undo to 8"
        assert page.get_attribute("#btn-back-to-winnable", "title") == "Undo to move 8 (last winnable)"
    page.click("#btn-hint")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint (no peeking)')")
    message, row = box(page, "#message"), box(page, "#status-row")
    assert message["w"] >= 0.3 * PHONE["width"], message
    assert message["h"] >= 30  # two lines of it
    # the verdict in one word, the whole of it for a screen reader; every control of the line on the screen
    assert page.inner_text("#winnable-short") == ("✓ Winnable" if verdict == "won" else "✗ Lost")
    assert "every card" in page.text_content("#winnable-text")
    for selector in ("#winnable", "#btn-demo"):
        b = box(page, selector)
        assert b["w"] > 0 and b["right"] <= row["right"] + 0.5, (selector, b, row)
    page.screenshot(path=f"/tmp/player-shots/test-phone-status-{verdict}.png")
    assert page.errors == []
    page.context.close()


def test_the_desktop_shows_the_whole_verdict(browser: Any, server: Server) -> None:
    page = open_game(browser, server, game_after(server, LOSING_LINE), settings={**SETTINGS, "winnable": True})
    page.wait_for_selector("#winnable.lost #btn-back-to-winnable:not([hidden])")
    assert page.inner_text("#winnable-text") == "✗ Can no longer be won, even knowing every card"
    assert not page.is_visible("#winnable-short")
    assert page.inner_text("#btn-back-to-winnable") == "Undo to move 8 (last winnable)"
    assert state(page)["move_count"] == len(LOSING_LINE)
    page.context.close()


def test_a_deal_lost_from_the_start_cannot_be_won_not_no_longer(browser: Any, server: Server) -> None:
    # "✗ Can no longer be won" at move 0 of a deal proven lost: no move of the player's lost it
    page = open_game(browser, server, game_after(server, [], 4145), settings={**SETTINGS, "winnable": True})
    page.wait_for_selector("#winnable.lost", timeout=60_000)
    assert state(page)["moves_made"] == 0
    assert page.inner_text("#winnable-text") == "✗ This deal cannot be won, even knowing every card"
    page.context.close()


def test_space_pauses_the_winning_line_opened_by_its_button(browser: Any, server: Server) -> None:
    # "Space pauses", says the line; it used to press the focused "Back to the game's moves" button instead
    page = open_game(browser, server, game_after(server, LOSING_LINE), settings={**SETTINGS, "winnable": False})
    page.keyboard.press("w")
    agree(page, "ends this game")  # (W ends the game in play first, once the player agrees)
    page.wait_for_selector("#replay-line", state="visible", timeout=60000)
    assert page.inner_text("#replay-pos") == f"Move {len(LOSING_LINE) - 1} of {len(LOSING_LINE)}"
    page.click("#replay-line")
    page.wait_for_function("window.yukon.replay.cont && window.yukon.replay.cont.k >= 1")
    assert page.inner_text("#replay-animate") == "‖ Pause"
    page.keyboard.press(" ")
    page.wait_for_function("document.getElementById('replay-animate').textContent === '▶ Play the line'")
    settle(page)
    paused_at = page.inner_text("#replay-pos")
    assert paused_at.startswith("Winning line: move ")
    page.wait_for_timeout(2000)  # (two steps of the line, were it playing)
    assert page.inner_text("#replay-pos") == paused_at
    page.keyboard.press(" ")  # and plays on
    page.wait_for_function(f"document.getElementById('replay-pos').textContent !== {paused_at!r}")
    assert page.inner_text("#replay-animate") == "‖ Pause"
    # + and − set its speed (the demo's setting, saved), and it plays on at once
    before = page.evaluate("window.yukon.settings.demoSpeed || 'normal'")
    order = ["slow", "normal", "fast", "fastest"]
    page.keyboard.press("-")
    slower = order[max(0, order.index(before) - 1)]
    assert page.evaluate("JSON.parse(localStorage.getItem('yukon.settings')).demoSpeed") == slower
    assert page.inner_text("#message") == f"Speed: {slower}"
    page.keyboard.press("+")
    assert page.evaluate("window.yukon.settings.demoSpeed") == order[order.index(slower) + 1]
    assert page.inner_text("#replay-animate") == "‖ Pause"
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, PHONE], ids=["desktop", "phone"])
def test_watch_does_not_move_the_table(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    # the Watch bar used to push the table down (38 px on a desktop, 76 on a phone) and back up when it stopped
    page = open_game(browser, server, game_after(server, []), **viewport, settings={**SETTINGS})
    table, card = box(page, "#table"), page.evaluate("window.yukon.geom.W")
    page.keyboard.press("t")
    page.wait_for_selector("#demo-bar:not([hidden])")
    page.wait_for_function("window.yukon.state.move_count >= 1", timeout=30000)
    page.wait_for_timeout(300)  # (a layout the bar asked for would be done by now)
    assert box(page, "#table") == table and page.evaluate("window.yukon.geom.W") == card
    bar, stop = box(page, "#demo-bar"), box(page, "#demo-stop")
    assert bar["y"] + bar["h"] <= table["y"] + 0.5  # over the status line, not over the cards
    assert stop["w"] > 0 and stop["right"] <= viewport["width"]
    assert page.is_visible("#demo-speed") and page.is_visible("#demo-pause")
    assert "The computer" in page.inner_text("#demo-what")
    page.keyboard.press("Escape")
    page.wait_for_selector("#demo-bar", state="hidden")
    assert box(page, "#table") == table
    assert page.inner_text("#message") == "Stopped: play on from here."
    assert page.errors == []
    page.context.close()


def test_w_on_a_game_given_up_while_winnable_shows_a_line_from_its_end(browser: Any, server: Server) -> None:
    # "no move lost it" used to be all: the player who gave up a winnable game did not see how to win it
    moves = LOSING_LINE[:4]
    page = open_game(browser, server, game_after(server, moves), settings={**SETTINGS})
    page.keyboard.press("w")
    agree(page, "ends this game")  # (W ends the game in play first, once the player agrees)
    page.wait_for_selector("#replay-analysis", state="visible", timeout=60000)
    assert "no move lost it" in page.inner_text("#replay-analysis")
    assert "Show the winning line" in page.inner_text("#replay-analysis")
    assert page.inner_text("#replay-pos") == f"Move {len(moves)} of {len(moves)}"
    page.click("#replay-line")
    page.wait_for_function("window.yukon.replay.cont && window.yukon.replay.cont.k >= 1")
    assert page.evaluate("window.yukon.replay.cont.from") == len(moves)
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('replay-next').textContent === 'Won: every card is up.'",
                           timeout=30000)
    won = state(page)
    assert won["cards_on_foundations"] == won["card_count"]
    page.keyboard.press("Escape")  # back to the game's moves, at its end
    page.wait_for_function(f"document.getElementById('replay-pos').textContent === 'Move {len(moves)} of {len(moves)}'")
    page.click("#replay-close")  # to the table of a game that is over: it says so (not "Back to the game.")
    page.wait_for_function("window.yukon.replay === null")
    # given up with moves still to play: it says so ("This game is over: it takes no more moves." read as a dead end)
    assert state(page)["result"] == "abandoned"
    assert page.inner_text("#message").startswith("This game was given up: it takes no more moves.")
    assert page.is_visible("#status-action") and page.inner_text("#status-action") == "New deal"
    assert page.errors == []
    page.context.close()


def test_statistics_fit_a_phone(browser: Any, server: Server) -> None:
    # the table of eight columns used to run 750 px wide in a 334 px dialog: most figures out of sight
    gid = game_after(server, LOSING_LINE[:1])
    assert httpx.post(server.url + f"api/games/{gid}/resign").status_code == 200  # (played: a row to show)
    page = open_page(browser, server, **PHONE)
    page.keyboard.press("s")
    page.wait_for_selector("#stats-body table")
    width = page.evaluate("(() => { const e = document.getElementById('stats-body');"
                          " return [e.scrollWidth, e.clientWidth]; })()")
    assert width[0] <= width[1], width
    labels = page.evaluate("[...document.querySelectorAll('#stats-body tr.current td[data-label]')]"
                           ".map((td) => getComputedStyle(td, '::before').content)")
    assert labels == ['"Played"', '"Won"', '"Win rate"', '"Streak"', '"Best streak"', '"Best time"', '"Fewest moves"']
    cells = page.locator("#stats-body tr.current td")
    for k in range(cells.count()):
        b = cells.nth(k).bounding_box()
        assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (k, b)
    page.screenshot(path="/tmp/player-shots/test-phone-stats.png")
    assert page.errors == []
    page.context.close()


def test_enter_deals_from_the_new_dialog_selects(browser: Any, server: Server) -> None:
    # Enter on the dialog's lists did nothing: a keyboard player had to Tab to "Deal"
    page = open_page(browser, server)
    before = state(page)["id"]
    page.keyboard.press("n")
    page.wait_for_selector("#dlg-new[open]")
    graded = next(name for name, r in VARIANTS.items()  # another variant that offers grades (docs/difficulty.md)
                  if name != "yukon" and scale(name, r.empty_column, r.foundation_return))
    page.select_option("#new-variant", graded)
    page.select_option("#new-deal", "winnable:easy")
    page.focus("#new-deal")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.yukon.state.id !== {before!r}")
    settle(page)
    assert not page.is_visible("#dlg-new")
    s = state(page)
    assert s["variant"] == graded and "winnable (easy)" in page.inner_text("#message")
    page.wait_for_selector("#deal-grade-wrap:not([hidden])")
    assert page.inner_text("#deal-grade-wrap") == "Difficulty easy"  # (not a second "Deal" beside the deal number)
    assert page.errors == []
    page.context.close()


def test_a_card_picked_up_lights_the_foundation_pile_the_server_names(browser: Any, server: Server) -> None:
    """The page worked out which foundation pile a card would go on with its own copy of the rule; the server's
    ``foundation_piles`` says it now (the engine's choice). Two decks: the 2♠ goes on the first A♠, the A♥ on the
    first empty pile, and a card played up lands where the light was."""
    from engine_helpers import make

    position = make("milligan-yukon", ["2S", "AH", "KC"], foundations=["AS", "-", "AS"] + ["-"] * 5, fill=2)
    gid = httpx.post(server.url + "api/games", json={"position": position.to_dict()}).json()["id"]
    page = open_game(browser, server, gid)
    lit = "[...document.querySelectorAll('.zone.target')].map((z) => z.dataset.pile).filter((p) => p[0] === 'f')"
    for card, pile in (("2S", "f0"), ("AH", "f1")):
        assert state(page)["foundation_piles"][card] == int(pile[1:])
        page.focus(f".card[data-name='{card}']")
        page.keyboard.press("Enter")  # picked up: its places light up
        assert page.evaluate(lit) == [pile], card
        page.keyboard.press("Escape")
        assert page.evaluate(lit) == []
    page.focus(".card[data-name='2S']")
    page.keyboard.press("f")
    page.wait_for_function("window.yukon.state.move_count === 1")
    assert state(page)["foundations"][0] == ["AS", "2S"]
    assert page.evaluate("document.querySelector('.zone[data-pile=\"f0\"]') !== null")
    assert page.errors == []
    page.context.close()


def test_an_ace_dealt_face_up_goes_up_with_the_deal_and_is_no_move(browser: Any, server: Server) -> None:
    # A new deal whose Ace went up by itself read "Moves 1", and Undo took the Ace back down
    # (Yukon deal 6 has an Ace face up and free; dealt as the page deals, with automatic play on)
    gid = httpx.post(server.url + "api/games", json={"variant": "yukon", "seed": 6, "autoplay": True}).json()["id"]
    page = open_game(browser, server, gid, settings={**SETTINGS, "autoplay": True})
    s = state(page)
    assert (s["move_count"], s["moves_made"], s["cards_on_foundations"]) == (1, 0, 1)
    assert page.inner_text("#move-count") == "0" and page.is_disabled("#btn-undo")
    assert page.is_disabled("#btn-restart") and page.is_disabled("#btn-replay")
    move = next(m for m in s["legal_moves"] if not m.endswith(">F"))
    page.evaluate("(m) => window.yukon.sendMove(m)", move)
    page.wait_for_function("window.yukon.state.moves_made === 1")
    settle(page)
    assert page.inner_text("#move-count") == "1"
    page.click("#btn-undo")
    page.wait_for_function("window.yukon.state.moves_made === 0")
    settle(page)
    assert state(page)["moves"] == s["moves"] and page.is_disabled("#btn-undo")  # the Ace stays up
