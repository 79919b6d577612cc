"""What a player met in the page's dialogs, in a real browser: on a phone held sideways the New dialog's lower
fields (Numbering, Deal) lay behind its buttons, which stay at its foot: focused or scrolled to, they could not be
seen. Watch after the player's own moves asked with the browser's native confirm(), and pausing Watch wiped out
the text of the computer's last move.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_web_table.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_player_table import LOSING_LINE, game_after, open_game
from test_web_browser import SETTINGS, open_page, state
from test_web_table import AXE, axe

pytestmark = pytest.mark.browser

#: Is the element in focus (or ``el``) wholly in sight: in the window, and the topmost thing at the middle of its
#: top and bottom edges (or its own label is)? What lies over it, if not.
COVERED = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
    return `out of the window: ${r.top}-${r.bottom}`;
  }
  for (const y of [r.top + 2, r.bottom - 2]) {
    const hit = document.elementFromPoint(r.left + r.width / 2, y);
    const mine = hit && (hit === el || el.contains(hit) || (hit.closest('label') && hit.closest('label').contains(el)));
    const what = hit ? `${hit.tagName}.${hit.className} ${(hit.textContent || '').slice(0, 20)}` : 'nothing';
    if (!mine) return `under ${what} at ${y}`;
  }
  return '';
}"""


@pytest.mark.parametrize("size", [(844, 390), (640, 360), (390, 844)])
def test_every_field_of_new_and_options_is_in_sight_when_focused_or_scrolled_to(
        browser: Any, server: Server, size: tuple[int, int]) -> None:
    page = open_page(browser, server, width=size[0], height=size[1])
    for button in ("btn-new", "btn-options"):
        page.click(f"#{button}")
        page.wait_for_selector("dialog[open]")
        fields = page.evaluate(  # (each numbered, with whether it takes the focus)
            "[...document.querySelectorAll('dialog[open] :is(select, input, p)')]"
            ".filter((e) => e.offsetHeight > 4 && e.type !== 'file')"
            ".map((e, i) => (e.dataset.k = i, [i, e.tagName !== 'P']))")
        assert len(fields) >= 7, fields
        seen = set()
        for _ in range(len(fields) + 6):  # the keyboard: Tab through the dialog, once round
            page.keyboard.press("Tab")
            k = page.evaluate("document.activeElement.dataset.k")
            if k is not None:
                seen.add(int(k))
                assert page.evaluate(f"({COVERED})(document.activeElement)") == "", (button, k)
        assert {k for k, focusable in fields if focusable} <= seen
        for k, _ in fields:  # a scroll (a finger, the wheel) that brings it just into view
            where = page.evaluate(f"(() => {{ const e = document.querySelector('dialog[open] [data-k=\"{k}\"]');"
                                  f" e.scrollIntoView({{block: 'nearest'}}); return ({COVERED})(e); }})()")
            assert where == "", (button, k, where)
        page.keyboard.press("Escape")
        page.wait_for_function("!document.querySelector('dialog[open]')")
    page.context.close()


def focus_stays_in(page: Any, selector: str) -> None:
    """Tab and Shift+Tab, twice round the controls, leave the focus inside ``selector``."""
    for key in ["Tab"] * 6 + ["Shift+Tab"] * 6:
        page.keyboard.press(key)
        assert page.evaluate("(s) => document.querySelector(s).contains(document.activeElement)", selector), key


def test_watch_after_your_own_moves_asks_in_the_pages_own_dialog(browser: Any, server: Server) -> None:
    page = open_game(browser, server, game_after(server, LOSING_LINE[:2]), settings={**SETTINGS})
    native = page.errors  # (a native dialog is one: open_page)
    page.keyboard.press("t")
    page.wait_for_selector("#dlg-ask[open]")
    assert native == []
    assert "not counted in your statistics" in page.inner_text("#dlg-ask")
    assert page.evaluate("document.activeElement.id") == "ask-ok"  # (Enter goes on, as the question is asked)
    focus_stays_in(page, "#dlg-ask")
    page.keyboard.press("Escape")  # Esc cancels: nothing is played
    page.wait_for_selector("#dlg-ask", state="hidden")
    assert not page.evaluate("window.yukon.demo.active")
    page.click("#btn-demo")  # the button asks the same, and the keyboard answers it
    page.wait_for_selector("#dlg-ask[open]")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "ask-cancel"
    page.keyboard.press("Enter")
    page.wait_for_selector("#dlg-ask", state="hidden")
    assert not page.evaluate("window.yukon.demo.active")
    page.keyboard.press("t")
    page.wait_for_selector("#dlg-ask[open]")
    page.keyboard.press("Enter")
    page.wait_for_function("window.yukon.demo.active")
    page.keyboard.press("Escape")
    page.wait_for_function("!window.yukon.demo.active")
    assert native == []
    page.context.close()


def test_where_did_it_go_wrong_in_play_asks_in_the_pages_own_dialog(browser: Any, server: Server) -> None:
    gid = game_after(server, LOSING_LINE[:2])
    page = open_game(browser, server, gid, settings={**SETTINGS})
    native = page.errors  # (a native dialog is one: open_page)
    page.keyboard.press("w")
    page.wait_for_selector("#dlg-ask[open]")
    assert native == [] and "ends this game" in page.inner_text("#dlg-ask")
    # ending a game is not undone: the focus starts on the button that keeps it
    assert page.evaluate("document.activeElement.id") == "ask-cancel"
    focus_stays_in(page, "#dlg-ask")
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-ask", state="hidden")
    assert httpx.get(f"{server.url}api/games/{gid}").json()["result"] is None
    assert state(page)["status"] == "playing" and not page.evaluate("!!window.yukon.replay")
    page.context.close()


def test_the_game_shows_only_once_every_script_of_the_page_has_run(browser: Any, server: Server) -> None:
    # the game came from the server while a later script (analysis.js: W, demo.js: T) was still on its way: a key
    # pressed at once, as soon as the game showed, did nothing (the dialog tests timed out on a busy machine)
    gid = game_after(server, LOSING_LINE[:2])
    context = browser.new_context(bypass_csp=True)
    context.add_init_script(
        "(() => { const look = () => { if (window.yukon && window.yukon.state) {"
        " window.stateShownWhile = document.readyState; return; } requestAnimationFrame(look); };"
        " requestAnimationFrame(look); })()")
    page = context.new_page()
    held: list[Any] = []
    page.route("**/static/analysis.js", lambda route: held.append(route))
    page.goto(f"{server.url}?game={gid}", wait_until="commit")
    page.wait_for_function("!!window.yukon && !!window.yukon.timings")  # main.js has run; analysis.js is held
    page.wait_for_timeout(1500)  # (the game's own requests take some milliseconds: time for them to show it)
    assert held and page.evaluate("window.stateShownWhile === undefined")
    held[0].continue_()
    page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{gid}'")
    assert page.evaluate("window.stateShownWhile") != "loading"
    page.keyboard.press("w")  # at once: the key is not lost
    page.wait_for_selector("#dlg-ask[open]")
    context.close()


NEARLY_WON = "yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC"  # two clicks from the win


def win_in_two(page: Any, server: Server) -> None:
    from yukon import Game

    gid = httpx.post(server.url + "api/games", json={"position": Game.from_text(NEARLY_WON).to_dict()}).json()["id"]
    page.goto(server.url + "?game=" + gid)
    page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{gid}'")
    page.click(".card[data-name='KS']")
    page.click(".card[data-name='KH']")
    page.wait_for_selector("#banner:not([hidden])")


def test_the_win_box_is_a_modal_dialog_the_keyboard_can_use(browser: Any, server: Server) -> None:
    # it was a div over the page: the focus went on behind it with Tab, to the table and the toolbar it covered,
    # and a screen reader was told of no dialog
    page = open_page(browser, server, settings={**SETTINGS})
    win_in_two(page, server)
    assert page.evaluate("document.getElementById('banner').matches('dialog:modal')")
    page.wait_for_function("document.activeElement.id === 'banner-new'")  # Enter deals the next one
    focus_stays_in(page, "#banner")
    buttons = set(page.evaluate(
        "[...document.querySelectorAll('#banner button')].filter((b) => b.getClientRects().length).map((b) => b.id)"))
    reached = set()
    for _ in range(len(buttons)):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id"))
    assert reached == buttons and "banner-stats" in buttons
    if AXE.exists():
        assert axe(page) == []
    page.keyboard.press("n")  # the game's keys work from its buttons, as they did from the box of old
    page.wait_for_selector("#dlg-new[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-new", state="hidden")
    assert page.evaluate("document.getElementById('banner').contains(document.activeElement)")
    page.keyboard.press("Escape")  # Esc closes it; the focus goes back to the table, not lost on the page
    page.wait_for_selector("#banner", state="hidden")
    assert not page.evaluate("document.getElementById('banner').open")
    page.wait_for_function("document.getElementById('table').contains(document.activeElement)")
    # a button that opens another dialog leaves the focus in that one
    win_in_two(page, server)
    page.click("#banner-stats")
    page.wait_for_selector("#dlg-stats[open]")
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate("document.getElementById('dlg-stats').contains(document.activeElement)")
    # and Esc there returns to the box, as it does from New: it closed both and left the player at the table
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-stats", state="hidden")
    assert page.evaluate("document.getElementById('banner').open")
    page.wait_for_function("document.activeElement.id === 'banner-stats'")
    page.click("#banner-stats")  # so does its Close button
    page.wait_for_selector("#dlg-stats[open]")
    page.click("#dlg-stats button.primary")
    page.wait_for_selector("#dlg-stats", state="hidden")
    page.wait_for_function("document.activeElement.id === 'banner-stats'")
    page.keyboard.press("s")  # and its key
    page.wait_for_selector("#dlg-stats[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-stats", state="hidden")
    page.wait_for_function("document.activeElement.id === 'banner-stats'")
    assert page.errors == []
    page.context.close()
