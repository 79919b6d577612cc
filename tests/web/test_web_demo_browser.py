"""Watch the computer play in a real browser (Debian chromium, Playwright): the moves happen, animated as
the player's are; pause, the speed setting, Esc and the player's own move stop it; a won game of the
computer's is announced as such. Screenshots go to ``test-output/`` for a person to look at."""

from __future__ import annotations

import itertools
import time
from typing import Any

import httpx
import pytest
from browser_setup import Server, require_browser
from test_web_browser import open_page, settle, shot, start_deal, state
from test_web_table import AXE, axe

pytestmark = pytest.mark.browser
sync_api = require_browser()

#: Animated, as a player would see it; automatic plays on; the computer at its fast speed.
SETTINGS = {"autoplay": True, "autofinish": True, "winnable": False, "animate": True, "demoSpeed": "fast"}
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"


def moves_stay(page: Any, seconds: float) -> int:
    """The move count, after checking that it does not change for ``seconds``."""
    settle(page)
    count = state(page)["move_count"]
    time.sleep(seconds)
    settle(page)
    assert state(page)["move_count"] == count
    return count


def test_watch_the_computer_play_then_stop_it(browser: Any, server: Server) -> None:
    page = open_page(browser, server, settings=SETTINGS)
    start_deal(page, 7)
    assert page.inner_text("#btn-demo").endswith("Watch")
    page.click("#btn-demo")
    page.wait_for_selector("#demo-bar:not([hidden])")
    assert page.get_attribute("#btn-demo", "aria-pressed") == "true"
    assert page.input_value("#demo-speed") == "fast"  # from the saved settings
    page.wait_for_function("window.yukon.state.move_count >= 1", timeout=60_000)
    # the move is animated as the player's are: the cards glide (a CSS transition), they do not jump
    moving = page.evaluate("[...document.querySelectorAll('.card')].some((c) => c.getAnimations().length > 0)")
    first = state(page)
    page.wait_for_function("window.yukon.state.move_count >= 3", timeout=60_000)
    shot(page, "demo-playing.png")
    assert moving
    assert first["computer_moves"] >= 1 and "The computer" in page.inner_text("#demo-what")
    # the page holds what the player sees: face-down cards only counted, the stock only counted
    assert "stock" not in first and all(set(c) == {"down_count", "up"} for c in first["tableau"])
    # pause: nothing more is played until it is resumed
    page.click("#demo-pause")
    assert page.inner_text("#demo-pause") == "Resume"
    paused_at = moves_stay(page, 2.5)
    shot(page, "demo-paused.png")
    if AXE.exists():  # .ci/run installs axe-core: the bar and its controls have no serious violation
        assert axe(page) == []
    page.click("#demo-pause")
    page.wait_for_function(f"window.yukon.state.move_count > {paused_at}", timeout=60_000)
    # Space pauses too (with the focus still on the Watch button clicked), and again plays on
    page.focus("#btn-demo")
    page.keyboard.press(" ")
    assert page.evaluate("window.yukon.demo.active && !window.yukon.demo.running")
    page.keyboard.press(" ")
    assert page.evaluate("window.yukon.demo.running")
    # the speed: saved with the settings
    page.select_option("#demo-speed", "slow")
    saved = page.evaluate("JSON.parse(localStorage.getItem('yukon.settings')).demoSpeed")
    assert saved == "slow"
    # Esc stops it at once
    page.keyboard.press("Escape")
    assert page.evaluate("window.yukon.demo.active") is False
    page.wait_for_selector("#demo-bar", state="hidden")
    moves_stay(page, 3.0)
    assert page.inner_text("#btn-demo").endswith("Watch")
    # leaving the game: the dialog says it is not counted, not that it counts as not won
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new", state="visible")
    assert page.inner_text("#new-abandon") == (
        "Leaving the game in play: it is not counted in your statistics, since the computer played in it.")
    page.keyboard.press("Escape")
    assert page.errors == []
    page.context.close()


def test_a_move_of_the_players_takes_over(browser: Any, server: Server) -> None:
    page = open_page(browser, server, settings=SETTINGS | {"demoSpeed": "slow", "animate": False})
    start_deal(page, 8)
    page.keyboard.press("t")
    page.wait_for_function("window.yukon.state.move_count >= 1", timeout=60_000)
    settle(page)
    legal = state(page)["legal_moves"]
    move = next(m for m in legal if m != "deal")
    card = move.split(":")[1][:2]
    before = state(page)
    # the player clicks the card (its visible top edge: cards may lie on it): the demo stops first
    page.click(f".card[data-name='{card}']", position={"x": 12, "y": 6}, timeout=5_000)
    assert page.evaluate("window.yukon.demo.active") is False
    page.wait_for_function(f"window.yukon.state.player_moved && window.yukon.state.move_count > {before['move_count']}"
                           f" && window.yukon.state.computer_moves === {before['computer_moves']}", timeout=30_000)
    settle(page)
    mine = state(page)
    assert mine["played"][0].split(":")[1].startswith(card)  # the player's own move, not the computer's
    assert page.is_hidden("#demo-bar") and page.inner_text("#btn-demo").endswith("Watch")
    moves_stay(page, 3.0)
    assert page.errors == []
    page.context.close()


def watched_to_the_end(browser: Any, server: Server, position: str, ready: str) -> Any:
    """A page where Watch played the game of ``position`` (text) to its end, once ``ready`` (a predicate) held."""
    from yukon import Game

    page = open_page(browser, server, settings=SETTINGS | {"animate": False})
    page.evaluate("(p) => window.yukon.enqueue(async () => window.yukon.accept("
                  "await window.yukon.api('POST', '/api/games', {position: p})))", Game.from_text(position).to_dict())
    page.wait_for_function(ready)
    page.click("#btn-demo")
    page.wait_for_selector("#banner:not([hidden])", timeout=60_000)
    return page


def test_the_computers_win_is_its_own(browser: Any, server: Server) -> None:
    page = watched_to_the_end(browser, server, NEARLY_WON, "window.yukon.state.cards_on_foundations === 48")
    assert page.inner_text("#banner-title") == "The computer won!"
    assert "not counted in your statistics" in page.inner_text("#banner-text")
    shot(page, "demo-won.png")
    assert page.evaluate("window.yukon.demo.active") is False
    assert page.errors == []
    page.context.close()


#: Russian Solitaire, one move left (6:TC>F), and after it none: the computer's only move ends the game lost.
ONE_MOVE_FROM_A_DEAD_END = "russian,any,noreturn QS.KH/QH.KD/QD.KC/QC.KS/TS.JH/JDTC/THTDJC.JS 9S/9H/9D/9C"


def test_the_computers_dead_end_is_its_own(browser: Any, server: Server) -> None:
    # a loss Watch played said only "No moves left … The game is lost": as if it were the player's, and counted
    page = watched_to_the_end(browser, server, ONE_MOVE_FROM_A_DEAD_END, "window.yukon.state.legal_moves.length === 1")
    assert state(page)["computer_moves"] == 1
    assert page.inner_text("#banner-title") == "The computer lost: no moves left"
    text = page.inner_text("#banner-text")
    assert "The computer chose 1 move: the game is not counted in your statistics." in text, text
    shot(page, "demo-lost.png")
    assert page.errors == []
    # (given up: a lost game left unfinished is the one the next page of this server resumes, with its box open)
    assert httpx.post(server.url + f"api/games/{state(page)['id']}/resign").status_code == 200
    page.context.close()


def test_pausing_keeps_the_computers_last_move_in_sight(browser: Any, server: Server) -> None:
    # the pause used to put "Paused: Resume (Space) plays on" in the place of the move just played: the player
    # who paused to look at what the computer did no longer saw what it was
    page = open_page(browser, server, settings=SETTINGS | {"demoSpeed": "slow", "animate": False, "autoplay": False})
    start_deal(page, 7)
    page.click("#btn-demo")
    # paused the moment a move is told, in the page (no move can come between the two)
    told = page.wait_for_function(
        "() => { const t = document.getElementById('demo-what').textContent;"
        " if (!t.startsWith('The computer: ')) return false; window.yukon.demo.pause(); return t; }",
        timeout=60_000).json_value()
    paused = page.inner_text("#demo-what")
    assert paused.startswith(f"{told} — paused."), (told, paused)  # the move first: a phone shows two lines of it
    assert "Resume (Space)" in paused and page.get_attribute("#demo-what", "title") == paused
    assert page.inner_text("#demo-pause") == "Resume"
    moves_stay(page, 1.0)
    assert page.inner_text("#demo-what") == paused
    # resumed and paused again while the computer thinks: a move it still plays is the one the pause names
    page.evaluate(
        "() => new Promise((done) => { const what = document.getElementById('demo-what');"
        " new MutationObserver((_, seen) => { if (what.textContent !== 'The computer is thinking…') return;"
        " window.yukon.demo.pause(); seen.disconnect(); done(); })"
        ".observe(what, {childList: true, characterData: true, subtree: true});"
        " window.yukon.demo.pause(false); })")
    page.wait_for_function(
        "() => { const s = window.yukon.state, t = document.getElementById('demo-what').textContent;"
        " const last = window.yukon.describeMove(window.yukon.parseMove(s.moves[s.moves.length - 1]));"
        " return t.startsWith(`The computer: ${last}`) && t.includes(' — paused.'); }", timeout=30_000)
    page.keyboard.press("Escape")
    assert page.errors == []
    page.context.close()


#: how the paused bar lies: its words whole (nothing cut off), and each control's box, in the window
PAUSED_BAR = """() => {
  const what = document.getElementById('demo-what'), bar = document.getElementById('demo-bar');
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; };
  const controls = [...bar.querySelectorAll('select, button')].filter((e) => e.offsetParent !== null);
  return {whole: what.scrollHeight <= what.clientHeight + 1 && what.scrollWidth <= what.clientWidth + 1,
          text: what.textContent, what: box(what), bar: box(bar),
          controls: controls.map((e) => ({id: e.id, cut: e.scrollWidth > e.clientWidth + 1, ...box(e)}))};
}"""


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844), (844, 390)], ids=["desktop", "phone", "sideways"])
def test_the_paused_bar_shows_every_word_and_steps_one_move(browser: Any, server: Server,
                                                           viewport: tuple[int, int]) -> None:
    # paused, the bar cut the computer's words at one line (two on a phone): the move and odds the player paused
    # to read were lost behind an ellipsis. And paused, there was no way to see the next move but to resume.
    width, height = viewport
    page = open_page(browser, server, width=width, height=height,
                     settings=SETTINGS | {"demoSpeed": "slow", "animate": False})
    start_deal(page, 7)
    page.click("#btn-demo")
    page.wait_for_function(
        "() => { const t = document.getElementById('demo-what').textContent;"
        " if (!t.startsWith('The computer: ')) return false; window.yukon.demo.pause(); return true; }",
        timeout=60_000)
    page.wait_for_selector("#demo-bar.paused")
    shot(page, f"demo-paused-{width}x{height}.png")
    bar = page.evaluate(PAUSED_BAR)
    assert bar["whole"], bar  # every word in sight, the move first
    assert bar["text"].startswith("The computer: ") and "paused" in bar["text"]
    assert [c["id"] for c in bar["controls"]] == ["demo-speed", "demo-pause", "demo-step", "demo-stop"]
    for c in bar["controls"]:
        assert not c["cut"] and c["x"] >= 0 and c["right"] <= width, c  # (each label whole, in the window)
    for a, b in itertools.pairwise(bar["controls"]):
        assert a["right"] <= b["x"] or a["bottom"] <= b["y"], (a, b)  # side by side, never over each other
    for c in bar["controls"]:  # nor over the words
        assert c["bottom"] <= bar["what"]["y"] or c["y"] >= bar["what"]["bottom"] or c["x"] >= bar["what"]["right"], c
    assert bar["bar"]["bottom"] <= height / 2, bar  # over the top of the table only
    # Step, from the keyboard: Tab from Resume reaches it, Enter plays one move of the computer's, and it stays paused
    page.focus("#demo-pause")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "demo-step"
    moves = page.evaluate("window.yukon.demo.moves")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.yukon.demo.moves === {moves + 1}", timeout=60_000)
    settle(page)
    assert page.evaluate("window.yukon.demo.active && !window.yukon.demo.running")  # still paused
    last = page.evaluate("window.yukon.state.computer_moves")
    moves_stay(page, 2.5)  # (slow is 2 s a move: playing on would have shown by now)
    assert page.evaluate("window.yukon.state.computer_moves") == last
    stepped = page.evaluate(PAUSED_BAR)
    assert stepped["text"] != bar["text"] and stepped["text"].startswith("The computer: ") and stepped["whole"]
    assert page.evaluate("document.activeElement.id") == "demo-step"  # the focus stays for the next Step
    # → steps too
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.yukon.demo.moves === {moves + 2}", timeout=60_000)
    settle(page)
    assert page.evaluate("window.yukon.demo.active && !window.yukon.demo.running")
    # resumed, Step is gone (it steps only a pause) and the computer plays on
    page.click("#demo-pause")
    assert page.is_hidden("#demo-step")
    page.wait_for_function(f"window.yukon.demo.moves >= {moves + 3}", timeout=60_000)
    page.keyboard.press("Escape")
    assert page.errors == []
    page.context.close()


def test_space_after_a_click_on_step_plays_on_as_help_says(browser: Any, server: Server) -> None:
    """Step clicked, then Space: it stepped again (the button clicked kept the focus and took Space) while Help
    and the bar said "Space pauses and plays on". A click on the bar leaves the focus where it was now; a button
    reached by Tab still takes Space, as any button does (Help says so)."""
    page = open_page(browser, server, settings=SETTINGS | {"demoSpeed": "slow", "animate": False})
    start_deal(page, 7)
    page.click("#btn-demo")
    page.wait_for_selector("#demo-bar:not([hidden])")
    page.click("#demo-pause")
    page.wait_for_selector("#demo-bar.paused")
    settle(page)
    before = state(page)["move_count"]
    page.click("#demo-step")
    page.wait_for_function(f"window.yukon.state.move_count > {before}", timeout=60_000)
    assert page.evaluate("document.activeElement.id") != "demo-step"
    page.keyboard.press(" ")
    page.wait_for_selector("#demo-bar:not(.paused)")  # played on, as Help says
    assert page.inner_text("#demo-pause") == "Pause"
    page.keyboard.press(" ")
    page.wait_for_selector("#demo-bar.paused")
    settle(page)
    # by keyboard: Tab to Step, and Space presses it (a move), the watch still paused
    at = state(page)["move_count"]
    page.focus("#demo-step")
    page.keyboard.press(" ")
    page.wait_for_function(f"window.yukon.state.move_count > {at}", timeout=60_000)
    assert page.is_visible("#demo-bar.paused")
    help_text = " ".join(page.evaluate("document.getElementById('dlg-help').textContent").split())
    assert "a button of its bar reached with Tab takes Space and Enter itself" in help_text
    assert page.errors == []
    page.context.close()
