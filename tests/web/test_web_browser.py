"""The card table in a real browser: Playwright driving Debian's chromium against the real server.

A winning game is played through the page (drags for column moves, clicks for
foundation moves) along a pinned winning line of a fixed deal; undo/redo,
an illegal drop, the win announcement, the statistics panel, resume after a
reload, keyboard play and the phone layout are checked. Screenshots go to
``test-output/`` for a person to look at.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from browser_setup import Server, require_browser

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "test-output"
# Quiet, fast settings for the tests: no animation, no automatic play.
SETTINGS = {"autoplay": False, "autofinish": False, "winnable": False, "animate": False}
SEED = 5
# A winning line of Yukon deal 5, found once by the solver and pinned: the game played is the same on every
# machine, however busy (the engine checks below that it still wins).
KNOWN_LINE = (
    "2:JD+4>4 6:2D+4>3 7:TH+4>5 3:9S+9>7 1:QD>2 4:KD+9>1 4:AS>F 6:3C>4 4:4D+1>6 1:9D+3>3 3:TS+4>1 "
    "1:JH+7>3 6:5S+2>1 6:7C>7 1:6H+3>7 3:2H+2>7 6:8S>3 5:6S+9>6 5:JS>1 7:TD+18>1 1:8D+8>5 1:AC>F 7:6C>1 "
    "7:4C>5 7:2S>4 4:2S>F 4:3H>5 6:7H+10>3 1:JS+10>2 2:KS+6>4 2:JS+3>1 3:7H+10>1 1:JS+14>2 2:7S+6>7 "
    "2:JS+7>1 1:7H+3>3 1:JS+3>2 4:5C+2>3 2:JS+3>1 3:7H+6>1 1:JS+10>2 2:7D+1>3 7:4H+2>2 7:AD>F 4:2D>F "
    "2:3D>F 4:3S>F 4:AH>F 5:9C+11>7 5:2C>F 5:4S>F 3:QC+8>2 7:5D+3>2 7:2H>F 2:3H>F 7:3C>F 2:4C>F 7:4D>F "
    "7:5S>F 2:KH+11>3 2:4H>F 2:5C>F 3:5H>F 3:5D>F 2:6D>F 3:6C>F 7:6H>F 7:7C>F 3:7D>F 7:8D>F 2:7H+2>3 "
    "2:8C>F 7:8H+4>2 2:9C>F 3:9H>7 3:6S>F 3:7H>F 2:JC+1>1 2:7S>F 2:8H>F 3:8S>F 2:9S>F 3:9D>F 2:TD>F "
    "7:9H>F 1:TH>F 3:TS>F 2:JS>F 7:TC>F 1:JC>F 3:JD>F 2:QD>F 3:QS>F 3:JH>F 1:QH>F 3:QC>F 1:KD>F 2:KC>F "
    "3:KH>F 4:KS>F"
)

sync_api = require_browser()


def open_page(browser: Any, server: Server, *, width: int = 1280, height: int = 800,
              settings: dict[str, Any] | None = None) -> Any:
    # The tests' own string predicates are evaluated in the page, which the server's CSP forbids to the
    # page itself; test_web_csp.py loads the page under the real CSP.
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the page asks in dialogs of its own (agree()): a native alert or confirm is an error
    page.on("dialog", lambda d: (errors.append(f"a native dialog: {d.message}"), d.dismiss()))
    page.errors = errors
    page.add_init_script(
        "if (!sessionStorage.getItem('init')) { sessionStorage.setItem('init', '1');"
        f" localStorage.setItem('yukon.settings', {json.dumps(json.dumps(settings or SETTINGS))});"
        " localStorage.removeItem('yukon.game'); }"
    )
    page.goto(server.url)
    page.wait_for_function("window.yukon && window.yukon.state")
    return page


def agree(page: Any, expect: str = "") -> None:
    """Answers the page's question (its own dialog, #dlg-ask) with its button that goes on; ``expect``: a
    part of its text."""
    page.wait_for_selector("#dlg-ask[open]")
    assert expect in page.inner_text("#dlg-ask")
    page.click("#ask-ok")
    page.wait_for_selector("#dlg-ask", state="hidden")


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("JSON.parse(JSON.stringify(window.yukon.state))")


def settle(page: Any) -> None:
    page.evaluate("window.yukon.queue()")


def start_deal(page: Any, seed: int, variant: str | None = None) -> dict[str, Any]:
    if variant is None:
        box = page.locator("#deal-number")
        box.fill(str(seed))
        box.press("Enter")
    else:
        page.evaluate(f"window.yukon.newGame({{variant: {json.dumps(variant)}, seed: {seed}}})")
    page.wait_for_function(f"window.yukon.state.seed === {seed} && window.yukon.state.move_count === 0")
    settle(page)
    return state(page)


def card_box(page: Any, name: str) -> dict[str, float]:
    return page.evaluate(
        "(n) => { const r = document.querySelector(`.card[data-name='${n}']`).getBoundingClientRect();"
        " return {x: r.x, y: r.y, w: r.width, h: r.height}; }", name)


def table_offset(page: Any, name: str) -> tuple[float, float]:
    """A card's place relative to the table (not moved by scrolling)."""
    return tuple(page.evaluate(
        "(n) => { const r = document.querySelector(`.card[data-name='${n}']`).getBoundingClientRect();"
        " const t = document.getElementById('table').getBoundingClientRect(); return [r.x - t.x, r.y - t.y]; }",
        name))


#: (in the page) where to drop onto a pile: the middle of its free card, or of its empty slot
POINT = """(p) => {
    const els = [...document.querySelectorAll(`.card[data-pile='${p}']`)];
    let el = els.sort((a, b) => +a.dataset.idx - +b.dataset.idx).pop();
    if (!el) el = document.querySelector(`.slot[data-pile='${p}']`);
    const r = el.getBoundingClientRect();
    return {x: r.x + r.width / 2, y: r.y + r.height / 2};
}"""


def pile_point(page: Any, pile: str) -> dict[str, float]:
    """Where to drop onto a pile: the middle of its free card, or of its empty slot."""
    return page.evaluate(POINT, pile)


def drag(page: Any, name: str, pile: str) -> None:
    b, to = page.evaluate(
        "([n, p]) => { const el = document.querySelector(`.card[data-name='${n}']`);"
        " el.scrollIntoViewIfNeeded(); const r = el.getBoundingClientRect();"
        " return [{x: r.x, y: r.y, w: r.width, h: r.height}, (" + POINT + ")(p)]; }", [name, pile])
    page.mouse.move(b["x"] + b["w"] / 2, b["y"] + min(8, b["h"] * 0.08))
    page.mouse.down()
    page.mouse.move(b["x"] + b["w"] / 2 + 10, b["y"] + 12, steps=2)
    page.mouse.move(to["x"], to["y"], steps=4)
    page.mouse.up()


def parse(move: str) -> tuple[str, str, str]:
    """(source pile, card, destination pile) of a move in notation."""
    src, rest = move.split(":")
    card = rest[:2]
    dst = rest.split(">")[1]
    def pile(s: str) -> str:
        return s if s in ("F", "W") else f"c{int(s) - 1}"

    return pile(src), card, pile(dst)


def shot(page: Any, name: str) -> Path:
    OUT.mkdir(exist_ok=True)
    path = OUT / name
    page.screenshot(path=str(path))
    return path


# ---------------------------------------------------------------------- the tests


@pytest.mark.slow  # a whole game of 120 moves in the browser
def test_play_a_whole_game_to_the_win(browser: Any, server: Server) -> None:
    from yukon import Game

    seed = SEED
    moves = KNOWN_LINE.split()
    check = Game.deal("yukon", seed=seed)
    check.replay(moves)
    assert check.is_won()
    page = open_page(browser, server)
    start_deal(page, seed)
    shot(page, "table-start.png")
    drags = clicks = 0
    for n, move in enumerate(moves, 1):
        _src, card, dst = parse(str(move))
        # (the card's place from the page, and the mouse: page.click() waited for the card to keep its place over
        # two frames each time, and nothing moves here with animation off; a card covered is not clicked anyway)
        if dst == "F":
            b = page.evaluate("(n) => { const el = document.querySelector(`.card[data-name='${n}']`);"
                              " el.scrollIntoViewIfNeeded(); const r = el.getBoundingClientRect();"
                              " return {x: r.x, y: r.y, w: r.width, h: r.height}; }", card)
            page.mouse.click(b["x"] + b["w"] / 2, b["y"] + b["h"] / 2)
            clicks += 1
        else:
            drag(page, card, dst)
            drags += 1
        page.wait_for_function(f"window.yukon.state.move_count === {n}")
        assert page.evaluate("window.yukon.state.moves.at(-1)") == str(move)
        if n == 12:
            shot(page, "table-midgame.png")  # docs/ pictures: test_web_table.py with YUKON_UPDATE_SCREENSHOT=1
    assert drags > 10 and clicks > 10
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "You won!"
    assert f"{len(moves)} moves" in page.inner_text("#banner-text")
    assert state(page)["status"] == "won"
    shot(page, "table-won.png")
    page.click("#banner-stats")
    page.wait_for_selector("#stats-body table")
    row = page.locator("#stats-body tr.current td").all_inner_texts()
    assert row[0].startswith("Yukon")
    played, won, rate = row[1:4]
    assert int(won) >= 1 and int(played) >= int(won) and rate.endswith("%")
    assert row[7] != "–"
    shot(page, "stats.png")
    assert page.errors == []
    page.context.close()


def test_undo_redo_illegal_drop_and_reload(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    s = start_deal(page, 42)
    gid = s["id"]
    # an illegal drop: a face-up card onto a column where no legal move takes it
    legal = {(parse(m)[1], parse(m)[2]) for m in s["legal_moves"]}
    card, pile = next(
        (up, f"c{j}") for i, col in enumerate(s["tableau"]) for up in col["up"]
        for j in range(7) if j != i and (up, f"c{j}") not in legal
    )
    before = table_offset(page, card)
    shown = page.inner_text("#message")
    drag(page, card, pile)
    page.wait_for_function("(shown) => document.querySelector('#message').textContent.trim() !== shown.trim()",
                           arg=shown)
    message = page.inner_text("#message")
    assert message and ("needs" in message or "King" in message or "goes only" in message), message
    # the card shakes (a CSS transform) for a moment after an illegal drop: measure once it rests
    page.wait_for_function(
        "(n) => !document.querySelector(`.card[data-name='${n}']`).classList.contains('shake')", arg=card)
    after = table_offset(page, card)
    assert abs(after[0] - before[0]) <= 2 and abs(after[1] - before[1]) <= 2, (before, after)
    assert state(page)["move_count"] == 0
    shot(page, "illegal-drop.png")

    # a legal drag, then undo and redo by button and by keyboard
    first = s["legal_moves"][0]
    _src, card, dst = parse(first)
    drag(page, card, dst)
    page.wait_for_function("window.yukon.state.move_count === 1")
    moved = state(page)
    assert moved["moves"] == [first]
    page.click("#btn-undo")
    page.wait_for_function("window.yukon.state.move_count === 0")
    assert state(page)["tableau"] == s["tableau"]
    page.click("#btn-redo")
    page.wait_for_function("window.yukon.state.move_count === 1")
    page.keyboard.press("Control+z")
    page.wait_for_function("window.yukon.state.move_count === 0")
    page.keyboard.press("Control+y")
    page.wait_for_function("window.yukon.state.move_count === 1")
    assert state(page)["tableau"] == moved["tableau"]

    # resume after a reload: same game, same position
    page.reload()
    page.wait_for_function("window.yukon && window.yukon.state")
    again = state(page)
    assert again["id"] == gid and again["moves"] == [first] and again["tableau"] == moved["tableau"]
    assert page.locator("#move-count").inner_text() == "1"
    assert page.locator("#deal-number").input_value() == "42"
    # and the page's restart puts every move on the redo list
    page.click("#btn-restart")
    page.wait_for_function("window.yukon.state.move_count === 0 && window.yukon.state.can_redo")
    assert page.errors == []
    page.context.close()


def test_keyboard_play_and_aria_labels(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    s = start_deal(page, 42)
    label = page.get_attribute(f".card[data-name='{s['tableau'][0]['up'][0]}']", "aria-label")
    assert label and " of " in label and "column 1" in label
    assert page.get_attribute(".card.down", "aria-label").startswith("face-down card")
    move = s["legal_moves"][0]  # e.g. 2:JH+3>4
    _src, card, dst = parse(move)
    page.click("#btn-help")
    assert "sees the face-down cards" in page.inner_text("#dlg-help")
    page.keyboard.press("Escape")
    page.focus(f".card[data-name='{card}']")
    page.keyboard.press("Enter")
    page.keyboard.press(str(int(dst[1:]) + 1))
    page.wait_for_function("window.yukon.state.move_count === 1")
    assert state(page)["moves"] == [move]
    # arrows move the focus; Escape puts a picked-up card back
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    assert page.locator(".card.lifted").count() >= 1
    page.keyboard.press("Escape")
    assert page.locator(".card.lifted").count() == 0
    assert state(page)["move_count"] == 1
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize(("variant", "width", "height"), [
    ("yukon", 390, 844), ("milligan-yukon", 390, 844), ("australian", 390, 844), ("milligan-yukon", 1280, 800),
])
def test_layout_fits(browser: Any, server: Server, variant: str, width: int, height: int) -> None:
    page = open_page(browser, server, width=width, height=height)
    s = start_deal(page, 11, variant)
    if variant == "milligan-yukon":  # deal a few rows so columns get long
        for n in range(1, 4):
            point = pile_point(page, "S")
            page.mouse.click(point["x"], point["y"])
            page.wait_for_function(f"window.yukon.state.move_count === {n}")
        s = state(page)
    boxes = page.evaluate(
        "[...document.querySelectorAll('.card')].map(e => {const r = e.getBoundingClientRect();"
        " return {n: e.dataset.name, p: e.dataset.pile, i: +e.dataset.idx, up: e.classList.contains('up'),"
        " x: r.x, y: r.y, w: r.width, h: r.height}; })")
    # every card but the stock's, which shows a few backs: the page is not told its cards
    stock = s["stock_count"]
    assert len(boxes) == 52 * (2 if variant == "milligan-yukon" else 1) - stock + min(stock, 4)
    for b in boxes:
        assert b["x"] >= 0 and b["x"] + b["w"] <= width + 0.5, b
    # every face-up card of a column shows its index: the next card starts at least ~20% of a card lower
    for i in range(len(s["tableau"])):
        col = sorted((b for b in boxes if b["p"] == f"c{i}"), key=lambda b: b["i"])
        for a, b in itertools.pairwise(col):
            if a["up"]:
                assert b["y"] - a["y"] >= 0.2 * a["h"] - 0.5, (a, b)
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= width
    shot(page, f"layout-{variant}-{width}x{height}.png")
    assert page.errors == []
    page.context.close()


def test_hint_and_the_winnable_indicator(browser: Any, server: Server) -> None:
    import httpx

    from yukon import Game

    # Russian Solitaire, empty column: any; winnable, and 6:JC>7 (filling the last empty column) loses it.
    pos = Game.from_text("russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C")
    gid = httpx.post(server.url + "api/games", json={"position": pos.to_dict()}).json()["id"]
    page = open_page(browser, server, settings={**SETTINGS, "winnable": True})
    page.goto(server.url + "?game=" + gid)
    page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{gid}'")
    page.wait_for_selector("#winnable.won")
    assert "winnable" in page.inner_text("#winnable-text")
    assert "if every card were known" in page.inner_text("#winnable-text")  # a perfect-information verdict
    assert "sees the face-down cards" in (page.get_attribute("#winnable", "title") or "")
    page.click("#btn-hint")
    page.wait_for_selector(".card.hint")
    assert page.inner_text("#message").startswith("Hint (no peeking):")  # honest by default, and it says so
    assert page.locator(".zone.hint").count() == 1
    drag(page, "JC", "c6")
    page.wait_for_function("window.yukon.state.move_count === 1")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "No moves left"
    page.keyboard.press("Escape")
    page.wait_for_selector("#winnable.lost #btn-back-to-winnable:not([hidden])")
    page.click("#btn-back-to-winnable")
    page.wait_for_function("window.yukon.state.move_count === 0")
    page.wait_for_selector("#winnable.won")
    assert page.errors == []
    page.context.close()


def test_a_move_from_a_page_another_tab_overtook_is_not_played(browser: Any, server: Server) -> None:
    """Another tab played on: this page's move, made on the position it still shows, is refused (a deal
    from the stock names no card: it would be played a second time), and the page shows the game as it is."""
    import httpx

    page = open_page(browser, server)
    s = start_deal(page, 4, "australian")
    other_tab = httpx.post(f"{server.url}api/games/{s['id']}/moves", json={"move": "deal"}, timeout=10)
    assert other_tab.status_code == 200
    page.evaluate("window.yukon.sendMove('deal')")
    page.wait_for_function("window.yukon.state.move_count === 1 && "
                           "/moved on/.test(document.querySelector('#message').textContent)")
    settle(page)
    now = state(page)
    assert now["move_count"] == 1 and now["stock_count"] == s["stock_count"] - 1  # dealt once, not twice
    assert page.errors == []
    page.context.close()
