"""Watching the computer play at the terminal (``yukon tui --demo``, ``t``): it plays honest moves, pauses,
changes speed, stops at once when asked, lets the player take over, and its games stay out of the statistics."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from test_tui_app import make_app, run
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey
from tui_helpers import NEARLY_WON, wait_for

from wall_clock import LOADED
from yukon import Game, Move
from yukon.cli import main
from yukon.demo import decide, situation
from yukon.honest import Budget
from yukon.store import Store
from yukon.tui.app import YukonApp
from yukon.tui.screens import ConfirmScreen, GameOverScreen

#: A small budget, counted in nodes only: the same moves on any machine, and quick.
SMALL = Budget(samples=3, nodes=2_000)
#: Far more thinking than a test may wait for: only a stop ends such a decision in time.
ENDLESS = Budget(samples=100_000, nodes=2_000_000)


def demo_app(store: Store | None, game: Game, budget: Budget = SMALL, **kwargs: object) -> YukonApp:
    app = make_app(store, game, demo=True, **kwargs)
    app.demo.budget, app.demo.think_time, app.demo.speed = budget, None, "fastest"
    return app


def test_the_demo_plays_the_honest_players_moves_and_they_do_not_count(store: Store) -> None:
    start = Game.deal("yukon", seed=7)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await wait_for(pilot, lambda: app.session.move_count >= 3)
        await pilot.press("space")  # pause
        assert app.demo.paused and app.status_text.startswith("Paused")
        await wait_for(pilot, lambda: not app.demo.thinking)
        paused_at = app.session.move_count
        await pilot.pause(0.3)
        assert app.session.move_count == paused_at  # nothing plays while paused
        shown = {k.key: k.description for k in app.screen.query(FooterKey)}
        # (paused, the key bar said "space Pause")
        assert shown.get("space") == "Play on" and shown.get("plus") == "Faster" and shown.get("t") == "Stop"
        assert shown.get("full_stop") == "Step"
        await pilot.press("space")  # on again
        await wait_for(pilot, lambda: app.session.move_count > paused_at)
        await pilot.press("escape")
        assert not app.demo.active and app.status_text.startswith("Stopped")
        assert app.session.extra["computer_moves"] >= 3
        app.action_new_game()  # leaving it: the question says it is not counted, not that it counts as lost
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "not counted in the statistics, since the computer played in it" in app.screen._question
        await pilot.press("n")

    app = demo_app(store, start.copy())
    app.demo.speed = "fast"  # at "fastest" the demo may play this deal out (54 moves) before the first check
    run(app, scenario)
    record = store.load_game(app.session.id)
    assert record is not None and record.extra["computer_moves"] >= 3
    app.session.abandon()
    assert store.stats() == []  # a game the computer played in is not the player's


def test_paused_the_computer_plays_one_move_a_step(store: Store) -> None:
    """. while paused: one move of the computer's, and it stays paused (the web table's Step); before, . was
    the replay's key and ended the computer's game without a word."""
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await wait_for(pilot, lambda: app.session.move_count >= 2)
        await pilot.press("space")
        await wait_for(pilot, lambda: not app.demo.thinking)
        for _ in range(2):
            before = app.demo.moves
            await pilot.press("full_stop")
            await wait_for(pilot, lambda at=before: app.demo.moves > at and not app.demo.stepping)
            assert app.demo.active and app.demo.paused and app.demo.moves == before + 1
            assert "paused: space plays on" in app.status_text and app.replay is None
            at = app.session.move_count
            await pilot.pause(0.3)
            assert app.session.move_count == at  # one move, no more
        await pilot.press("space")  # and on
        await wait_for(pilot, lambda: app.demo.moves >= before + 3)
        await pilot.press("escape")
        # every move the table shows is counted: the computer's, and the plays up that followed them
        assert app.demo.moves + app.demo.automatic == app.session.move_count
        automatic = f" (and {app.demo.automatic} played up automatically)" if app.demo.automatic else ""
        assert app.status_text == (f"Stopped after {app.demo.moves} moves of the computer's{automatic}: "
                                   "play on from here")

    app = demo_app(store, Game.deal("yukon", seed=7))
    app.demo.speed = "fast"
    run(app, scenario)


def test_computer_moves_are_the_honest_decisions(store: Store) -> None:
    """Without automatic plays every move is a decision: each equals decide() on what the player saw."""
    start = Game.deal("yukon", seed=11)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await wait_for(pilot, lambda: app.session.move_count >= 4)
        await pilot.press("t")
        replay = start.copy()
        for move in app.session.moves:
            view, seen, seed = situation(replay)
            assert decide(view, seen, seed, SMALL, None).move == move
            replay.push(move)

    run(demo_app(store, start.copy(), autoplay=False), scenario)


def test_escape_stops_a_long_search_within_a_fraction_of_a_second(store: Store) -> None:
    """Timed from the moment the demo is told to stop, not from the key press: under a loaded machine
    Textual's own key delivery may take longer than the search takes to stop, and that is not the demo's."""
    stopped_at: list[float] = []

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        told = app.demo.stop

        def stop(*args: str) -> None:
            stopped_at.append(time.monotonic())
            told(*args)

        app.demo.stop = stop  # type: ignore[method-assign]
        await wait_for(pilot, lambda: app.demo.thinking)
        await pilot.pause(0.2)
        assert app.demo.thinking  # this budget takes far longer than the test
        await pilot.press("escape")
        assert len(stopped_at) == 1, "esc did not stop the demo"
        while app.demo.thinking and time.monotonic() - stopped_at[0] < LOADED:  # (unstopped: endless)
            await asyncio.sleep(0.005)
        assert not app.demo.thinking, "the search went on after the stop"
        assert app.session.move_count == 0 and not app.demo.active

    run(demo_app(store, Game.deal("yukon", seed=7), ENDLESS), scenario)


def test_a_move_of_the_players_takes_over(store: Store) -> None:
    """The counts are taken at the undo itself: the demo plays at its fastest, and a move of its own may
    land between the test's look at the count and the key."""
    undone: list[tuple[int, int]] = []

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        real_undo = app.session.undo

        def undo(to: int | None = None) -> list[Move]:
            before = app.session.move_count
            taken_back = real_undo(to)
            undone.append((before, app.session.move_count))
            return taken_back

        app.session.undo = undo  # type: ignore[method-assign]
        await wait_for(pilot, lambda: app.session.move_count >= 2)
        await pilot.press("u")  # undo: the player's action, after the demo stops
        assert not app.demo.active
        assert len(undone) == 1 and undone[0][1] == undone[0][0] - 1
        await pilot.pause(0.3)
        assert not app.demo.active and app.session.move_count == undone[0][1]  # nothing played since

    run(demo_app(store, Game.deal("yukon", seed=7), autoplay=False), scenario)


def test_speed_keys_and_t_from_inside_a_game(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert not app.demo.active
        shown = {k.key: k.description for k in app.screen.query(FooterKey)}
        assert shown.get("t") == "Watch" and "plus" not in shown  # the speed keys only while it plays
        app.demo.budget, app.demo.think_time = SMALL, None
        await pilot.press("t")
        assert app.demo.active and app.demo.speed == "normal"
        await wait_for(pilot, lambda: app.session.move_count >= 1)  # it plays
        # paused, so that the game cannot end (and the speed keys go away) while the keys are pressed: at the
        # fastest speed a loaded machine let the computer finish the game before "minus" came
        await pilot.press("space")
        assert app.demo.active and app.demo.paused
        await pilot.press("plus")
        await pilot.press("plus")
        assert app.demo.speed == "fastest"
        await pilot.press("plus")
        assert app.demo.speed == "fastest"
        await pilot.press("minus")
        assert app.demo.speed == "fast" and app.status_text.startswith("Speed: fast"), app.status_text
        await pilot.press("t")  # from inside the game: the player takes over
        assert not app.demo.active

    run(make_app(store, Game.deal("yukon", seed=7)), scenario)


def test_the_computers_win_is_announced_as_its_own(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.session.status == "won" and not app.demo.active
        assert app.status_text.startswith("The computer won")

    app = demo_app(store, Game.from_text(NEARLY_WON))
    run(app, scenario)
    assert store.stats() == []  # won, but not by the player


def test_tui_demo_options_reach_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    apps: list[YukonApp] = []
    monkeypatch.setattr(YukonApp, "run", lambda self, *a, **k: apps.append(self))
    db = str(tmp_path / "s.sqlite3")
    # a saved game of the player's is not what the demo plays: it deals a new one
    assert main(["tui", "--variant", "alaska", "--seed", "5", "--db", db]) == 0
    assert main(["tui", "--demo", "--variant", "russian", "--seed", "12", "--db", db]) == 0
    assert main(["tui", "--demo", "--db", db]) == 0
    assert main(["tui", "--demo", "--record", str(tmp_path / "none.json"), "--db", db]) == 2
    assert "--demo plays a new deal" in capsys.readouterr().err
    _, chosen, random_deal = apps
    assert chosen._demo_at_start and (chosen.game.rules.variant, chosen.game.seed) == ("russian", 12)
    assert random_deal._demo_at_start and not random_deal.resumed and random_deal.session.moves_made == 0
    assert not apps[0]._demo_at_start
