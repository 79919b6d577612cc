"""W in the terminal on a game given up while it could still be won: no move lost it, and b steps through a
winning line from where it was left (before, b said it needed a losing move)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import FakeClock, wait_for

from yukon import Game
from yukon.demo import computer_moves
from yukon.store import Store
from yukon.tui.app import YukonApp

#: Yukon deal 802 (easy) after four moves: still winnable
STILL_WINNABLE = ["5:2C+2>6", "4:4C+3>7", "7:6D+7>6", "6:JD+5>4"]


def run_at_80x24(app: YukonApp, scenario: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    """Run ``scenario`` against ``app`` in a headless 80x24 terminal."""

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(main())


def test_b_steps_through_a_line_from_where_a_winnable_game_was_left(store: Store) -> None:
    game = Game.deal("yukon", seed=802)
    app = YukonApp(store, game.copy(), clock=FakeClock(), tick=False, new_seed=lambda: 99, autoplay=False,
                   analysis_time=5.0)

    async def scenario(pilot: Pilot[None]) -> None:
        for move in STILL_WINNABLE:  # (the player's moves, as the keys would play them)
            app.session.play(move, autoplay=False)
        app.refresh_table()
        await pilot.press("W", "y")  # give the game up, then the analysis
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.session.status == "abandoned"
        assert app.analysis.end == "winnable" and app.analysis.losing_move is None
        assert "no move lost it" in app.status_text and "b: step through a winning line" in app.status_text
        await pilot.press("b")
        replay = app.replay
        assert replay is not None and replay.better_from == len(STILL_WINNABLE) == replay.at
        assert list(map(str, replay.line[:replay.at])) == STILL_WINNABLE
        end = game.copy()
        end.replay(replay.line)
        assert end.is_won()
        await pilot.press("full_stop")
        assert app.replay.at == len(STILL_WINNABLE) + 1 and "winning line" in app.status_text

    run_at_80x24(app, scenario)


def test_b_after_a_deal_lost_from_the_start_says_there_is_no_line(store: Store) -> None:
    # It said "b steps through a winning line once W has found the move that lost the game", when W had just
    # said that no move lost it: the deal could not be won from the start (Russian deal 5).
    app = YukonApp(store, Game.deal("russian", seed=5), clock=FakeClock(), tick=False, new_seed=lambda: 99,
                   autoplay=False, analysis_time=5.0)

    async def scenario(pilot: Pilot[None]) -> None:
        app.session.play("7:4H+2>2", autoplay=False)
        app.refresh_table()
        await pilot.press("W", "y")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.analysis.start == "lost", app.analysis
        assert app.status_text.startswith("This deal could not be won from the start")
        await pilot.press("b")
        assert app.replay is None
        assert app.status_text == "No winning line: this deal could not be won from the start"

    run_at_80x24(app, scenario)


def test_w_on_a_shipped_lost_deal_says_so_at_once(store: Store) -> None:
    # Yukon deal 91 is proven lost in the shipped verdicts, and one of the hardest deals for the solver: W
    # searched for its whole time limit for a losing move that no move was
    app = YukonApp(store, Game.deal("yukon", seed=91), clock=FakeClock(), tick=False, new_seed=lambda: 99,
                   autoplay=False, analysis_time=60.0)

    async def scenario(pilot: Pilot[None]) -> None:
        move = app.session.game.legal_moves()[0]
        app.session.play(move, autoplay=False)
        app.refresh_table()
        await pilot.press("W", "y")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.analysis.start == "lost" and app.analysis.solver_calls == 0, app.analysis
        assert app.status_text == "This deal could not be won from the start: no move lost it"

    run_at_80x24(app, scenario)


def test_b_before_w_says_what_it_waits_for() -> None:
    from yukon.tui.app import no_line_text

    assert no_line_text(None) == "b steps through a winning line once W has found where the game went wrong"


def test_l_on_the_winning_line_says_the_solvers_moves_were_played(store: Store) -> None:
    # l two moves into the winning line said "Playing on from move 6 (the later moves are on the redo list:
    # r)": nothing had been undone, r had nothing to redo; the solver's two moves had been played, as one turn
    game = Game.deal("yukon", seed=802)
    app = YukonApp(store, game.copy(), clock=FakeClock(), tick=False, new_seed=lambda: 99, autoplay=False,
                   analysis_time=5.0)

    async def scenario(pilot: Pilot[None]) -> None:
        for move in STILL_WINNABLE:
            app.session.play(move, autoplay=False)
        app.refresh_table()
        await pilot.press("W", "y")
        await wait_for(pilot, lambda: app.analysis is not None)
        await pilot.press("b", "full_stop", "full_stop", "l")
        assert app.replay is None and app.session.move_count == len(STILL_WINNABLE) + 2
        assert "redo" not in app.status_text, app.status_text
        assert app.status_text == (f"A new game from move {len(STILL_WINNABLE) + 2}: the solver's 2 moves are "
                                   "played (u takes them back)")
        await pilot.press("u")
        assert app.session.move_count == len(STILL_WINNABLE)

    run_at_80x24(app, scenario)


def test_playing_on_from_a_game_given_up_is_a_new_game_that_quitting_keeps(store: Store) -> None:
    # A new player's trial: a move, W, y, b, ., l, then p, and q: the next `yukon tui` dealt a fresh random game,
    # the moves played on were lost (they went on in the game given up, which is not saved again); while playing
    # on, the top line said "given up" and the clock stood still.
    clock = FakeClock()
    app = YukonApp(store, Game.deal("yukon", seed=802), clock=clock, tick=False, new_seed=lambda: 99,
                   autoplay=False, analysis_time=5.0)
    played: list[str] = []
    ids: list[str] = []

    def info() -> str:
        return str(app.query_one("#info").render())

    async def scenario(pilot: Pilot[None]) -> None:
        for move in STILL_WINNABLE:
            app.session.play(move, autoplay=False)
        app.refresh_table()
        clock.now += 60
        await pilot.press("W", "y")
        await wait_for(pilot, lambda: app.analysis is not None)
        given_up = app.session.id
        ids.append(given_up)
        assert "given up" in info()
        await pilot.press("b", "full_stop", "l")  # the solver's first move, then a game of one's own
        session = app.session
        assert session.id != given_up and session.result is None and session.clock_running
        assert session.moves_made == len(STILL_WINNABLE) + 1 and "given up" not in info(), info()
        assert app.status_text.startswith(f"A new game from move {len(STILL_WINNABLE) + 1}")
        clock.now += 30
        assert round(session.elapsed) == 90  # the game's time goes on
        for then in (len(STILL_WINNABLE) + 2, len(STILL_WINNABLE) + 3):
            await pilot.press("p")
            await wait_for(pilot, lambda n=then: session.moves_made >= n)  # (p waits for the hint, then plays it)
        played.extend(map(str, session.moves))
        await pilot.press("q")

    run_at_80x24(app, scenario)
    assert len(played) == len(STILL_WINNABLE) + 3
    old = store.load_game(ids[0])
    assert old is not None and old.result == "abandoned" and len(old.moves) == len(STILL_WINNABLE)  # as given up
    again = YukonApp(store, clock=FakeClock(), tick=False, new_seed=lambda: 98)
    assert again.resumed and list(map(str, again.session.moves)) == played
    assert again.session.result is None and computer_moves(again.session.extra) == 1  # (the solver's move)


def test_w_in_australian_patience_names_what_is_hidden_there(store: Store) -> None:
    # Australian Patience deals every card face up: the question said "the answer shows the face-down cards"
    # (and x, before the end, "the record shows the face-down cards of the start"); what is hidden is the stock's
    from yukon.tui.screens import ConfirmScreen

    app = YukonApp(store, Game.deal("australian", seed=3), clock=FakeClock(), tick=False, new_seed=lambda: 99,
                   autoplay=False)

    async def scenario(pilot: Pilot[None]) -> None:
        app.session.play(app.session.game.legal_moves()[0], autoplay=False)
        app.refresh_table()
        await pilot.press("x")
        assert app.status_text.endswith("the record shows the stock's order at the start"), app.status_text
        await pilot.press("W")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        question = str(screen.query(Static).first().render())
        assert "(the answer shows the stock's order)" in question and "face-down" not in question, question
        await pilot.press("n")

    run_at_80x24(app, scenario)


def test_an_own_position_lost_from_the_start_is_not_called_a_deal(store: Store) -> None:
    # W on a position set up by hand (not a numbered deal) said "This deal could not be won from the start"
    from tui_helpers import ONE_FROM_LOST

    app = YukonApp(store, Game.from_text(ONE_FROM_LOST), clock=FakeClock(), tick=False, new_seed=lambda: 99,
                   autoplay=False, analysis_time=5.0)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("5", "f")  # (10♣ up: lost)
        await pilot.pause()
        await pilot.press("W")
        await wait_for(pilot, lambda: app.analysis is not None)
        assert app.analysis.start == "lost"
        assert app.status_text == "This position could not be won from the start: no move lost it"
        await pilot.press("escape", "b")
        await pilot.pause()
        assert app.status_text == "No winning line: this position could not be won from the start"

    run_at_80x24(app, scenario)
