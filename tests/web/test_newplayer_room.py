"""A new player's second look at the table (390x844 and 844x390 phones, a 1280x800 desktop): what lay over the
cards. On a phone the paused Watch bar grew to four lines over the foundations and named keys a touch screen has
not got; running, its two lines cut off where the card went. Long messages and hints dropped over the cards they
talked about. After Undo the focus fell to the page, and the table was twelve Tabs away.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_phone_play.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_setup import Server
from test_phone_play import UPRIGHT, open_phone

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
