"""What a new player met playing whole games in a real browser (Yukon, Russian, Alaska, Australian Patience and
Milligan Yukon, at desktop and phone sizes), each fixed with its test here.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_web_table.py.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from browser_setup import Server
from test_web_browser import SETTINGS, open_page, pile_point, settle
from test_web_table import deal

pytestmark = pytest.mark.browser

ANIMATED = {**SETTINGS, "animate": True}


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
