"""Hints in the terminal game: the shared policy through Textual's Pilot, and the key that plays them."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey
from tui_helpers import ONE_FROM_LOST

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/hint_games.py, shared with the other interfaces

from test_tui_app import make_app, run

from hint_games import (
    CASES,
    ROUND_IN_CIRCLES,
    ROUND_IN_CIRCLES_MOVE,
    assert_never_went_back,
    case_id,
    most_searches,
)
from yukon import Game, deal_data
from yukon.hinting import DEAL_LOST
from yukon.store import Store
from yukon.tui.app import YukonApp
from yukon.tui.screens import ConfirmScreen, GameOverScreen

#: Two short games here (the policy's own tests and the web's play every case; every key press
#: redraws the table, so a game takes a while)...
TUI_CASES = [CASES[4], CASES[0]]
#: ...the first one from the deal; Yukon deal 1 from move 60 of its shipped winning line (of 94): p alone
#: still plays a whole game out of a position the hints never saw, its first search included, with a third of
#: the key presses (each redraws the table). Deal 1 from the deal is the policy's and the web's test.
FROM_MOVE = {case_id(CASES[0]): 60}
#: ...and one deal of every variant, with rule options among them, in the long version.
SLOW_TUI_CASES = [CASES[8], CASES[10], CASES[12], CASES[13]]


@pytest.mark.parametrize(
    "case",
    [
        *TUI_CASES,
        *[pytest.param(c, marks=[pytest.mark.slow, pytest.mark.skipif(
            not os.environ.get("YUKON_SLOW_TESTS"), reason="set YUKON_SLOW_TESTS=1 for the long version")])
          for c in SLOW_TUI_CASES],
    ],
    ids=case_id,
)
def test_pressing_p_alone_wins_without_going_back(case: tuple[str, dict[str, Any], int]) -> None:
    variant, options, seed = case
    start = Game.deal(variant, seed=seed, **options)
    if case_id(case) in FROM_MOVE:
        known = deal_data.verdict_for(start.rules, seed)
        assert known is not None and known.line
        start.replay(known.moves()[:FROM_MOVE[case_id(case)]])
        assert not start.is_over() and start.cards_on_foundations < 40  # (a good part of a game still to play)

    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        for _ in range(1500):
            if app.session.status != "playing":
                break
            await pilot.press("p")
            if app.status_text == "Thinking…":  # a search in a worker thread (else the line's next move)
                await app.workers.wait_for_complete()
                await pilot.pause()
        assert app.session.status == "won" and isinstance(app.screen, GameOverScreen)
        assert_never_went_back(start, [str(m) for m in app.game.move_stack])
        # the line found is followed, as far as the policy's own test has it (the terminal searches no more)
        assert app.advisor.policy.searches <= most_searches(variant)

    run(make_app(None, start.copy(), hint_time=10.0, hint_kind="solver"), scenario)


def test_the_hint_shown_is_played_by_p_and_named_in_the_key_bar() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        shown = {k.key: k.description for k in app.screen.query(FooterKey)}
        for key, words in [("n", "New"), ("g", "Deal #"), ("v", "Variant"), ("s", "Stats"), ("h", "Hint"),
                           ("p", "Play hint"), ("u", "Undo"), ("q", "Quit"), ("question_mark", "Help")]:
            assert shown.get(key) == words
        assert "f" not in shown and "r" not in shown  # the rest is under ?
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hint = app.state.hint
        assert hint is not None and "p: play it" in app.status_text
        await pilot.press("p")
        assert app.game.move_stack[0] == hint and app.status_text.startswith("Solver hint played: ")
        # the next hint is the next move of the same line: shown at once, no search
        await pilot.press("h")
        assert app.state.hint is not None and app.advisor.policy.searches == 1

    run(make_app(None, Game.deal("yukon", seed=1), hint_time=10.0, hint_kind="solver"), scenario)


def test_a_deal_proved_lost_says_this_deal_cannot_be_won() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.status_text.startswith(DEAL_LOST) and "undo" not in app.status_text

    run(make_app(None, Game.from_text(ONE_FROM_LOST), hint_time=10.0, autoplay=False, hint_kind="solver"), scenario)


def test_an_honest_hint_with_every_move_going_back_names_the_keys_that_go_on() -> None:
    """A game going round in circles (it has moves, so it is not over) got "every move leads back to a position
    seen already: undo, or ask the solver hint": no key for the solver hint, nor a word of W, which says where
    the game was lost."""
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        app.play(app.game.parse_move(ROUND_IN_CIRCLES_MOVE))
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.state.hint is None and "every move leads back to a position seen already" in app.status_text
        assert app.status_text.endswith("  u: undo  k: solver hint  W: where it went wrong"), app.status_text
        await pilot.press("k")  # each key named does what it says
        assert app.advisor.kind == "solver"
        await pilot.press("W")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)  # "Give up this game to see where it went wrong? ..."
        assert "where it went wrong" in str(app.screen.query(Static).first().render())

    run(make_app(None, Game.from_text(ROUND_IN_CIRCLES), hint_time=10.0, autoplay=False), scenario)


def test_k_switches_to_the_solver_hint_which_says_so_and_is_saved_with_the_game(store: Store) -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        assert app.session.hint_kind == "honest" and app.advisor.kind == "honest"
        await pilot.press("k")
        assert app.session.hint_kind == "solver" and app.advisor.kind == "solver"
        assert "the solver's: it sees the face-down cards" in app.status_text
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.state.hint is not None
        assert app.status_text.startswith("Solver hint: ") and "it sees the face-down cards" in app.status_text
        await pilot.press("p")  # a move: the game (and its settings) is written
        record = store.latest_unfinished("tui")
        assert record is not None and record.extra["hint_kind"] == "solver"
        await pilot.press("n")  # a new game keeps the setting
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
            await pilot.pause()
        assert app.session.hint_kind == "solver" and app.advisor.kind == "solver"
        await pilot.press("k")
        assert app.session.hint_kind == "honest" and "no peeking" in app.status_text

    run(make_app(store, Game.deal("yukon", seed=1), hint_time=5.0), scenario)


def test_a_resumed_game_keeps_its_hint_kind(store: Store) -> None:
    from yukon.tui.session import Session

    s = Session(Game.deal("yukon", seed=1), store, hint_kind="solver")
    s.play(s.game.legal_moves()[0])
    again = Session.resume(store)
    assert again is not None and again.hint_kind == "solver"
    app = YukonApp(store, session=again, tick=False)
    assert app.advisor.kind == "solver"


def test_the_winnable_indicator_says_it_is_a_perfect_information_verdict() -> None:
    async def scenario(pilot: Pilot[None], app: YukonApp) -> None:
        await pilot.press("c")
        assert "perfect information" in app.status_text and "face-down cards" in app.status_text
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "winnable ✓" in str(app.query_one("#info").render())
        app.play(app.game.parse_move("6:JC>7"))  # fills the last empty column: lost
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "not winnable ✗ (was at move 0)" in str(app.query_one("#info").render())

    # Russian, empty column: any: winnable; 6:JC>7 fills the last empty column and loses it
    position = "russian,any,noreturn TSQS.KH/THQH.KD/TDQD.KC/TCQC.KS/JS.JH/JDJC/- 9S/9H/9D/9C"
    run(make_app(None, Game.from_text(position), winnable_time=5.0, autoplay=False), scenario)
