"""The table over a whole game, in a real browser: a steady layout, nothing hidden sent, honest statistics,
dead ends explained, reduced motion, and no serious accessibility violation (axe-core).

Each variant is played to the win along a solver's line at a desktop and a phone size; every few moves
the page must not scroll, the status line must keep its height and the cards their width, and no answer
the page received may name a card the player has not seen.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from browser_setup import Server
from test_web_browser import OUT, SETTINGS, open_page, settle, shot, state  # the shared page helpers

from yukon.hinting import POSITION_LOST

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("YUKON_AXE", REPO / "test-output" / "axe" / "node_modules" / "axe-core" / "axe.min.js"))
CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")
# Deals the solver wins quickly, one per variant.
LINES = {"yukon": 1, "russian": 22, "alaska": 3, "australian": 2, "milligan-yukon": 6}
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def solver_line(variant: str, seed: int) -> list[str]:
    import yukon
    from yukon import Game

    result = yukon.solve(Game.deal(variant, seed=seed), time_limit=30.0)
    assert result.status == "won", f"the solver found no win of {variant} deal {seed}"
    return [str(m) for m in result.moves]


def seen_and_hidden(server: Server, game_id: str) -> tuple[set[str], set[str]]:
    from yukon.cards import NAME

    game = server.app.state.registry.get(game_id).game
    hidden = {NAME[c] for down, _ in game.columns for c in down} | {NAME[c] for c in game.stock}
    seen = {NAME[c] for _, up in game.columns for c in up} | {NAME[c] for p in game.foundations for c in p}
    seen |= {NAME[c] for c in game.waste} | {str(m).split(":")[1][:2] for m in game.move_stack if ":" in str(m)}
    return seen, hidden


def record_responses(page: Any) -> list[Any]:
    got: list[Any] = []
    page.on("response", lambda r: got.append(r) if "/api/" in r.url else None)
    return got


def check_responses(server: Server, game_id: str, responses: list[Any]) -> int:
    """Every answer so far names only cards the player has seen; returns how many were checked."""
    seen, hidden = seen_and_hidden(server, game_id)
    n = 0
    while responses:
        r = responses.pop()
        try:
            body = r.text()
        except Exception:
            continue
        named = set(CARD.findall(body))
        assert named <= seen, f"{r.url} named cards the player has not seen: {sorted(named - seen)}"
        assert not (hidden - seen) & named
        n += 1
    return n


def layout(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
        const cards = [...document.querySelectorAll('#table .card')].map(e => e.getBoundingClientRect());
        return {
            scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth,
            innerH: innerHeight, innerW: innerWidth,
            status: document.getElementById('status-row').getBoundingClientRect().height,
            width: window.yukon.geom.W,
            bottom: Math.max(...cards.map(r => r.bottom)), right: Math.max(...cards.map(r => r.right)),
            left: Math.min(...cards.map(r => r.left)),
        };
    }""")


def assert_fits(box: dict[str, Any]) -> None:
    assert box["scrollH"] <= box["innerH"] and box["scrollW"] <= box["innerW"], box
    assert box["bottom"] <= box["innerH"] + 0.5 and box["right"] <= box["innerW"] + 0.5 and box["left"] >= 0, box


def deal(page: Any, variant: str, seed: int) -> dict[str, Any]:
    old = page.evaluate("window.yukon.state.id")
    page.evaluate(f"window.yukon.newGame({{variant: {json.dumps(variant)}, seed: {seed}}})")
    page.wait_for_function(f"window.yukon.state.id !== '{old}' && window.yukon.state.seed === {seed}"
                           f" && window.yukon.state.variant === '{variant}'")
    settle(page)
    return state(page)


def play(page: Any, move: str) -> None:
    page.evaluate("(m) => window.yukon.sendMove(m)", move)


# ---------------------------------------------------------------------- a whole game per variant


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(
    "variant", [pytest.param(v, marks=[pytest.mark.slow] if v == "milligan-yukon" else []) for v in LINES]
)  # two decks: the long game
def test_a_whole_game_keeps_its_layout_and_its_secrets(browser: Any, server: Server, variant: str, size: str) -> None:
    width, height = SIZES[size]
    line = solver_line(variant, LINES[variant])
    page = open_page(browser, server, width=width, height=height)
    responses = record_responses(page)
    s = deal(page, variant, LINES[variant])
    first = layout(page)
    assert_fits(first)
    assert first["status"] >= 28
    if size == "phone":
        # the whole deal number and every counter show; buttons are big enough to touch
        boxes = page.evaluate("""() => ['deal-number', 'move-count', 'timer', 'found-count'].map(id => {
            const e = document.getElementById(id), r = e.getBoundingClientRect();
            return {id, w: r.width, right: r.right, visible: r.width > 0 && r.height > 0,
                    fits: id !== 'deal-number' || e.scrollWidth <= e.clientWidth + 1}; })""")
        for b in boxes:
            assert b["visible"] and b["right"] <= width and b["fits"], b
        sizes = page.evaluate("[...document.querySelectorAll('.actions button, #deal-number')]"
                              ".map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })")
        assert all(w >= 40 and h >= 40 for w, h in sizes), sizes
        assert first["width"] >= (40 if variant == "milligan-yukon" else 48)  # cards readable on a phone
    checked = check_responses(server, s["id"], responses)
    if variant == "yukon":
        shot(page, f"table-{size}-start.png")
    # the moves go to the page a few at a time, up to the next check (one call of the test's, not four): the page
    # plays them one after the other in its own queue, as it played the test's single calls before
    stops = [n for n in range(1, len(line) + 1) if n % 4 == 0 or n == len(line) or n == len(line) // 2]
    for n in range(1, len(line) + 1):
        if n == 1 or n - 1 in stops:
            upto = min(k for k in stops if k >= n)
            page.evaluate("(ms) => Promise.all(ms.map((m) => window.yukon.sendMove(m)))", line[n - 1:upto])
        if n % 4 == 0 or n == len(line):
            settle(page)
            assert state(page)["move_count"] == n
            box = layout(page)
            assert_fits(box)
            assert box["status"] == first["status"], "the status line changed its height"
            assert box["width"] == first["width"], "the cards changed their size"
            checked += check_responses(server, s["id"], responses)
        if n == len(line) // 2:
            settle(page)
            if variant == "yukon":
                shot(page, f"table-{size}-mid.png")
            if size == "desktop":  # mid-game in another common window, and back: the same card size again
                page.set_viewport_size({"width": 1366, "height": 768})
                page.wait_for_function("window.innerWidth === 1366")
                page.wait_for_timeout(150)
                assert_fits(layout(page))
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_function(f"window.innerWidth === {width}")
                page.wait_for_timeout(150)
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "You won!"
    assert checked > len(line) // 2
    if variant == "yukon":
        page.wait_for_function("document.getElementById('banner-stats-line').textContent.includes('Streak')")
        shot(page, f"table-{size}-won.png")
        if os.environ.get("YUKON_UPDATE_SCREENSHOT"):
            for kind in ("start", "mid", "won"):
                shutil.copy(OUT / f"table-{size}-{kind}.png", REPO / "docs" / f"table-{size}-{kind}.png")
            if size == "desktop":
                shutil.copy(OUT / "table-desktop-mid.png", REPO / "docs" / "screenshot.png")
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("variant", list(LINES))
def test_the_start_fits_at_1366x768(browser: Any, server: Server, variant: str) -> None:
    page = open_page(browser, server, width=1366, height=768)
    deal(page, variant, 3)
    assert_fits(layout(page))
    page.context.close()


# ---------------------------------------------------------------------- statistics


def test_statistics_count_from_the_first_own_move(browser: Any, tmp_path: Path) -> None:
    import httpx

    from yukon import Game

    with Server(tmp_path / "stats.sqlite3") as srv:
        page = open_page(browser, srv, settings={**SETTINGS, "autoplay": True})
        assert "Welcome back" not in page.inner_text("#message")  # a new browser is not greeted back
        # Australian deal 7: two Aces play themselves at the deal; leaving it counts for nothing
        s = deal(page, "australian", 7)
        assert s["move_count"] >= 2 and not s["player_moved"] and s["clock_running"] is False
        page.wait_for_timeout(1200)
        assert page.inner_text("#timer") == "0:00"  # the clock waits for the player's first move
        deal(page, "yukon", 8)
        page.click("#btn-stats")
        page.wait_for_function("document.getElementById('stats-body').textContent !== 'Loading…'")
        assert "No games played yet" in page.inner_text("#stats-body")
        page.keyboard.press("Escape")
        # one own move, then another deal: played, not won
        play(page, state(page)["legal_moves"][0])
        settle(page)
        assert state(page)["clock_running"]
        deal(page, "yukon", 9)
        # a win (a position two moves from won), in this page
        pos = Game.from_text("yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC").to_dict()
        gid = httpx.post(srv.url + "api/games", json={"position": pos}).json()["id"]
        page.goto(srv.url + "?game=" + gid)
        page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{gid}'")
        page.click(".card[data-name='KS']")  # and KH plays itself
        page.wait_for_selector("#banner:not([hidden])")
        page.wait_for_function("document.getElementById('banner-stats-line').textContent.includes('Streak')")
        line = page.inner_text("#banner-stats-line")
        assert "Streak 1" in line and "best streak 1" in line and "best time 0:0" in line, line
        page.click("#banner-stats")
        page.wait_for_selector("#stats-body table")
        rows = {tuple(r) for r in (page.locator("#stats-body tbody tr").nth(i).locator("td").all_inner_texts()
                                   for i in range(page.locator("#stats-body tbody tr").count()))}
        yukon_row = next(r for r in rows if r[0].startswith("Yukon"))
        assert yukon_row[1:6] == ("2", "1", "50%", "1", "1"), yukon_row  # played, won, rate, streak, best
        assert not any(r[0].startswith("Australian") for r in rows)
        shot(page, "stats.png")
        assert page.errors == []
        page.context.close()


# ---------------------------------------------------------------------- dead ends


def test_a_game_ended_in_another_tab_says_so_and_offers_a_new_deal(browser: Any, server: Server) -> None:
    import httpx

    page = open_page(browser, server)
    s = deal(page, "yukon", 21)
    play(page, s["legal_moves"][0])
    settle(page)
    # "another tab" leaves this game for a new one
    httpx.post(server.url + "api/games", json={"seed": 22, "abandon": s["id"]}).raise_for_status()
    move = state(page)["legal_moves"][0]
    play(page, move)
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "This game is over"
    assert "another tab" in page.inner_text("#banner-text")
    assert page.inner_text("#banner-new") == "New deal"
    assert page.is_visible("#status-action") and page.inner_text("#status-action") == "New deal"
    assert page.is_disabled("#btn-undo") and page.is_disabled("#btn-hint")
    # reopened later, it says so too; the offered deal starts a new game
    page.reload()
    page.wait_for_function("window.yukon && window.yukon.state")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner-title") == "This game is over"
    page.click("#banner-new")
    page.wait_for_function(f"window.yukon.state.id !== '{s['id']}' && window.yukon.state.result === null")
    assert page.errors == []
    page.context.close()


def test_server_down_says_so_pauses_the_clock_and_retries(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    s = deal(page, "yukon", 23)
    play(page, s["legal_moves"][0])
    settle(page)
    assert state(page)["clock_running"]
    page.route("**/api/**", lambda route: route.abort("connectionrefused"))
    play(page, state(page)["legal_moves"][0])
    page.wait_for_function("window.yukon.offline")
    assert "the server is not answering" in page.inner_text("#message").lower()
    assert page.inner_text("#status-action") == "Retry now"
    shown = page.inner_text("#timer")
    page.wait_for_timeout(2200)
    assert page.inner_text("#timer") == shown  # the clock pauses
    assert page.is_disabled("#btn-undo")
    page.unroute("**/api/**")
    page.wait_for_function("!window.yukon.offline", timeout=10000)
    assert "answers again" in page.inner_text("#message")
    assert state(page)["move_count"] == 1 and not page.is_disabled("#btn-undo")
    assert page.errors == []
    page.context.close()


def test_the_clock_pauses_while_the_page_is_hidden(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    s = deal(page, "yukon", 24)
    play(page, s["legal_moves"][0])
    settle(page)
    session = server.app.state.registry.get(s["id"])
    assert session.clock_running

    def hide(hidden: bool) -> None:
        page.evaluate("(h) => { Object.defineProperty(document, 'hidden', {value: h, configurable: true});"
                      " document.dispatchEvent(new Event('visibilitychange')); }", hidden)

    hide(True)
    deadline = time.monotonic() + 10
    while session.clock_running:
        assert time.monotonic() < deadline, "the server's clock still runs with the page hidden"
        time.sleep(0.05)
    paused = session.elapsed
    shown = page.inner_text("#timer")
    page.wait_for_timeout(1500)
    assert session.elapsed == paused and page.inner_text("#timer") == shown
    hide(False)
    deadline = time.monotonic() + 10
    while not session.clock_running:
        assert time.monotonic() < deadline, "the clock did not run again once the page was shown"
        time.sleep(0.05)
    page.context.close()


def test_a_refused_drop_gives_the_servers_reason_and_double_click_means_foundation(browser: Any,
                                                                                   server: Server) -> None:
    page = open_page(browser, server)
    s = deal(page, "yukon", 42)
    # a card whose best place is a column: a double click does not move it, and says why
    key, best = next((k, m) for k, m in s["best_moves"].items() if not m.endswith(">F"))
    card = key.split(":")[1]
    top = {"x": 20, "y": 6}  # the card's visible strip: cards lying on it cover the rest
    before = page.inner_text("#message")
    page.dblclick(f".card[data-name='{card}']", position=top)
    page.wait_for_function("(before) => document.querySelector('#message').textContent.trim() !== before.trim()",
                           arg=before)
    assert "cannot go up" in page.inner_text("#message") or "free card" in page.inner_text("#message")
    page.wait_for_timeout(400)
    settle(page)
    assert state(page)["move_count"] == 0
    # a single click sends it to its best place, as the server says
    page.click(f".card[data-name='{card}']", position=top)
    page.wait_for_function("window.yukon.state.move_count === 1")
    assert state(page)["moves"] == [best]
    assert page.errors == []
    page.context.close()


def test_a_proved_lost_position_says_so_in_the_hint_and_offers_undo(browser: Any, server: Server) -> None:
    # Russian Solitaire deal 25: winnable after these five moves, proved lost after the sixth (moves remain)
    line = ["5:5D+3>2", "4:8H+2>7", "4:3C+1>7", "2:7C+8>7", "2:4H>3", "4:KS>2"]
    page = open_page(browser, server, settings={**SETTINGS, "solverHint": True})  # the solver proves it
    deal(page, "russian", 25)
    for m in line:
        play(page, m)
    settle(page)
    assert state(page)["move_count"] == 6 and state(page)["legal_moves"]
    page.click("#btn-hint")
    page.wait_for_function("/proved this position lost/.test(document.querySelector('#message').textContent)")
    assert "a best guess: the solver ran out of time" not in page.inner_text("#message")
    assert "it sees the face-down cards" in page.inner_text("#message")  # the solver's hint says so
    # in sentences, as the terminal says it: it read "Solver hint: ... (The solver proved this position lost: ...)"
    said = page.inner_text("#message")
    assert said.startswith(POSITION_LOST + ". Best try (solver hint): "), said
    page.wait_for_selector("#status-action:not([hidden])")
    assert "last winnable" in page.inner_text("#status-action")
    page.click("#status-action")
    page.wait_for_function("window.yukon.state.move_count === 5")
    assert page.errors == []
    page.context.close()


def test_the_solver_hint_setting_is_saved_and_each_hint_names_its_kind(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    deal(page, "yukon", 5)
    page.click("#btn-hint")
    page.wait_for_function("/^Hint \\(no peeking\\):/.test(document.querySelector('#message').textContent)")
    page.click("#btn-options")
    page.wait_for_selector("#dlg-options[open]")
    assert not page.is_checked("#opt-solver-hint")  # honest by default
    page.check("#opt-solver-hint")
    saved = page.evaluate("JSON.parse(localStorage.getItem('yukon.settings'))")
    assert saved["solverHint"] is True  # saved with the other settings
    page.keyboard.press("Escape")
    page.click("#btn-hint")
    page.wait_for_function(
        "/^Solver hint:.*it sees the face-down cards/.test(document.querySelector('#message').textContent)")
    assert page.errors == []
    page.context.close()


# ---------------------------------------------------------------------- motion, looks, CSP


def _win_from_nearly_won(page: Any, server: Server) -> None:
    import httpx

    from yukon import Game

    pos = Game.from_text("yukon,kings,noreturn KS/KH/-/-/-/-/- QS/QH/KD/KC").to_dict()
    gid = httpx.post(server.url + "api/games", json={"position": pos}).json()["id"]
    page.goto(server.url + "?game=" + gid)
    page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{gid}'")
    page.click(".card[data-name='KS']")
    page.click(".card[data-name='KH']")
    page.wait_for_selector("#banner:not([hidden])")


@pytest.mark.parametrize("reduce", [False, True])
def test_the_win_cascade_unless_reduced_motion(browser: Any, server: Server, reduce: bool) -> None:
    # bypass_csp as open_page does: a wait_for_function that must poll evaluates its string in the page
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True,
                                  reduced_motion="reduce" if reduce else "no-preference")
    page = context.new_page()
    moving = json.dumps(json.dumps({**SETTINGS, "animate": True}))
    page.add_init_script(f"localStorage.setItem('yukon.settings', {moving})")
    page.goto(server.url)
    page.wait_for_function("window.yukon && window.yukon.state")
    if os.environ.get("YUKON_UPDATE_SCREENSHOT") and not reduce:  # the picture in docs/: a whole game's cascade
        deal(page, "yukon", LINES["yukon"])
        for m in solver_line("yukon", LINES["yukon"]):
            play(page, m)
        settle(page)
        page.wait_for_timeout(2500)
        shutil.copy(shot(page, "table-desktop-cascade.png"), REPO / "docs" / "table-desktop-cascade.png")
    else:
        _win_from_nearly_won(page, server)
        page.wait_for_timeout(300)
    cascading = page.locator(".cascade .card").count()
    assert (cascading == 0) if reduce else (cascading >= 4), cascading
    context.close()
    # the setting alone (no system preference) also stops it
    page = open_page(browser, server, settings={**SETTINGS, "animate": False})
    _win_from_nearly_won(page, server)
    page.wait_for_timeout(300)
    assert page.locator(".cascade .card").count() == 0
    page.context.close()


def test_card_backs_and_table_colours_are_chosen_and_remembered(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    deal(page, "yukon", 5)
    page.click("#btn-options")
    page.select_option("#opt-back", "red")
    page.select_option("#opt-felt", "blue")
    page.keyboard.press("Escape")
    classes = page.evaluate("document.body.className")
    assert "back-red" in classes and "felt-blue" in classes
    page.reload()
    page.wait_for_function("window.yukon && window.yukon.state")
    classes = page.evaluate("document.body.className")
    assert "back-red" in classes and "felt-blue" in classes
    # drawn court cards: a figure, not a letter
    assert page.locator(".card[data-name^='K'] svg .big svg, .card[data-name^='Q'] svg .big svg, "
                        ".card[data-name^='J'] svg .big svg").count() >= 1
    page.context.close()


def test_the_page_works_under_a_strict_content_security_policy(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)

    def with_csp(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": "default-src 'self'"})

    page.route(re.compile(r".*/(\?.*)?$"), with_csp)
    page.reload()

    def until(expression: str) -> None:  # wait_for_function evaluates strings, which the policy forbids
        deadline = time.monotonic() + 20
        while not page.evaluate(expression):
            assert time.monotonic() < deadline, (expression, page.evaluate(
                "document.getElementById('message').textContent"))
            time.sleep(0.05)

    until("!!(window.yukon && window.yukon.state && window.yukon.state.legal_moves.length)")
    # (the reload resumes the server's latest game, which another test of this module may have played in last)
    before = state(page)["move_count"]
    play(page, state(page)["legal_moves"][0])
    until(f"window.yukon.state.move_count === {before + 1}")
    page.click("#btn-options")
    page.keyboard.press("Escape")
    assert violations == []
    page.context.close()


# ---------------------------------------------------------------------- accessibility (axe-core)


def axe(page: Any, context: str = "document",
        impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """The violations axe-core finds in ``context`` of the given impacts (by default the serious and critical)."""
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(f"axe.run({context}, {{resultTypes: ['violations']}})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["html"][:120] for n in v["nodes"][:3]]}
            for v in result["violations"] if v["impact"] in impacts]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (.ci/run installs it with npm)")
@pytest.mark.parametrize("size", list(SIZES))
def test_no_serious_accessibility_violation(browser: Any, server: Server, size: str) -> None:
    width, height = SIZES[size]
    page = open_page(browser, server, width=width, height=height)
    s = deal(page, "australian", 2)
    play(page, s["legal_moves"][0])
    settle(page)
    found = {"table": axe(page)}
    # each card's name starts with what it shows; the stock says how many cards it holds
    for name in state(page)["tableau"][0]["up"]:
        label = page.get_attribute(f".card[data-name='{name}']", "aria-label")
        index = ("10" if name[0] == "T" else name[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[name[1]]
        assert label and label.startswith(index + ","), label
    stock = page.get_attribute(".slot[data-pile='S']", "aria-label")
    assert stock and f"{state(page)['stock_count']} cards" in stock
    assert page.locator("main").count() == 1 and page.locator("main #message").count() == 1
    for button in ("btn-new", "btn-options", "btn-stats", "btn-help"):
        page.click(f"#{button}")
        page.wait_for_selector("dialog[open]")
        page.wait_for_timeout(150)
        found[button] = axe(page, "document.querySelector('dialog[open]')")
        page.keyboard.press("Escape")
        page.wait_for_function("!document.querySelector('dialog[open]')")
    _win_from_nearly_won(page, server)
    found["win box"] = axe(page)
    assert {k: v for k, v in found.items() if v} == {}
    page.context.close()


def test_the_page_measures_its_move_round_trip(browser: Any, server: Server) -> None:
    """A rough bound only (the machine is shared; bench/web.py gives the figures): well under a second."""
    page = open_page(browser, server)
    deal(page, "yukon", 1)
    for m in solver_line("yukon", 1)[:15]:
        play(page, m)
    settle(page)
    timings = page.evaluate("window.yukon.timings.slice()")
    assert len(timings) == 15 and sorted(timings)[7] < 500, timings
    page.context.close()
