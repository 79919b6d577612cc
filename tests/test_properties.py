"""Hypothesis property tests over random playouts and random positions of every variant and option.

At every position reached: every card is present exactly once (twice in
Milligan Yukon); ``legal_moves`` lists no move twice and exactly the moves of
the reference generator; every listed move passes ``is_legal`` and ``push``,
and ``pop`` undoes it exactly (``to_dict`` and ``legal_moves`` equal); moves
not listed are not legal; after a push no column has face-down cards without
a face-up card; the JSON and one-line forms round-trip; ``str(move)``
round-trips through ``parse_move`` and ``Move.from_text``, ``repr(move)``
evaluates back; ``is_lost`` is exactly "no move and not won".

The settings are derandomized (the same examples on every run, so CI is
deterministic) and skip shrinking (a failure prints the seed and choices that
replay it). Set ``YUKON_HYPOTHESIS_EXAMPLES=500`` (or more) to explore
further with fresh random examples, shrinking included.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine_helpers import ALL_OPTIONS, check_invariants, positions, reference_moves
from yukon import FOUNDATION, WASTE, Game, Move
from yukon.notation import STOCK_MOVE

_EXPLORE = int(os.environ.get("YUKON_HYPOTHESIS_EXAMPLES", "0"))
PLAYOUT_SETTINGS = settings(
    max_examples=_EXPLORE or 10,
    derandomize=not _EXPLORE,
    # Shrinking a long playout can take minutes; a failure prints its seed and choices, which replay it.
    phases=list(Phase) if _EXPLORE else [Phase.explicit, Phase.reuse, Phase.generate],
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
POSITION_SETTINGS = settings(PLAYOUT_SETTINGS, max_examples=_EXPLORE or 60)


#: the moves the "not listed is not legal" sweep asks about, built once each (Move is immutable: building one
#: checks its fields, which was a fifth of this module's time, asked again at every position of every walk)
_SWEPT: dict[tuple[int, int, int, int], Move] = {}


def swept_move(src: int, dst: int, card: int, count: int) -> Move:
    """``Move(src, dst, card, count)``, the same object for the same fields."""
    key = (src, dst, card, count)
    move = _SWEPT.get(key)
    if move is None:
        move = _SWEPT[key] = Move(src, dst, card, count)
    return move


def check_position(g: Game) -> list[Move]:
    """Every per-position property; returns the legal moves."""
    check_invariants(g)
    moves = g.legal_moves()
    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(texts) == len(set(moves)), f"duplicate moves: {texts}"
    assert set(texts) == reference_moves(g), g.to_text()
    won = g.is_won()
    assert won == (g.cards_on_foundations == g.rules.card_count)
    assert g.is_lost() == (not moves and not won)
    assert g.has_legal_move() == bool(moves)

    # round-trips of the whole position
    d = g.to_dict()
    back = Game.from_dict(json.loads(json.dumps(d)))
    assert back == g and back.to_dict() == d and back.legal_moves() == moves
    text = g.to_text()
    back = Game.from_text(text)
    assert back == g and back.to_text() == text and back.legal_moves() == moves

    # every listed move: notation round-trips, push plays it, pop undoes it exactly
    for m in moves:
        s = str(m)
        assert Move.from_text(s) == m
        assert g.parse_move(s) == m
        assert eval(repr(m), {"Move": Move}) == m
        assert g.is_legal(m)
        g.push(m)
        for down, up in g.columns:
            assert up or not down, f"face-down cards left without a face-up card after {s}"
        assert g.peek() == m
        assert g.pop() == m
        assert g.to_dict() == d, f"pop did not undo {s}"
    assert g.legal_moves() == moves

    # moves that are not listed are not legal: every column card to every pile
    listed = set(moves)
    cols = g.columns
    dests = [*range(len(cols)), FOUNDATION]
    for s_, (down, up) in enumerate(cols):
        for i in range(len(up)):
            for dst in dests:
                if dst != s_:
                    m = swept_move(s_, dst, up[i], len(up) - i)
                    assert g.is_legal(m) == (m in listed), str(m)
        if down and down[-1] != up[-1]:  # (two decks: the same card may lie face down under its twin)
            assert not g.is_legal(swept_move(s_, FOUNDATION, down[-1], 1))
    if g.waste:
        for dst in dests:
            m = swept_move(WASTE, dst, g.waste[-1], 1)
            assert g.is_legal(m) == (m in listed), str(m)
    for pile in g.foundations:
        if pile:
            for dst in range(len(cols)):
                m = swept_move(FOUNDATION, dst, pile[-1], 1)
                assert g.is_legal(m) == (m in listed), str(m)
    assert g.is_legal(STOCK_MOVE) == (STOCK_MOVE in listed) == bool(g.stock)
    return moves


def choose(moves: list[Move], x: int) -> Move:
    """A move from a drawn number: mostly any move, sometimes one that makes progress."""
    if x % 4 == 0:
        up = [m for m in moves if m.dst == FOUNDATION]
        if up:
            return up[x // 4 % len(up)]
    return moves[x % len(moves)]


def play_checked_and_back(g: Game, choices: list[int], undo_now_and_then: bool = False) -> None:
    """Play a move chosen by each number (:func:`check_position` before each and at the end), taking one
    back now and then if asked, then undo every move."""
    for x in choices:
        moves = check_position(g)
        if undo_now_and_then and x % 13 == 12 and g.move_stack:
            g.pop()  # in the middle of a game
            continue
        if not moves:
            break
        g.push(choose(moves, x))
    check_position(g)
    while g.move_stack:
        g.pop()


@pytest.mark.parametrize(("variant", "empty", "ret"), ALL_OPTIONS)
@PLAYOUT_SETTINGS
@given(seed=st.integers(0, 2**64 - 1), choices=st.lists(st.integers(0, 2**20), min_size=40, max_size=160))
def test_random_playouts(variant: str, empty: str, ret: bool, seed: int, choices: list[int]) -> None:
    g = Game.deal(variant, seed=seed, empty_column=empty, foundation_return=ret)
    start = g.to_dict()
    start_moves = g.legal_moves()
    play_checked_and_back(g, choices, undo_now_and_then=True)
    assert g.to_dict() == start and g.legal_moves() == start_moves


# ---------------------------------------------------------------- random positions, not only dealt ones


@POSITION_SETTINGS
@given(g=positions(), choices=st.lists(st.integers(0, 2**20), max_size=12))
def test_random_positions(g: Game, choices: list[int]) -> None:
    start = g.to_dict()
    play_checked_and_back(g, choices)
    assert g.to_dict() == start
