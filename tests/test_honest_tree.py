"""The information-set tree search (yukon.honest.tree; round ten of docs/honest.md): honest, legal,
repeatable with its seed, and within its limits."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import mid_game
from test_honest import SETTINGS, TINY, assert_honest, choices, deals, options
from wall_clock import LOADED, timed
from yukon import Game, Move
from yukon.honest import Method, honest_hint, play_honest
from yukon.honest.tree import TreeResult, tree_choice

#: a small tree: a few iterations of short searches
SMALL_TREE = Method(tree=12, tree_nodes=300)


@settings(SETTINGS, max_examples=20)
@given(options, deals, choices, st.lists(st.integers(0, 200), min_size=1, max_size=120), st.integers(0, 2**32))
def test_the_tree_is_honest(option, deal, picks, order, seed) -> None:
    assert_honest(SMALL_TREE, mid_game(option, deal, picks), order, seed)


@settings(SETTINGS, max_examples=20)
@given(options, deals, choices, st.integers(0, 2**32))
def test_the_trees_hint_is_legal_and_repeats_with_its_seed(option, deal, picks, seed) -> None:
    game = mid_game(option, deal, picks)
    before = game.to_dict()
    a = honest_hint(game, None, seed=seed, budget=TINY, method=SMALL_TREE)
    assert game.to_dict() == before
    if game.legal_moves():
        assert a.move is not None and game.is_legal(a.move)
    else:
        assert a.move is None
    b = honest_hint(game, None, seed=seed, budget=TINY, method=SMALL_TREE)
    assert (a.move, a.win_share, a.nodes, a.samples) == (b.move, b.win_share, b.nodes, b.samples)
    if a.source == "samples":
        assert 1 <= a.samples <= SMALL_TREE.tree and a.win_share is not None and 0 <= a.win_share <= 1


def test_a_decision_runs_every_iteration_and_counts_its_searches() -> None:
    game = Game.deal("yukon", seed=2)  # no card to play up, many moves
    hint = honest_hint(game, None, seed=3, method=Method(tree=60, tree_nodes=500))
    assert hint.move is not None and game.is_legal(hint.move)
    assert hint.source == "samples" and hint.samples == 60 and hint.nodes > 0


def test_the_tree_keeps_its_time_limit_and_stops_when_asked() -> None:
    game = Game.deal("yukon", seed=2)  # no card to play up: a decision
    huge = Method(tree=1_000_000, tree_nodes=5_000_000)
    hint, seconds = timed(honest_hint, game, time_limit=0.2, method=huge)
    assert seconds < 0.2 + LOADED  # unbounded, a million iterations take hours
    assert hint.move is not None and game.is_legal(hint.move)
    stop = threading.Event()
    stop.set()
    hint, seconds = timed(honest_hint, game, None, stop, method=huge)
    assert seconds < LOADED
    assert hint.move is not None and game.is_legal(hint.move)
    assert hint.samples <= 1  # (a search that proves a loss before it looks at the stop still counts)


def test_the_choice_is_the_most_visited_move_or_the_advices_among_the_close() -> None:
    moves = [Move(0, 1, 1), Move(2, 3, 1), Move(4, 5, 1)]
    result = TreeResult(moves, visits=[50, 40, 3], means=[0.70, 0.72, 0.9], iterations=93, nodes=0, views=9)
    assert tree_choice(result, 0.0, lambda m: 0.0) == moves[0]
    liked = {moves[0]: 1.0, moves[1]: 2.0, moves[2]: 3.0}
    # the third is barely visited: its mean is not trusted, so the advice chooses between the first two
    assert tree_choice(result, 0.05, liked.__getitem__) == moves[1]
    assert tree_choice(result, 0.01, lambda m: -liked[m]) == moves[1]  # only the best mean is close


def test_bad_tree_options_are_refused() -> None:
    for bad in ({"tree": -1}, {"tree": 1.5}, {"tree_nodes": 0}, {"tree_margin": 2.0}, {"tree_exploration": -1.0}):
        with pytest.raises(ValueError, match="tree"):
            Method(**bad)  # type: ignore[arg-type]


def test_with_nothing_hidden_the_tree_finds_the_win() -> None:
    game = Game.from_text("yukon,kings,noreturn KS/KHQS/QH/-/-/-/- JS/JH/KD/KC")
    played = play_honest(game, TINY, seed=1, method=SMALL_TREE)
    assert played.won and game.is_won()
