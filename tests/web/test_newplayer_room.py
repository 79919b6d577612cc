"""A new player's second look at the table (390x844 and 844x390 phones, a 1280x800 desktop): what lay over the
cards. On a phone the paused Watch bar grew to four lines over the foundations and named keys a touch screen has
not got; running, its two lines cut off where the card went. Long messages and hints dropped over the cards they
talked about. After Undo the focus fell to the page, and the table was twelve Tabs away.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_phone_play.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_setup import Server
from test_phone_play import UPRIGHT, open_phone
from test_web_browser import open_page, settle, start_deal, state

from yukon import Game

pytestmark = pytest.mark.browser

#: the top of the highest card or empty pile on the table (the foundations' row), in the window's pixels
TABLE_TOP = """(() => Math.min(...[...document.querySelectorAll('#table .card, #table .slot')]
  .map((e) => e.getBoundingClientRect().top)))()"""
#: whether the computer's move, its words before the odds in brackets, lies within the bar's words box
MOVE_SEEN = """(() => {
  const el = document.getElementById('demo-what'), t = el.firstChild;
  if (!t || !el.textContent.startsWith('The computer: ')) return null;
  const end = el.textContent.indexOf(' (') > 0 ? el.textContent.indexOf(' (') : el.textContent.length;
  const r = document.createRange(); r.setStart(t, 0); r.setEnd(t, end);
  return r.getBoundingClientRect().bottom <= el.getBoundingClientRect().bottom + 1;
})()"""


def watch_until_a_move(page: Any) -> None:
    page.evaluate("window.yukon.settings.demoSpeed = 'slow'")
    page.tap("#btn-demo")
    page.wait_for_function("document.getElementById('demo-what').textContent.startsWith('The computer:')",
                           timeout=60_000)


def test_on_a_phone_the_watch_bar_leaves_the_table_in_sight(browser: Any, server: Server) -> None:
    page = open_phone(browser, server, UPRIGHT, Game.deal("yukon", seed=5).to_text())
    top = page.evaluate(TABLE_TOP)
    watch_until_a_move(page)
    bar = page.locator("#demo-bar")
    assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= top + 0.5  # running: over no card
    assert page.evaluate(MOVE_SEEN), page.inner_text("#demo-what")  # where the card went, whole
    page.evaluate("window.yukon.demo.pause()")
    page.wait_for_function("document.getElementById('demo-what').textContent.includes('paused')", timeout=60_000)
    words = page.inner_text("#demo-what")
    assert "Space" not in words and "→" not in words, words  # a touch screen has neither key
    assert bar.bounding_box()["y"] + bar.bounding_box()["height"] <= top + 0.5, words  # paused: over no card
    assert page.evaluate(MOVE_SEEN), words
    # the toolbar's buttons lie under the bar: out of Tab's way until it goes
    assert page.evaluate("document.querySelector('header .actions').inert")
    page.tap("#demo-stop")
    page.wait_for_selector("#demo-bar", state="hidden")
    assert not page.evaluate("document.querySelector('header .actions').inert")
    assert page.errors == []
    page.context.close()


#: the message's box (fit.js), when it is shown: the cards and empty piles it lies over, and whether the message
#: in the status line is cut short
COVERED = """(() => {
  const w = document.getElementById('message-whole');
  const cut = document.getElementById('message').classList.contains('cut');
  if (w.hidden) return {shown: false, cut, over: []};
  const b = w.getBoundingClientRect();
  const over = [...document.querySelectorAll('#table .card, #table .slot')].filter((e) => {
    const r = e.getBoundingClientRect();
    return Math.min(b.right, r.right) - Math.max(b.left, r.left) > 0.5
      && Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top) > 0.5;
  }).map((e) => e.dataset.name || e.dataset.pile || e.getAttribute('aria-label'));
  return {shown: true, cut, over, text: w.textContent, bottom: b.bottom};
})()"""
SIZES = [(1280, 800), (390, 844), (844, 390)]


def open_sized(browser: Any, server: Server, width: int, height: int, position: str) -> Any:
    import httpx

    gid = httpx.post(server.url + "api/games", json={"position": Game.from_text(position).to_dict()}).json()["id"]
    touch = width < 900 and height < 900
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch,
                                  bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    settings = {"autoplay": True, "autofinish": False, "winnable": False, "animate": False}
    page.add_init_script(f"localStorage.setItem('yukon.settings', {json.dumps(json.dumps(settings))})")
    page.goto(f"{server.url}?game={gid}")
    page.wait_for_function(f"window.yukon && window.yukon.state && window.yukon.state.id === '{gid}'")
    settle(page)
    return page


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "upright", "sideways"])
def test_a_long_message_lies_over_no_card(browser: Any, server: Server, size: tuple[int, int]) -> None:
    # Milligan Yukon deal 77 tells why its A♦ is not played up: four lines over the stock and the foundations
    page = open_sized(browser, server, *size, Game.deal("yukon", seed=5).to_text())
    page.evaluate("window.yukon.newGame({variant: 'milligan-yukon', seed: 77})")
    page.wait_for_function("window.yukon.state.variant === 'milligan-yukon' && window.yukon.state.seed === 77")
    settle(page)
    message = page.inner_text("#message")
    assert "A♦ is not played up automatically" in message and message.endswith("plays it up."), message
    page.wait_for_function("!document.getElementById('message-whole').hidden")  # (cut short at every size)
    seen = page.evaluate(COVERED)
    assert seen["over"] == [], seen
    assert seen["bottom"] <= size[1], seen  # in the window
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("size", SIZES[1:], ids=["upright", "sideways"])
def test_a_hint_lies_over_no_card(browser: Any, server: Server, size: tuple[int, int]) -> None:
    # a hint at 844x390 covered the top of the very column it pointed at; upright, the foundations. The hints of
    # deal 4253 are asked for, a move played after each, until one is cut short in the status line (its odds make
    # it long).
    page = open_sized(browser, server, *size, Game.deal("yukon", seed=4253).to_text())
    for _ in range(8):
        count = page.evaluate("window.yukon.state.move_count")
        page.evaluate("document.getElementById('message').textContent = ''")
        page.keyboard.press("h")
        page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint')", timeout=60_000)
        seen = page.evaluate(COVERED)
        assert seen["shown"] == seen["cut"], seen
        assert seen["over"] == [], seen
        if seen["shown"]:
            break
        page.evaluate("window.yukon.sendMove(window.yukon.state.legal_moves[0])")
        page.wait_for_function(f"window.yukon.state.move_count > {count}")
        settle(page)
    assert seen["shown"], "no hint was cut short"
    assert page.errors == []
    page.context.close()


ON_TABLE = "document.getElementById('table').contains(document.activeElement)"


def test_after_undo_and_redo_the_focus_stays_on_the_table(browser: Any, server: Server) -> None:
    # after Ctrl+Z (or the Undo button) the focus fell to the page: Space and F then did nothing, silently
    page = open_page(browser, server)
    start_deal(page, 4253)
    page.locator('.card[data-name="JS"]').focus()  # the new player's move: J♠ and the cards on it to column 3
    page.keyboard.press("Enter")
    page.keyboard.press("3")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    for keys, count in (("Control+z", 0), ("Control+y", 1), ("Control+z", 0)):
        page.keyboard.press(keys)
        page.wait_for_function(f"window.yukon.state.move_count === {count}")
        settle(page)
        assert page.evaluate(ON_TABLE), (keys, page.evaluate("document.activeElement.outerHTML.slice(0, 80)"))
    # the Undo button, which the last undo disables: the focus goes on from the table, not from the page's top
    page.keyboard.press("Control+y")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    page.focus("#btn-undo")
    page.keyboard.press("Enter")
    page.wait_for_function("window.yukon.state.move_count === 0")
    settle(page)
    assert page.evaluate(ON_TABLE), page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    # a click on Undo, which stays enabled: the focus is not left on the button (Space would undo again)
    page.keyboard.press("Control+y")
    page.wait_for_function("window.yukon.state.move_count === 1")
    page.evaluate(f"window.yukon.sendMove({json.dumps(state(page)['legal_moves'][0])})")
    page.wait_for_function("window.yukon.state.move_count === 2")
    settle(page)
    page.click("#btn-undo")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    assert page.evaluate(ON_TABLE), page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    assert page.errors == []
    page.context.close()


def test_the_first_tab_goes_to_the_table(browser: Any, server: Server) -> None:
    # twelve Tabs from the top of the page to the table: the first stop now leads there
    page = open_page(browser, server)
    settle(page)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the table"
    assert page.evaluate("document.activeElement.getBoundingClientRect().height") > 10  # seen once it has the focus
    page.keyboard.press("Enter")
    assert page.evaluate(ON_TABLE)
    page.keyboard.press("Space")  # and the table's keys work from there
    page.wait_for_function("window.yukon.state.move_count === 1 || document.getElementById('message').textContent")
    assert page.errors == []
    page.context.close()


def test_the_phone_header_names_the_game_and_the_replay_says_what_asking_costs(browser: Any, server: Server) -> None:
    # upright, the header had no room for the game's name ("Yukon" vanished) and Watch sat alone on the status
    # line; the replay's button read "Where did it go wrong?" where a wider window added "(ends the game)"
    page = open_phone(browser, server, UPRIGHT, Game.deal("yukon", seed=5).to_text())
    page.evaluate("window.yukon.say('')")
    line = page.evaluate("getComputedStyle(document.getElementById('message'), '::before').content")
    assert "Yukon" in line, line
    assert page.locator("#message").bounding_box()["width"] > 100  # (beside Watch, on the same line)
    page.evaluate("window.yukon.sendMove(window.yukon.state.legal_moves[0])")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    page.tap("#btn-replay")
    page.wait_for_selector("#replay-analyse", state="visible")
    ask = page.locator("#replay-analyse")
    assert ask.inner_text().replace("\n", " ") == "Where did it go wrong? (ends the game)"
    fits = "(e) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"
    for button in ("#replay-analyse", "#replay-play", "#replay-close"):
        box = page.locator(button).bounding_box()
        assert page.locator(button).evaluate(fits) and box["x"] + box["width"] <= UPRIGHT["width"], button
    assert page.errors == []
    page.context.close()
