"""A line without detours (yukon.solver.tidy): it reaches the same end, by legal moves, never longer, with
no position twice and no shortcut left; a won line stays won; the time limit and the stop are kept."""

from __future__ import annotations

import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yukon
from engine_helpers import ALL_OPTIONS
from yukon import Game, Move
from yukon.solver.tidy import tidy_line


def wander(game: Game, rng: random.Random, length: int) -> list[Move]:
    """Random legal moves from ``game`` (changed), going back and forth often: a group moved away is moved
    back half the time when it can be."""
    line: list[Move] = []
    for _ in range(length):
        moves = game.legal_moves()
        if not moves:
            break
        back = [m for m in moves if line and m.card == line[-1].card and m.dst == line[-1].src]
        move = back[0] if back and rng.random() < 0.5 else rng.choice(moves)
        game.push(move)
        line.append(move)
    return line


def positions(start: Game, line: list[Move]) -> list[str]:
    board = start.copy()
    seen = [board.to_text()]
    for move in line:
        assert move in board.legal_moves(), (board.to_text(), str(move))
        board.push(move)
        seen.append(board.to_text())
    return seen


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL_OPTIONS), st.integers(0, 10_000), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_a_tidy_line_reaches_the_same_end_by_legal_moves_without_detours(
    options: tuple[str, str, bool], deal: int, seed: int, length: int,
) -> None:
    variant, empty, back = options
    start = Game.deal(variant, seed=deal, empty_column=empty, foundation_return=back)
    end = start.copy()
    line = wander(end, random.Random(seed), length)
    tidy = tidy_line(start, line)
    assert start.to_text() == Game.deal(variant, seed=deal, empty_column=empty, foundation_return=back).to_text()
    passed = positions(start, tidy)  # every move legal where it is played
    assert passed[-1] == end.to_text() and len(tidy) <= len(line)
    assert len(set(passed)) == len(passed), "a position twice: a loop is left"
    assert tidy_line(start, tidy) == tidy, "a shortcut is left"


def round_trip(board: Game) -> list[Move]:
    """Two moves from ``board`` that come back to it exactly (a group away and home), or none."""
    before = board.to_text()
    for away in board.legal_moves():
        board.push(away)
        for home in board.legal_moves():
            board.push(home)
            back = board.to_text() == before
            board.pop()
            if back:
                board.pop()
                return [away, home]
        board.pop()
    return []


def test_a_won_line_stays_won_and_loses_its_detours() -> None:
    game = Game.deal("yukon", seed=3)
    result = yukon.solve(game, time_limit=30)
    assert result.status == "won"
    board, line = game.copy(), []
    for move in result.moves:  # a group sent away and straight home before every move of the line
        line += round_trip(board)
        board.push(move)
        line.append(move)
    assert len(line) > len(result.moves) + 20
    tidy = tidy_line(game, line)
    won = game.copy()
    for move in tidy:
        won.push(move)
    assert won.is_won() and len(tidy) <= len(result.moves)


@pytest.mark.parametrize("how", ["deadline", "stop"])
def test_out_of_time_or_stopped_the_rest_stays_as_it_was(how: str) -> None:
    start = Game.deal("milligan-yukon", seed=4)
    end = start.copy()
    line = wander(end, random.Random(1), 300)
    stop = threading.Event()
    stop.set()
    began = time.perf_counter()
    tidy = tidy_line(start, line, deadline=began if how == "deadline" else None, stop=stop if how == "stop" else None)
    assert tidy == line and time.perf_counter() - began < 0.5  # (replaying the line once: milliseconds)
