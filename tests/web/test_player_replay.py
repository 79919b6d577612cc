"""The replay bar (P, and W: where did it go wrong?) in a real browser: it lies over the header and the status
line, so the table keeps its box and every card its place before, during and after the replay, on a desktop
and on a phone, and its controls stay on the screen, off the cards, and free of serious axe-core violations.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_player_table.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_setup import Server
from test_player_table import LOSING_LINE, PHONE, box, game_after, open_game
from test_web_browser import SETTINGS, agree, settle
from test_web_table import AXE, axe

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/player-shots")
VIEWPORTS = [{"width": 1280, "height": 800}, PHONE]


def card_boxes(page: Any) -> list[tuple[float, float, float, float]]:
    """Where every card of the table is on the screen (sorted: the same cards in the same places compare equal)."""
    return sorted(map(tuple, page.evaluate(
        "[...document.querySelectorAll('#table .card')].map((c) => { const r = c.getBoundingClientRect();"
        " return [r.x, r.y, r.width, r.height]; })")))


def controls_in_view(page: Any, viewport: dict[str, int], table: dict[str, float]) -> None:
    """Every control of the replay bar shown is whole on the screen, in the bar, above the table."""
    bar = box(page, "#replay-bar")
    assert bar["y"] == 0 and bar["y"] + bar["h"] <= table["y"] + 0.5, (bar, table)  # over the chrome, not the cards
    shown = page.evaluate(
        "[...document.querySelectorAll('#replay-bar button, #replay-slider')].filter((b) => b.offsetParent)"
        ".map((b) => { const r = b.getBoundingClientRect();"
        " return {id: b.id, x: r.x, y: r.y, w: r.width, h: r.height, text: b.innerText}; })")
    assert len(shown) >= 6, shown
    for b in shown:
        assert b["x"] >= 0 and b["x"] + b["w"] <= viewport["width"] + 0.5, b  # not cut off at the side
        assert b["y"] >= 0 and b["y"] + b["h"] <= table["y"] + 0.5, b  # nor under the table's top
        assert b["id"] == "replay-slider" or b["h"] >= (36 if viewport == PHONE else 28), b  # big enough to touch
    buttons = page.evaluate("(() => { const e = document.querySelector('.replay-buttons');"
                            " return [e.scrollWidth, e.clientWidth]; })()")
    assert buttons[0] <= buttons[1], buttons  # no button scrolled out of sight


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["desktop", "phone"])
def test_the_replay_does_not_move_the_table(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    # the replay bar used to push the table down (71 px on a desktop, 164 on a phone; 112 and 221 with the
    # analysis) and long columns then overlapped the indices of their cards
    page = open_game(browser, server, game_after(server, LOSING_LINE), **viewport, settings={**SETTINGS})
    table, card, cards = box(page, "#table"), page.evaluate("window.yukon.geom.W"), card_boxes(page)
    page.keyboard.press("p")
    page.wait_for_function(f"document.getElementById('replay-pos').textContent === 'Move 9 of {len(LOSING_LINE)}'")
    settle(page)
    page.wait_for_timeout(300)  # (a layout the bar asked for would be done by now)
    assert box(page, "#table") == table and page.evaluate("window.yukon.geom.W") == card
    assert card_boxes(page) == cards  # the last move of the replay is the position in play, in the same places
    controls_in_view(page, viewport, table)
    assert page.is_visible("#replay-analyse") and page.is_visible("#replay-play")
    assert page.inner_text("#replay-next") == "Where you are now in the game."
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('replay-pos').textContent === 'Move 0 of 9'")
    settle(page)
    assert box(page, "#table") == table
    assert card_boxes(page) != cards  # (the test sees cards move when they do)
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('replay-pos').textContent === 'Move 9 of 9'")
    settle(page)
    if viewport != PHONE:  # a window made narrower: the bar follows the header, which takes more height
        page.set_viewport_size({"width": 600, "height": 800})  # (a phone's header: up to 840 px it keeps one row)
        page.wait_for_timeout(300)
        bar, narrow = box(page, "#replay-bar"), box(page, "#table")
        assert narrow["y"] > table["y"] and bar["h"] == narrow["y"], (bar, narrow)
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)
        settle(page)
    page.keyboard.press("Escape")
    page.wait_for_selector("#replay-bar", state="hidden")
    settle(page)
    assert box(page, "#table") == table and card_boxes(page) == cards
    assert page.evaluate("[...document.querySelectorAll('header.bar *')].some((e) => e.inert)") is False
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["desktop", "phone"])
def test_where_did_it_go_wrong_does_not_move_the_table(browser: Any, server: Server,
                                                       viewport: dict[str, int]) -> None:
    name = "desktop" if viewport != PHONE else "phone"
    page = open_game(browser, server, game_after(server, LOSING_LINE), **viewport, settings={**SETTINGS})
    table, card = box(page, "#table"), page.evaluate("window.yukon.geom.W")
    page.keyboard.press("w")
    agree(page, "ends this game")  # (W ends the game in play first, once the player agrees)
    page.wait_for_selector("#replay-analysis", state="visible", timeout=60000)
    settle(page)
    page.wait_for_timeout(300)
    assert box(page, "#table") == table and page.evaluate("window.yukon.geom.W") == card
    controls_in_view(page, viewport, table)
    assert "Move 9 lost the game" in page.inner_text("#replay-analysis")
    text, analysis = box(page, ".replay-text"), box(page, "#replay-analysis")
    assert analysis["y"] < text["y"] + text["h"] <= table["y"] + 0.5, (analysis, text)  # begins in sight
    # a phone says it in short; the name of each button is what it shows
    line = page.inner_text("#replay-line")
    assert line == ("Winning line" if name == "phone" else "Show the winning line"), line
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"test-replay-analysis-{name}.png"))
    if AXE.exists():  # (moderate ones too: the page keeps its heading while the bar lies over the header)
        assert axe(page, impacts=("moderate", "serious", "critical")) == []
    page.click("#replay-line")  # the winning line plays itself out: Space pauses it
    page.wait_for_function("window.yukon.replay.cont && window.yukon.replay.cont.k >= 1", timeout=30000)
    page.keyboard.press(" ")
    page.wait_for_function("!document.getElementById('replay-animate').textContent.includes('Pause')")
    settle(page)
    assert box(page, "#table") == table and page.evaluate("window.yukon.geom.W") == card
    controls_in_view(page, viewport, table)
    page.screenshot(path=str(SHOTS / f"test-replay-line-{name}.png"))
    if AXE.exists():
        assert axe(page, impacts=("moderate", "serious", "critical")) == []
    page.keyboard.press("Escape")  # back to the game's moves
    page.wait_for_function("!window.yukon.replay.cont")
    page.click("#replay-close")
    page.wait_for_selector("#replay-bar", state="hidden")
    assert box(page, "#table") == table
    assert page.errors == []
    page.context.close()
