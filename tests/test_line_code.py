"""yukon.line_code: a line of moves as indices among each position's legal moves, in base64."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yukon import Game, IllegalMoveError, YukonError
from yukon.line_code import InvalidLineCodeError, decode, encode, ordered_moves
from yukon.notation import parse_move_text


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["yukon", "russian", "alaska", "australian", "milligan-yukon"]),
       seed=st.integers(0, 2**64 - 1), picks=st.lists(st.integers(0, 10**6), max_size=40))
def test_any_line_round_trips(variant: str, seed: int, picks: list[int]) -> None:
    """Random legal play from any deal: decoding the code gives the same moves, and the start is unchanged."""
    game = Game.deal(variant, seed=seed)
    start = game.to_text()
    board, line = game.copy(), []
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            break
        move = legal[pick % len(legal)]
        board.push(move)
        line.append(move)
    code = encode(game, line)
    assert decode(game, code) == line
    assert game.to_text() == start
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_the_order_is_the_notation_order() -> None:
    game = Game.deal("yukon", seed=3)
    ordered = ordered_moves(game)
    assert [str(m) for m in ordered] == sorted(str(m) for m in game.legal_moves())
    last = ordered[-1]
    assert base64.urlsafe_b64decode(encode(game, [last]) + "==") == bytes([len(ordered) - 1])


def test_an_illegal_move_is_refused_by_the_engine() -> None:
    game = Game.deal("yukon", seed=3)
    with pytest.raises(IllegalMoveError):
        encode(game, [parse_move_text("1:AS>F")])


@pytest.mark.parametrize("code, words", [
    ("***", "base64"),
    ("Zm9vYmFy", "legal moves"),  # b"foobar": indices far beyond the position's moves
    ("_w", "escaped"),  # the escape byte 255 with no index after it
    ("é", "ASCII"),
])
def test_a_bad_code_is_one_clear_error(code: str, words: str) -> None:
    game = Game.deal("yukon", seed=3)
    with pytest.raises(InvalidLineCodeError, match=words) as info:
        decode(game, code)
    assert isinstance(info.value, YukonError)


def test_a_code_is_checked_against_its_own_deal() -> None:
    """The code of deal 1's winning start replayed on deal 2 names moves deal 2 may not have."""
    one, two = Game.deal("russian", seed=1), Game.deal("russian", seed=2)
    line = []
    board = one.copy()
    for _ in range(3):
        move = ordered_moves(board)[-1]
        board.push(move)
        line.append(move)
    code = encode(one, line)
    try:
        other = decode(two, code)
    except InvalidLineCodeError:
        return
    assert other != line  # (when the indices fit, they are other moves)
