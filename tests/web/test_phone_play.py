"""What a player met on a phone (390x844 held upright, 844x390 sideways; touch): taps, hint, undo, Watch and the
New dialog at both sizes, in Yukon and Australian Patience. A hint to deal from the stock read "Hint (no peeking):
Dealt from the stock", as if the hint had dealt; it now names the move as it names a card's: "deal from the stock".
Watch's bar cut the computer's words at two lines, and a touch has no hover for their title: a tap shows them whole.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from browser_setup import Server
from test_web_browser import SETTINGS, settle, state

from yukon import Game

pytestmark = pytest.mark.browser

UPRIGHT = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}
# Australian Patience where nothing fits anywhere: the only move is to deal from the stock (tests/test_honest.py)
ONLY_DEAL = ("australian,kings,noreturn 5C3S5S9H8HAH4H3H/6SJC6C5D4DTS8D/QC3D5H7H/KH6DQD/9S/-/KSQS4STD9C AD/-/-/- "
             "3CJD2H2DTC2S7DKC8CKDTH7S6H4CJHASAC7C/QH9DJS8S2C")


def open_phone(browser: Any, server: Server, viewport: dict[str, int], position: str) -> Any:
    """A touch page of ``viewport`` size on a new game of ``position``."""
    import httpx

    gid = httpx.post(server.url + "api/games", json={"position": Game.from_text(position).to_dict()}).json()["id"]
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.add_init_script(f"localStorage.setItem('yukon.settings', {json.dumps(json.dumps(SETTINGS))})")
    page.goto(f"{server.url}?game={gid}")
    page.wait_for_function(f"window.yukon && window.yukon.state && window.yukon.state.id === '{gid}'")
    settle(page)
    return page


@pytest.mark.parametrize("viewport", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
def test_a_hint_to_deal_from_the_stock_names_the_move(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    page = open_phone(browser, server, viewport, ONLY_DEAL)
    assert state(page)["legal_moves"] == ["deal"]
    page.tap("#btn-hint")
    page.wait_for_selector(".zone.hint")  # the stock is shown
    message = page.inner_text("#message")
    assert message.startswith("Hint (no peeking): deal from the stock"), message  # a move to make, not one made
    assert state(page)["move_count"] == 0  # (and nothing was dealt)
    assert page.errors == []
    page.context.close()


WHOLE = "(() => { const e = document.getElementById('demo-what'); return e.scrollHeight <= e.clientHeight + 1; })()"


def test_a_tap_on_the_computers_words_shows_them_whole_while_it_plays(browser: Any, server: Server) -> None:
    """Watch on a phone: the bar's two lines cut the computer's move and odds short, and a touch has no hover for
    the title that holds them whole; a tap on them shows them whole, and the computer plays on."""
    page = open_phone(browser, server, UPRIGHT, Game.deal("yukon", seed=5).to_text())
    page.evaluate("window.yukon.settings.demoSpeed = 'slow'")
    page.tap("#btn-demo")
    said = "document.getElementById('demo-what').textContent.startsWith('The computer:')"
    page.wait_for_function(said, timeout=60_000)  # (its three lines over the toolbar may hold them already)
    folded = page.evaluate("document.getElementById('demo-bar').getBoundingClientRect().height")
    page.tap("#demo-what")
    assert page.evaluate(WHOLE), page.inner_text("#demo-what")  # every word in sight
    assert page.evaluate("window.yukon.demo.running")  # the tap took nothing over
    box = page.evaluate("document.getElementById('demo-bar').getBoundingClientRect().bottom")
    assert box <= UPRIGHT["height"] / 3, box  # over the top of the table only
    page.tap("#demo-what")  # a second tap folds it again
    assert page.evaluate("document.getElementById('demo-bar').getBoundingClientRect().height") <= folded + 1
    page.tap("#demo-stop")
    page.wait_for_selector("#demo-bar", state="hidden")
    assert page.errors == []
    page.context.close()


#: each toolbar button's box, its label's (the text itself, as drawn) and where its border ends inside
TOOLBAR = """() => [...document.querySelectorAll('.actions button')].filter((b) => b.offsetParent !== null).map((b) => {
  const r = b.getBoundingClientRect(), label = b.querySelector('span:last-child'), range = document.createRange();
  range.selectNodeContents(label);
  const t = range.getBoundingClientRect(), s = getComputedStyle(b);
  return {id: b.id, x: r.x, right: r.right, top: r.y, bottom: r.bottom, text: label.textContent,
          tx: t.x, tright: t.right, ttop: t.y, tbottom: t.bottom,
          inner: [r.x + parseFloat(s.borderLeftWidth), r.right - parseFloat(s.borderRightWidth)]};
})"""


@pytest.mark.parametrize("viewport", [UPRIGHT, {"width": 360, "height": 740}], ids=["390", "360"])
def test_the_phones_toolbar_gives_every_label_room(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    """Nine buttons of one width in 390 px: "Restart" touched its button's edges and "Options" ran over them,
    and the row's ends were 4 px from the screen's edges. Each label now lies inside its button, and the row
    keeps 5 px from each edge."""
    page = open_phone(browser, server, viewport, Game.deal("yukon", seed=5).to_text())
    buttons = page.evaluate(TOOLBAR)
    assert [b["text"] for b in buttons] == ["New", "Restart", "Undo", "Redo", "Hint", "Replay", "Options", "Stats",
                                            "Help"]
    assert buttons[0]["x"] >= 5 and buttons[-1]["right"] <= viewport["width"] - 5, (buttons[0], buttons[-1])
    for b in buttons:
        left, right = b["inner"]
        assert b["tx"] >= left + 1 and b["tright"] <= right - 1, b  # the label inside the border, with room
        assert b["top"] <= b["ttop"] and b["tbottom"] <= b["bottom"], b
        # a finger's target: 40 px at 390 (docs/web.md); the smaller phone gives up some of it for the labels
        assert b["right"] - b["x"] >= (40 if viewport == UPRIGHT else 30), b
    for a, b in itertools.pairwise(buttons):
        assert a["right"] <= b["x"] and a["tright"] < b["tx"], (a, b)  # nothing over its neighbour
    assert page.errors == []
    page.context.close()


#: a finger's target (docs/web.md): 40 px on each side at least
FINGER = 40
TARGET = "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return {w: r.width, h: r.height}; }"


def test_the_phones_status_line_and_dialog_buttons_are_a_fingers_target(browser: Any, server: Server) -> None:
    # Watch in the status line was 75x36 at 390x844, the New dialog's Deal button 52x32 at 844x390
    page = open_phone(browser, server, UPRIGHT, Game.deal("yukon", seed=5).to_text())
    assert page.evaluate("document.querySelector('#btn-demo').closest('#status-row') !== null")
    watch = page.evaluate(TARGET, "#btn-demo")
    assert watch["w"] >= FINGER and watch["h"] >= FINGER, watch
    assert page.evaluate(TARGET, "#status-row")["h"] >= watch["h"]  # (inside its line)
    page.context.close()
    page = open_phone(browser, server, SIDEWAYS, Game.deal("yukon", seed=5).to_text())
    page.tap("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    for button in ("#new-ok", "#new-cancel", "#new-import"):
        b = page.evaluate(TARGET, button)
        assert b["w"] >= FINGER and b["h"] >= FINGER, (button, b)
    assert page.errors == []
    page.context.close()
