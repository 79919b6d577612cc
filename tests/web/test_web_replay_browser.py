"""Replay, records and "Where did it go wrong?" in a real browser: stepping through a game's moves
(buttons, keys, the slider) without changing it, going back into play from a move, the analysis of a
lost game shown on the replay with its winning line, export and import of a record, PySolFC's numbers
in the New dialog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_setup import Server
from test_web_browser import SETTINGS, agree, open_page, settle, shot, state
from test_web_table import check_responses, record_responses

from yukon import Game
from yukon.record import GameRecord

pytestmark = pytest.mark.browser

TRAP = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"


def shown(page: Any) -> list[str]:
    """The face-up cards the table shows, sorted."""
    return sorted(page.evaluate("[...document.querySelectorAll('#table .card.up')].map((e) => e.dataset.name)"))


def api_shown(answer: dict[str, Any]) -> list[str]:
    cards = [c for col in answer["tableau"] for c in col["up"]] + [c for p in answer["foundations"] for c in p]
    return sorted(cards + answer["waste"])


def position_label(page: Any, text: str) -> None:
    page.wait_for_function("(t) => document.getElementById('replay-pos').textContent === t", arg=text)
    settle(page)


def test_replay_steps_through_the_moves_and_goes_back_into_play(browser: Any, server: Server) -> None:
    page = open_page(browser, server)
    responses = record_responses(page)
    page.evaluate("window.yukon.newGame({variant: 'yukon', seed: 5})")
    page.wait_for_function("window.yukon.state.seed === 5 && window.yukon.state.move_count === 0")
    for _ in range(4):
        move = state(page)["legal_moves"][0]
        page.evaluate("(m) => window.yukon.sendMove(m)", move)
        settle(page)
    live = state(page)
    gid = live["id"]
    page.click("#btn-replay")
    position_label(page, "Move 4 of 4")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    position_label(page, "Move 2 of 4")
    at2 = httpx.get(f"{server.url}api/games/{gid}/replay", params={"at": 2}).json()
    assert shown(page) == api_shown(at2)
    assert page.locator("#table .card.down").count() == sum(c["down_count"] for c in at2["tableau"]) + min(
        at2["stock_count"], 4)
    page.click("#replay-back")
    position_label(page, "Move 1 of 4")
    page.evaluate("(() => { const s = document.getElementById('replay-slider'); s.value = '0';"
                  " s.dispatchEvent(new Event('input', {bubbles: true})); })()")
    position_label(page, "Move 0 of 4")
    page.keyboard.press("End")
    position_label(page, "Move 4 of 4")
    page.keyboard.press("Home")
    position_label(page, "Move 0 of 4")
    page.click("#replay-forward")
    position_label(page, "Move 1 of 4")
    # clicks on the table play nothing while replaying; the saved game is unchanged
    page.locator("#table .card.up[aria-label*='free']").first.click()
    settle(page)
    assert httpx.get(f"{server.url}api/games/{gid}").json()["moves"] == live["moves"]
    # (checked before going back: undo turns cards face down again that the replay showed face up)
    assert check_responses(server, gid, responses) > 5
    page.click("#replay-play")
    page.wait_for_function("window.yukon.replay === null && window.yukon.state.move_count === 1")
    now = state(page)
    assert now["moves"] == live["moves"][:1] and now["can_redo"] and now["id"] == gid
    assert page.locator("#replay-bar").is_hidden()
    assert not page.errors


def test_analysis_after_a_loss_export_and_import(browser: Any, server: Server, tmp_path: Path) -> None:
    game = httpx.post(f"{server.url}api/games", json={"position": Game.from_text(TRAP).to_dict()}).json()
    page = open_page(browser, server)
    page.goto(f"{server.url}?game={game['id']}")
    page.wait_for_function("(id) => window.yukon && window.yukon.state && window.yukon.state.id === id",
                           arg=game["id"])
    for move in ("4:6C>3", "2:6H>F"):
        page.evaluate("(m) => window.yukon.sendMove(m)", move)
        settle(page)
    page.wait_for_selector("#banner-analyse", state="visible")
    page.click("#banner-analyse")
    page.wait_for_selector("#replay-analysis", state="visible", timeout=30000)
    position_label(page, "Move 1 of 2")
    assert "Move 2 lost the game" in page.inner_text("#replay-analysis")
    assert page.locator("#replay-mark").is_visible()
    assert page.locator("#table .card.losing").count() >= 1  # the move about to be played: 2:6H>F
    shot(page, "replay-analysis.png")
    assert httpx.get(f"{server.url}api/games/{game['id']}").json()["result"] == "lost"
    page.click("#replay-line")  # the line starts playing itself (analysis.js); Home pauses it at its start
    page.wait_for_function("/^Winning line: move \\d+ of \\d+$/"
                           ".test(document.getElementById('replay-pos').textContent)")
    page.keyboard.press("Home")
    page.wait_for_function("/^Winning line: move 0 of \\d+$/.test(document.getElementById('replay-pos').textContent)")
    settle(page)
    steps = int(page.inner_text("#replay-pos").rsplit(" ", 1)[1])
    for k in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        position_label(page, f"Winning line: move {k} of {steps}")
    won = state(page)
    assert won["cards_on_foundations"] == won["card_count"]
    assert page.inner_text("#replay-next") == "Won: every card is up."
    shot(page, "replay-winning-line.png")

    with page.expect_download() as got:
        page.click("#replay-export")
    path = tmp_path / "game.json"
    got.value.save_as(path)
    record = GameRecord.read(path)
    assert [str(m) for m in record.moves] == ["4:6C>3", "2:6H>F"] and record.start == Game.from_text(TRAP)

    page.keyboard.press("Escape")  # back from the winning line to the game's moves
    position_label(page, "Move 1 of 2")
    page.click("#replay-play")  # a finished game takes no move: a new game from its record, cut at move 1
    page.wait_for_function("(id) => window.yukon.state.id !== id && window.yukon.replay === null", arg=game["id"])
    settle(page)
    again = state(page)
    assert again["moves"] == ["4:6C>3"] and again["status"] == "playing" and "2:6H>F" in again["legal_moves"]
    page.click("#btn-new")
    page.set_input_files("#import-file", str(path))
    page.wait_for_function("(id) => window.yukon.state.id !== id && window.yukon.state.move_count === 2",
                           arg=again["id"])
    settle(page)
    imported = state(page)
    assert imported["moves"] == ["4:6C>3", "2:6H>F"] and imported["status"] == "lost"

    bad = tmp_path / "bad.json"
    data = json.loads(path.read_text())
    data["moves"] = ["1:KS>F"]
    bad.write_text(json.dumps(data))
    page.keyboard.press("Escape")
    page.click("#btn-new")
    page.set_input_files("#import-file", str(bad))
    page.wait_for_function("/move 1/.test(document.getElementById('message').textContent)")
    assert state(page)["id"] == imported["id"]
    assert not page.errors


#: milliseconds between two moves of the winning line at the speed the test sets (analysis.js STEP_MS.fastest:
#: the line is played out twice below, at the default 900 ms a step that alone took over half a minute; the
#: speed changes only the pause between two steps, every step and its animation is the same)
STEP_MS = 150


def test_the_winning_line_plays_itself_out_pauses_and_goes_back_to_the_game(browser: Any, server: Server) -> None:
    game = httpx.post(f"{server.url}api/games", json={"position": Game.from_text(TRAP).to_dict()}).json()
    page = open_page(browser, server, settings={**SETTINGS, "animate": True, "demoSpeed": "fastest"})
    page.goto(f"{server.url}?game={game['id']}")
    page.wait_for_function("(id) => window.yukon && window.yukon.state && window.yukon.state.id === id",
                           arg=game["id"])
    page.evaluate("(m) => window.yukon.sendMove(m)", "2:6H>F")  # the losing move; the game goes on
    settle(page)
    assert state(page)["status"] == "playing"
    page.keyboard.press("w")  # at any time: the game in play is ended first, once the player agrees
    agree(page, "ends this game")
    page.wait_for_selector("#replay-analysis", state="visible", timeout=30000)
    assert httpx.get(f"{server.url}api/games/{game['id']}").json()["result"] == "abandoned"
    position_label(page, "Move 0 of 1")
    assert "Move 1 lost the game" in page.inner_text("#replay-analysis")
    assert page.locator("#table .card.losing").count() >= 1

    # every position the line passes through, as the bar shows it, with no key pressed
    page.evaluate("""() => {
        window.seen = [];
        const pos = document.getElementById('replay-pos');
        new MutationObserver(() => { if (window.seen.at(-1) !== pos.textContent) window.seen.push(pos.textContent); })
            .observe(pos, {childList: true, characterData: true, subtree: true});
    }""")
    page.click("#replay-line")
    page.wait_for_function("document.getElementById('replay-pos').textContent === 'Winning line: move 2 of '"
                           " + window.yukon.replay.cont.moves.length")
    assert page.inner_text("#replay-animate") == "‖ Pause"
    # the analysis no longer says to press a button gone from the bar ("Show the winning line" plays ...)
    assert "Move 1 lost the game" in page.inner_text("#replay-analysis")
    assert "winning line" not in page.inner_text("#replay-analysis").lower(), page.inner_text("#replay-analysis")
    shot(page, "replay-line-playing.png")
    page.wait_for_function("document.getElementById('replay-next').textContent === 'Won: every card is up.'",
                           timeout=60000)
    steps = page.evaluate("window.yukon.replay.cont.moves.length")
    assert page.evaluate("window.seen") == [f"Winning line: move {k} of {steps}" for k in range(steps + 1)]
    won = state(page)
    assert won["cards_on_foundations"] == won["card_count"]
    assert page.inner_text("#replay-animate") == "↻ Play the line again"

    # again from its start; paused, it stays where it is; Space plays on to the end
    page.click("#replay-animate")
    position_label(page, f"Winning line: move 1 of {steps}")
    page.click("#replay-animate")
    assert page.inner_text("#replay-animate") == "▶ Play the line"
    settle(page)
    paused_at = page.inner_text("#replay-pos")
    page.wait_for_timeout(8 * STEP_MS)  # (a step's card would have flown by then, were it not paused)
    assert page.inner_text("#replay-pos") == paused_at
    page.locator("#replay-pos").click()  # (the focus off the buttons: Space is the line's key)
    page.keyboard.press(" ")
    page.wait_for_function("document.getElementById('replay-next').textContent === 'Won: every card is up.'",
                           timeout=60000)

    page.keyboard.press("Escape")  # back from the winning line to the game's moves, then to the game
    position_label(page, "Move 0 of 1")
    assert '"Show the winning line" plays what would have won' in page.inner_text("#replay-analysis")
    assert page.locator("#replay-animate").is_hidden()
    page.click("#replay-close")
    page.wait_for_function("window.yukon.replay === null")
    assert state(page)["moves"] == ["2:6H>F"] and state(page)["result"] == "abandoned"
    assert httpx.get(f"{server.url}api/games/{game['id']}").json()["moves"] == ["2:6H>F"]
    assert not page.errors


def test_new_dialog_offers_pysolfc_numbers_where_they_exist(browser: Any, server: Server) -> None:
    page = open_page(browser, server, settings={**SETTINGS})
    page.evaluate("window.yukon.newGame({variant: 'yukon', seed: 8})")  # not the dead end left by a test before
    page.wait_for_function("window.yukon.state.seed === 8 && window.yukon.state.status === 'playing'")
    settle(page)
    page.click("#btn-new")
    page.select_option("#new-variant", "milligan-yukon")
    assert page.locator("#new-numbering option[value=pysolfc]").is_disabled()
    assert "not available" in page.inner_text("#new-numbering-note")
    page.select_option("#new-variant", "yukon")
    page.select_option("#new-numbering", "pysolfc")
    page.fill("#new-seed", "123456")
    page.click("#new-ok")
    page.wait_for_function("window.yukon.state.numbering === 'pysolfc' && window.yukon.state.seed === 123456")
    expected = Game.deal("yukon", seed=123456, numbering="pysolfc")
    from yukon.cards import NAME

    assert [c["up"] for c in state(page)["tableau"]] == [[NAME[c] for c in up] for _, up in expected.columns]
    assert "PySolFC game 123456" in page.title()
    assert not page.errors


def test_the_statistics_show_pysolfc_deals_in_a_row_of_their_own(browser: Any, server: Server) -> None:
    for numbering in ("pysolfc", "yukon"):
        game = httpx.post(f"{server.url}api/games", json={"seed": 4242, "numbering": numbering}).json()
        httpx.post(f"{server.url}api/games/{game['id']}/resign")
    page = open_page(browser, server, settings={**SETTINGS})
    page.evaluate("window.yukon.newGame({variant: 'yukon', seed: 4242, numbering: 'pysolfc'})")
    page.wait_for_function("window.yukon.state.numbering === 'pysolfc' && window.yukon.state.seed === 4242")
    settle(page)
    page.click("#btn-stats")
    page.wait_for_selector("#stats-body table")
    rows = page.locator("#stats-body tbody tr")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    kings = "empty column: kings, foundation return: off"
    ours = [t for t in texts if t.startswith("Yukon") and kings in t and "PySolFC" not in t]
    theirs = [t for t in texts if t.startswith("Yukon") and f"{kings}, PySolFC deal numbers" in t]
    assert len(ours) == 1 and len(theirs) == 1
    current = page.locator("#stats-body tbody tr.current")
    assert current.count() == 1 and "PySolFC deal numbers" in current.inner_text()  # the game in play's row
    shot(page, "stats-numbering.png")
    assert not page.errors


def test_play_on_from_a_finished_game_keeps_the_deals_ace_the_deals(browser: Any, server: Server) -> None:
    """The deal's Ace (it went up with the deal) became a move of the new game "Play on from here" started: the
    counter counted it and Undo took it back down."""
    api = f"{server.url}api/games"
    game = httpx.post(api, json={"seed": 6, "autoplay": True}).json()  # (deal 6: an Ace dealt face up and free)
    assert game["dealt"] == 1
    for _ in range(2):
        at = httpx.get(f"{api}/{game['id']}").json()
        mine = next(m for m in at["legal_moves"] if m != "deal")
        assert httpx.post(f"{api}/{game['id']}/moves", json={"move": mine, "at": at["move_count"]}).status_code == 200
    assert httpx.post(f"{api}/{game['id']}/resign").json()["result"] is not None
    page = open_page(browser, server)
    page.goto(f"{server.url}?game={game['id']}")
    page.wait_for_function("(id) => window.yukon && window.yukon.state && window.yukon.state.id === id",
                           arg=game["id"])
    page.keyboard.press("Escape")  # (the box: this game is over)
    page.keyboard.press("p")
    position_label(page, "Move 2 of 2")
    page.click("#replay-play")
    page.wait_for_function("(id) => window.yukon.state.id !== id && window.yukon.replay === null", arg=game["id"])
    settle(page)
    assert (page.inner_text("#move-count"), state(page)["dealt"]) == ("2", 1)
    for left in ("1", "0"):
        page.keyboard.press("Control+z")
        page.wait_for_function("(n) => document.getElementById('move-count').textContent === n", arg=left)
    assert page.locator("#btn-undo").is_disabled() and state(page)["moves"] == game["moves"]
    assert not page.errors
