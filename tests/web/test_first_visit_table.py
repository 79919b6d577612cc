"""What a new player met at the table on a first visit, in a real browser: the New dialog warned that leaving a
deal nobody had touched "counts as not won" (the cards that play themselves at the deal leave no trace), and a
window between a phone's and a desktop's width broke the toolbar onto a second row.

The set-up: the fixtures of conftest.py, the page helpers of test_web_browser.py and test_player_table.py.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_player_table import open_game
from test_web_browser import SETTINGS, card_box, open_page, pile_point, settle, state

pytestmark = pytest.mark.browser

#: Yukon deal 1234 with automatic play: the aces of spades and clubs go up at the deal, before any move of yours
AUTOPLAYED = 1234


def new_dialog_warning(page: Any) -> str | None:
    """The New dialog's line about the game in play (None when it has none), the dialog closed again."""
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new", state="visible")
    warning = None if page.is_hidden("#new-abandon") else page.inner_text("#new-abandon")
    page.click("#new-cancel")
    page.wait_for_selector("#dlg-new", state="hidden")
    return warning


def test_a_deal_only_the_automatic_play_moved_in_is_left_without_a_warning(browser: Any, server: Server) -> None:
    r = httpx.post(server.url + "api/games", json={"variant": "yukon", "seed": AUTOPLAYED, "autoplay": True})
    gid = r.json()["id"]
    page = open_game(browser, server, gid, settings={**SETTINGS, "autoplay": True})
    before = state(page)
    assert before["move_count"] == 2 and not before["player_moved"]  # (the aces played themselves)
    assert new_dialog_warning(page) is None
    # the player's own first move makes it count: from then on leaving it does count as not won
    card = page.locator('.card[data-name="4D"]').bounding_box()
    assert card is not None and before["best_moves"]["1:4D"] == "1:4D>3"
    page.mouse.click(card["x"] + card["width"] / 2, card["y"] + 8)
    page.wait_for_function("window.yukon.state.player_moved")
    settle(page)
    assert new_dialog_warning(page) == "Leaving the game in play: it counts as not won."
    assert page.errors == []
    page.context.close()


def toolbar(page: Any) -> dict[str, Any]:
    """The toolbar's rows (distinct tops of its buttons), its right edge and the header's height."""
    return page.evaluate(
        "(() => { const bs = [...document.querySelectorAll('.actions button')].filter((b) => b.offsetParent)"
        ".map((b) => b.getBoundingClientRect());"
        " return {rows: new Set(bs.map((r) => Math.round(r.top))).size, right: Math.max(...bs.map((r) => r.right)),"
        " header: document.querySelector('header.bar').getBoundingClientRect().height}; })()")


def test_the_toolbar_keeps_to_one_row_between_a_phone_and_a_desktop(browser: Any, server: Server) -> None:
    # 641 to 815 px (a tablet held upright, a narrow window) used to break it onto a second row, the table
    # losing that row's height
    page = open_game(browser, server, httpx.post(server.url + "api/games", json={"seed": 5}).json()["id"])
    desktop = toolbar(page)
    assert desktop["rows"] == 1
    for width in (641, 680, 720, 721, 768, 800, 840):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_function(f"window.innerWidth === {width}")
        shown = toolbar(page)
        assert shown["rows"] == 1 and shown["right"] <= width, (width, shown)
        assert shown["header"] == desktop["header"], (width, shown)
    assert page.errors == []
    page.context.close()


def test_a_game_over_is_said_in_one_sentence_in_the_status_line(browser: Any, server: Server) -> None:
    # "This game is over: It was given up, ..." had a capital in mid-sentence
    gid = httpx.post(server.url + "api/games", json={"seed": 5}).json()["id"]
    assert httpx.post(server.url + f"api/games/{gid}/moves", json={"move": "2:JD+4>4"}).status_code == 200
    assert httpx.post(server.url + f"api/games/{gid}/resign").status_code == 200
    page = open_game(browser, server, gid)
    page.wait_for_selector("#banner", state="visible")
    assert page.inner_text("#banner-text").startswith("It was given up")  # (the box's own sentence)
    assert page.inner_text("#message") == (
        "This game is over: it was given up, or left for another game: it counts as not won.")
    assert page.errors == []
    page.context.close()


def dealt_with_automatic_play(browser: Any, server: Server, variant: str, seed: int) -> Any:
    """A page with automatic play on that has just dealt ``variant``'s deal ``seed`` from the New game button's
    path (the page's own newGame, as a player starting a game there)."""
    page = open_game(browser, server, httpx.post(server.url + "api/games", json={"seed": 5}).json()["id"],
                     settings={**SETTINGS, "autoplay": True})
    page.evaluate(f"window.yukon.newGame({{variant: '{variant}', seed: {seed}}})")
    page.wait_for_function(f"window.yukon.state.seed === {seed} && window.yukon.state.variant === '{variant}'")
    settle(page)
    return page


def test_the_table_says_why_automatic_play_leaves_free_aces_in_milligan_yukon(browser: Any, server: Server) -> None:
    # two Aces free at the deal and automatic play on, yet they stayed: it looked as if it had forgotten them.
    # The two held back for one reason share one sentence, as the terminal says it (it was one sentence per card,
    # the same 110 characters twice).
    page = dealt_with_automatic_play(browser, server, "milligan-yukon", 4133423762)
    assert page.inner_text("#message") == (
        "New game: Milligan Yukon, deal 4133423762"
        " · A♠ and A♥ are not played up automatically while the stock lasts: a deal puts a card on each, and you"
        " may want to move the two together. A double click or tap plays one up.")
    # said once: the next move says only itself
    page.evaluate("window.yukon.sendMove('2:AS>F')")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    assert page.inner_text("#message") == "Ace of spades from column 2 to its foundation"
    # with automatic play off there is nothing to explain
    page.evaluate("window.yukon.settings.autoplay = false;"
                  " window.yukon.newGame({variant: 'milligan-yukon', seed: 4133423762})")
    page.wait_for_function("window.yukon.state.move_count === 0")
    settle(page)
    assert page.inner_text("#message") == "New game: Milligan Yukon, deal 4133423762"
    assert page.errors == []
    page.context.close()


def test_the_table_says_in_plain_words_why_automatic_play_leaves_a_free_two_in_yukon(
        browser: Any, server: Server) -> None:
    # Yukon deal 144: after the Ace goes up the 2♣ is free, yet it stays, as a red Ace (with the cards on it) may
    # still be moved onto it. The words are the server's, the terminal game's too.
    page = dealt_with_automatic_play(browser, server, "yukon", 144)
    assert state(page)["held_back"] == ["5:2C>F"]
    assert page.inner_text("#message").endswith(
        " · 2♣ is not played up automatically: you may still want to move the A♥ or A♦ onto it."
        " A double click or tap plays it up.")
    assert page.errors == []
    page.context.close()


def test_the_table_says_why_automatic_play_leaves_a_free_ace_in_alaska(browser: Any, server: Server) -> None:
    # Alaska builds up or down in suit, so a 2 may still go on a free Ace and automatic play leaves it: a new
    # player thought the game had forgotten the card. The server words why; the page says it once.
    page = dealt_with_automatic_play(browser, server, "alaska", 6)
    assert page.inner_text("#message") == (
        "New game: Alaska, deal 6 · A♠ is not played up automatically: you may still want to move the 2♠ onto it."
        " A double click or tap plays it up.")
    # said once: the next move says only itself, and the Ace is still there
    page.evaluate("window.yukon.sendMove('4:5H+1>2')")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    assert "not played up" not in page.inner_text("#message")
    assert state(page)["held_back"] == ["5:AS>F"]
    # and what it says works: a double click plays it up
    page.dblclick(".card[data-name='AS']", position={"x": 8, "y": 6})
    page.wait_for_function("window.yukon.state.move_count === 2")
    assert state(page)["moves"][-1] == "5:AS>F"
    assert page.errors == []
    page.context.close()


def test_a_double_click_on_a_card_the_first_click_sent_up_leaves_the_card_under_it(browser: Any,
                                                                                   server: Server) -> None:
    # A♠'s best place is its foundation, so the first click of a double click sends it up at once; when the
    # answer came before the second click, the double click acted on the card uncovered under the pointer
    # (7♦: "7♦ cannot go up yet", in red)
    gid = httpx.post(server.url + "api/games", json={"variant": "milligan-yukon", "seed": 4133423762}).json()["id"]
    page = open_game(browser, server, gid)
    ace = page.locator('.card[data-name="AS"]').bounding_box()
    assert ace is not None
    x, y = ace["x"] + ace["width"] / 2, ace["y"] + ace["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down(click_count=1)
    page.mouse.up(click_count=1)
    page.wait_for_function("window.yukon.state.move_count === 1")  # (the answer is in before the second click)
    settle(page)
    under = "([x, y]) => document.elementFromPoint(x, y).closest('.card').dataset.name"
    assert page.evaluate(under, [x, y]) == "7D"
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    settle(page)  # (the double click's handler ran with the event: a move it asked for is in the queue)
    assert state(page)["moves"] == ["2:AS>F"]
    assert page.inner_text("#message") == "Ace of spades from column 2 to its foundation"
    assert page.errors == []
    page.context.close()


#: Yukon, four cards from won (tests/web/test_web_demo.py): one move up, and automatic play finishes it
NEARLY_WON = "yukon,kings,noreturn QCKH/KD/KC/-/-/-/- KS/QH/QD/JC"


def test_the_computers_win_is_announced_without_your_streak(browser: Any, server: Server) -> None:
    from yukon import Game

    position = Game.from_text(NEARLY_WON).to_dict()
    finish = {**SETTINGS, "autoplay": True, "autofinish": True}
    # your own win: its box shows your streak and best time, and names the deal as the top bar does
    mine = httpx.post(server.url + "api/games", json={"position": position}).json()["id"]
    page = open_game(browser, server, mine, settings=finish)
    page.evaluate("window.yukon.sendMove('1:KH>F')")
    page.wait_for_selector("#banner", state="visible")
    page.wait_for_function("document.getElementById('banner-stats-line').textContent.includes('Streak 1')")
    assert page.inner_text("#banner-title") == "You won!"
    assert page.inner_text("#banner-text").startswith("Yukon, custom deal: ")  # (was "deal (custom)")
    # the computer's: not counted, so no streak of yours under it ("Streak 0 · ... · won 1 of 1" after a win)
    theirs = httpx.post(server.url + "api/games", json={"position": position}).json()["id"]
    page.goto(server.url + "?game=" + theirs)
    page.wait_for_function(f"window.yukon.state && window.yukon.state.id === '{theirs}'")
    settle(page)
    page.keyboard.press("t")
    page.wait_for_selector("#banner", state="visible", timeout=60_000)
    assert page.inner_text("#banner-title") == "The computer won!"
    settle(page)
    page.evaluate("fetch('/api/stats').then((r) => r.json())")  # (a stats line asked for would be in by now)
    assert page.inner_text("#banner-stats-line") == ""
    assert page.errors == []
    page.context.close()


def stats_text(page: Any) -> str:
    page.click("#btn-stats")
    page.wait_for_function("document.getElementById('stats-body').textContent !== 'Loading…'")
    text = str(page.inner_text("#stats-body"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-stats", state="hidden")
    return text


def test_the_statistics_say_the_game_in_play_counts_once_it_is_over(browser: Any, tmp_path: Any) -> None:
    # in the middle of a first game they said "No games played yet", just above "A game counts as played from
    # your first own move"
    with Server(tmp_path / "stats.sqlite3") as srv:
        gid = httpx.post(srv.url + "api/games", json={"seed": 1234}).json()["id"]
        page = open_game(browser, srv, gid)
        assert stats_text(page) == "No games played yet."  # (a deal not touched yet)
        page.evaluate("window.yukon.sendMove('2:4H+3>3')")
        page.wait_for_function("window.yukon.state.player_moved")
        settle(page)
        assert stats_text(page) == ("No game finished yet. The game in play is not in these figures yet:"
                                    " it counts once it is won, or left for another game.")
        # a finished game in the table, and another in play: the table, then the same note under it
        page.evaluate("window.yukon.newGame({variant: 'yukon', seed: 5})")
        page.wait_for_function("window.yukon.state.seed === 5")
        page.evaluate("window.yukon.sendMove('2:JD+4>4')")
        page.wait_for_function("window.yukon.state.player_moved")
        settle(page)
        text = stats_text(page)
        assert "Yukon" in text and text.endswith("it counts once it is won, or left for another game.")
        assert page.errors == []
        page.context.close()


def test_the_statistics_show_every_figure_at_any_width(browser: Any, server: Server) -> None:
    # from 641 to about 815 px the table of eight columns was wider than its dialog: "Fewest moves" sat behind a
    # sideways scroll nobody sees
    gid = httpx.post(server.url + "api/games", json={"seed": 1234}).json()["id"]
    assert httpx.post(server.url + f"api/games/{gid}/moves", json={"move": "2:4H+3>3"}).status_code == 200
    assert httpx.post(server.url + f"api/games/{gid}/resign").status_code == 200  # (a row in the statistics)
    page = open_game(browser, server, httpx.post(server.url + "api/games", json={"seed": 5}).json()["id"])
    page.click("#btn-stats")
    page.wait_for_function("document.getElementById('stats-body').textContent.includes('Fewest moves')")
    for width in (390, 641, 700, 768, 800, 840, 841, 900, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_function(f"window.innerWidth === {width}")
        cut = page.evaluate("(() => { const b = document.getElementById('stats-body');"
                            " return b.scrollWidth - b.clientWidth; })()")
        assert cut <= 0, (width, cut)
    assert page.errors == []
    page.context.close()


def test_a_window_resized_under_a_drag_ends_it_with_no_move(browser: Any, server: Server) -> None:
    """A drag is measured on the layout it began on: once a resize lays the table out anew, its drop would land
    on whatever pile now lies under the pointer. The drag ends there, the cards go back, and the drop plays
    nothing, nor does it count as a click."""
    r = httpx.post(server.url + "api/games", json={"variant": "yukon", "seed": AUTOPLAYED, "autoplay": True})
    page = open_game(browser, server, r.json()["id"], settings={**SETTINGS, "autoplay": True})
    before = state(page)
    assert before["best_moves"]["1:4D"] == "1:4D>3"
    b = card_box(page, "4D")
    page.mouse.move(b["x"] + b["w"] / 2, b["y"] + 8)
    page.mouse.down()
    page.mouse.move(b["x"] + b["w"] / 2 + 10, b["y"] + 20, steps=2)
    page.wait_for_function("document.querySelector(\".card[data-name='4D']\").classList.contains('dragging')")
    page.set_viewport_size({"width": 1000, "height": 800})
    page.wait_for_function("!document.querySelector(\".card[data-name='4D']\").classList.contains('dragging')")
    to = pile_point(page, "c2")  # the pile the move goes to, where the new layout has it
    page.mouse.move(to["x"], to["y"], steps=4)
    page.mouse.up()
    settle(page)
    after = state(page)
    assert after["move_count"] == before["move_count"] and not after["player_moved"]
    back = card_box(page, "4D")
    slot = page.evaluate("(() => { const r = document.querySelector(\".slot[data-pile='c0']\")"
                         ".getBoundingClientRect(); return {x: r.x, y: r.y}; })()")
    assert abs(back["x"] - slot["x"]) < 2 and abs(back["y"] - slot["y"]) < 2  # in its own column again
    assert page.errors == []
    page.context.close()


def test_a_click_that_can_do_nothing_says_why(browser: Any, server: Server) -> None:
    """A new player taps a face-down card, or an empty foundation: the table says what those are for, and
    nothing moves (they used to say nothing at all)."""
    r = httpx.post(server.url + "api/games", json={"variant": "yukon", "seed": AUTOPLAYED, "autoplay": True})
    page = open_game(browser, server, r.json()["id"], settings={**SETTINGS, "autoplay": True})
    before = state(page)
    down = page.evaluate("(() => { const r = document.querySelector(\".card[data-key='down:6:0']\")"
                         ".getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + 3}; })()")
    page.mouse.click(down["x"], down["y"])
    page.wait_for_function("document.getElementById('message').textContent.includes('face-down')")
    empty = sorted(page.evaluate("[...document.querySelectorAll('.slot')].map((e) => e.dataset.pile)"))
    free = [p for p in empty if p.startswith("f") and not before["foundations"][int(p[1:])]]
    assert len(free) == 2  # (the aces of spades and clubs went up at the deal)
    page.click(f".slot[data-pile='{free[0]}']")
    page.wait_for_function("document.getElementById('message').textContent.includes('starts with an Ace')")
    settle(page)
    assert state(page)["move_count"] == before["move_count"]
    assert page.errors == []
    page.context.close()


def test_a_group_move_is_told_as_the_card_and_the_cards_on_it_and_so_is_its_undo(browser: Any, server: Server) -> None:
    # "nine of diamonds with 8 cards to column 4" read as eight cards in all; the terminal says "and 8 cards on it"
    r = httpx.post(server.url + "api/games", json={"variant": "yukon", "seed": 1})
    page = open_game(browser, server, r.json()["id"])
    group = next(m for m in state(page)["legal_moves"] if "+" in m)
    extra = int(group.split("+")[1].split(">")[0])
    page.evaluate(f"window.yukon.sendMove({group!r})")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    on_it = f"{extra} card{'s' if extra > 1 else ''} on it"
    told = page.inner_text("#message")
    # the terminal game's words: the card in words, the cards on it, from where and to where
    assert re.fullmatch(rf"[A-Z][a-z]+ of [a-z]+ and {on_it} from column \d to column \d", told), told
    # undo and redo name the move too (they said "Undone: 1 move", "Redone")
    page.keyboard.press("Control+z")
    page.wait_for_function("window.yukon.state.move_count === 0")
    settle(page)
    assert page.inner_text("#message") == f"Undone: {told[0].lower()}{told[1:]}"
    page.keyboard.press("Control+y")
    page.wait_for_function("window.yukon.state.move_count === 1")
    settle(page)
    assert page.inner_text("#message") == f"Redone: {told[0].lower()}{told[1:]}"
    assert page.errors == []
    page.context.close()


def test_a_first_visit_says_how_to_play_and_a_game_resumed_or_dealt_later_does_not(browser: Any, tmp_path: Any) -> None:
    # the terminal game opens with how to pick a card; the web table said only "New game: Yukon, deal N"
    with Server(tmp_path / "first.sqlite3", warm_solver=False) as srv:  # (no game anywhere to resume)
        page = open_page(browser, srv)
        page.wait_for_function("document.getElementById('message').textContent.includes('Help (?)')")
        told = page.inner_text("#message")
        assert told.startswith("New game: Yukon, deal ") and told.endswith(
            " · Drag a card, and the cards on it come along; a click or tap sends it to its best place."
            " Help (?) has the rules."), told
        page.reload()
        page.wait_for_function("window.yukon && window.yukon.state")
        settle(page)
        assert "Drag a card" not in page.inner_text("#message")
        page.evaluate("window.yukon.newGame({})")
        page.wait_for_function("document.getElementById('message').textContent.startsWith('New game')")
        assert "Drag a card" not in page.inner_text("#message")
        assert page.errors == []
        page.context.close()
