"""Rollouts of the honest player itself among the close moves (``Method(rollouts=...)``, docs/honest.md,
"Round four"): honest, deterministic, chosen as documented, within their limits."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import mid_game
from test_honest import SETTINGS, TINY, choices, deals, options, rearranged
from wall_clock import LOADED, stop_after, timed
from yukon import Game
from yukon.honest import Budget, Method, honest_hint, play_honest
from yukon.honest import player as player_module
from yukon.honest.evaluator import evaluate
from yukon.honest.player import SHARE_MARGIN
from yukon.honest.rollout import honest_rollouts
from yukon.visible import VisiblePosition

#: the rollout player of a test: one sample of short searches
SMALL = Budget(samples=1, nodes=300, python_samples=1, python_nodes=10)
ROLLING = Method(rollouts=1, rollout_moves=2, rollout_budget=SMALL, rollout_length=40)


def test_method_rejects_bad_rollout_values() -> None:
    for name in ("rollouts", "rollout_opening", "rollout_length"):
        for bad in (-1, 1.5, True):
            with pytest.raises(ValueError, match=name):
                Method(**{name: bad})
    for bad in (0, 2.0):
        with pytest.raises(ValueError, match="rollout_moves"):
            Method(rollout_moves=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rollout_budget"):
        Method(rollout_budget=(2, 500))  # type: ignore[arg-type]


@settings(SETTINGS, max_examples=8)
@given(options, deals, choices, st.lists(st.integers(0, 200), min_size=1, max_size=120), st.integers(0, 2**32))
def test_rollouts_are_honest(option, deal, picks, order, seed) -> None:
    game = mid_game(option, deal, picks).copy()  # no history: within the opening
    other = rearranged(game, order)
    a = honest_hint(game, None, seed=seed, budget=TINY, method=ROLLING)
    b = honest_hint(other, None, seed=seed, budget=TINY, method=ROLLING)
    assert (a.move, a.source, a.samples, a.nodes) == (b.move, b.source, b.samples, b.nodes), game.to_text()
    assert a.move is None or game.is_legal(a.move)
    moves = game.legal_moves()[:2]
    assert honest_rollouts(VisiblePosition.of(game), moves, 1, seed, SMALL, Method(), max_moves=40) == (
        honest_rollouts(VisiblePosition.of(other), moves, 1, seed, SMALL, Method(), max_moves=40))


def test_rollouts_win_a_won_position_and_end_when_asked() -> None:
    game = Game.from_text("yukon,kings,noreturn KS/KHQS/QH/-/-/-/- JS/JH/KD/KC")
    view = VisiblePosition.of(game)
    # nothing hidden: one deal only, won after every move
    assert honest_rollouts(view, view.legal_moves(), 3, 1, SMALL, Method()) == [1] * len(view.legal_moves())
    deal = VisiblePosition.of(mid_game(("yukon", "kings", False), 8, [0]))
    stop = threading.Event()
    stop.set()
    assert honest_rollouts(deal, deal.legal_moves(), 2, 1, SMALL, Method(), stop=stop) is None
    assert honest_rollouts(deal, deal.legal_moves(), 2, 1, SMALL, Method(), deadline=time.perf_counter()) is None
    wins = honest_rollouts(deal, deal.legal_moves(), 2, 1, SMALL, Method())
    assert wins is not None and all(0 <= w <= 2 for w in wins)
    assert wins == honest_rollouts(deal, deal.legal_moves(), 2, 1, SMALL, Method())


def first_sampled_position(deal: int, budget: Budget) -> Game:
    """Deal ``deal`` of Yukon after the moves played without sampling (safe cards up)."""
    game = Game.deal("yukon", deal)
    while (hint := honest_hint(game.copy(), None, seed=deal, budget=budget)).source != "samples":
        assert hint.move is not None
        game.push(hint.move)
    return game.copy()


@pytest.mark.parametrize("ties", [False, True])
def test_the_rollouts_choose_among_the_advices_favourites(monkeypatch, ties) -> None:
    budget = Budget(samples=4, nodes=2_000)
    method = Method(rollouts=3, rollout_moves=2, rollout_budget=SMALL)
    calls: list[list] = []

    def rollouts(view, moves, count, seed, rollout_budget, rollout_method, deadline=None, stop=None, max_moves=0):
        assert (count, rollout_budget, rollout_method, max_moves) == (3, SMALL, Method(), 400)
        calls.append(list(moves))
        return [1] * len(moves) if ties else [0] * (len(moves) - 1) + [1]  # the last favourite wins most

    monkeypatch.setattr(player_module, "honest_rollouts", rollouts)
    rolled = 0
    for deal in range(1, 9):
        game = first_sampled_position(deal, budget)
        view = VisiblePosition.of(game)
        hint = honest_hint(game, None, seed=deal, budget=budget, method=method)
        looked = evaluate(view, [v.move for v in hint.values], budget, seed=deal).values  # every search
        top = max(v.share for v in looked)
        close = [v for v in looked if v.share >= top - max(SHARE_MARGIN, 1 / 4)]
        advice = method.advice_for(view)
        close.sort(key=lambda v: (advice.preference(view, v.move), v.share), reverse=True)
        favourites = [v.move for v in close[:2]]
        if len(favourites) > 1:
            assert calls.pop() == favourites
            assert hint.move == favourites[0 if ties else -1]
            rolled += 1
        else:
            assert not calls and hint.move == favourites[0]
    assert rolled >= 2


def test_after_the_opening_the_rollouts_are_off() -> None:
    budget = Budget(samples=4, nodes=2_000)
    game = mid_game(("yukon", "kings", False), 3, [1, 2, 0, 1, 2, 0])
    assert len(game.move_stack) >= 2
    late = Method(rollouts=3, rollout_budget=SMALL, rollout_opening=1)  # the game's history is longer
    plain = honest_hint(game, None, seed=5, budget=budget, method=Method(second_look=0, margin=SHARE_MARGIN,
                                                                         playouts=0))
    assert honest_hint(game, None, seed=5, budget=budget, method=late).move == plain.move


#: rollouts that take minutes a decision unless a limit ends them
HEAVY = Method(rollouts=50, rollout_budget=Budget(samples=12, nodes=10_000))


def test_a_hint_and_a_whole_game_keep_their_time_limits() -> None:
    game = Game.deal("yukon", seed=11)
    hint, seconds = timed(honest_hint, game, time_limit=0.2, budget=Budget(samples=4, nodes=2_000), method=HEAVY)
    assert seconds < 0.2 + LOADED and hint.move is not None and game.is_legal(hint.move)
    played, seconds = timed(play_honest, game.copy(), Budget(samples=4, nodes=2_000), 11, method=HEAVY,
                            time_limit=0.3)
    assert played.reason == "stopped" and not played.won
    assert seconds < 0.3 + LOADED
    stop = stop_after(0.2)
    played = play_honest(game.copy(), Budget(samples=4, nodes=2_000), 11, method=HEAVY, stop=stop)
    assert played.reason == "stopped" and stop.since() < LOADED
