"""The terminal game's records, replay and analysis: ``yukon tui --record``, ``x``, ``,``/``.``/``l``, ``W``/``b``."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_helpers import NEARLY_WON, ONE_FROM_LOST, FakeClock, wait_for

from yukon import Game
from yukon.analysis import Analysis
from yukon.cli import main
from yukon.record import GameRecord
from yukon.store import Store
from yukon.tui.app import YukonApp, analysis_text
from yukon.tui.screens import ConfirmScreen, GameOverScreen, HelpScreen
from yukon.tui.session import Session

Scenario = Callable[[Pilot[None], YukonApp], Awaitable[None]]

#: A won start; 6♥ up (move 1) leaves 5♣ on the 4♣ it covers for good, and 6♣ onto 7♥ (move 2) is a dead end.
LOSABLE = "yukon,kings,noreturn 4C.5C/6H/KHQHJHTH9H8H7H/KCQCJCTC9C8C7C6C/-/-/- KS/5H/KD/3C"
LOST_LINE = ["2:6H>F", "4:6C>3"]


def run(app: YukonApp, scenario: Scenario) -> None:
    async def main_() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(main_())


def make_app(store: Store | None, **kwargs: Any) -> YukonApp:
    return YukonApp(store, clock=FakeClock(), tick=False, new_seed=lambda: 99, **kwargs)


def imported(store: Store | None, start: str, moves: list[str], **kwargs: Any) -> YukonApp:
    record = GameRecord.from_parts(Game.from_text(start), moves)
    return make_app(store, session=Session.from_game_record(record, store, clock=FakeClock()), **kwargs)


# ---------------------------------------------------------------------- yukon tui --record


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[YukonApp]:
    apps: list[YukonApp] = []
    monkeypatch.setattr(YukonApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_record_option_continues_the_game(started: list[YukonApp], tmp_path: Path) -> None:
    game = Game.deal("russian", seed=12)
    line = []
    for _ in range(3):
        move = game.legal_moves()[0]
        game.push(move)
        line.append(move)
    path = tmp_path / "g.json"
    GameRecord.from_game(game).write(path)
    assert main(["tui", "--record", str(path), "--db", str(tmp_path / "s.sqlite3")]) == 0
    [app] = started
    assert app.game.rules.variant == "russian" and app.game.seed == 12 and app.session.moves == line
    assert app.session.undo() and app.session.move_count == 2  # one move a turn
    assert main(["tui", "--record", str(path), "--seed", "3", "--db", str(tmp_path / "s.sqlite3")]) == 2
    assert len(started) == 1


def test_bad_record_is_one_line_naming_the_move(started: list[YukonApp], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    data = GameRecord.from_parts(Game.from_text(LOSABLE), LOST_LINE).to_dict()
    data["moves"] = [LOST_LINE[0], "1:4C>F"]  # 4♣ is face down under 5♣
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["tui", "--record", str(path), "--db", str(tmp_path / "s.sqlite3")]) == 2
    assert main(["tui", "--record", str(tmp_path / "missing.json"), "--db", str(tmp_path / "s.sqlite3")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("yukon: error: --record ") for line in err)
    assert "move 2 ('1:4C>F')" in err[0] and "missing.json" in err[1]
    assert started == []


# ---------------------------------------------------------------------- export


def test_export_only_once_the_game_is_over(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("x")
        assert "once the game is over" in app.status_text and list(out.iterdir()) == []
        await pilot.press("5", "f")  # 10♣ up: no legal move left
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("escape", "x")
        [path] = list(out.iterdir())
        assert path == app.exported and path.name.startswith("yukon-yukon-position-")
        assert str(path) in app.status_text
        record = GameRecord.read(path)
        assert [str(m) for m in record.moves] == ["5:TC>F"] and record.result == "lost"
        assert record.start == Game.from_text(ONE_FROM_LOST)

    run(make_app(store, game=Game.from_text(ONE_FROM_LOST), autoplay=False, export_dir=out), scenario)


# ---------------------------------------------------------------------- replay


def test_replay_steps_without_changing_the_game_then_plays_from_there(store: Store) -> None:
    game = Game.deal("yukon", seed=42)
    line: list[str] = []
    turned_up = None
    for _ in range(4):  # moves that turn a face-down card up, when there are such
        moves = game.legal_moves()
        move = next((m for m in moves if m.src < 7 and len(game.columns[m.src][0]) > 0
                     and len(game.columns[m.src][1]) == m.count), moves[0])
        down_before = list(game.columns[move.src][0]) if move.src < 7 else []
        game.push(move)
        line.append(str(move))
        if turned_up is None and down_before and game.columns[move.src][1][:1] == down_before[-1:]:
            turned_up = (len(line), move.src, down_before[-1])
    assert turned_up is not None
    start = Game.deal("yukon", seed=42)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        saved = list(app.session.moves)
        await pilot.press("comma", "comma")
        assert app.replay is not None and app.replay.at == 2
        shown = start.copy()
        for text in line[:2]:
            shown.push_text(text)
        assert app.state.game == shown and app.session.moves == saved
        assert "move 2/4" in app.status_text
        # the card turned up by move n is face down again before it
        n, column, card = turned_up
        for _ in range(4 - n + 1 - 2):
            await pilot.press("comma")
        assert app.replay.at == n - 1 and card in app.state.game.columns[column][0]
        await pilot.press("full_stop")
        assert app.replay.at == n and card in app.state.game.columns[column][1]
        await pilot.press("u", "1", "enter")  # keys that would change the game do nothing
        assert app.session.moves == saved and app.replay.at == n
        # and say why, as a click does (they said nothing)
        assert app.status_text == "Replaying: l plays on from here, esc goes back to the game"
        await pilot.press("comma", "full_stop")  # the replay's own keys go on
        assert app.replay.at == n and f"move {n}/4" in app.status_text
        await pilot.press("escape")
        assert app.replay is None and app.state.game == app.session.game
        await pilot.press("comma", "comma", "comma", "l")
        assert app.replay is None and [str(m) for m in app.session.moves] == line[:1]
        assert app.session.can_redo
        await pilot.press("r", "r", "r")
        assert [str(m) for m in app.session.moves] == line

    run(imported(store, start.to_text(), line, autoplay=False), scenario)


# ---------------------------------------------------------------------- analysis


def test_analysis_finds_the_losing_move_and_steps_through_a_winning_line(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert isinstance(app.screen, GameOverScreen)  # the record ends at a dead end: W from the box
        await pilot.press("W")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.analysis.losing_move == 1 and "Move 1 lost the game" in app.status_text
        await pilot.press("b")
        replay = app.replay
        assert replay is not None and replay.at == 0 and replay.better_from == 0
        assert "winning line" in app.status_text
        while replay.next_move is not None:
            await pilot.press("full_stop")
        assert app.state.game.is_won() and [str(m) for m in app.session.moves] == LOST_LINE
        await pilot.press("escape")
        assert app.replay is None

    run(imported(store, LOSABLE, LOST_LINE, analysis_time=5.0), scenario)


def test_analysis_waits_for_the_end_and_is_stoppable(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    stopped: list[float] = []

    def slow_analyze(record: GameRecord, *, stop: threading.Event, **limits: float) -> None:
        started = time.monotonic()
        assert stop.wait(20)  # a search that runs until it is stopped
        stopped.append(time.monotonic() - started)

    monkeypatch.setattr("yukon.tui.app.analyze", slow_analyze)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("W")
        assert "play a move first" in app.status_text and "analysis" not in app._jobs  # (no move yet)
        await pilot.press("5", "f")
        await pilot.pause()
        await pilot.press("escape", "W")
        assert "analysis" in app._jobs and "esc stops" in app.status_text
        await pilot.press("escape")
        assert "stopped" in app.status_text and "analysis" not in app._jobs
        await wait_for(pilot, lambda: bool(stopped), 5)
        assert app.analysis is None and "stopped" in app.status_text

    run(make_app(store, game=Game.from_text(ONE_FROM_LOST), autoplay=False), scenario)
    assert len(stopped) == 1 and stopped[0] < 5


@pytest.mark.parametrize("back", [["R"], ["u"]], ids=["restart", "undo"])
def test_w_with_every_move_taken_back_asks_nothing(store: Store, back: list[str]) -> None:
    # W right after R asked "Give up this game to see where it went wrong?", then said of the game's no moves
    # "It can still be won from here: no move lost it"
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "f")
        await pilot.pause()
        await pilot.press(*back)
        assert app.session.moves == [] and app.session.in_progress
        await pilot.press("W")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and "analysis" not in app._jobs
        assert app.status_text == ("Where did it go wrong? looks at the moves you play: none is on the table "
                                   "(r redoes the moves taken back)")
        assert app.session.status == "playing" and app.session.result is None
        await pilot.press("r", "W")  # the move back: W offers to give the game up, as after any move
        assert isinstance(app.screen, ConfirmScreen)

    run(make_app(store, game=Game.from_text(LOSABLE), autoplay=False, analysis_time=5.0), scenario)


def test_analysis_at_any_time_gives_the_game_up_once_the_player_agrees(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "f")  # 6♥ up: the losing move; 6♣ can still go onto 7♥
        await pilot.pause()
        assert app.session.status == "playing"
        await pilot.press("W")
        assert isinstance(app.screen, ConfirmScreen) and "analysis" not in app._jobs
        await pilot.press("n")  # not now: the game goes on
        await pilot.pause()
        assert app.session.status == "playing" and "analysis" not in app._jobs
        await pilot.press("W")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.session.status == "abandoned" and app.analysis.losing_move == 1
        assert "Move 1 lost the game" in app.status_text
        await pilot.press("b")
        assert app.replay is not None and app.replay.better_from == 0

    run(make_app(store, game=Game.from_text(LOSABLE), autoplay=False, analysis_time=5.0), scenario)
    [row] = store.stats()
    assert (row.played, row.won) == (1, 0)



def test_the_top_line_of_a_replay_counts_the_cards_up_of_the_position_shown(store: Store) -> None:
    # Stepping back through a game, the top line said "2 moves · 3/52 up" over empty foundations: it counted
    # the moves of the position shown but the cards up of the game as it was left.
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert "1/52 up" in str(app.query_one("#info").render())
        await pilot.press("comma")
        await pilot.pause()
        assert app.replay is not None and app.state.game.cards_on_foundations == 0
        info = str(app.query_one("#info").render())
        assert "0 moves" in info and "0/52 up" in info, info
        await pilot.press("escape")
        await pilot.pause()
        assert "1 move" in str(app.query_one("#info").render()) and "1/52 up" in str(app.query_one("#info").render())

    game = Game.deal("yukon", seed=42)
    run(imported(store, game.to_text(), ["4:AH>F"]), scenario)


def test_the_top_line_of_a_replay_does_not_give_the_game_in_plays_verdict_and_clock(store: Store) -> None:
    # Stepping back to a start that can be won, the top line still said "not winnable ✗" (the game in play's
    # verdict, after its losing move) and ran the game's clock; the winning line after an analysis, likewise.
    clock = FakeClock()

    def info() -> str:
        return str(app.query_one("#info").render())

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "f")  # 6♥ up: the losing move
        await pilot.pause()
        clock.now += 45
        await pilot.press("c")
        await wait_for(pilot, lambda: "not winnable ✗" in info())
        assert "0:45" in info(), info()
        await pilot.press("comma")
        await pilot.pause()
        assert app.replay is not None and app.replay.at == 0
        assert "winnable" not in info() and "0:45" not in info() and info().endswith(" · replay"), info()
        await pilot.press("escape")
        await pilot.pause()
        assert "not winnable ✗" in info() and "replay" not in info(), info()
        await pilot.press("W")
        await pilot.press("y")
        await wait_for(pilot, lambda: app.analysis is not None)
        await pilot.press("b")
        await pilot.pause()
        assert app.replay is not None and app.replay.better_from == 0
        assert "winnable" not in info() and info().endswith(" · replay: winning line"), info()

    app = YukonApp(store, clock=clock, tick=False, new_seed=lambda: 99, game=Game.from_text(LOSABLE), autoplay=False,
                   winnable_time=5.0, analysis_time=5.0)
    run(app, scenario)


def test_a_game_given_up_for_the_analysis_can_be_exported(store: Store, tmp_path: Path) -> None:
    # The question said the answer shows the face-down cards and the game counted as not won, and yet x then
    # said "Export works once the game is over". The web game exports a game given up; so does this one now.
    out = tmp_path / "out"
    out.mkdir()

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "f")  # 6♥ up: the game goes on
        await pilot.pause()
        await pilot.press("x")
        assert "once the game is over" in app.status_text and list(out.iterdir()) == []
        await pilot.press("W", "y")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert str(app.query_one("#info").render()).endswith("· given up")  # (the top line said nothing of it)
        await pilot.press("x")
        [path] = list(out.iterdir())
        assert path == app.exported and str(path) in app.status_text
        record = GameRecord.read(path)
        assert [str(m) for m in record.moves] == ["2:6H>F"] and record.result == "abandoned"

    run(make_app(store, game=Game.from_text(LOSABLE), autoplay=False, analysis_time=5.0, export_dir=out),
        scenario)


def test_help_lists_the_new_keys(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(f"{keys} {label}" for keys, label in app.screen.rows())
        for word in ("x Export", ", Replay: one move back", ". Replay", "W Where did it go wrong",
                     "b After the analysis"):
            assert word in text

    run(make_app(store, game=Game.from_text(ONE_FROM_LOST), autoplay=False), scenario)


def test_analysis_text_says_each_outcome_and_never_guesses_in_a_range() -> None:
    start = Game.from_text(LOSABLE)
    moves = [start.parse_move(LOST_LINE[0])]
    after = start.copy()
    after.push(moves[0])
    moves.append(after.parse_move(LOST_LINE[1]))
    lost_at_1 = Analysis("won", 1, [], [], verdicts={0: "won", 1: "lost"}, end="lost", moves=2)
    text, kind = analysis_text(lost_at_1, moves, start)
    assert text.startswith("Move 1 lost the game (6♥ from column 2 to its foundation)") and kind == "error"
    ranged = Analysis("won", None, [], [1, 2], losing_range=(1, 2), end="unknown", moves=2)
    text, _ = analysis_text(ranged, moves, start)
    # (the end undecided: the game may never have been lost; it said "The game was lost between move 1 and 2")
    assert text.startswith("If the game was lost at all, it was lost by one of moves 1 to 2")
    unsure_start = Analysis("unknown", None, [], [0, 1, 2], losing_range=(1, 2), end="unknown", moves=2)
    text, _ = analysis_text(unsure_start, moves, start)
    assert "could not tell in time whether the start could be won" in text and "The game was lost" not in text
    assert "from the start" in analysis_text(Analysis("lost", None, [], [], end="lost"), moves, start)[0]
    assert analysis_text(Analysis("won", None, [], [], end="won"), moves, start) == (
        "You won: no move lost the game", "good")
    assert "in time" in analysis_text(Analysis("unknown", None, [], [], end="unknown"), moves, start)[0]


# ---------------------------------------------------------------------- statistics by deal numbering


def test_statistics_show_pysolfc_deals_apart_and_mark_the_current_numbering(store: Store) -> None:
    rules = {"empty_column": "kings", "foundation_return": False}
    for gid, extra, result in (("ours", {}, "won"), ("theirs", {"numbering": "pysolfc"}, "lost")):
        store.create_game(gid, "yukon", rules, 7, {"variant": "yukon"}, "web", extra)
        store.finish_game(gid, result)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("s")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        rows = [[c for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [[str(c) for c in row[1:4]] for row in rows] == [
            ["kings", "1", "1"], ["kings, PySolFC deals", "1", "0"]]
        assert [row[0].style for row in rows] == ["", "bold"]  # the game in play is one of PySolFC's

    run(make_app(store, game=Game.deal("yukon", seed=123456, numbering="pysolfc")), scenario)


# ---------------------------------------------------------------------- across the two games


def web_client(store: Store) -> Any:
    from fastapi.testclient import TestClient

    from yukon.web import create_app
    from yukon.web.solving import SolverQueue

    return TestClient(create_app(store, solver=SolverQueue(processes=False)), base_url="http://127.0.0.1")


def test_a_record_from_the_web_is_analysed_in_the_terminal(store: Store, tmp_path: Path,
                                                          started: list[YukonApp],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    with web_client(store) as client:
        game = client.post("/api/games", json={"position": Game.from_text(LOSABLE).to_dict()}).json()
        for move in LOST_LINE:
            client.post(f"/api/games/{game['id']}/moves", json={"move": move})
        client.post(f"/api/games/{game['id']}/resign")
        path = tmp_path / "from-the-web.json"
        path.write_text(json.dumps(client.get(f"/api/games/{game['id']}/record").json()))
    assert main(["analyze", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["losing_move"] == 1
    assert main(["tui", "--record", str(path), "--db", str(tmp_path / "tui.sqlite3")]) == 0
    [app] = started

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("W")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.analysis.losing_move == 1 and "Move 1 lost the game" in app.status_text
        await pilot.press("b")
        assert app.replay is not None and app.replay.better_from == 0

    assert [str(m) for m in app.session.moves] == LOST_LINE
    app.analysis_time = 5.0
    run(app, scenario)


def test_a_record_from_the_terminal_is_analysed_and_replayed_in_the_web(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "f")  # 6♥ up: the losing move
        await pilot.press("4", "enter", "3")  # 6♣ onto 7♥: a dead end
        await pilot.pause()
        assert [str(m) for m in app.session.moves] == LOST_LINE
        await pilot.press("escape", "x")

    run(make_app(store, game=Game.from_text(LOSABLE), autoplay=False, export_dir=out), scenario)
    [path] = list(out.iterdir())
    with web_client(store) as client:
        state = client.post("/api/games/import", json={"record": json.loads(path.read_text())}).json()
        assert state["moves"] == LOST_LINE and state["status"] == "lost"
        client.post(f"/api/games/{state['id']}/resign")
        answer = client.post(f"/api/games/{state['id']}/analysis").json()
        assert (answer["start"], answer["losing_move"], answer["unknown_moves"]) == ("won", 1, [])
        then = " ".join(answer["continuation"])
        won = client.get(f"/api/games/{state['id']}/replay", params={"at": 0, "then": then}).json()
        assert won["cards_on_foundations"] == won["card_count"]


def test_a_replay_does_not_add_to_the_games_time(store: Store) -> None:
    # The clock kept running while a replay was shown: five minutes spent looking back at the moves came
    # back as five minutes of play on the top line, in the saved game and in the statistics' best time.
    clock = FakeClock()

    def info() -> str:
        return str(app.query_one("#info").render())

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("2", "f")  # 6♥ up: the clock starts
        await pilot.pause()
        clock.now += 45
        await pilot.press("comma")
        await pilot.pause()
        assert app.replay is not None
        clock.now += 300  # looking at the replay
        await pilot.press("full_stop")
        clock.now += 300
        assert round(app.session.elapsed) == 45
        await pilot.press("escape")  # back to the game: its clock runs again from here
        await pilot.pause()
        assert app.replay is None and round(app.session.elapsed) == 45 and "0:45" in info(), info()
        clock.now += 10
        assert round(app.session.elapsed) == 55
        await pilot.press("comma")
        clock.now += 300
        await pilot.press("l")  # play on from the position shown: the replay's time does not count either
        await pilot.pause()
        assert app.replay is None and round(app.session.elapsed) == 55
        clock.now += 5
        await pilot.press("r")  # the move back
        await pilot.pause()
        assert round(app.session.elapsed) == 60 and app.session.move_count == 1
        await pilot.press("comma")
        await pilot.pause()
        assert app.replay is not None
        clock.now += 300
        await pilot.press("q")  # quitting from a replay saves the game's own time

    app = YukonApp(store, clock=clock, tick=False, new_seed=lambda: 99, game=Game.from_text(LOSABLE), autoplay=False)
    run(app, scenario)
    [saved] = store.unfinished("tui")
    assert round(saved.elapsed) == 60


def test_a_replay_of_a_won_game_keeps_its_time(store: Store) -> None:
    # The won game's time is what the won box, the top line and the statistics say, replay or not.
    clock = FakeClock()

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("1", "f")  # K♥ up: auto-play finishes the game
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        won = app.session.elapsed
        await pilot.press("escape")
        await pilot.press("comma")
        clock.now += 300
        await pilot.press("comma", "escape")
        clock.now += 300
        assert app.replay is None and app.session.elapsed == won
        await pilot.press("comma", "l")  # play on from before the last move: a new try, its own clock
        await pilot.pause()
        assert app.session.elapsed == won

    app = YukonApp(store, clock=clock, tick=False, new_seed=lambda: 99, game=Game.from_text(NEARLY_WON))
    run(app, scenario)
