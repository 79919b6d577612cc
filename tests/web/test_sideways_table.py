"""What a new player met at the table in a real browser, part two: a phone held sideways got cards of about 31 px
(the foundations' row above the tableau took a third of its short height) and a 640x360 window cut the longest
column off at the bottom. In a short, wide window the foundations (and the stock) go beside the tableau when that
gives larger cards; other windows keep them above it.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_web_table.py.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from browser_setup import Server
from test_newplayer_table import LONG_COLUMN
from test_player_table import game_after, open_game
from test_web_browser import open_page
from test_web_table import assert_fits, deal, layout

pytestmark = pytest.mark.browser

SIDEWAYS = {"width": 844, "height": 390}  # a phone held sideways (its browser's bars taken off)


def pile_boxes(page: Any) -> dict[str, list[dict[str, float]]]:
    """The box of every slot, by pile ("f0", "c3", "S", ...)."""
    return page.evaluate(
        "(() => { const out = {}; for (const s of document.querySelectorAll('#table .slot')) {"
        " const r = s.getBoundingClientRect(); (out[s.dataset.pile] = out[s.dataset.pile] || [])"
        ".push({x: r.x, y: r.y, w: r.width, h: r.height}); } return out; })()")


def readable(page: Any) -> None:
    """Every card on the table lies inside the window, and every face-up card of a column shows its index (or,
    in a long column, its thin index)."""
    assert_fits(layout(page))
    boxes = page.evaluate(
        "[...document.querySelectorAll('#table .card')].map(e => { const r = e.getBoundingClientRect();"
        " return {p: e.dataset.pile, i: +e.dataset.idx, up: e.classList.contains('up'),"
        " tight: e.classList.contains('tight'), y: r.y, h: r.height}; })")
    for col in {b["p"] for b in boxes if b["p"].startswith("c")}:
        cards = sorted((b for b in boxes if b["p"] == col), key=lambda b: b["i"])
        for a, b in itertools.pairwise(cards):
            if a["up"]:  # (a long column's "tight" cards show a thin index of their own, a tenth of the card)
                assert b["y"] - a["y"] >= (0.1 if a["tight"] else 0.2) * a["h"] - 0.5, (col, a, b)


def test_a_phone_held_sideways_gets_larger_cards_with_the_foundations_beside_the_tableau(
        browser: Any, server: Server) -> None:
    page = open_page(browser, server, **SIDEWAYS)
    deal(page, "yukon", 5)
    box = layout(page)
    assert box["width"] >= 37, box  # (31 px with the foundations above the tableau)
    readable(page)
    piles = pile_boxes(page)
    last = piles["c6"][0]
    for j in range(4):  # at the right of the last column, within the tableau's height: no row above it
        f = piles[f"f{j}"][0]
        assert f["x"] >= last["x"] + last["w"] and f["y"] + f["h"] <= box["innerH"], (j, f, last)
    assert min(p[0]["y"] for p in piles.values()) == piles["c0"][0]["y"]
    page.context.close()


@pytest.mark.parametrize("size", [(844, 390), (640, 360)])
def test_a_short_wide_window_fits_every_variant(browser: Any, server: Server, size: tuple[int, int]) -> None:
    """Every variant's deal, one after the other in the same page (a page of its own for each took most of the
    time: the table is laid out again for each new deal, as for a page just opened)."""
    page = open_page(browser, server, width=size[0], height=size[1])
    for variant in ("yukon", "russian", "alaska", "australian", "milligan-yukon"):
        deal(page, variant, 11)
        readable(page)
        piles = pile_boxes(page)
        boxes = [b for p in piles.values() for b in p]
        for a, b in itertools.combinations(boxes, 2):  # no pile lies over another
            assert (a["x"] + a["w"] <= b["x"] + 0.5 or b["x"] + b["w"] <= a["x"] + 0.5
                    or a["y"] + a["h"] <= b["y"] + 0.5 or b["y"] + b["h"] <= a["y"] + 0.5), (variant, a, b)
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (768, 1024), (390, 844)])
def test_other_windows_keep_the_foundations_above_the_tableau(browser: Any, server: Server,
                                                              size: tuple[int, int]) -> None:
    page = open_page(browser, server, width=size[0], height=size[1])
    deal(page, "yukon", 5)
    readable(page)
    piles = pile_boxes(page)
    assert all(piles[f"f{j}"][0]["y"] + piles[f"f{j}"][0]["h"] < piles["c0"][0]["y"] for j in range(4))
    page.context.close()


@pytest.mark.parametrize("size", [(844, 390), (640, 360), (1280, 800)])
def test_every_dialog_keeps_its_buttons_in_sight(browser: Any, server: Server, size: tuple[int, int]) -> None:
    """New and Options are taller than a phone held sideways: Deal and Done were below the fold, found only by
    scrolling the dialog. Now its fields scroll under its buttons."""
    page = open_page(browser, server, width=size[0], height=size[1])
    for button in ("btn-new", "btn-options", "btn-stats", "btn-help"):
        page.click(f"#{button}")
        page.wait_for_selector("dialog[open]")
        page.wait_for_timeout(150)
        shown = page.evaluate(
            "(() => { const d = document.querySelector('dialog[open]'), dr = d.getBoundingClientRect();"
            " return [...d.querySelectorAll('.dlg-buttons button')].map((b) => { const r = b.getBoundingClientRect();"
            " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
            " return {text: b.textContent, top: r.top, bottom: r.bottom, dTop: dr.top, dBottom: dr.bottom,"
            " hit: !!hit && b.contains(hit)}; }); })()")
        for b in shown:  # inside the window and the dialog's box, and nothing lies over it
            assert b["hit"] and b["dTop"] <= b["top"] and b["bottom"] <= min(b["dBottom"], size[1]) + 0.5, (button, b)
        page.keyboard.press("Escape")
        page.wait_for_function("!document.querySelector('dialog[open]')")
    page.context.close()


def focused_pile(page: Any) -> str:
    return str(page.evaluate("document.querySelector('#table .focus').dataset.pile"))


@pytest.mark.parametrize(("variant", "path"), [
    # from the last column: → to the foundations stacked at the right, ↓ down them, ↑ back up, ← to the column
    ("yukon", [("ArrowRight", "f0"), ("ArrowDown", "f1"), ("ArrowDown", "f2"), ("ArrowUp", "f1"),
               ("ArrowLeft", "c6")]),
    # from the first column: ← to the stock's column (the waste under the stock), → back to the tableau
    ("australian", [("ArrowLeft", "S"), ("ArrowDown", "W"), ("ArrowRight", "c0")]),
])
def test_the_arrows_go_to_the_piles_beside_the_tableau_as_they_lie(browser: Any, server: Server, variant: str,
                                                                    path: list[tuple[str, str]]) -> None:
    """By their order, the foundations stacked down at the right took → and ←, ↓ left them for a column, and no
    arrow went from a column to the piles beside it."""
    page = open_page(browser, server, **SIDEWAYS)
    s = deal(page, variant, 5)
    first = "c6" if variant == "yukon" else "c0"
    page.keyboard.press("Shift")  # (the keyboard's focus shows for a player who uses the keys)
    page.focus(f".card[data-name='{s['tableau'][int(first[1:])]['up'][-1]}']")
    assert focused_pile(page) == first
    for key, pile in path:
        page.keyboard.press(key)
        assert focused_pile(page) == pile, (key, pile)
    page.context.close()


def test_a_long_column_stays_in_a_640x360_window(browser: Any, server: Server) -> None:
    """The cards were sized for a table of 240 px at least: 640x360 leaves it 222, and long columns went below
    the window (Yukon deal 7 after seven moves: twenty face-up cards in column 4)."""
    gid = game_after(server, LONG_COLUMN, seed=7)
    page = open_game(browser, server, gid, width=640, height=360)
    readable(page)
    page.context.close()
