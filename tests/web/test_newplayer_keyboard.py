"""What a new player playing by keyboard met in a real browser (round web5), each fixed with its test here.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_setup import Server
from test_web_browser import open_page, settle

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
