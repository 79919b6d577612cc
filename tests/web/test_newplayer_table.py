"""What a new player could not read at the table, in a real browser: on a phone the replay bar has room for
about one line of "Where did it go wrong?", and the status line for two lines of a hint. "More" opens the bar
over the top of the table to show the whole analysis, and a message cut short is shown whole in a box over
the table; the table and its cards do not move, and axe-core finds nothing serious.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_player_table.py.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from browser_setup import Server
from test_player_replay import card_boxes
from test_player_table import LOSING_LINE, PHONE, box, game_after, open_game
from test_web_browser import SETTINGS, agree, settle
from test_web_table import AXE, axe

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


def analysis_shown(page: Any) -> dict[str, Any]:
    """Where the analysis paragraph is, and how much of it its scrolling box shows."""
    return page.evaluate(
        "(() => { const t = document.querySelector('.replay-text'), a = document.getElementById('replay-analysis');"
        " const bar = document.getElementById('replay-bar').getBoundingClientRect(), r = a.getBoundingClientRect();"
        " return {bottom: r.bottom, barBottom: bar.bottom, hidden: t.scrollHeight - t.clientHeight}; })()")


def text_fades(page: Any) -> bool:
    """Whether the replay bar's text box fades out at the bottom (a mask over it)."""
    return page.evaluate("(() => { const s = getComputedStyle(document.querySelector('.replay-text'));"
                         " return (s.maskImage || s.webkitMaskImage || 'none') !== 'none'; })()")


def where_did_it_go_wrong(browser: Any, server: Server, viewport: dict[str, int]) -> Any:
    page = open_game(browser, server, game_after(server, LOSING_LINE), **viewport, settings={**SETTINGS})
    page.keyboard.press("w")
    agree(page, "ends this game")  # (W ends the game in play first, once the player agrees)
    page.wait_for_selector("#replay-analysis", state="visible", timeout=60000)
    settle(page)
    page.wait_for_timeout(200)
    return page


def test_a_phone_opens_the_whole_analysis_over_the_table_and_folds_it_back(browser: Any, server: Server) -> None:
    page = where_did_it_go_wrong(browser, server, PHONE)
    table, cards = box(page, "#table"), card_boxes(page)
    bar = box(page, "#replay-bar")
    assert bar["h"] == table["y"]  # the bar lies over the header only
    shown = analysis_shown(page)
    assert shown["hidden"] > 10, shown  # (the phone cuts the paragraph: the test sees it when it does)
    assert text_fades(page)  # the last line it has room for fades out (cut in half, it looked like a fault)
    more = box(page, "#replay-more")
    assert page.inner_text("#replay-more") == "More ▾" and more["h"] >= 36  # big enough to touch
    assert more["y"] + more["h"] <= table["y"] + 0.5 and more["right"] <= PHONE["width"]
    page.click("#replay-more")
    page.wait_for_timeout(100)
    shown = analysis_shown(page)
    assert shown["hidden"] <= 1 and shown["bottom"] <= shown["barBottom"] <= PHONE["height"], shown  # all of it
    assert page.get_attribute("#replay-more", "aria-expanded") == "true" and page.inner_text("#replay-more") == "Less ▴"
    assert not text_fades(page)
    assert box(page, "#table") == table and card_boxes(page) == cards  # over the table: nothing moved
    if AXE.exists():
        assert axe(page) == []
    page.keyboard.press("ArrowLeft")  # stepping keeps it open
    page.wait_for_function("document.getElementById('replay-pos').textContent === 'Move 7 of 9'")
    assert page.get_attribute("#replay-more", "aria-expanded") == "true"
    page.click("#replay-more")
    page.wait_for_timeout(100)
    assert box(page, "#replay-bar")["h"] == table["y"] and page.inner_text("#replay-more") == "More ▾"
    page.click("#replay-close")  # a replay opened again starts folded
    page.wait_for_selector("#replay-bar", state="hidden")
    page.keyboard.press("p")
    page.wait_for_selector("#replay-bar", state="visible")
    settle(page)
    assert page.evaluate("!document.getElementById('replay-bar').classList.contains('open')")
    assert box(page, "#replay-bar")["h"] == table["y"] and box(page, "#table") == table
    assert page.errors == []
    page.context.close()


def test_a_desktop_shows_the_analysis_without_more(browser: Any, server: Server) -> None:
    page = where_did_it_go_wrong(browser, server, DESKTOP)
    assert analysis_shown(page)["hidden"] <= 1
    assert page.is_hidden("#replay-more")
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_hint_cut_short_is_shown_whole_over_the_table(browser: Any, server: Server,
                                                          viewport: dict[str, int]) -> None:
    page = open_game(browser, server, game_after(server, []), **viewport,
                     settings={**SETTINGS, "solverHint": True, "winnable": True})
    table, cards = box(page, "#table"), card_boxes(page)
    page.keyboard.press("h")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Solver hint:')",
                           timeout=60000)
    said = page.inner_text("#message")
    assert said.endswith("it sees the face-down cards"), said
    cut = page.evaluate("(() => { const m = document.getElementById('message');"
                        " return m.scrollHeight > m.clientHeight + 1 || m.scrollWidth > m.clientWidth + 1; })()")
    if not cut:  # a desktop has room for the whole hint: nothing over the table
        assert viewport == DESKTOP and page.is_hidden("#message-whole")
        page.context.close()
        return
    assert viewport == PHONE  # (the phone's two lines beside the verdict and Watch cut it short)
    # (the box may come a frame later: the verdict landing beside the message is what cuts it short)
    page.wait_for_selector("#message-whole", state="visible", timeout=5000)
    assert page.inner_text("#message-whole") == said
    whole = box(page, "#message-whole")
    assert whole["x"] >= 0 and whole["right"] <= viewport["width"], whole
    assert page.evaluate("(() => { const w = document.getElementById('message-whole');"
                         " return w.scrollHeight <= w.clientHeight + 1; })()")  # all of it shown
    for other in ("#winnable", "#btn-demo"):  # the verdict and Watch beside it stay in sight
        b = box(page, other)
        assert b["x"] >= whole["right"] - 0.5 or b["y"] >= whole["y"] + whole["h"], (other, b, whole)
    assert box(page, "#table") == table and card_boxes(page) == cards
    assert page.evaluate("getComputedStyle(document.getElementById('message-whole')).pointerEvents") == "none"
    if AXE.exists():
        assert axe(page) == []
    page.evaluate("document.getElementById('message-whole').hidden = true")  # (as after a few seconds)
    page.click("#message")  # a click on the message shows it again
    assert page.is_visible("#message-whole")
    page.evaluate("window.yukon.say('Put back.')")  # a short message: the box goes
    assert page.is_hidden("#message-whole")
    # a new message cut short only later, when something comes beside it, is shown whole then
    page.evaluate("Object.assign(document.getElementById('message').style, {minWidth: '0', maxWidth: '24px'})")
    page.wait_for_selector("#message-whole", state="visible", timeout=5000)
    assert page.inner_text("#message-whole") == "Put back."
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_help_opens_at_its_title_and_keeps_close_in_sight(browser: Any, server: Server,
                                                              viewport: dict[str, int]) -> None:
    # the whole dialog used to scroll, and focusing its text at opening scrolled the title "How to play" away;
    # Close lay 1000-1800 px below, at the end of the text
    page = open_game(browser, server, game_after(server, []), **viewport, settings={**SETTINGS})
    page.keyboard.press("?")
    page.wait_for_selector("#dlg-help", state="visible")
    page.wait_for_timeout(100)
    dialog, title = box(page, "#dlg-help"), box(page, "#dlg-help-title")
    close = box(page, "#dlg-help .dlg-buttons button")
    assert dialog["y"] <= title["y"] and title["y"] + title["h"] <= dialog["y"] + dialog["h"], (dialog, title)
    assert close["y"] + close["h"] <= min(viewport["height"], dialog["y"] + dialog["h"]), (close, dialog)
    assert page.evaluate("document.activeElement.classList.contains('help-body')")  # the text scrolls by keys
    page.keyboard.press("End")
    page.wait_for_function("(() => { const b = document.querySelector('#dlg-help .help-body');"
                           " return b.scrollTop > 0 && b.scrollTop + b.clientHeight >= b.scrollHeight - 1; })()")
    assert box(page, "#dlg-help-title") == title and box(page, "#dlg-help .dlg-buttons button") == close
    if AXE.exists():
        assert axe(page) == []
    page.keyboard.press("Escape")
    assert page.errors == []
    page.context.close()


def test_the_whole_message_goes_when_a_bar_comes_over_the_status_line(browser: Any, server: Server) -> None:
    page = open_game(browser, server, game_after(server, LOSING_LINE), **PHONE, settings={**SETTINGS})
    page.evaluate("window.yukon.say('A message far too long for the two lines a phone has beside the Watch button:"
                  " it goes on and on, so that the status line cuts it short.', false, true)")
    assert page.is_visible("#message-whole")
    page.keyboard.press("p")  # the replay bar lies over the status line: the box would poke out under it
    page.wait_for_selector("#replay-bar", state="visible")
    assert page.is_hidden("#message-whole")
    assert page.errors == []
    page.context.close()


# Yukon deal 7 after these moves: column 4 holds 3 face-down cards under 20 face-up ones.
LONG_COLUMN = ["6:2H+4>7", "5:QS+4>3", "3:9S+9>6", "2:TS+4>3", "3:JD+5>4", "7:QD+7>4", "6:8C>4"]


def fanned_column(page: Any, column: int) -> list[dict[str, Any]]:
    """The face-up cards of a column, bottom first: where each starts, and which index it shows."""
    return page.evaluate(
        "(c) => [...document.querySelectorAll(`#table .card.up[data-pile='c${c}']`)]"
        ".sort((a, b) => a.dataset.idx - b.dataset.idx).map(e => ({"
        " y: e.getBoundingClientRect().y, bottom: e.getBoundingClientRect().bottom,"
        " tight: e.classList.contains('tight'),"
        " thin: getComputedStyle(e.querySelector('svg .tight')).display !== 'none',"
        " index: [...e.querySelectorAll('svg .ix')].some(g => g.getBoundingClientRect().height > 0)}))", column)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_long_column_keeps_every_rank_readable(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    # a desktop used to squeeze a long column's fan to 18 px, under half of each card's index
    gid = game_after(server, LONG_COLUMN, seed=7)
    page = open_game(browser, server, gid, **viewport, settings={**SETTINGS})
    height, compact = page.evaluate("[window.yukon.geom.H, window.yukon.geom.compact]")
    readable = 0.3 if compact else 0.215  # the fan at which the card's own index shows (layout.js, MIN_UP)
    cards = fanned_column(page, 3)
    assert len(cards) == 20
    assert cards[-1]["bottom"] <= viewport["height"] + 0.5  # the whole column in the window
    assert not cards[-1]["tight"] and cards[-1]["index"]  # the card on top is shown whole
    for card, above in itertools.pairwise(cards):
        step = above["y"] - card["y"]
        if card["tight"]:  # the thin index (rank and suit in a strip a tenth of the card high) instead
            assert card["thin"] and not card["index"] and step >= 0.1 * height - 1, (card, step)
        else:
            assert card["index"] and not card["thin"] and step >= readable * height - 1, (card, step)
    if viewport == DESKTOP:
        assert all(c["tight"] for c in cards[:-1])  # (the test sees the thin index where it is used)
